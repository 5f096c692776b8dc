# SPDX-License-Identifier: GPL-2.0
#
# tests/region-damage.sh - a previous boot's region damaged many random
# ways, read again and again in one boot.  Run by scripts/region-fuzz
# with vm-run --no-load --reset-by reboot; the module is loaded here with
# MODARGS (its region= is SIZE bytes at physical BASE).
#
# Boot 1 (the region holds no header yet): the load-time mce_record
# records two injected MCEs, switches (sched_switch, kept across a
# reboot) wraps its buffers, prof (cpu-clock with call chains, kept) puts
# the profiles' mappings area in the region; all pause, their records are
# printed ("==== boot 1 script NAME"), and reboot -f ends the boot.
#
# Boot 2: before the module loads, the lab fixture pp_scribble saves the
# region as boot 1 left it (the pristine image).  Round 0 writes it back
# as it is, loads the module and keeps what each previous.NAME shows (the
# pristine listing, printed for the host: "==== pristine NAME").  Each
# round after writes it back, damages it once (tests/pp-damage.c, seeded:
# SEED, SEED + 1, ...; ROUNDS of them), loads the module, checks, and
# unloads it.  A round passes when: the module loads with no kernel
# report; a header it cannot use is refused with a logged reason, and
# then nothing is shown; otherwise every dropped descriptor is logged and
# counted in previous_boot/dropped_descriptors, an event is missing only
# when its descriptor was dropped or its directory slot damaged, every
# CPU that kept less than all says why in found and in the log, an
# event found and not shown is a refusal counted too, and script
# --previous succeeds and shows no record that the pristine listing
# lacks, except records whose bytes the damage changed (a record carries
# no checksum); and the module unloads.  The image carries boot 1's boot id,
# so every load takes it for the previous boot's region.
# At the end the region serves a new kept event, and kmemleak (where the
# kernel has it) finds nothing the rounds leaked.
. ./lib.sh

ROUNDS=${ROUNDS:-100}
SEED=${SEED:-1}
EVENTS="mce_record switches prof"
dbg=/sys/kernel/debug
mem=$dbg/pp_scribble_mem

modprobe pp_scribble || exit 1
echo "$BASE $SIZE" >$dbg/pp_scribble_window || exit 1

if [ "$(head -c 8 $mem)" != PPREGION ]; then
	echo "==== boot 1"
	# shellcheck disable=SC2086
	modprobe perf_persistent $MODARGS || exit 1
	pp_inject_mce 0 0xbe00000000800401 2
	pp_inject_mce 1 0xbe00000000800411 3
	pp_wait_stat mce_record written 2
	perf persistent create -d --keep-across-reboot -m 8K -n switches \
		sched:sched_switch >/dev/null || exit 1
	perf persistent create -d --keep-across-reboot -m 8K -n prof -F 499 -g \
		cpu-clock >/dev/null || exit 1
	pp-prof 300 /tests/bin/libpp-prof.so
	pp_wait_stat switches overwritten 1
	pp_wait_stat prof written 10
	# shellcheck disable=SC2086
	perf persistent pause $EVENTS >/dev/null
	# The last samples' processes in the region's copy of the mappings.
	pp_wait_until -- grep -qx 0 "$PP_SYS/maps/unsaved"
	for n in $EVENTS; do
		echo "==== boot 1 script $n"
		perf persistent script "$n"
	done
	echo "==== boot 1 layout"
	cat $mem >/tmp/live.img
	pp-damage layout /tmp/live.img
	echo "==== boot 1 checks"
	for n in $EVENTS; do
		check_eq "pp-damage finds $n's descriptor and buffers where sysfs says" \
			"$(cat "$PP_SYS/instances/$n/region")" \
			"$(pp-damage region /tmp/live.img "$BASE" "$n")"
	done
	check_grep "the region holds the profiles' mappings area" "^maps " \
		"$(pp-damage layout /tmp/live.img >/tmp/ly; echo /tmp/ly)"
	check "kernel log clean" pp_log_clean
	echo "==== boot 1 reset"
	pp_console_drain
	reboot -f
	while :; do pp_nap 1; done
fi

echo "==== boot 2"
km=$dbg/kmemleak
[ -w $km ] || km=
[ -z "$km" ] || echo clear >$km
cat $mem >/tmp/pristine.img
check_eq "the pristine image is the whole region" "$SIZE" \
	"$(wc -c </tmp/pristine.img)"
pp-damage layout /tmp/pristine.img >/tmp/layout
sed 's/^/# /' /tmp/layout
# For the host: a failed round is reproduced from this image and its seed
# (pp-damage apply SEED IMAGE OUT).
echo "==== pristine image"
gzip -c /tmp/pristine.img | base64

# listing NAME: script --previous --json NAME's records, one line each
# whatever bytes a damaged record's strings hold, without the task's
# name (a task whose COMM record was damaged is named otherwise, or not
# at all, and the record is the same) and the wall clock (the header's
# clock pair, which no checksum covers, converts it); its exit status in
# /tmp/rc.
listing() {
	{ perf persistent script --previous --json "$1" 2>/tmp/script.err; echo $? >/tmp/rc; } |
		sed -E 's/,"comm":("([^"\\]|\\.)*"|null)//; s/,"wallclock":"[^"]*"//'
}

