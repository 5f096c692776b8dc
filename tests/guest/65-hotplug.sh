# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug: a CPU going offline keeps its buffer and records; coming
# back online it records again.  Needs at least two CPUs.
. ./lib.sh

E=$pp_error_event
pp_load "events=$pp_error_tp"
cpu=1
online=/sys/devices/system/cpu/cpu$cpu/online
ncpus=$(grep -c ^processor /proc/cpuinfo)
rsize=$(pp_error_record_size)

# cs_written CPU STATE: CPU's written count of cs, if its online is STATE.
cs_written() {
	pp-ctl info cs | sed -n "s/^cpu$1 online=$2 written=\([0-9]*\) .*/\1/p"
}
# cs_grows CPU STATE FROM: cs has written more than FROM records on CPU.
cs_grows() {
	[ "$(cs_written "$1" "$2")" -gt "$3" ] 2>/dev/null
}

pp-ctl create cs sw=3 detached >/dev/null
pp_inject_error $cpu
check "error recorded on CPU $cpu" pp_wait_stat "$E" written 1
check "context switches recorded on CPU $cpu" pp_wait_until -- cs_grows $cpu 1 0

echo 0 >$online
check_eq "CPU $cpu offline" 0 "$(cat $online)"
check_eq "cpumask follows" "$(cat /sys/devices/system/cpu/online)" "$(cat "$PP_SYS/cpumask")"
pp-ctl info "$E" >/tmp/before
check_grep "offline CPU: its counter is released" "^cpu$cpu online=0 written=1 " /tmp/before
check_grep "offline CPU: its buffer still holds the record" "^cpu$cpu .* held=$rsize$" /tmp/before
check_grep "offline CPU: the count of the released counter is kept" "^cpu$cpu .* count=1 " /tmp/before
w1=$(cs_written $cpu 0)
# Switches go on on CPU 0 meanwhile; none is recorded for CPU $cpu.
pp_wait_until -- cs_grows 0 1 "$(cs_written 0 1)"
check_eq "offline CPU records nothing" "$w1" "$(cs_written $cpu 0)"

echo 1 >$online
check_eq "CPU $cpu back online" 1 "$(cat $online)"
check_eq "cpumask follows" "$(cat /sys/devices/system/cpu/online)" "$(cat "$PP_SYS/cpumask")"
pp_inject_error $cpu
check "error recorded again after online" pp_wait_stat "$E" written 2
pp-ctl info "$E" >/tmp/after
check_grep "online again, with the old record kept" "^cpu$cpu online=1 written=2 .* held=$((2 * rsize))$" /tmp/after
check_grep "count continues from the released counter's" "^cpu$cpu .* count=2 " /tmp/after
check "software source records on the CPU again" pp_wait_until -- cs_grows $cpu 1 "${w1:-0}"

# An event created while the CPU is offline gets its buffer when it returns.
echo 0 >$online
pp-ctl create late sw=3 detached info late >/tmp/late
check_eq "created with CPU $cpu offline: buffers for online CPUs only" $((ncpus - 1)) "$(pp_field nr_cpus /tmp/late)"
echo 1 >$online
late_records() {
	pp-ctl info late >/tmp/late && grep -qE "^cpu$cpu online=1 written=[1-9]" /tmp/late
}
check "CPU back: it records there" pp_wait_until -- late_records
check_eq "and has a buffer too" "$ncpus" "$(pp_field nr_cpus /tmp/late)"

pp-ctl destroy cs destroy late >/dev/null
check "kernel log clean" pp_log_clean

done_testing
