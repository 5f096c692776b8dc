# SPDX-License-Identifier: GPL-2.0
#
# event_init's ladder: each refusal with its own errno (see
# Documentation/pmu.rst).  pp-open prints the errno name or OK.
. ./lib.sh

pp_load events=

check_eq "unknown id -> ENOENT" ENOENT "$(pp-open --config 1 --cpu 0)"
check_eq "id 0 -> ENOENT" ENOENT "$(pp-open --config 0 --cpu 1)"
check_eq "per-task open (pid 0, cpu 0) -> EINVAL" EINVAL "$(pp-open --config 1 --pid 0 --cpu 0)"
check_eq "per-task open (pid 0, any cpu) -> EINVAL" EINVAL "$(pp-open --config 1 --pid 0 --cpu -1)"
check_eq "config bit outside the id term -> EINVAL" EINVAL "$(pp-open --config 0x100000001)"
check_eq "config1 set (no term there) -> EINVAL" EINVAL "$(pp-open --config 1 --config1 1)"
check_eq "config2 set (no term there) -> EINVAL" EINVAL "$(pp-open --config 1 --config2 2)"
check_eq "branch stack sampling -> EOPNOTSUPP" EOPNOTSUPP "$(pp-open --config 1 --branch)"
check_eq "module not pinned by refused opens" 0 "$(cat /sys/module/perf_persistent/refcnt)"

done_testing
