# SPDX-License-Identifier: GPL-2.0
#
# The direct path (Documentation/persistent-events.rst): the covered
# tracepoints record through the module's own probe by default, and what
# it records is what perf's path records, byte for byte.  Every covered
# tracepoint gets two events, one forced onto perf's path
# (PERF_PERSISTENT_CREATE_PERF_PATH) created first, one direct; a workload
# makes each fire; pp-same compares the two events' records on every CPU.
# Where a tracepoint calls its probes preemptible, a hit's two records may
# be on two CPUs, or in another order on one: pp-same -m compares those
# by task.
. ./lib.sh

pp_load events=

covered="raw_syscalls:sys_enter raw_syscalls:sys_exit sched:sched_switch
sched:sched_wakeup sched:sched_process_exec sched:sched_process_exit
sched:sched_process_fork irq:irq_handler_entry irq:irq_handler_exit
irq:softirq_entry irq:softirq_exit timer:hrtimer_expire_entry"
# mce_record where there are machine checks (the module has its encoder
# only there).
! pp_have_mce || covered="$covered mce:mce_record"
# non_standard_event where the kernel has the RAS tracepoints, fired by
# the lab's pp_ras module (tests/kmod/pp_ras.c).
ras=0
if [ -d /sys/kernel/tracing/events/ras/non_standard_event ] &&
	modprobe pp_ras 2>/dev/null; then
	ras=1
	covered="$covered ras:non_standard_event"
fi

# Does TP call its probes with preemption enabled, where the task can be
# preempted between perf's probe and the direct one, and move to another
# CPU?  The syscall tracepoints from 6.13 (TRACE_EVENT_SYSCALL), and from
# 7.0, where every tracepoint calls its probes so (under SRCU:
# module/compat.h), the sched_process_* ones too, called by the task,
# and on PREEMPT_RT the softirqs' and the soft hrtimers' expiry, which
# run in threads with preemption on.  The rest are called with preemption
# off: by the scheduler, in interrupts, or (mce_record) by a kworker bound
# to its CPU.
kver=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
rt=0
! uname -v | grep -q PREEMPT_RT || rt=1
preemptible() { # TP
	case $1 in
	raw_syscalls:*) [ "$kver" -ge 6013 ] ;;
	sched:sched_process_*) [ "$kver" -ge 7000 ] ;;
	irq:softirq_* | timer:hrtimer_expire_entry)
		[ "$kver" -ge 7000 ] && [ "$rt" = 1 ] ;;
	*) false ;;
	esac
}

# DETACHED | PERF_PATH
perf_flags=0x5
# 1 MiB per CPU: where a buffer wraps (the debug kernel's busy 4 CPUs),
# pp-same compares from the perf event's oldest record.
size=1048576
n=0
for tp in $covered; do
	n=$((n + 1))
	pp-ctl create "p$n" "tp=$tp" buffer=$size flags=$perf_flags \
		create "d$n" "tp=$tp" buffer=$size detached >/tmp/out
	check_eq "$tp: both created" 2 "$(grep -c ': OK' /tmp/out)"
	check_eq "$tp: direct by default" direct "$(pp_stat "d$n" path)"
	check_eq "$tp: perf with PERF_PATH" perf "$(pp_stat "p$n" path)"
done
pp-ctl info d1 >/tmp/info
check_grep "INFO's state says direct (1 << 6)" "^state=0x[0-9a-f]*[4-7][0-9a-f]$" /tmp/info

# The workload.  exec of a path of about 3 KiB (sched_process_exec's
# filename is a dynamic string), forks and exits, sleeps (hrtimers,
# wakeups, switches), console output (the serial port's interrupt), MCEs.
deep=/tmp/d
i=0
while [ $i -lt 60 ]; do
	deep=$deep/directory-name-of-fifty-characters-to-make-a-long-p
	i=$((i + 1))
done
mkdir -p "$deep"
ln -s /bin/busybox "$deep/true"
for i in 1 2 3 4 5 6 7 8; do
	"$deep/true"
	/bin/true
	sh -c 'exit 3'
	sleep 0.05
	echo "89-direct: serial output $i" >/dev/console
	[ "$ras" = 0 ] || echo "$i" >/sys/kernel/debug/pp_ras/non_standard_event
done
# Short sleeps from two tasks at once: their hrtimers expire where the
# tick can interrupt them between the two probes (on PREEMPT_RT in a
# softirq thread), a nested hit that pp-same pairs (nested=).
for j in 1 2; do
	(k=0; while [ $k -lt 40 ]; do usleep 300; k=$((k + 1)); done) &
done
wait
if pp_have_mce; then
	pp_inject_mce 0
	pp_inject_mce 1 0xbe00000000800400 2
