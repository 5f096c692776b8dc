# SPDX-License-Identifier: GPL-2.0
#
# Module metadata, load and unload: modinfo, what loading creates, that
# unloading removes all of it, and ten load/unload cycles with a clean log.
. ./lib.sh

modinfo perf_persistent >/tmp/modinfo 2>&1
check_grep "modinfo: description" '^description: +Persistent perf events' /tmp/modinfo
check_grep "modinfo: license GPL" '^license: +GPL$' /tmp/modinfo
check_grep "modinfo: version" '^version: +[0-9]+\.[0-9]+\.[0-9]+$' /tmp/modinfo
check_grep "modinfo: author" '^author: +.+' /tmp/modinfo

pp_log_mark
check "modprobe perf_persistent" pp_load
check "module is live" grep -qx live /sys/module/perf_persistent/initstate
check "PMU device registered" test -d "$PP_SYS"
check_eq "nothing holds the module after load" 0 "$(cat /sys/module/perf_persistent/refcnt)"
check "rmmod perf_persistent" pp_unload
check "module gone after rmmod" test ! -e /sys/module/perf_persistent
check "PMU device gone after rmmod" test ! -e "$PP_SYS"

cycles=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	modprobe perf_persistent || break
	[ -d "$PP_SYS/format" ] || break
	rmmod perf_persistent || break
	[ ! -e "$PP_SYS" ] || break
	cycles=$i
done
check_eq "ten load/unload cycles" 10 "$cycles"
check "kernel log clean over all cycles" pp_log_clean

done_testing
