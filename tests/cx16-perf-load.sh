# SPDX-License-Identifier: GPL-2.0
#
# tests/cx16-perf-load.sh [SECONDS] - the load of 90-torture without the
# module, for scripts/cx16-experiment: perf's own cpu-clock events at the
# torture's fastest interrupt rate (a sample every 100 us on every CPU)
# and sched:sched_switch, recorded by perf record -a, while four tasks
# make system calls and allocate (opening seq_files, forking, mapping)
# and every CPU but 0 goes offline and online, as the torture's rmmod and
# hotplug loops do.  Exits 0 if perf record ended well.
seconds=${1:-20}
work="
	p=
	for i in 1 2 3 4; do
		sh -c 'while :; do read l </proc/self/stat; ls /proc >/dev/null; done' &
		p=\"\$p \$!\"
	done
	(end=\$((\$(cut -d. -f1 /proc/uptime) + $seconds))
	while [ \$(cut -d. -f1 /proc/uptime) -lt \$end ]; do
		for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
			echo 0 >\"\$c\" 2>/dev/null; sleep 0.3; echo 1 >\"\$c\" 2>/dev/null
		done
	done)
	kill \$p; wait
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 >\"\$c\"; done"
perf record -a -c 100000 -e cpu-clock -e sched:sched_switch -o /tmp/cx16.data \
	-- sh -c "$work" >/tmp/cx16.out 2>&1
rc=$?
sed 's/^/# /' /tmp/cx16.out
exit $rc
