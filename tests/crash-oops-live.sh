# SPDX-License-Identifier: GPL-2.0
#
# Run by scripts/crash-check with vm-run --expect-oops: an oops that the
# kernel survives (panic_on_oops 0, Debian's default).  Known records (two
# injected machine errors) and what perf persistent script prints of them;
# then the lab's pp_oops module oopses a task (BUG() in a write).  The die
# notifier dumps once, with the reason "oops"; a second oops does not dump
# again; the module goes on recording, and unloads.  Prints TAP; the host
# decodes the dump from the console and compares it with the script.
. ./lib.sh

pp_oops_records || exit 1
echo "==== oops"
perf persistent resume $pp_error_event >/dev/null
pp_console_drain
# The writer is killed by the oops; the shell here goes on.
sh -c 'echo 1 >/sys/kernel/debug/pp_oops'
rc=$?
dmesg >/tmp/log
check "the oops killed its task (status $rc), and the kernel went on" \
	test "$rc" -gt 128 -a "$(grep -c 'pp_oops: oops on request' /tmp/log)" = 1
check_eq "the die notifier dumped once" 1 "$(grep -c 'ppdump 0 B 1 ' /tmp/log)"
check_grep "... for the oops" 'ppdump 0 B 1 oops$' /tmp/log
check_grep "... to its end" 'ppdump [0-9]+ Z [0-9]+$' /tmp/log
sh -c 'echo 1 >/sys/kernel/debug/pp_oops'
dmesg >/tmp/log
check_eq "a second oops: two oopses in the log" 2 \
	"$(grep -c 'pp_oops: oops on request' /tmp/log)"
check_eq "... and no second dump" 1 "$(grep -c 'ppdump 0 B 1 ' /tmp/log)"
pp_inject_error 0 0xbe00000000800400 3
check "the event records on after the oopses" \
	pp_wait_stat $pp_error_event written 3
check "the module unloads" pp_unload
done_testing
