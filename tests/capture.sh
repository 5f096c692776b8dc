# SPDX-License-Identifier: GPL-2.0
#
# tests/capture.sh - the module in a kdump capture kernel.  Run by
# scripts/previous-check in two runs that share their RAM (vm-run
# --ram-file), the module loaded at each boot with the same region= and
# events=sched:sched_switch, as systemd-modules-load loads it in Debian's
# capture boot (kdump-tools passes the crashed kernel's command line on):
#   PHASE=crash (vm-run --kdump), two boots:
#     record    a kernel that records: tasks named MARK1 switch, and
#               sched_switch keeps them in the region, vsw (no region)
#               in memory; it loads the crash kernel (pp_kdump_load) and
#               crashes (SysRq-c)
#     capture   the capture kernel (it has /proc/vmcore): the module
#               shows the crashed kernel's history read-only (LABEL=1:
#               it does not read a reserve_mem range, its own memory),
#               creates no event, keeps nothing; tasks named MARK2
#               switch.  record and script --vmcore read both events
#               out of /proc/vmcore and out of the dump makedumpfile
#               writes as kdump-tools runs it (-F -c -d 31), flattened
#               and not
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

# vmcore: the crashed kernel's events read out of its dump, in the capture
# kernel, as kdump-tools would save it.
vmcore() {
	perf persistent record --vmcore /proc/vmcore -o /tmp/v.data >/tmp/out 2>&1
	check_eq "record --vmcore /proc/vmcore: exit 0" 0 $?
	sed 's/^/# /' /tmp/out
	check "... found the crashed kernel's anchor (its release, 2 events)" \
		grep -q "^perf persistent: /proc/vmcore: ELF dump of $(uname -r), boot .*: 2 events" /tmp/out
	check "... perf script reads it: vsw (no region) has $MARK1" \
		sh -c "perf script -i /tmp/v.data 2>/dev/null | grep -q '$MARK1'"
	perf persistent script --vmcore /proc/vmcore vsw >/tmp/vsw.elf 2>/tmp/out
	check "script --vmcore /proc/vmcore vsw: $MARK1" grep -q "$MARK1" /tmp/vsw.elf
	check "... and not $MARK2 (the capture kernel's)" sh -c "! grep -q '$MARK2' /tmp/vsw.elf"
	perf persistent script --vmcore /proc/vmcore sched_switch >/tmp/kept.elf 2>/tmp/out
	if grep -q "pages of its buffer are not in the dump" /tmp/out; then
		# x86's kexec_file_load builds the dump from System RAM: a
		# memmap= region is not in it.
		check "the kept event's region is not in the dump: said so" \
			grep -q "it is in the reserved region: the next boot reads it" /tmp/out
	else
		check "the kept event from the dump: $MARK1" grep -q "$MARK1" /tmp/kept.elf
		# previous-check compares it with the next boot's --previous.
		echo "vmcore sched_switch: $(md5sum </tmp/kept.elf | cut -c1-32) $(wc -l </tmp/kept.elf)"
		if [ "${LABEL:-0}" = 0 ]; then
			perf persistent script --previous sched_switch >/tmp/kept.prev
			check "... the same records as script --previous" cmp /tmp/kept.prev /tmp/kept.elf
		fi
	fi
	perf persistent script --vmcore /proc/vmcore nosuch >/tmp/out 2>&1
	check_eq "script --vmcore, an event the dump has not: exit 1" 1 $?
	check "... saying so" grep -q "no event 'nosuch' in the dump" /tmp/out
	perf persistent record --vmcore /proc/vmcore --previous vsw >/tmp/out 2>&1
	check_eq "record --vmcore with --previous: a usage error" 129 $?
	check "... saying so" grep -q -- "--previous and --vmcore exclude each other" /tmp/out
	perf persistent record --vmcore /bin/busybox -o /tmp/x.data >/tmp/out 2>&1
	check_eq "record --vmcore on a file that is no dump: exit 1" 1 $?
	check "... naming it, writing nothing" sh -c "grep -q '/bin/busybox' /tmp/out && test ! -e /tmp/x.data"
	command -v makedumpfile >/dev/null || return 0
	# kdump-tools' own command (kdump-config: MAKEDUMP_ARGS).
	makedumpfile -F -c -d 31 /proc/vmcore >/tmp/dump.flat 2>/tmp/out
	check_eq "makedumpfile -F -c -d 31 /proc/vmcore: exit 0" 0 $?
	echo "# flattened dump: $(wc -c </tmp/dump.flat) bytes"
	perf persistent script --vmcore /tmp/dump.flat vsw >/tmp/vsw.flat 2>/tmp/out
	check "script --vmcore on the flattened dump: the records of /proc/vmcore" \
		cmp /tmp/vsw.elf /tmp/vsw.flat
	check "... said what it read" grep -q "flattened kdump-compressed (zlib) dump" /tmp/out
	makedumpfile -R /tmp/dump.kdump </tmp/dump.flat >/dev/null 2>&1
	rm -f /tmp/dump.flat
	perf persistent script --vmcore /tmp/dump.kdump vsw >/tmp/vsw.kdump 2>/tmp/out
	check "... on it made whole (makedumpfile -R): the same" cmp /tmp/vsw.elf /tmp/vsw.kdump
	rm -f /tmp/dump.kdump
}

step=$PHASE
[ "$PHASE" != crash ] || [ ! -e /proc/vmcore ] || step=capture
[ "$PHASE" != crash ] || [ -e /proc/vmcore ] || step=record
echo "==== $step"
case "$step" in
record)
	echo "boot id: $(cat /proc/sys/kernel/random/boot_id)"
	check "an event without the region: vsw" \
		perf persistent create -d -n vsw sched:sched_switch
	switch "$MARK1"
	# Paused: what follows (an RT kernel's printing threads) must not
	# overwrite the mark's records before the crash.
	perf persistent pause sched_switch >/dev/null
	perf persistent pause vsw >/dev/null
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
	vmcore
	check "kernel log clean" pp_log_clean
	;;
after)
	echo "previous boot id: $(cat "$PP_SYS/previous_boot/boot_id")"
	echo "previous boot end: $(cat "$PP_SYS/previous_boot/end")"
	perf persistent script --previous sched_switch >/tmp/prev
	echo "previous sched_switch: $(md5sum </tmp/prev | cut -c1-32) $(wc -l </tmp/prev)"
	check "the previous boot's history has $MARK1" grep -q "$MARK1" /tmp/prev
	check "... and nothing of the capture kernel ($MARK2)" sh -c "! grep -q '$MARK2' /tmp/prev"
	check "kernel log clean" pp_log_clean
	;;
esac
done_testing
