# SPDX-License-Identifier: GPL-2.0
#
# Every CPU but 0 offline and online repeatedly while events record and
# readers are open: recording goes on, offline CPUs' buffers stay readable,
# the readers end normally.
. ./lib.sh

pp_load events=
rounds=${PP_HOTPLUG_ROUNDS:-5}
pp-ctl create flood sw=0 period=200000 buffer=16384 detached \
	create sw tp=sched:sched_switch detached >/dev/null
flood=$(pp_stat flood id)
perf record -a -o /tmp/hp.data -e persistent/flood/ -e persistent/sw/ -- sleep 600 >/tmp/hp.out 2>&1 &
perf_pid=$!
# perf_event_open() on an offline CPU is ENODEV: no CPU goes down before
# perf reads both events on every CPU.
ncpus=$(grep -c ^processor /proc/cpuinfo)
{ pp_wait_readers flood "$ncpus" && pp_wait_readers sw "$ncpus"; } ||
	echo "# perf record did not enable its readers"

ok_offline=0 bad_offline=0 stalled=0
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	for online in /sys/devices/system/cpu/cpu[1-9]*/online; do
		cpu=${online#/sys/devices/system/cpu/cpu}
		cpu=${cpu%/online}
		before=$(pp-ctl info flood | sed -n 's/^cpu0 online=1 written=\([0-9]*\) .*/\1/p')
		echo 0 >"$online" || { bad_offline=$((bad_offline + 1)); continue; }
		if pp-mmap "$flood" "$cpu" | grep -q '^records=[1-9]'; then
			ok_offline=$((ok_offline + 1))
		else
			bad_offline=$((bad_offline + 1))
		fi
		echo 1 >"$online"
		after=$(pp-ctl info flood | sed -n 's/^cpu0 online=1 written=\([0-9]*\) .*/\1/p')
		[ "${after:-0}" -gt "${before:-0}" ] || stalled=$((stalled + 1))
	done
done
check "offline CPUs' buffers readable, every time ($ok_offline)" test "$bad_offline" -eq 0 -a "$ok_offline" -gt 0
check_eq "CPU 0 kept recording across every cycle" 0 "$stalled"
check_eq "all CPUs online again" "$(cat /sys/devices/system/cpu/possible)" "$(cat /sys/devices/system/cpu/online)"
# cpu_written CPU FILE: CPU's written count in pp-ctl info output, if online.
cpu_written() {
	sed -n "s/^cpu$1 online=1 written=\([0-9]*\) .*/\1/p" "$2"
}
# Every CPU's counter is back (the sync work recreates them after online).
records_again() {
	pp-ctl info flood >/tmp/info
	for cpu in $(seq 0 $((ncpus - 1))); do
		# No line in info0: its counter was not back yet (count from 0).
		w0=$(cpu_written "$cpu" /tmp/info0)
		[ "$(cpu_written "$cpu" /tmp/info)" -gt "${w0:-0}" ] 2>/dev/null ||
			return 1
	done
}
pp-ctl info flood >/tmp/info0
check "every CPU records again" pp_wait_until -- records_again
kill -INT $perf_pid
wait $perf_pid
check_grep "the reader (perf record) ends normally" "Captured and wrote .* samples" /tmp/hp.out
check_no_grep "without errors" "rror|Segmentation|Aborted" /tmp/hp.out
pp-ctl destroy flood destroy sw >/dev/null
check "kernel log clean" pp_log_clean

done_testing