fi

n=0
for tp in $covered; do
	n=$((n + 1))
	check "$tp: the direct event records" pp_wait_stat "d$n" written 1
done

# The direct events stop first, the perf ones after: the perf events'
# windows hold the direct ones'.
n=0
for tp in $covered; do
	n=$((n + 1))
	pp-ctl pause "d$n" >/dev/null
done
n=0
for tp in $covered; do
	n=$((n + 1))
	pp-ctl pause "p$n" >/dev/null
done

n=0
for tp in $covered; do
	n=$((n + 1))
	sys=${tp%%:*}
	name=${tp#*:}
	# A task exiting is switched out while its parent may reap it: the
	# probes, one after the other, can see EXIT_ZOMBIE then EXIT_DEAD
	# (prev_state 0x20, 0x10).
	racy=
	[ "$name" = sched_switch ] && racy=prev_state=0x10/0x20
	moves=
	! preemptible "$tp" || moves=-m
	pp-same $moves "$(pp_stat "p$n" id)" "$(pp_stat "d$n" id)" \
		"/sys/kernel/tracing/events/$sys/$name/format" $racy >/tmp/same 2>&1
	check_grep "$tp: the same records on both paths" " SAME$" /tmp/same ||
		sed 's/^/# /' /tmp/same
	grep "^compared=\|^moved:" /tmp/same | sed "s/^/# $tp: /"
done

# Sources the direct path does not take: perf's path, automatically.
pp-ctl create other tp=sched:sched_migrate_task detached \
	create every2 tp=sched:sched_switch period=2 sample=0x10087 detached \
	create fq tp=sched:sched_switch freq=100 detached \
	create exk tp=sched:sched_switch exclude-kernel detached \
	create per tp=sched:sched_switch period=4 detached >/tmp/out
check_eq "all five created" 5 "$(grep -c ': OK' /tmp/out)"
check_eq "a tracepoint without an encoder: perf" perf "$(pp_stat other path)"
check_eq "every 2nd hit without PERIOD: perf" perf "$(pp_stat every2 path)"
check_eq "a frequency: perf" perf "$(pp_stat fq path)"
check_eq "exclude_kernel: perf" perf "$(pp_stat exk path)"
check_eq "period 4 with PERIOD (every hit, as perf): direct" direct "$(pp_stat per path)"

# A paused event drops each hit once, on either path, also when it
# records COMM records (the hit's COMM record is not a second drop): on
# MCEs, two of which hit exactly.
if pp_have_mce; then
	pp-ctl create pcp tp=mce:mce_record comm flags=$perf_flags \
		create pcd tp=mce:mce_record comm detached pause pcp pause pcd >/tmp/out
	check_eq "paused MCE events with comm created" 2 "$(grep -c '^create.*: OK' /tmp/out)"
	check_eq "with comm: direct" direct "$(pp_stat pcd path)"
	pp_inject_mce 1
	pp_inject_mce 1
	for e in pcp pcd; do
		check "$e: both hits counted" pp_wait_until -- \
			sh -c "pp-ctl info $e | grep -q '^cpu1 .* count=2 '"
		pp-ctl info $e >/tmp/info
		check_grep "$e: paused, each hit dropped once" \
			"^cpu1 online=1 written=0 overwritten=0 dropped=2 " /tmp/info ||
			sed 's/^/# /' /tmp/info
	done
	pp-ctl destroy pcp destroy pcd >/dev/null
else
	skip "paused events drop each hit once, with comm, on both paths" "no machine checks here"
fi

for e in other every2 fq exk per; do
	pp-ctl destroy "$e" >/dev/null
done
n=0
for tp in $covered; do
	n=$((n + 1))
	pp-ctl destroy "p$n" destroy "d$n" >/dev/null
done
check_eq "all destroyed" "" "$(ls "$PP_SYS/events")"
check "kernel log clean" pp_log_clean

# A CPU that comes online without a buffer (the module's memory limit
# refuses all but the first): the probe sees every CPU's hits, and each of
# them there is a loss counted as dropped, where INFO and sysfs show it.
others=$(ls -d /sys/devices/system/cpu/cpu[1-9]* | sed 's|$|/online|')
pp_unload
for f in $others; do echo 0 >"$f"; done
pp_load events= memory_limit_mb=1
pp-ctl create nobuf tp=sched:sched_switch buffer=524288 detached >/dev/null
check_eq "no buffer: the event is on the direct path" direct "$(pp_stat nobuf path)"
for f in $others; do echo 1 >"$f"; done
check "no buffer on the other CPUs: their hits are counted as dropped" \
	pp_wait_stat nobuf dropped 1
pp-ctl destroy nobuf >/dev/null
pp_unload
pp_load events=

done_testing
