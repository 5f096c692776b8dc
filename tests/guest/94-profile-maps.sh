# SPDX-License-Identifier: GPL-2.0
#
# Profiling, the module's mappings table (module/maps.c): what names a
# profile's frames when the workload is gone before the read.  The
# workload exits, and unmaps its library first, before the export is
# written; the export names its frames from the table, read here and
# elsewhere (a chroot with no /proc); the rings of a sampler that wrapped
# keep the mappings the samples need; the table's budget (maps_kb).
# Beside each, on the lanes that run them (PP_PROFILE_PERF), perf's own
# profiles of the same workload.  The sampler's walks and their refusals
# are 94-profile's.
#
# The table is the same C on every architecture, and it meets the kernel
# through interfaces that differ by version, not by configuration: make
# check runs this suite on Debian's 6.1 and on the debug kernel's 7.3,
# and 94-profile alone on the other lanes (scripts/check).
. ./lib.sh

pp_load
pp_log_mark
# On the debug kernel and arm64, the samples from the first to the last
# in the workload's own code (pp_from_hot).
from_hot=$(pp_from_hot)
# PP_PROFILE_PERF=0: not the figures beside perf's own profiles (perf
# record -a, perf record --overwrite), as in 94-profile.
beside_perf=${PP_PROFILE_PERF:-1}

# --- the workload gone before the read: the module's table names it ---
# pp-prof exits, and unmaps its library first, before the export is
# written: only what the module kept of them names their frames.
perf persistent create -d -n gone -m 2M -F 499 -g cpu-clock >/dev/null 2>&1 ||
	not_ok "create gone"
perf persistent create -d -n flat -m 1M -F 499 cpu-clock >/dev/null 2>&1 ||
	not_ok "create flat (no -g)"
pp-prof 2000 /tests/bin/libpp-prof.so >/tmp/gone.out 2>&1
perf persistent pause gone >/dev/null
perf persistent pause flat >/dev/null
check_grep "pp-prof ran and exited" "^pp-prof [0-9]+ done" /tmp/gone.out
gone_pid=$(sed -n 's/^pp-prof \([0-9]*\) done/\1/p' /tmp/gone.out)
check "... and is gone" [ ! -d "/proc/$gone_pid" ]
perf persistent info gone >/tmp/gone.info
check_grep "info: the mappings table holds processes" \
	"^mappings: +[1-9][0-9]* processes, [0-9]+ KiB of [0-9]+ KiB, 0 dropped" /tmp/gone.info
check "sysfs: maps/processes" [ "$(cat /sys/bus/event_source/devices/persistent/maps/processes)" -ge 1 ]
perf persistent record -o /tmp/gone.data gone 2>/dev/null
perf script --no-inline -i /tmp/gone.data -F comm,tid,ip,sym >/tmp/gone.script 2>/dev/null
set -- $(FROM_HOT=$from_hot chain_stats /tmp/gone.script pp-prof pp_hot_inner pp_hot_outer)
total=$1 hot=$2
set -- $(FROM_HOT=$from_hot chain_stats /tmp/gone.script pp-prof pp_lib_spin pp_lib_caller)
lib=$2
echo "# exited: $hot samples in pp_hot_inner under pp_hot_outer, $lib in the unmapped library's pp_lib_spin under pp_lib_caller, of $total ($(pct "$total" $((hot + lib))) %)"
check "exited: the workload sampled in both parts" [ "$hot" -ge 100 -a "$lib" -ge 100 ]
check "exited: at least 95 % named with their callers" \
	[ "$(pct "$total" $((hot + lib)))" -ge 95 ]
perf report --no-inline -i /tmp/gone.data --stdio --no-children --sort dso,sym -g none \
	>/tmp/gone.report 2>/dev/null
check_grep "perf report: the dlclose()d library's function" \
	"libpp-prof.so +\[\.\] pp_lib_spin" /tmp/gone.report
# Without -g: the sample's IP alone, named all the same.
perf persistent record -o /tmp/flat.data flat 2>/dev/null
perf script --no-inline -i /tmp/flat.data -F comm,ip,sym >/tmp/flat.script 2>/dev/null
fn=$(awk '$1 == "pp-prof"' /tmp/flat.script | wc -l)
fk=$(awk '$1 == "pp-prof" && $3 !~ /unknown/' /tmp/flat.script | wc -l)
echo "# exited, flat: $fk of $fn samples of pp-prof named"
check "exited, without -g: at least 95 % of the samples named" \
	[ "$fn" -ge 100 -a "$(pct "$fn" "$fk")" -ge 95 ]

# --- read on another machine with the same binaries ---
# What a reader elsewhere has: the files, the build-id cache record filled
# (~/.debug, as perf record fills it) and the same system binaries (/usr),
# but neither this kernel (no /proc, no /sys) nor the workload's binaries
# (no /tests).  A chroot with just that names every sample of the flat
# export as it is named here, the exited workload's, its closed library's
# and the kernel's: perf script's output is the same, line for line.
o=/tmp/elsewhere
mkdir -p $o/usr $o/tmp $o/root $o/dev
mount --bind /usr $o/usr || not_ok "bind /usr"
for l in bin sbin lib lib64; do
	[ -L /$l ] && ln -sfn "$(readlink /$l)" $o/$l
