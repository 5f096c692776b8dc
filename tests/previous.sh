# SPDX-License-Identifier: GPL-2.0
#
# tests/previous.sh - the previous boot's records, read after a reset.  Run
# by scripts/previous-check in every boot of one vm-run, the module loaded
# with region= at each boot; RESETS lists how the boots end, as vm-run's
# --reset-by does ("panic reboot monitor"):
#   panic    SysRq-c, with panic=1
#   reboot   reboot -f: the reboot notifier, no panic path
#   monitor  the host's QEMU monitor resets the guest: no kernel path
#   none     the command ends; with vm-run --ram-file the next run boots
#            with this RAM
# Boot K (1, 2, ...) knows its number from how the boot before it ended
# (previous_boot/end).  Every boot but the last records two MCEs into the
# load-time mce_record and context switches into an event created with
# --keep-across-reboot, pauses both so that nothing changes once they are
# printed, prints them ("==== boot K script NAME") and ends as RESETS
# says.  Every boot but the first prints what it found ("==== boot K
# previous NAME", "==== boot K found NAME", "==== boot K end"); the host
# compares the sections.  The last boot also prints TAP: the verbs and
# errnos of a previous boot's events (Documentation/errors.rst).
. ./lib.sh

set -- ${RESETS:-none}
nresets=$#
boot=1
if [ -e "$PP_SYS/previous_boot/end" ]; then
	end=$(cat "$PP_SYS/previous_boot/end")
	k=2
	for how in "$@"; do
		[ "$how" = monitor ] && how=reset
		[ "$how" = none ] && how=reboot
		[ "$how" = "$end" ] && boot=$k
		k=$((k + 1))
	done
fi
echo "==== boot $boot"
# Where this kernel's text is: the host checks previous_boot/text_delta
# against the boot before (KASLR moves it in the lanes that boot with it).
echo "==== boot $boot printk"
sed -n 's/^\([0-9a-f]*\) T _printk$/\1/p' /proc/kallsyms
if [ "$boot" = 1 ]; then
	echo "==== boot 1 region"
	dmesg | grep -o 'region: no previous boot.*'
fi

if [ "$boot" -gt 1 ]; then
	echo "==== boot $boot end"
	cat "$PP_SYS/previous_boot/end"
	echo "==== boot $boot text_delta"
	cat "$PP_SYS/previous_boot/text_delta"
	echo "==== boot $boot list"
	perf persistent list --previous
	for n in mce_record switches; do
		echo "==== boot $boot previous $n"
		perf persistent script --previous "$n"
		echo "==== boot $boot found $n"
		cat "$PP_SYS/instances/previous.$n/found"
	done
fi

if [ "$boot" -le "$nresets" ]; then
	pp_inject_mce 0 0xbe0000000080040$boot 2
	pp_inject_mce 1 0xbe0000000080041$boot 3
	pp_wait_stat mce_record written 2
	perf persistent create -d --keep-across-reboot -m 4K -n switches \
		sched:sched_switch >/dev/null || exit 1
	# Enough switches to wrap the 4 KiB buffers: overwriting is kept too.
	pp_wait_stat switches overwritten 1
	perf persistent pause mce_record switches >/dev/null
	for n in mce_record switches; do
		echo "==== boot $boot script $n"
		perf persistent script "$n"
	done
	echo "==== boot $boot reset"
	pp_console_drain
	shift $((boot - 1))
	case "$1" in
	panic) echo c >/proc/sysrq-trigger ;;
	reboot) reboot -f ;;
	monitor)
		echo "vm-run: reset me"
		pp_console_drain
		;;
	none) exit 0 ;;
	esac
	# Waiting for the reset; it never comes back here.
	while :; do pp_nap 1; done
fi
[ "$boot" -gt 1 ] || exit 0
# CHECKS=0: the records only (the checks below are the same on every
# kernel; scripts/previous-check runs them on some).
[ "${CHECKS:-1}" = 1 ] || exit 0

echo "==== boot $boot checks"
prev_id() {
	pp_stat "previous.$1" id
}
mce=$(prev_id mce_record)
sw=$(prev_id switches)
check_grep "previous_boot/ gives that boot's kernel release" "^[0-9]+\.[0-9]+" \
	"$PP_SYS/previous_boot/release"
check_grep "previous_boot/ gives that boot's id, not this one's" \
	"^$(grep -v "$(cat /proc/sys/kernel/random/boot_id)" "$PP_SYS/previous_boot/boot_id")$" \
	"$PP_SYS/previous_boot/boot_id"
pp-ctl info mce_record >/tmp/pi
check_eq "a previous boot's name may equal this boot's: INFO by name finds this boot's" \
	"$(pp_stat mce_record id)" "$(pp_field id /tmp/pi)"

