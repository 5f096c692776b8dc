# SPDX-License-Identifier: GPL-2.0
#
# The direct path's probes under a syscall-heavy load on every CPU, while
# every CPU but 0 goes offline and online.  From 6.13 the syscall
# tracepoints call their probes preemptible, from 7.0 every tracepoint
# does (module/compat.h): the probe must keep preemption off for the whole
# record, or a task moved to another CPU halfway through would write into
# that CPU's buffer.  make check's debug-a lane runs this on the debug kernel
# of 7.3, with DEBUG_PREEMPT (which reports a this_cpu access from
# preemptible code), KASAN and lockdep.  Every record read back must be
# whole, on the buffer of the CPU it names, and in time order; the kernel
# log must stay clean.
. ./lib.sh

pp_load events=
ncpus=$(grep -c ^processor /proc/cpuinfo)
# 1 MiB a CPU: the load wraps them (records overwritten, none torn).
size=1048576
tps="raw_syscalls:sys_enter raw_syscalls:sys_exit sched:sched_switch"
n=0
for tp in $tps; do
	n=$((n + 1))
	pp-ctl create "l$n" "tp=$tp" buffer=$size detached >/tmp/out
	check_grep "$tp: created" ': OK' /tmp/out
	check_eq "$tp: on the direct path" direct "$(pp_stat "l$n" path)"
done

pp_log_mark
# CPU hotplug for as long as the load runs.
rm -f /tmp/load-done
(while [ ! -e /tmp/load-done ]; do
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		echo 0 >"$c" 2>/dev/null
		echo 1 >"$c" 2>/dev/null
	done
done) &
hotplug=$!
# Two processes a CPU, each 20000 system calls.
pp-sysload $((ncpus * 2)) ${PP_SYSLOAD_CALLS:-20000} >/tmp/load 2>&1
rc=$?
: >/tmp/load-done
wait $hotplug
for c in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 >"$c" 2>/dev/null; done
check "the load ran to its end" test "$rc" = 0
check_grep "every load process finished" 'done$' /tmp/load

# Each buffer, read through its mapping with the event paused: every
# record decodes (pp-mmap says "bad record" at the first that does not),
# names the buffer's CPU, and is no newer than the one after it.
n=0
for tp in $tps; do
	n=$((n + 1))
	id=$(pp_stat "l$n" id)
	total=0 bad=0
	cpu=0
	while [ $cpu -lt "$ncpus" ]; do
		pp-mmap "$id" $cpu pause >/tmp/m
		records=$(sed -n 's/^records=\([0-9]*\) .*/\1/p' /tmp/m)
		total=$((total + ${records:-0}))
		awk -v cpu=$cpu '
			/^bad record/ { bad++ }
			/^record / {
				split($3, c, "="); split($2, t, "=")
				if (c[2] != cpu) wrong++
				if (seen && t[2] + 0 > newer) unordered++
				newer = t[2] + 0; seen = 1
			}
			END { exit (bad + wrong + unordered) ? 1 : 0 }' /tmp/m || {
			bad=$((bad + 1))
			grep -m3 -e '^bad' /tmp/m | sed 's/^/# /'
		}
		cpu=$((cpu + 1))
	done
	check "$tp: every record whole, on its own CPU's buffer, in time order" test "$bad" = 0
	check "$tp: records held ($total)" test "$total" -gt 0
done

check "kernel log clean" pp_log_clean
pp-ctl destroy l1 destroy l2 destroy l3 >/dev/null
pp_unload
check "the module unloads" test ! -d /sys/module/perf_persistent
done_testing
