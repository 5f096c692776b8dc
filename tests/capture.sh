# SPDX-License-Identifier: GPL-2.0
#
# tests/capture.sh - the module in a kdump capture kernel.  Run by
# scripts/previous-check in two runs that share their RAM (vm-run
# --ram-file), the module loaded at each boot with the same region= and
# events=sched:sched_switch, as systemd-modules-load loads it in Debian's
# capture boot (kdump-tools passes the crashed kernel's command line on):
#   PHASE=crash (vm-run --kdump), two boots:
#     record    a kernel that records: tasks named MARK1 switch, and
#               sched_switch keeps them in the region; it loads the crash
#               kernel (pp_kdump_load) and crashes (SysRq-c)
#     capture   the capture kernel (it has /proc/vmcore): the module
#               shows the crashed kernel's history read-only (LABEL=1:
#               it does not read a reserve_mem range, its own memory),
#               creates no event, keeps nothing; tasks named MARK2 switch
#   PHASE=after    a kernel that records again, booted with the memory
#               the capture kernel left: its previous boot is the crashed
#               kernel's, MARK1 there and MARK2 not
. ./lib.sh

# switch NAME: a task called NAME switches out and in a few times, on CPU
# 0: the capture kernel boots with nr_cpus=1 (kdump-tools' default), and
# shows the crashed kernel's CPU 0 alone (the other CPUs' buffers are
# reported absent; the next boot shows them all).
switch() {
	cp /bin/sleep "/tmp/$1"
	for i in 1 2 3 4 5; do taskset 0x1 "/tmp/$1" 0.02 2>/dev/null; done
}

step=$PHASE
[ "$PHASE" != crash ] || [ ! -e /proc/vmcore ] || step=capture
[ "$PHASE" != crash ] || [ -e /proc/vmcore ] || step=record
echo "==== $step"
case "$step" in
record)
	echo "boot id: $(cat /proc/sys/kernel/random/boot_id)"
	switch "$MARK1"
	# Paused: what follows (an RT kernel's printing threads) must not
	# overwrite the mark's records before the crash.
	perf persistent pause sched_switch >/dev/null
	check "sched_switch recorded $MARK1" \
		sh -c "perf persistent script sched_switch | grep -q '$MARK1'"
	check "kept in the region" sh -c "perf persistent list | grep ' sched_switch ' | grep -q kept"
	check "the crash kernel loaded (kexec_file_load)" pp_kdump_load
	check "kernel log clean" pp_log_clean
	pp_console_drain
	echo c >/proc/sysrq-trigger
	;;
capture)
	check "the capture kernel has /proc/vmcore" test -s /proc/vmcore
	dmesg | grep -o 'perf_persistent: kdump capture kernel: .*'
	check_eq "no event created at load (events= left to kdump_events=Y)" "" \
		"$(perf persistent list | grep -v previous | sed 1d)"
	if [ "${LABEL:-0}" = 1 ]; then
		check "the reserve_mem range not read, and said so" \
			sh -c "dmesg | grep -q 'kdump capture kernel: region=$REGION is this kernel.s reserve_mem range, not the crashed kernel.s: not read'"
		check "no previous boot shown" test ! -e "$PP_SYS/previous_boot/boot_id"
	else
		check "the region read, not taken, and said so" \
			sh -c "dmesg | grep -q 'kdump capture kernel: the region is read, not taken'"
		check "the crashed kernel's history shown: $MARK1" \
			sh -c "perf persistent script --previous sched_switch | grep -q '$MARK1'"
		check "... its CPU 1 reported absent (nr_cpus=1)" \
			grep -q '^1 absent ' "$PP_SYS/instances/previous.sched_switch/found"
		perf persistent resume previous.sched_switch >/tmp/out 2>&1
		check_eq "it is read-only: resume refused" 1 $?
		check "... as a previous boot's event (EROFS)" grep -q "a previous boot's records are read-only" /tmp/out
		perf persistent archive -d /tmp/arch --no-journal >/tmp/out 2>&1
		check_eq "archive: exit 0" 0 $?
		check "... leaves it to the next boot, and says so" \
			grep -q "a kdump capture kernel: the next boot archives the crashed kernel's history whole" /tmp/out
		check "... writing nothing" test ! -e /tmp/arch
	fi
	perf persistent create -d --keep-across-reboot -n k sched:sched_switch >/tmp/out 2>&1
	check_eq "an event kept across the reboot refused" 1 $?
	check "... saying this is a kdump capture kernel" \
		grep -q "this is a kdump capture kernel, whose module keeps nothing in the region" /tmp/out
	switch "$MARK2"
	check "kernel log clean" pp_log_clean
	;;
after)
	echo "previous boot id: $(cat "$PP_SYS/previous_boot/boot_id")"
	echo "previous boot end: $(cat "$PP_SYS/previous_boot/end")"
	perf persistent script --previous sched_switch >/tmp/prev
	check "the previous boot's history has $MARK1" grep -q "$MARK1" /tmp/prev
	check "... and nothing of the capture kernel ($MARK2)" sh -c "! grep -q '$MARK2' /tmp/prev"
	check "kernel log clean" pp_log_clean
	;;
esac
done_testing
