# SPDX-License-Identifier: GPL-2.0
#
# Load-time events: the default set (the machine's error tracepoints the
# kernel has), events=, buffer_kb= and triggers=, from the command line
# and from /etc/modprobe.d; bad entries are logged and skipped.  memory_limit_mb=:
# the memory every buffer together may take, and the memory cgroup the
# buffers are charged to.
. ./lib.sh

E=$pp_error_event
TP=$pp_error_tp

# pp_log_since FILE: the kernel log since pp_log_mark, each line with its
# level ("<3>" an error, "<4>" a warning, "<6>" info).
pp_log_since() {
	dmesg -r | tail -n +$((_pp_log_lines + 1)) >"$1"
}

# The default: the machine's error tracepoints, those this kernel has,
# each named after its tracepoint; one it lacks (another architecture's,
# a subsystem not built: the debug kernels have no RAS tracepoints) is
# passed over with an info line, not the error a user's entry gets.
present= absent=
for tp in mce:mce_record ras:mc_event ras:arm_event ras:non_standard_event ras:aer_event; do
	if [ -d "/sys/kernel/tracing/events/${tp%%:*}/${tp#*:}" ]; then
		present="$present ${tp#*:}"
	else
		absent="$absent $tp"
	fi
done
echo "# default events on this kernel:$present; not on it:${absent:- none}"
pp_log_mark
pp_load
check_eq "default: the error tracepoints this kernel has" \
	"$(printf '%s\n' $present | sort | xargs)" "$(ls "$PP_SYS/events" | xargs)"
check "default: $E among them" test -e "$PP_SYS/events/$E"
for e in $present; do
	check_eq "default buffer_kb=64: $e" 65536 "$(pp_stat "$e" buffer_size)"
done
pp_log_since /tmp/log
check_no_grep "default: no warning or error about the events in the log" \
	"^<[0-4]>.*perf_persistent: events" /tmp/log
if [ -n "$absent" ]; then
	for tp in $absent; do
		check_grep "default: $tp, not on this kernel, is said at info level" \
			"^<6>.*perf_persistent: events: $tp: not on this kernel, not recorded$" /tmp/log
	done
else
	skip "default: a tracepoint not on this kernel is said at info level" "this kernel has them all"
fi
pp_unload
# The same tracepoint named by the user: an error.
if [ -n "$absent" ]; then
	set -- $absent
	pp_log_mark
	pp_load "events=$1"
	pp_log_since /tmp/log
	check_grep "events=$1, not on this kernel: an error, as for any entry of the user's" \
		"^<3>.*perf_persistent: events: no tracepoint $1 \(-2\); skipped$" /tmp/log
	pp_unload
else
	skip "events= naming a default not on this kernel: an error" "this kernel has them all"
fi

# "?system:name": only if this kernel has it, quietly passed over if not;
# the other entries are created.
pp_log_mark
pp_load "events=?pp_none:pp_none,?sched:sched_switch/16K"
pp_log_since /tmp/log
check_eq "events=?...: the one this kernel has is created" sched_switch \
	"$(ls "$PP_SYS/events" | xargs)"
check_eq "events=?...: with its own size" 16384 "$(pp_stat sched_switch buffer_size)"
check_grep "events=?pp_none:pp_none: said at info level" \
	"^<6>.*perf_persistent: events: pp_none:pp_none: not on this kernel, not recorded$" /tmp/log
check_no_grep "events=?...: no warning or error" "^<[0-4]>.*perf_persistent: events" /tmp/log
pp_unload

# triggers= among the defaults: * is every other one.
n=$(echo $present | wc -w)
pp_load "triggers=$E:*"
if [ "$n" -gt 1 ]; then
	check_match "triggers=$E:* with the defaults: the $((n - 1)) others" \
		"^targets=[0-9]+(,[0-9]+){$((n - 2))} count=1 " "$(pp_stat "$E" trigger)"
else
	skip "triggers=$E:* with the defaults: the others" "no other default on this kernel"
fi
pp_unload

pp_load "events=$TP"
check_eq "events=$TP: that one only" "$E" "$(ls "$PP_SYS/events" | xargs)"
pp_unload

pp_log_mark
pp_load "events=sched:sched_switch, $TP,bogus,nosuch:tp,sched:sched_switch" buffer_kb=16
check_eq "events= creates each listed tracepoint" "$E sched_switch" \
	"$(ls "$PP_SYS/events" | xargs)"