# Round 0: the pristine image, undamaged.
pp-damage restore /tmp/pristine.img $mem
# shellcheck disable=SC2086
modprobe perf_persistent $MODARGS || exit 1
for n in $EVENTS; do
	echo "==== pristine $n"
	perf persistent script --previous "$n"
	listing "$n" >"/tmp/p.$n"
	mv /tmp/rc "/tmp/p.$n.rc"
done
check_eq "the pristine region: no descriptor dropped" 0 \
	"$(cat "$PP_SYS/previous_boot/dropped_descriptors")"
for n in $EVENTS; do
	check "the pristine region: $n found, $(wc -l <"/tmp/p.$n") records" \
		test -s "/tmp/p.$n"
	check_eq "the pristine region: script --previous --json $n succeeds" 0 \
		"$(cat "/tmp/p.$n.rc")"
	check_no_grep "the pristine region: every CPU of $n kept whole" \
		"^[0-9]+ [^w]" "$PP_SYS/instances/previous.$n/found"
done
check "the pristine region: kernel log clean" pp_log_clean
pp_unload

# What the log says at a round's load: its lines after the round's mark.
round_log() {
	dmesg | sed -n "/pp-damage: round $1 seed $2\$/,\$p" >/tmp/rlog
}

# why TEXT: a reason the round failed.
why() {
	echo "$*" >>/tmp/why
}

# short TEXT: a reason as one word (the log's, previous.c's wording).
short() {
	case "$1" in
	"no header"*) echo magic ;;
	"another layout"*) echo version ;;
	*"checksum is wrong") echo crc ;;
	*"does not describe this region") echo values ;;
	"outside the region") echo outside ;;
	"no descriptor there") echo magic ;;
	"its size runs outside"*) echo size ;;
	"it holds values"*) echo values ;;
	"no copy is whole") echo copies ;;
	"another descriptor holds"*) echo twice ;;
	"another mappings area") echo maps-twice ;;
	*) echo "$1" | tr ' ' '-' ;;
	esac
}

# check_round R SEED: one damaged round's checks.  Fills /tmp/why with
# what failed and /tmp/kinds with what was refused.
check_round() {
	: >/tmp/why
	: >/tmp/kinds
	pp-damage apply "$2" /tmp/pristine.img $mem >/tmp/damage || {
		why "pp-damage failed"
		return 1
	}
	echo "pp-damage: round $1 seed $2" >/dev/kmsg
	# shellcheck disable=SC2086
	if ! modprobe perf_persistent $MODARGS; then
		why "the module did not load"
		round_log "$1" "$2"
		return 1
	fi
	round_log "$1" "$2"
	splat-scan /tmp/rlog >/dev/null || why "kernel report: $(splat-scan /tmp/rlog | head -n 1)"
	slots=$(sed -n 's/^slots //p' /tmp/damage)
	header=$(sed -n 's/.*region: no previous boot: //p' /tmp/rlog)
	if [ -n "$header" ]; then
		echo "header-$(short "$header")" >>/tmp/kinds
		[ ! -e "$PP_SYS/previous_boot/end" ] ||
			why "the header was refused ($header), yet previous_boot/ is there"
		for d in "$PP_SYS"/instances/previous.*; do
			[ ! -e "$d" ] ||
				why "the header was refused ($header), yet ${d##*/} is shown"
		done
	else
		grep -q 'region: previous boot .* events found, [0-9]* dropped$' /tmp/rlog ||
			why "neither a previous boot nor a refusal in the log"
		logged=$(sed -n 's/.*region: previous boot .* events found, \([0-9]*\) dropped$/\1/p' /tmp/rlog)
		lines=$(grep -c 'previous boot: descriptor [0-9]* (page [0-9]*) dropped: ' /tmp/rlog)
		sed -n 's/.*previous boot: descriptor [0-9]* (page [0-9]*) dropped: //p' /tmp/rlog |
			while IFS= read -r r; do echo "descriptor-$(short "$r")"; done >>/tmp/kinds
		sed -n "s/.*previous boot: the profiles' mappings dropped: //p" /tmp/rlog |
			while IFS= read -r r; do echo "mappings-$(short "$r")"; done >>/tmp/kinds
		# An event found and not shown (ops.c: another of its name, no
		# memory) is a refusal too, to be counted with the descriptors.
		sed -n 's/.*previous boot: \([^ ]*\): cannot show it: \(.*\)/\1 \2/p
			s/.*previous boot: \([^ ]*\): no memory to keep it/\1 nomem/p' /tmp/rlog >/tmp/unshown
		unshown=0
		while read -r n err; do
			echo "unshown$err" >>/tmp/kinds
			unshown=$((unshown + 1))
		done </tmp/unshown
		counted=$(cat "$PP_SYS/previous_boot/dropped_descriptors")
		[ "$counted" = $((lines + unshown)) ] && [ "$counted" = $((logged + unshown)) ] || {
			why "dropped_descriptors $counted, $lines 'dropped' lines, the summary says $logged dropped, and $unshown events were found and not shown:"
			sed 's/^/  | /' /tmp/unshown >>/tmp/why
		}
		missing=0
		for n in $EVENTS; do
			d=$PP_SYS/instances/previous.$n
			if [ ! -d "$d" ]; then
				missing=$((missing + 1))
				continue
			fi
			# found: "CPU STOP WRITTEN UNTRUSTED"; each CPU cut short
			# is in the log with its reason.
			while read -r cpu stop _ untrusted; do
				case "$stop" in
				whole) continue ;;
				overrun | size | cross | type | time | fields | page | absent | nomem) ;;
				*) why "$n: CPU $cpu stopped for no known reason: '$stop'" ;;
				esac
				echo "cpu-$stop" >>/tmp/kinds
				grep -q "previous boot: $n: CPU $cpu: $stop, $untrusted bytes not kept" /tmp/rlog ||
					why "$n: CPU $cpu stopped ($stop) and the log does not say so"
			done <"$d/found"
			echo "# found $n: $(tr '\n' ';' <"$d/found")" >>/tmp/detail
			listing "$n" >/tmp/got
			[ "$(cat /tmp/rc)" = 0 ] || why "script --previous $n failed: $(head -n 2 /tmp/script.err)"
			# The records shown that the pristine listing lacks, as
			# many times as they are shown beyond it.
			extra=$(awk 'NR == FNR { c[$0]++; next }
				c[$0] > 0 { c[$0]--; next }
				{ if (++n <= 3) print "  | " $0 >"/tmp/extra"; }
				END { print n + 0 }' "/tmp/p.$n" /tmp/got)
			touched=$(sed -n "s/^touched $n //p" /tmp/damage)
			[ "$extra" -le "${touched:-0}" ] || {
				why "$n: $extra records shown that the pristine region lacks, $touched damaged:"
				cat /tmp/extra >>/tmp/why
			}
			echo "# $n: $(wc -l </tmp/got) of $(wc -l <"/tmp/p.$n") records shown, $extra not in the pristine listing ($touched damaged)" >>/tmp/detail
		done
		# A descriptor dropped is counted; a slot the damage cleared or
		# pointed elsewhere loses its event unseen.
		[ "$missing" -le $((counted + slots)) ] ||
			why "$missing events missing, $counted descriptors dropped, $slots slots damaged"
		[ "$missing" -le "$counted" ] || echo "slot-lost" >>/tmp/kinds
	fi
	pp_unload || why "the module did not unload"
	[ ! -s /tmp/why ]
}

