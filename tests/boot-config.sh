# SPDX-License-Identifier: GPL-2.0
#
# Run by scripts/boot-check in a guest booted with the repo's etc/ in its
# /etc and the module not loaded by vm-run: what the boot-time
# configuration of README's "Installing on a real machine" gives.
. ./lib.sh

PP=$(perf --exec-path)/perf-persistent

check "modules-load.d loaded the module at boot" pp_loaded
check_eq "with modprobe.d's events=" "?mce:mce_record/256K,?ras:mc_event/64K,?ras:arm_event/64K,?ras:non_standard_event/64K,?ras:aer_event/64K,sched:sched_switch/4M" \
	"$(cat /sys/module/perf_persistent/parameters/events 2>/dev/null)"
check_eq "mce_record: 256 KiB per CPU" 262144 "$(pp_stat mce_record buffer_size)"
# The "?" entries: those this kernel has, the others passed over quietly.
for e in mc_event arm_event non_standard_event aer_event; do
	if [ -d "/sys/kernel/tracing/events/ras/$e" ]; then
		check_eq "$e: 64 KiB per CPU" 65536 "$(pp_stat "$e" buffer_size)"
	else
		check "$e: not on this kernel, not created" test ! -e "$PP_SYS/events/$e"
	fi
done
check_eq "sched_switch: 4 MiB per CPU" 4194304 "$(pp_stat sched_switch buffer_size)"
check "sched_switch records from boot on" pp_wait_stat sched_switch written 1
check_eq "with modprobe.d's comm=1" Y "$(cat /sys/module/perf_persistent/parameters/comm 2>/dev/null)"
# A shell renames itself between two context switches and exits: the
# records name it as it was then, though /proc knows neither name.
sh -c 'echo $$ >/tmp/renamed; printf alpha >/proc/self/comm; sleep 0.1
	printf beta >/proc/self/comm; sleep 0.1; true'
rp=$(cat /tmp/renamed)
check_eq "sched_switch names an exited task as it was when recorded" "alpha beta " \
	"$($PP script sched_switch | awk -v p="$rp" '$2 == p { print $1 }' | uniq |
		grep -x -e alpha -e beta | tr '\n' ' ')"
pp_inject_mce 0 0xbe00000000800400 2
check "mce_record records" pp_wait_stat mce_record written 1
$PP list >/tmp/list 2>&1
sed 's/^/# /' /tmp/list
check_grep "perf persistent list: mce_record" " mce_record +mce:mce_record +detached +256K " /tmp/list
check_grep "perf persistent list: sched_switch" " sched_switch +sched:sched_switch +detached +4M " /tmp/list
check "the module unloads" pp_unload
check "kernel log clean" pp_log_clean

done_testing