check_eq "buffer_kb=16 applies" 16384 "$(pp_stat sched_switch buffer_size)"
pp_log_since /tmp/log
check_grep "an entry without ':' is logged and skipped" "^<3>.*events: 'bogus' is not system:tracepoint; skipped" /tmp/log
check_grep "an unknown tracepoint is logged as an error and skipped" "^<3>.*events: no tracepoint nosuch:tp .*skipped" /tmp/log
check_grep "a duplicate is logged and skipped" "events: sched:sched_switch: cannot create: -17; skipped" /tmp/log
check "sched_switch records from load" pp_wait_stat sched_switch written 1
pp_unload

pp_load events=
check_eq "events= (empty) creates none" "" "$(ls "$PP_SYS/events")"
pp_unload

# Each load-time event sized apart: system:name/SIZE.  A bad size is logged
# and that entry skipped.
pp_log_mark
pp_load "events=$TP/256K,sched:sched_switch/4M,sched:sched_wakeup/3K,sched:sched_waking/" buffer_kb=16
check_eq "$TP/256K" 262144 "$(pp_stat "$E" buffer_size)"
check_eq "sched:sched_switch/4M" 4194304 "$(pp_stat sched_switch buffer_size)"
check_eq "a bad size: that entry skipped" "$E sched_switch" "$(ls "$PP_SYS/events" | xargs)"
dmesg | tail -n +$((_pp_log_lines + 1)) >/tmp/log
check_grep "3K is logged" "events: sched:sched_wakeup: bad buffer size '3K'" /tmp/log
check_grep "an empty size is logged" "events: sched:sched_waking: bad buffer size ''" /tmp/log
pp_unload

# comm=1: the load-time events store COMM records.  A process named
# pp-named leaves a sched_switch record, then exits: the tool still names
# it so, from the COMM record before the record.
pp_load events=sched:sched_switch comm=1
check_match "comm=1: the events have COMM records" "^comm records: *yes$" \
	"$(perf persistent info sched_switch)"
sh -c 'echo $$ >/tmp/named; printf pp-named >/proc/self/comm; sleep 0.1; true'
np=$(cat /tmp/named)
check_match "comm=1: a task gone is named as it was" "^ *pp-named +$np " \
	"$(perf persistent script sched_switch | grep " $np ")"
pp_unload
pp_load events=sched:sched_switch
check_match "by default no COMM records" "^comm records: *no$" \
	"$(perf persistent info sched_switch)"
pp_unload

# triggers=: load-time events freeze each other from load on.
pp_log_mark
pp_load "events=$TP,sched:sched_switch,sched:sched_wakeup" \
	"triggers=$E:sched_switch+sched_wakeup/after=5,sched_wakeup:*/count=1000000000,nosuch:sched_switch,$E,sched_switch:nosuch,sched_switch:$E/count=x,sched_switch:$E/when=1"
sw=$(pp_stat sched_switch id)
wk=$(pp_stat sched_wakeup id)
check_eq "triggers=: SOURCE:T1+T2/after=M" "targets=$sw,$wk count=1 after=5 fired=0" "$(pp_stat "$E" trigger)"
check_eq "triggers=: * is every other load-time event" \
	"targets=$(pp_stat "$E" id),$sw count=1000000000 after=0 fired=0" "$(pp_stat sched_wakeup trigger)"
check_eq "triggers=: bad entries set nothing" "" "$(pp_stat sched_switch trigger)"
dmesg | tail -n +$((_pp_log_lines + 1)) >/tmp/log
check_grep "an unknown source is logged" "triggers: no event 'nosuch'; skipped" /tmp/log
check_grep "an entry without targets is logged" "triggers: '$E' is not SOURCE:TARGET" /tmp/log
check_grep "an unknown target is logged" "triggers: no event 'nosuch'; skipped" /tmp/log
check_grep "a bad count is logged" "triggers: sched_switch: bad option 'count=x'" /tmp/log
check_grep "an unknown option is logged" "triggers: sched_switch: bad option 'when=1'" /tmp/log
pp_inject_error 0
check "an error freezes sched_switch" pp_wait_stat sched_switch freezes 1
check "... and sched_wakeup" pp_wait_stat sched_wakeup freezes 1
check_eq "... after their 5 more records" "detached frozen" "$(pp_stat sched_switch state)"
pp_unload
mkdir -p /etc/modprobe.d
echo "options perf_persistent events=$TP,sched:sched_switch triggers=$E:sched_switch" \
	>/etc/modprobe.d/pp.conf