# What cannot be done to a previous boot's event.
row E137 EROFS pp-ctl pause "$mce"
row E138 EROFS pp-ctl resume "$mce"
row E139 EROFS pp-ctl detach "$mce"
row E140 EROFS pp-ctl attach "$mce"
row E141 EROFS pp-ctl trigger "$mce" mce_record
row E142 EROFS pp-ctl trigger mce_record "$mce"
row E143 EOPNOTSUPP pp-open --config "$mce" --cpu 0
check_grep "the tool says why it cannot pause one" "read-only" \
	"$(perf persistent pause previous.mce_record 2>/tmp/pe; echo /tmp/pe)"

# Reading it the other ways.
# As many as script printed: both MCEs, or one if CPU 1 is not in this boot.
mces=$(perf persistent script --previous mce_record | grep -c 'MC[23]: be0000000080')
check "the previous boot's MCEs are there ($mces)" test "$mces" -ge 1
perf persistent script --previous --json mce_record >/tmp/pj
check_eq "script --previous --json: one object per record" "$mces" \
	"$(grep -c '"mce:mce_record"' /tmp/pj)"
check "record --previous writes a perf.data" \
	perf persistent record --previous -o /tmp/prev.data mce_record
perf script -i /tmp/prev.data -F event,trace >/tmp/ps 2>/tmp/pse
check_eq "perf script decodes the previous boot's MCEs" "$mces" \
	"$(grep -c 'mce_record:.*MC[23]: be0000000080' /tmp/ps)"

# A name of the other boot only: the tool says where it is and gives the
# command (switches is the previous boot's alone here; now_only this
# boot's alone).
# expect_hint DESC PATTERN COMMAND...: COMMAND fails with exit 1 and says
# PATTERN.
expect_hint() {
	_d=$1 _p=$2
	shift 2
	"$@" >/dev/null 2>/tmp/hint
	_rc=$?
	[ "$_rc" = 1 ] && grep -qE "$_p" /tmp/hint
	check "$_d (exit $_rc: $(cat /tmp/hint))" test $? = 0
}
expect_hint "script NAME of the previous boot only: names script --previous" \
	"no persistent event 'switches' in this boot; the previous boot had one: perf persistent script --previous switches$" \
	perf persistent script switches
expect_hint "... record: record --previous" \
	"the previous boot had one: perf persistent record --previous switches$" \
	perf persistent record -o /tmp/x.data switches
expect_hint "... stat: stat previous.NAME" \
	"the previous boot had one: perf persistent stat previous.switches$" \
	perf persistent stat switches
expect_hint "... pause: pause previous.NAME" \
	"the previous boot had one: perf persistent pause previous.switches$" \
	perf persistent pause switches
perf persistent create -d -m 4K -n now_only sched:sched_switch >/dev/null
expect_hint "script --previous NAME of this boot only: names script NAME" \
	"no event 'now_only' of the previous boot; this boot has one: perf persistent script now_only$" \
	perf persistent script --previous now_only
expect_hint "... record --previous: record NAME" \
	"this boot has one: perf persistent record now_only$" \
	perf persistent record --previous -o /tmp/x.data now_only
expect_hint "a name in neither boot: the listing" \
	"no persistent event 'nosuch' \\(see: perf persistent list\\)$" \
	perf persistent script nosuch
expect_hint "... with --previous: the previous boot's listing" \
	"no event 'nosuch' of the previous boot \\(see: perf persistent list --previous\\)$" \
	perf persistent script --previous nosuch
perf persistent destroy now_only >/dev/null

# A region too full for a new kept event: refused, nothing left behind.
row E136 ENOSPC pp-ctl create big tp=sched:sched_switch flags=0x9 buffer=2097152
check "a kept event that fits is created after the refusal" \
	pp-ctl create fits tp=sched:sched_switch flags=0x9 buffer=16384
check_grep "... and is kept" "kept" "$(perf persistent list >/tmp/pl; echo /tmp/pl)"
pp-ctl destroy fits >/dev/null

# Destroy frees the copy.
before=$(cat "$PP_SYS/memory_used")
check "destroy previous.switches" perf persistent destroy previous.switches
check "... its sysfs directory is gone" test ! -e "$PP_SYS/instances/previous.switches"
check "... its memory is given back" test "$(cat "$PP_SYS/memory_used")" -lt "$before"
check "... previous.mce_record stays" test -d "$PP_SYS/instances/previous.mce_record"

# What the boot-time unit of Documentation/incidents.rst runs (its $$ are
# systemd's spelling of $), saving into /tmp/save instead of /var/lib.
p=$PP_SYS
d=/tmp/save/$(cat $p/previous_boot/boot_id)
mkdir -p "$d"
for n in $(ls $p/instances | sed -n "s/^previous[.]//p"); do
	perf persistent script --previous "$n" >"$d/$n.txt"
	perf persistent record --previous -o "$d/$n.data" "$n" 2>/dev/null &&
		perf persistent destroy "previous.$n" >/dev/null
done
check_eq "the unit's loop saved the MCEs as text" "$mces" \
	"$(grep -c 'MC[23]: be0000000080' "$d/mce_record.txt")"
check "... and as perf.data" test -s "$d/mce_record.data"
check "... and freed them" test ! -e "$PP_SYS/instances/previous.mce_record"
check "kernel log clean" pp_log_clean
done_testing
