# SPDX-License-Identifier: GPL-2.0
#
# tests/scribble.sh - a damaged region: run by scripts/previous-check with
# vm-run --no-load --reset-by reboot; the module is loaded here with
# MODARGS (region=) at both boots (on the debug kernel: KASAN, kmemleak,
# lockdep watch the reading).
#
# First boot: two kept events record, pause and print their records
# ("==== script NAME"); then the lab fixture pp_scribble overwrites part
# of the region, as a stray write would: mce_record's descriptor, and the
# middle of the records in CPU 0's buffer of switches; then reboot -f.
# Second boot: TAP.  The module loaded; mce_record was dropped and
# counted; of switches, CPU 0 kept the records newer than the damage and
# said why it stopped; the other CPUs kept theirs whole.  The records
# shown are printed ("==== previous switches") for the host to compare.
# The region is then used again: a new kept event records into it.
. ./lib.sh

# vm-run --no-load: the module loads here, after kmemleak's slate is
# cleared, so that the scan at the end sees what the reading leaked.
km=/sys/kernel/debug/kmemleak
[ -w $km ] || km=
[ -z "$km" ] || { echo scan=off >$km; echo clear >$km; }
modprobe perf_persistent "$MODARGS" || exit 1

if [ -e "$PP_SYS/previous_boot/end" ]; then
	echo "==== previous switches"
	perf persistent script --previous switches
	echo "==== found switches"
	cat "$PP_SYS/instances/previous.switches/found"
	echo "==== checks"
	check_eq "the damaged descriptor was dropped and counted" 1 \
		"$(cat "$PP_SYS/previous_boot/dropped_descriptors")"
	check "... and its event is not shown" \
		test ! -e "$PP_SYS/instances/previous.mce_record"
	# Every reason the walk of a buffer's records can give
	# (module/buffer.h, enum pp_found_stop, SIZE to FIELDS, overrun
	# aside: a writer's reservation, not damage): which one depends on
	# where in a record the damage begins (a header: size, cross or type;
	# a sample's time: time; a RAW size or a name: fields).
	check_grep "CPU 0 stopped at the damage, and says why ($(grep '^0 ' "$PP_SYS/instances/previous.switches/found"))" \
		"^0 (size|cross|type|time|fields) [0-9]+ [1-9][0-9]*$" \
		"$PP_SYS/instances/previous.switches/found"
	check "the other CPU kept its records whole" \
		grep -q "^1 whole " "$PP_SYS/instances/previous.switches/found"
	check_grep "the log says what was dropped and why" \
		"previous boot: descriptor [0-9]+ \\(page [0-9]+\\) dropped: its checksum is wrong" \
		"$(dmesg >/tmp/dm; echo /tmp/dm)"
	# The region serves this boot: a kept event records into it.
	perf persistent create -d --keep-across-reboot -m 16K -n again \
		sched:sched_switch >/dev/null
	pp_wait_stat again written 10
	check_grep "a kept event records into the region again" "kept" \
		"$(perf persistent list >/tmp/pl; echo /tmp/pl)"
	perf persistent destroy again previous.switches >/dev/null
	check "kernel log clean" pp_log_clean
	if [ -n "$km" ]; then
		pp_unload
		# kmemleak reports only objects older than 5 s.
		sleep 6
		echo scan >$km
		check_eq "kmemleak: the reading and the reuse leaked nothing" "" \
			"$(grep -A12 unreferenced $km)"
	fi
	done_testing
	exit
fi

pp_keep_switches 16K || exit 1
echo "==== script switches"
perf persistent script switches

modprobe pp_scribble || exit 1
# mce_record's descriptor: 8 bytes of its name (after magic, sizes, id,
# CPU count and buffer size: 32 bytes in).
desc=$(sed -n 's/^descriptor //p' "$PP_SYS/instances/mce_record/region")
printf '%x 8' $((desc + 32)) >/sys/kernel/debug/pp_scribble || exit 1
# The middle of CPU 0's records of switches: 256 bytes from half-way
# between its head and its tail, more than a record, so that a record's
# header is hit; inside the data area, which does not wrap here.
pp-ctl info switches >/tmp/si
head=$(sed -n 's/^cpu0 .* head=\(-*[0-9]*\) held=.*/\1/p' /tmp/si)
held=$(sed -n 's/^cpu0 .* held=\([0-9]*\)$/\1/p' /tmp/si)
ctl=$(sed -n 's/^cpu0 //p' "$PP_SYS/instances/switches/region")
off=$(((head + held / 2) & (16384 - 1) & ~7))
[ $off -le $((16384 - 256)) ] || off=$((16384 - 256))
printf '%x 256' $((ctl + 4096 + off)) >/sys/kernel/debug/pp_scribble || exit 1
echo "==== reset"
pp_console_drain
reboot -f
while :; do pp_nap 1; done
