# SPDX-License-Identifier: GPL-2.0
#
# Run by scripts/crash-check: the crash dump's oops path.  Known records
# (two injected machine errors), what perf persistent script prints of
# them, then an oops (the lab's pp_oops module: BUG() in a write) that the
# lab's oops=panic turns into a panic.  The dump must come from the oops,
# before the panic, and only once.
. ./lib.sh

pp_oops_records || exit 1
echo "==== crash"
pp_console_drain
echo 1 >/sys/kernel/debug/pp_oops
