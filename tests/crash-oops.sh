# SPDX-License-Identifier: GPL-2.0
#
# Run by scripts/crash-check: the crash dump's oops path.  Known records
# (two injected machine errors), what perf persistent script prints of
# them, then an oops (the lab's pp_oops module: BUG() in a write) that the
# lab's oops=panic turns into a panic.  The dump must come from the oops,
# before the panic, and only once.
. ./lib.sh

echo "==== error event $pp_error_event"

modprobe pp_oops || exit 1
pp_inject_error 0 0xbe00000000800400 2
pp_inject_error 1 0x9c00000000010151 5
pp_wait_stat $pp_error_event written 2
perf persistent pause $pp_error_event >/dev/null
echo "==== script $pp_error_event"
perf persistent script $pp_error_event
echo "==== crash"
pp_console_drain
echo 1 >/sys/kernel/debug/pp_oops
