# SPDX-License-Identifier: GPL-2.0
#
# The PMU's sysfs: type, format/ in perf's spelling, attr_format/ in the
# attr<num>:<mask> spelling, an events/ directory, cpumask; an instance's
# format, the tracefs format crash dumps carry.
. ./lib.sh

pp_load events=

type=$(cat "$PP_SYS/type")
# PERF_TYPE_MAX is 6: dynamic PMU types start there.
check "type is a dynamic PMU type (>= 6): $type" test "$type" -ge 6
check_eq "format/id in perf's spelling" "config:0-31" "$(cat "$PP_SYS/format/id")"
check_eq "attr_format/id in attr<num>:<mask> spelling" "attr1:0-31" \
	"$(cat "$PP_SYS/attr_format/id")"

# perf 6.1 drops the whole PMU on one format file it cannot parse.
bad=
for f in "$PP_SYS"/format/*; do
	grep -qxE 'config[12]?:[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*' "$f" || bad="$bad $f"
done
check_eq "every format/ file is in perf 6.1's grammar" "" "$bad"
bad=
for f in "$PP_SYS"/attr_format/*; do
	grep -qxE 'attr[0-9]+:[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*' "$f" || bad="$bad $f"
done
check_eq "every attr_format/ file is attr<num>:<mask>" "" "$bad"
check_eq "format/ and attr_format/ name the same terms" \
	"$(ls "$PP_SYS/format")" "$(ls "$PP_SYS/attr_format")"

check "events/ is a directory" test -d "$PP_SYS/events"
check_eq "events/ is empty with no persistent events" "" "$(ls "$PP_SYS/events")"
check_eq "cpumask lists all online CPUs" "$(cat /sys/devices/system/cpu/online)" \
	"$(cat "$PP_SYS/cpumask")"
check "sysfs files are read-only" sh -c "! echo 1 > $PP_SYS/format/id"

# instances/NAME/format: what crash dumps carry of a tracepoint source is
# tracefs's own format file, to the byte (fixed arrays, __data_loc strings,
# signed fields, long print formats, dynamic arrays); empty for a
# tracepoint whose fields are defined by code, and for other sources.  The
# machine's error tracepoints, those this kernel has, are among them: the
# load-time events' formats are in every crash dump.
T=/sys/kernel/tracing/events
for tp in mce:mce_record ras:mc_event ras:arm_event ras:non_standard_event ras:aer_event \
	sched:sched_switch sched:sched_wakeup irq:irq_handler_entry \
	sched:sched_process_exec timer:hrtimer_expire_entry; do
	if [ ! -d "$T/${tp%%:*}/${tp#*:}" ]; then
		skip "instances/f/format of $tp is tracefs's" "no $tp in this kernel"
		continue
	fi
	pp-ctl create f tp="$tp" buffer=4096 detached >/dev/null
	check "instances/f/format of $tp is tracefs's" \
		cmp "$PP_SYS/instances/f/format" "$T/${tp%%:*}/${tp#*:}/format"
	check_eq "instances/f/tracepoint names $tp" "$tp" "$(pp_stat f tracepoint)"
	pp-ctl destroy f >/dev/null
done
if [ -d "$T/syscalls/sys_enter_openat" ]; then
	pp-ctl create f tp=syscalls:sys_enter_openat buffer=4096 detached >/dev/null
	# sysfs gives every attribute a size: read it.
	check "a syscall tracepoint (fields defined by code): no format" \
		sh -c "test -e $PP_SYS/instances/f/format && test -z \"\$(cat $PP_SYS/instances/f/format)\""
	check_eq "... and its name" syscalls:sys_enter_openat "$(pp_stat f tracepoint)"
	pp-ctl destroy f >/dev/null
else
	skip "a syscall tracepoint (fields defined by code): no format" \
		"no syscall tracepoints in this kernel"
	skip "... and its name" "no syscall tracepoints in this kernel"
fi
pp-ctl create f sw=3 buffer=4096 detached >/dev/null
check_eq "a software event: no format" "" "$(cat "$PP_SYS/instances/f/format")"
check_eq "... and no tracepoint" "" "$(pp_stat f tracepoint)"
check_eq "created without CRASH_DUMP: not in crash dumps" 0 "$(pp_stat f crash_dump)"
pp-ctl destroy f >/dev/null

done_testing
