# SPDX-License-Identifier: GPL-2.0
#
# tests/capture.sh - the module in a kdump capture kernel.  Run by
# scripts/previous-check in three runs that share their RAM (vm-run
# --ram-file), the module loaded at each with the same region= and
# events=sched:sched_switch, as systemd-modules-load loads it in Debian's
# capture boot (kdump-tools passes the crashed kernel's command line on):
#   PHASE=record   a kernel that records: tasks named MARK1 switch, and
#                  sched_switch keeps them in the region
#   PHASE=capture  the same memory booted as a capture kernel
#                  (elfcorehdr= on the command line, which is what makes
#                  is_kdump_kernel() true; it points at a reserved page
#                  with no ELF header, so there is no /proc/vmcore): the
#                  module shows the record run's history read-only,
#                  creates no event, keeps nothing; tasks named MARK2
#                  switch
#   PHASE=after    a kernel that records again: its previous boot is the
#                  record run's, MARK1 there and MARK2 not
# LABEL=1: the region is a reserve_mem label, which a capture kernel does
# not read at all (its range is the capture kernel's own memory).
. ./lib.sh

# switch NAME: a task called NAME switches out and in a few times.
switch() {
	cp /bin/sleep "/tmp/$1"
	for i in 1 2 3 4 5; do "/tmp/$1" 0.02; done
}

case "$PHASE" in
record)
	echo "boot id: $(cat /proc/sys/kernel/random/boot_id)"
	# Where the region is: the host keeps the capture run off it.
	dmesg | grep -o 'perf_persistent: region: [0-9]* KiB at 0x[0-9a-f]*'
	switch "$MARK1"
	# Paused: what follows (an RT kernel's printing threads) must not
	# overwrite the mark's records before the run ends.
	perf persistent pause sched_switch >/dev/null
	check "sched_switch recorded $MARK1" \
		sh -c "perf persistent script sched_switch | grep -q '$MARK1'"
	check "kept in the region" sh -c "perf persistent list | grep ' sched_switch ' | grep -q kept"
	;;
capture)
	check "is a capture kernel (Kdump: vmcore not initialized)" \
		sh -c "dmesg | grep -q 'Kdump: vmcore not initialized'"
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
		perf persistent resume previous.sched_switch >/tmp/out 2>&1
		check_eq "it is read-only: resume refused" 1 $?
		check "... as a previous boot's event (EROFS)" grep -q "a previous boot's records are read-only" /tmp/out
	fi
	perf persistent create -d --keep-across-reboot -n k sched:sched_switch >/tmp/out 2>&1
	check_eq "an event kept across the reboot refused" 1 $?
	check "... saying this is a kdump capture kernel" \
		grep -q "this is a kdump capture kernel, whose module keeps nothing in the region" /tmp/out
	switch "$MARK2"
	;;
after)
	echo "previous boot id: $(cat "$PP_SYS/previous_boot/boot_id")"
	perf persistent script --previous sched_switch >/tmp/prev
	check "the previous boot's history has $MARK1" grep -q "$MARK1" /tmp/prev
	check "... and nothing of the capture kernel ($MARK2)" sh -c "! grep -q '$MARK2' /tmp/prev"
	;;
esac
check "kernel log clean" pp_log_clean
done_testing