[ -z "$km" ] || echo clear >$km
start=$(cut -d' ' -f1 /proc/uptime)
failed_seeds=
r=1
while [ "$r" -le "$ROUNDS" ]; do
	seed=$((SEED + r - 1))
	: >/tmp/detail
	check_round "$r" "$seed"
	rc=$?
	kinds=$(sort /tmp/kinds | uniq -c | awk '{ printf "%s%s%s", s, $2, ($1 > 1 ? "x" $1 : ""); s = "," }')
	desc=$(sed -n "s/^damage $seed: //p" /tmp/damage)
	if [ "$rc" = 0 ]; then
		ok "round $r, seed $seed: $desc; refused: ${kinds:-none}"
	else
		not_ok "round $r, seed $seed: $desc; refused: ${kinds:-none}"
		sed 's/^/#   /' /tmp/why
		cat /tmp/detail
		sed -n 's/^diff /# changed bytes at /p' /tmp/damage
		failed_seeds="$failed_seeds $seed"
		# The round's kernel log, once its report is the first.
		splat-scan /tmp/rlog >/dev/null || pp_log_clean >/dev/null
	fi
	r=$((r + 1))
done
end=$(cut -d' ' -f1 /proc/uptime)
echo "# rounds: $ROUNDS in $(echo "$start $end" | awk '{ printf "%.0f", $2 - $1 }') s, $(echo "$start $end $ROUNDS" | awk '{ printf "%.2f", ($2 - $1) / $3 }') s/round"
echo "# failed seeds:${failed_seeds:- none}"

# The region serves this boot: a kept event records into it.
pp-damage restore /tmp/pristine.img $mem
# shellcheck disable=SC2086
modprobe perf_persistent $MODARGS || exit 1
perf persistent create -d --keep-across-reboot -m 4K -n again \
	sched:sched_switch >/dev/null
pp_wait_stat again written 10
check_grep "after the rounds, a kept event records into the region again" \
	"again.*kept" "$(perf persistent list >/tmp/pl; echo /tmp/pl)"
perf persistent destroy again >/dev/null
check "kernel log clean at the end" pp_log_clean
if [ -n "$km" ]; then
	pp_unload
	# kmemleak reports only objects older than 5 s.
	sleep 6
	echo scan >$km
	check_eq "kmemleak: the rounds leaked nothing" "" \
		"$(grep -A12 unreferenced $km)"
fi
done_testing
