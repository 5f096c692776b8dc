# SPDX-License-Identifier: GPL-2.0
#
# tests/profile-reset.sh - a profile of the seconds before a crash, read
# after the warm reset.  Run by scripts/fatal-check in both boots of one
# vm-run --warm-reset, the module loaded with region= at each boot.
#   Boot 1: a cpu-clock sampler with call stacks, kept across a reboot;
#   pp-prof runs (a library dlopen()ed and closed, then exits), the
#   sampler pauses, the table of mappings reaches the region, and SysRq-c
#   crashes the guest; with CRASH=none the script returns there instead,
#   and its caller crashes the guest (tests/fatal.sh: a fatal machine
#   check).
#   Boot 2: perf persistent record --previous of the sampler, read by perf
#   script: the frames of the previous boot's exited process, of its
#   closed library, and of the previous boot's kernel (KASLR moved it in
#   the lanes that boot with it), named.  TAP.
. ./lib.sh

if [ ! -e "$PP_SYS/previous_boot/end" ]; then
	echo "==== boot 1"
	perf persistent create -d -n prof -m 1M -F 499 -g --keep-across-reboot \
		cpu-clock >/dev/null
	pp-prof 2000 /tests/bin/libpp-prof.so
	perf persistent pause prof >/dev/null
	# Its last samples' processes in the region's copy of the table.
	pp_wait_until -- grep -qx 0 "$PP_SYS/maps/unsaved"
	echo "==== boot 1 kept $(cat "$PP_SYS/maps/processes") processes"
	[ "${CRASH:-sysrq}" = sysrq ] || exit 0
	pp_console_drain
	echo c >/proc/sysrq-trigger
	sleep 600
fi

echo "==== boot 2"
perf persistent record --previous -o /tmp/prev.data prof 2>/tmp/prev.err
check_grep "record --previous wrote the profile" "Wrote [0-9]+ records of prof to" /tmp/prev.err
check_no_grep "... with the previous boot's kernel and mappings" "will not be named" /tmp/prev.err
perf script --no-inline -i /tmp/prev.data -F comm,tid,ip,sym >/tmp/prev.script 2>/dev/null
set -- $(chain_stats /tmp/prev.script pp-prof pp_hot_inner pp_hot_outer)
total=$1 hot=$2
set -- $(chain_stats /tmp/prev.script pp-prof pp_lib_spin pp_lib_caller)
lib=$2
pct=$(pct "$total" $((hot + lib)))
echo "# previous boot: $hot samples in pp_hot_inner under pp_hot_outer, $lib in pp_lib_spin under pp_lib_caller, of $total ($pct %)"
check "the previous boot's workload sampled in both parts" [ "$hot" -ge 100 -a "$lib" -ge 100 ]
check "at least 95 % of its samples named with their callers" [ "$pct" -ge 95 ]
set -- $(chain_stats /tmp/prev.script swapper do_idle cpu_startup_entry)
echo "# previous boot: $2 of $1 idle samples in do_idle called by cpu_startup_entry"
check "the previous boot's kernel frames named" [ "$2" -ge 1 ]
# Its modules' addresses died with it: only the kernel image's frames are
# named, all of them.  The image's text is where the export's kernel MMAP
# record starts (the previous boot's _text, where KASLR put it then), for
# as long as this boot's _text to _etext (the same build).
# perf's dump, read up to that record (it comes first: sed stops there).
perf report -D -i /tmp/prev.data 2>/dev/null |
	sed -nE '/PERF_RECORD_MMAP.*\[kernel\.kallsyms\]/ {
		s/.* \[0x([0-9a-f]+)\(0x[0-9a-f]+\).*/\1/p; q }' >/tmp/prev.ktext
kstart=$(cat /tmp/prev.ktext)
set -- $(awk '$3 == "_text" { t = $1 } $3 == "_etext" { e = $1 } END { print t, e }' /proc/kallsyms)
echo "# previous boot: its kernel text at 0x$kstart; this boot's at 0x$1"
check "the export has the previous boot's kernel MMAP record" [ -n "$kstart" ]
set -- $(awk -v s="$kstart" -v t="$1" -v e="$2" "$PP_AWK_ADDR"'
	BEGIN { s = pad(s); len = dist(pad(e), pad(t)) }
	/^[ \t]+[0-9a-f]+ / { a = pad($1); d = dist(a, s)
		if (d >= 0 && d < len) { if ($2 == "[unknown]") u++; else k++ }
		else if (index("89abcdef", substr(a, 1, 1))) m++ }
	END { print k + 0, u + 0, m + 0 }' /tmp/prev.script)
echo "# previous boot: $1 frames in its kernel image named, $2 not; $3 kernel frames outside it (its modules)"
check "frames of the previous boot's kernel image" [ "$1" -ge 100 ]
check_eq "no frame of its kernel image left unnamed" 0 "$2"
done_testing
