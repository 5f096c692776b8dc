# SPDX-License-Identifier: GPL-2.0
#
# pp-torture for PP_TORTURE_SECONDS (default: 60 on the debug kernel, 20
# on Debian's) while one process keeps trying rmmod and another cycles every
# CPU but 0 offline and online.
. ./lib.sh

pp_load events=
if [ -e /sys/kernel/debug/kmemleak ]; then
	seconds=${PP_TORTURE_SECONDS:-60}
else
	seconds=${PP_TORTURE_SECONDS:-20}
fi
rm -f /tmp/rmmod-bad

pp-torture -t 4 -d "$seconds" >/tmp/torture 2>&1 &
torture=$!

# Once the torture holds the control device, rmmod must keep failing.
i=0
while ! grep -q '^torture: running' /tmp/torture && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

(while kill -0 $torture 2>/dev/null; do
	if rmmod perf_persistent 2>/dev/null && kill -0 $torture 2>/dev/null; then
		echo "rmmod succeeded while in use" >/tmp/rmmod-bad
		break
	fi
	sleep 0.2
done) &
rmmod_loop=$!

(while kill -0 $torture 2>/dev/null; do
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		echo 0 >"$c" 2>/dev/null
		sleep 0.3
		echo 1 >"$c" 2>/dev/null
	done
done) &
hotplug=$!

wait $torture
rc=$?
wait $rmmod_loop $hotplug
for c in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 >"$c"; done
sed 's/^/# /' /tmp/torture
check "torture passed (seed in its output)" test $rc -eq 0
check_grep "torture did real work" "torture: [1-9][0-9]* operations, [1-9][0-9]* invariant checks, [1-9][0-9]* records read" /tmp/torture
check "rmmod never succeeded while in use" test ! -e /tmp/rmmod-bad
check "all CPUs back online" test "$(cat /sys/devices/system/cpu/online)" = "$(cat /sys/devices/system/cpu/possible)"
check_eq "every event gone" "" "$(ls "$PP_SYS/events" 2>/dev/null)"
check "the module unloads" pp_unload
check "kernel log clean" pp_log_clean

done_testing
