# SPDX-License-Identifier: GPL-2.0
#
# Run by scripts/crash-check in a guest whose module was loaded with
# comm=1 (COMM records: the dump names tasks as script does): known
# records (three injected machine errors, sched_switch history), what perf
# persistent script prints of them, then a SysRq-c panic.  The host
# decodes the dump from the console log and compares.  Output sections
# start with "==== "; the first names the load-time event that records
# the errors (mce_record on x86, mc_event on arm64).
. ./lib.sh

echo "==== error event $pp_error_event"

echo 8 >/sys/module/perf_persistent/parameters/crash_dump_kb
perf persistent create -d -n sw --crash-dump -m 16K sched:sched_switch >/dev/null
perf persistent create -d -n cs -m 16K context-switches >/dev/null
pp_inject_error 0 0xbe00000000800400 2
pp_inject_error 1 0xbe00000000800401 3
pp_inject_error 0 0x9c00000000010151 4
pp_wait_stat $pp_error_event written 3
pp_wait_stat sw written 500
# Nothing more is stored: the dump holds what script prints now.
perf persistent pause sw $pp_error_event >/dev/null
echo "==== ids $pp_error_event=$(pp_stat $pp_error_event id) sw=$(pp_stat sw id) cs=$(pp_stat cs id)"
echo "==== crash_dump $(pp_stat $pp_error_event crash_dump) $(pp_stat sw crash_dump) $(pp_stat cs crash_dump)"
echo "==== script $pp_error_event"
perf persistent script $pp_error_event
echo "==== json $pp_error_event"
perf persistent script --json $pp_error_event
echo "==== script sw"
perf persistent script sw
echo "==== crash"
pp_console_drain
echo c >/proc/sysrq-trigger
