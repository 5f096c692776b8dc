# SPDX-License-Identifier: GPL-2.0
#
# Run by scripts/crash-check in a guest whose module was loaded with
# comm=1 (COMM records: the dump names tasks as script does): known
# records (three injected MCEs, sched_switch history), what perf persistent
# script prints of them, then a SysRq-c panic.  The host decodes the dump
# from the console log and compares.  Output sections start with "==== ".
. ./lib.sh

echo 8 >/sys/module/perf_persistent/parameters/crash_dump_kb
perf persistent create -d -n sw --crash-dump -m 16K sched:sched_switch >/dev/null
perf persistent create -d -n cs -m 16K context-switches >/dev/null
pp_inject_mce 0 0xbe00000000800400 2
pp_inject_mce 1 0xbe00000000800401 3
pp_inject_mce 0 0x9c00000000010151 4
pp_wait_stat mce_record written 3
pp_wait_stat sw written 500
# Nothing more is stored: the dump holds what script prints now.
perf persistent pause sw mce_record >/dev/null
echo "==== ids mce_record=$(pp_stat mce_record id) sw=$(pp_stat sw id) cs=$(pp_stat cs id)"
echo "==== crash_dump $(pp_stat mce_record crash_dump) $(pp_stat sw crash_dump) $(pp_stat cs crash_dump)"
echo "==== script mce_record"
perf persistent script mce_record
echo "==== json mce_record"
perf persistent script --json mce_record
echo "==== script sw"
perf persistent script sw
echo "==== crash"
pp_console_drain
echo c >/proc/sysrq-trigger
