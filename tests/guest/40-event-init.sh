# SPDX-License-Identifier: GPL-2.0
#
# Opening readers: event_init's ladder, each refusal with its own errno
# (Documentation/pmu.rst), and what it accepts.  pp-open prints the errno
# name or OK.
. ./lib.sh

# One load-time event: id 1.
pp_load "events=$pp_error_tp"

check_eq "reader of $pp_error_event (id 1) on CPU 0 -> OK" OK "$(pp-open --config 1 --cpu 0)"
check_eq "reader with period 1 -> OK" OK "$(pp-open --config 1 --cpu 1 --period 1)"
check_eq "reader in freq mode -> OK" OK "$(pp-open --config 1 --cpu 1 --freq 100)"
check_eq "inherit is accepted (perf sets it on CPU-wide events)" OK "$(pp-open --config 1 --inherit)"
check_eq "nohistory (config1 bit 0) -> OK" OK "$(pp-open --config 1 --config1 1)"
check_eq "unknown id -> ENOENT" ENOENT "$(pp-open --config 99 --cpu 0)"
check_eq "id 0 -> ENOENT" ENOENT "$(pp-open --config 0 --cpu 1)"
check_eq "per-task open (pid 0, cpu 0) -> EINVAL" EINVAL "$(pp-open --config 1 --pid 0 --cpu 0)"
check_eq "per-task open (pid 0, any cpu) -> EINVAL" EINVAL "$(pp-open --config 1 --pid 0 --cpu -1)"
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
check_eq "cgroup reader -> EINVAL" EINVAL "$(pp-open --config 1 --cgroup /sys/fs/cgroup)"
check_eq "config bit outside the id term -> EINVAL" EINVAL "$(pp-open --config 0x100000001)"
check_eq "config1 bit outside nohistory -> EINVAL" EINVAL "$(pp-open --config 1 --config1 2)"
check_eq "config2 set (no term there) -> EINVAL" EINVAL "$(pp-open --config 1 --config2 2)"
check_eq "branch stack sampling -> EOPNOTSUPP" EOPNOTSUPP "$(pp-open --config 1 --branch)"
check_eq "refused opens do not pin the module" 0 "$(cat /sys/module/perf_persistent/refcnt)"

echo 0 >/sys/devices/system/cpu/cpu1/online
check_eq "reader on an offline CPU -> ENODEV" ENODEV "$(pp-open --config 1 --cpu 1)"
echo 1 >/sys/devices/system/cpu/cpu1/online
pp-ctl destroy "$pp_error_event" >/dev/null
check_eq "reader of a destroyed event -> ENOENT" ENOENT "$(pp-open --config 1 --cpu 0)"

# Privilege: CPU-wide readers need what perf's own CPU-wide events need.
echo 2 >/proc/sys/kernel/perf_event_paranoid
pp-ctl create sw sw=3 detached >/dev/null
id=$(pp_stat sw id)
check_eq "as nobody, paranoid 2: EACCES" EACCES "$(setpriv_nobody pp-open --config "$id" --cpu 0)"
echo -1 >/proc/sys/kernel/perf_event_paranoid
check_eq "as nobody, paranoid -1: allowed, as for perf's own" OK "$(setpriv_nobody pp-open --config "$id" --cpu 0)"
echo 3 >/proc/sys/kernel/perf_event_paranoid
pp-ctl destroy sw >/dev/null

check "kernel log clean" pp_log_clean

done_testing