done
mkdir -p $o/root/.debug
mount --bind "$HOME/.debug" $o/root/.debug || not_ok "bind the build-id cache"
cp /tmp/flat.data $o/tmp/
# Except the frames of the lab's own perf_persistent.ko: on x86 vm-run
# loads it from outside /lib/modules, and no file names it for the cache
# (a module installed as DKMS installs it is in modules.dep); on arm64 it is
# there, but perf names it [kernel.kallsyms] in place and by its file
# elsewhere.
set -- $(awk '$1 == "perf_persistent" { print $6, $2 }' /proc/modules)
not_ours() { # drop chain lines in [0xLO, 0xLO + SIZE)
	awk -v lo="${1#0x}" -v size="$2" "$PP_AWK_ADDR"'
	BEGIN { lo = pad(lo); hi = "x" add(lo, size); lo = "x" lo }
	{ for (i = 1; i <= NF && i <= 3; i++)
		if ($i ~ /^[0-9a-f]+$/ && length($i) >= 12) {
			a = "x" pad($i); if (a >= lo && a < hi) next; break } }
	{ print }'
}
# The lab's perf 7.3 (the x86 7.x, 6.12 and debug lanes) crashes without
# /proc (SIGSEGV), before it reads anything: there this is skipped.
if HOME=/root chroot $o /usr/bin/perf report --header-only -i /tmp/flat.data >/dev/null 2>&1; then
	# The flat export (the goal's), with the same fields as its read here
	# above (flat.script).  perf there takes four times as long: once.
	not_ours "$1" "$2" </tmp/flat.script >/tmp/flat.here
	HOME=/root chroot $o /usr/bin/perf script --no-inline -i /tmp/flat.data \
		-F comm,ip,sym 2>/dev/null | not_ours "$1" "$2" >/tmp/flat.there
	check "elsewhere: no /proc, no workload's binary" \
		[ ! -e $o/proc/kallsyms -a ! -e $o/tests/bin/pp-prof ]
	check "elsewhere: the closed library's samples named" grep -q " pp_lib_spin" /tmp/flat.there
	check "elsewhere: the kernel's samples named" \
		grep -Eq " ffff[0-9a-f]{12} [a-z_]" /tmp/flat.there
	check_eq "elsewhere, flat: named as here, line for line" "" \
		"$(diff /tmp/flat.here /tmp/flat.there | grep '^[-+][^-+]' | head -6)"
else
	skip "elsewhere: named as here" "this perf (the lab's 7.3) does not run without /proc"
fi
umount $o/root/.debug
umount $o/usr
rm -rf $o

# --- flat, side by side with perf record -a ---
# The goal: a flat profile's export names every sample perf record -a of
# the same workload names, kernel and user.  Both sample the whole system
# at once, over the same run of pp-prof and its library.
# The user samples compared are the workload's: ours also holds perf's
# own start and exit (before and after its file's window), in Debian's
# perf, which is stripped, and in ld.so, which neither names.
# flat_stats FILE COMM: "K KN U UN", kernel samples and those named, user
# samples of COMM and those named, from perf script -F comm,ip,sym.
flat_stats() {
	awk -v comm="$2" '$2 ~ /^[0-9a-f]+$/ {
		k = (length($2) == 16 && substr($2, 1, 4) == "ffff")
		named = ($3 != "" && $3 !~ /unknown/)
		if (k) { kt++; kn += named } else if ($1 == comm) { ut++; un += named } }
	END { print kt + 0, kn + 0, ut + 0, un + 0 }' "$1"
}
flat2=
if [ "$beside_perf" = 1 ]; then
	perf persistent create -d -n flat2 -m 1M -F 499 cpu-clock >/dev/null 2>&1 ||
		not_ok "create flat2"
	flat2=flat2
	perf record -q -a -F 499 -o /tmp/flatref.data -- \
		pp-prof 1200 /tests/bin/libpp-prof.so >/dev/null 2>/tmp/flatref.err
	perf persistent pause flat2 >/dev/null
	perf persistent record -o /tmp/flat2.data flat2 2>/dev/null
	perf script --no-inline -i /tmp/flat2.data -F comm,ip,sym >/tmp/flat2.script 2>/dev/null
	perf script --no-inline -i /tmp/flatref.data -F comm,ip,sym >/tmp/flatref.script 2>/dev/null
	set -- $(flat_stats /tmp/flat2.script pp-prof)
	pk=$1 pkn=$2 pu=$3 pun=$4
	set -- $(flat_stats /tmp/flatref.script pp-prof)
	rk=$1 rkn=$2 ru=$3 run=$4
	echo "# flat, kernel: persistent names $pkn of $pk, perf record -a $rkn of $rk"
	echo "# flat, user (pp-prof): persistent names $pun of $pu, perf record -a $run of $ru"
	check "flat: both sampled kernel and user code" \
		[ "$pk" -ge 100 -a "$pu" -ge 100 -a "$rk" -ge 100 -a "$ru" -ge 100 ]
	check "flat, kernel: named as perf record -a names them (within 1 %)" \
		[ "$(pct "$pk" "$pkn")" -ge $(($(pct "$rk" "$rkn") - 1)) ]
	check "flat, user: named as perf record -a names them (within 1 %)" \
		[ "$(pct "$pu" "$pun")" -ge $(($(pct "$ru" "$run") - 1)) ]
	# Each function perf record -a finds in 2 % of the samples or more, ours
	# finds too, in the same binary.
	perf report --no-inline -i /tmp/flatref.data --stdio --sort dso,sym \
		--percent-limit 2 2>/dev/null |
		awk '/^ +[0-9.]+%/ && $NF !~ /^0x/ { print $2, $NF }' >/tmp/flatref.top
	perf report --no-inline -i /tmp/flat2.data --stdio --sort dso,sym 2>/dev/null |
		awk '/^ +[0-9.]+%/ { print $2, $NF }' >/tmp/flat2.all
	missing=$(grep -vxFf /tmp/flat2.all /tmp/flatref.top | tr '\n' ' ')
	check "flat: perf record -a's functions found (the workload's among them)" \
		grep -q "pp_hot_inner" /tmp/flatref.top
	check_eq "flat: each of them in ours, in the same binary" "" "$missing"