pp_load
check_eq "triggers= from /etc/modprobe.d" "targets=$(pp_stat sched_switch id) count=1 after=0 fired=0" \
	"$(pp_stat "$E" trigger)"
rm /etc/modprobe.d/pp.conf
pp_unload

pp_load buffer_kb=12
check_eq "buffer_kb not a power-of-two of pages: default kept" 65536 "$(pp_stat "$E" buffer_size)"
pp_unload

# The memory limit: a quarter of RAM by default, in the parameter's file;
# the PMU's memory_used counts every buffer against it.
mem_mb=$(awk '$1 == "MemTotal:" { print int($2 / 1024) }' /proc/meminfo)
pp_load events=
limit=$(cat /sys/module/perf_persistent/parameters/memory_limit_mb)
check "default memory_limit_mb is a quarter of RAM ($limit of $mem_mb MiB)" \
	test "$limit" -ge $((mem_mb / 4 - 1)) -a "$limit" -le $((mem_mb / 4 + 1))
check_eq "nothing used without events" 0 "$(cat "$PP_SYS/memory_used")"
pp-ctl create a sw=1 buffer=65536 detached >/dev/null
used=$(cat "$PP_SYS/memory_used")
ncpus=$(grep -c ^processor /proc/cpuinfo)
check "memory_used counts each CPU's buffer ($used bytes)" \
	test "$used" -ge $((ncpus * (65536 + 4096)))
pp_unload

# Past the limit: ENOSPC, nothing left behind, what is recorded kept.
pp_load events= memory_limit_mb=1
pp-ctl create small sw=1 buffer=65536 detached >/dev/null
pp_wait_stat small written 1
used=$(cat "$PP_SYS/memory_used")
pp-ctl create big tp=sched:sched_switch buffer=1048576 detached >/tmp/out
check_grep "a buffer past memory_limit_mb -> ENOSPC" "^create big: ENOSPC$" /tmp/out
check "and no event is left" test ! -e "$PP_SYS/events/big"
check_eq "nor memory" "$used" "$(cat "$PP_SYS/memory_used")"
check "the other event records on" pp_wait_stat small written 2
pp-ctl destroy small >/dev/null
# The buffers go once the handlers still running have finished.
check "destroy gives the memory back" pp_wait_memory_used 0
pp_unload

# Charged to the creator's memory cgroup: it grows by the buffers, and its
# limit refuses them (ENOMEM) with nothing left behind.
cg=/sys/fs/cgroup
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
echo +memory >$cg/cgroup.subtree_control
mkdir -p $cg/pp
pp_load events=
before=$(cat $cg/pp/memory.current)
sh -c "echo \$\$ >$cg/pp/cgroup.procs; exec pp-ctl create charged sw=1 buffer=1048576 detached" >/dev/null
grown=$(($(cat $cg/pp/memory.current) - before))
check "the creator's memory cgroup pays for the buffers ($grown bytes)" \
	test "$grown" -ge $((ncpus * 1048576))
# A limit 3 MiB above what the cgroup holds now: room for the process,
# not for 4 MiB a CPU (a fixed 4 MiB was below what "charged" alone
# holds on a 4-CPU guest, and the shell was OOM-killed).
echo $(($(cat $cg/pp/memory.current) + 3 * 1048576)) >$cg/pp/memory.max
sh -c "echo \$\$ >$cg/pp/cgroup.procs; exec pp-ctl create over sw=1 buffer=4194304 detached" >/tmp/out
check_grep "past the cgroup's memory.max -> ENOMEM" "^create over: ENOMEM$" /tmp/out
check "and no event is left" test ! -e "$PP_SYS/events/over"
pp-ctl destroy charged >/dev/null
pp_unload
rmdir $cg/pp

mkdir -p /etc/modprobe.d
echo "options perf_persistent events=sched:sched_wakeup buffer_kb=8" >/etc/modprobe.d/pp.conf
pp_load
check_eq "options from /etc/modprobe.d" "sched_wakeup" "$(ls "$PP_SYS/events" | xargs)"
check_eq "buffer_kb from /etc/modprobe.d" 8192 "$(pp_stat sched_wakeup buffer_size)"
rm /etc/modprobe.d/pp.conf
pp_unload

done_testing