else
	skip "flat: named as perf record -a names them" "PP_PROFILE_PERF=0"
fi

# --- side by side with perf record --overwrite -g ---
# The same flight recorder kept by perf: 128 KiB a CPU of overwritten ring
# each (perf's -m 32 pages: about 1.5 s of this workload).  pp-prof runs
# 5 s and exits before perf stops: the rings hold its last seconds, its
# exec and its library's dlopen() 2.5 s before its end.  perf's ring held
# its MMAP2 records with the samples, and overwrote them; perf --overwrite
# synthesizes the mappings at its end from /proc, where pp-prof is gone.
# The persistent sampler keeps them apart.  Both printed; persistent must
# name what it holds.
perf persistent create -d -n ow -m 128K -F 499 -g cpu-clock >/dev/null 2>&1 ||
	not_ok "create ow"
if [ "$beside_perf" = 1 ]; then
	perf record -q --overwrite -a -g -F 499 -m 32 -o /tmp/ow.data >/dev/null 2>/tmp/ow.err &
	ow=$!
	# perf record is recording once its counters are enabled: sampled.
	pp_wait_until -- sh -c "grep -q 'perf' /proc/$ow/comm"
fi
pp-prof 2500 /tests/bin/libpp-prof.so >/tmp/ow.out
ow_pid=$(sed -n 's/^pp-prof \([0-9]*\) done/\1/p' /tmp/ow.out)
perf persistent pause ow >/dev/null
if [ "$beside_perf" = 1 ]; then
	kill -INT $ow
	wait $ow
fi
perf persistent record -o /tmp/owpp.data ow 2>/dev/null
# named FILE: "N M": the samples of pp-prof (by its pid: perf may have
# lost its name too), and those whose innermost user frame perf names.
# On the debug kernel, where the rings hold the whole run, from the first
# to the last sample with a frame of the workload's code (FROM_HOT), as
# above: not exec and the dynamic loader, whose frames perf names in
# neither export (96 % in a run of 2026-12-05, near the 95 asked for).
named() {
	perf script --no-inline -i "$1" -F comm,tid,ip,sym >/tmp/named.script 2>/dev/null
	FROM_HOT=$from_hot innermost_named /tmp/named.script "$ow_pid"
}
set -- $(named /tmp/owpp.data)
echo "# wrapped rings: persistent names $2 of the $1 samples of pp-prof it holds ($(pct "$1" "$2") %)"
pn=$1 pm=$2
if [ "$beside_perf" = 1 ]; then
	set -- $(named /tmp/ow.data)
	echo "# wrapped rings: perf record --overwrite -g names $2 of the $1 it holds ($(pct "$1" "$2") %)"
fi
check "wrapped: persistent names at least 95 % of what it holds" \
	[ "$pn" -ge 100 -a "$(pct "$pn" "$pm")" -ge 95 ]
perf persistent destroy ow >/dev/null

# shellcheck disable=SC2086
pp_profiles_gone gone flat $flat2

# --- the budget: a table of 1 KiB keeps one process, counts the other ---
m=/sys/bus/event_source/devices/persistent/maps
pp_unload
pp_load maps_kb=1
perf persistent create -d -n tiny -m 256K -F 499 -g cpu-clock >/dev/null 2>&1 ||
	not_ok "create tiny"
pp-prof 300 >/dev/null && pp-prof 300 >/dev/null
echo "# maps_kb=1: $(cat $m/processes) processes, $(cat $m/bytes) of $(cat $m/budget) bytes, $(cat $m/dropped) dropped"
check "maps_kb=1: a process dropped, counted" [ "$(cat $m/dropped)" -ge 1 ]
check "maps_kb=1: within the budget" [ "$(cat $m/bytes)" -le 1024 ]
perf persistent destroy tiny >/dev/null
pp_unload
pp_load
pp_log_clean
done_testing
