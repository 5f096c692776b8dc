# SPDX-License-Identifier: GPL-2.0
#
# Profiling: a cpu-clock sampler with call stacks (create -g), exported
# with "perf persistent record" and read by perf report and perf script.
# The workload's user frames are named with their callers, as in a
# "perf record -g" of the same workload, run here beside it; the kernel's
# frames are named; the chain's length is bounded as asked; a program
# without frame pointers unwound from the stack copies (--call-graph
# dwarf); a stray caller; a tracepoint with call stacks takes perf's
# path; the refusals; the idle loop's chains (x86-64).
#
# The workload (tests/pp-prof.c, built with frame pointers) still runs
# when the file is written: the export reads its mappings from /proc then.
# What names the frames of a workload gone before the read, the module's
# mappings table, is 94-profile-maps'.
# perf script and report run with --no-inline: the guests have no
# addr2line, and perf 7.3 stops printing call chains without it.
. ./lib.sh

pp_load
pp_log_mark
# On the debug kernel and arm64, the samples from the first to the last
# in the workload's own code (pp_from_hot).
from_hot=$(pp_from_hot)
# PP_PROFILE_PERF=0: not the figure beside perf's own profile of the
# same workload (perf record -g; 94-profile-maps has perf record -a's and
# --overwrite's): perf's side is perf's, the same on every kernel, and on
# a slow lane (the debug kernel, arm64) its runs and reports took a
# quarter of the suite.  The lane of Debian's 6.1 runs them
# (scripts/check).
beside_perf=${PP_PROFILE_PERF:-1}

# --- the sampler, the workload still running at the read ---
# 3 s at 499 Hz: its exec and dynamic loader, which no frame-pointer walk
# places under main, are 2 % of it (on 7.3, 37 samples: 5 % of a 1.5 s
# run, 2026-12-06).  perf script's time, and that of the awk reading its
# output, grows with the samples (on the debug kernel about 2 ms a
# sample), so the samplers whose checks need fewer take fewer:
# --max-stack's at 99 Hz, whose deepest chain is its check.
perf persistent create -d -n prof -m 1M -F 499 -g cpu-clock >/tmp/prof.create 2>&1 ||
	not_ok "create -g cpu-clock"
perf persistent create -d -n prof4 -m 1M -F 99 -g --max-stack 4 cpu-clock \
	>/dev/null 2>&1 || not_ok "create -g --max-stack 4"
pp_run_held /tmp/prof.out pp-prof -w 3000 || not_ok "pp-prof ran"
perf persistent pause prof >/dev/null
perf persistent pause prof4 >/dev/null
perf persistent record -o /tmp/prof.data prof 2>/tmp/prof.rec
perf persistent record -o /tmp/prof4.data prof4 2>/dev/null
pp_release_held
check_grep "record wrote the profile" "Wrote [0-9]+ records of prof to" /tmp/prof.rec
perf persistent info prof >/tmp/prof.info
check_grep "info: the records carry call chains" "^sample fields: .*callchain" /tmp/prof.info
check_grep "info: a sampler takes perf's counters" "^record path: +perf" /tmp/prof.info

perf script --no-inline -i /tmp/prof.data -F comm,tid,ip,sym >/tmp/prof.script 2>/tmp/prof.script.err
set -- $(FROM_HOT=$from_hot chain_stats /tmp/prof.script pp-prof pp_hot_inner pp_hot_outer)
n=$1 m=$2
echo "# persistent -g: $m of $n samples of pp-prof in pp_hot_inner called by pp_hot_outer ($(pct "$n" "$m") %)"
check "the workload was sampled (at least 100 samples)" [ "$n" -ge 100 ]
set -- $(chain_stats /tmp/prof.script pp-prof pp_hot_outer main)
check "pp_hot_outer's caller is main" [ "$2" -ge $((m * 95 / 100)) ]

# perf report names the function, in pp-prof's own binary.
perf report --no-inline -i /tmp/prof.data --stdio --no-children --sort comm,dso,sym -g none \
	>/tmp/prof.report 2>/tmp/prof.report.err
check_grep "perf report: pp_hot_inner in pp-prof" \
	"pp-prof +pp-prof +\[\.\] pp_hot_inner" /tmp/prof.report

# The kernel's frames: the idle loop, named, with its callers.
set -- $(chain_stats /tmp/prof.script swapper do_idle cpu_startup_entry)
echo "# idle: $2 of $1 samples of the idle tasks in do_idle called by cpu_startup_entry"
check "kernel frames named: do_idle called by cpu_startup_entry" [ "$2" -ge 1 ]
# Every frame in the kernel's text is named.  (Code outside it, such as
# kprobes' and ftrace's trampolines that earlier suites may leave, is in no
# file perf could name it from, in perf record's files either.)
text=$(awk '$3 == "_stext" { s = $1 } $3 == "_etext" { e = $1 } END { print s, e }' /proc/kallsyms)
set -- $(awk -v range="$text" '
	BEGIN { split(range, r, " "); lo = sprintf("%016s", r[1]); hi = sprintf("%016s", r[2]) }
	/^[ \t]+[0-9a-f]+ / { a = sprintf("%016s", $1)
		if (lo != hi && a >= lo && a < hi) { if ($2 == "[unknown]") u++; else k++ } }
	END { print k + 0, u + 0 }' /tmp/prof.script)
check "frames in the kernel's text, by its _stext and _etext" [ "$1" -ge 100 ]
check_eq "no frame in the kernel's text left unnamed" 0 "$2"

# --max-stack 4: perf's rule, the markers counted: at most 3 frames.
perf script --no-inline -i /tmp/prof4.data -F comm,ip >/tmp/prof4.script 2>/dev/null
deepest=$(awk '/^[^ \t]/ { d = 0; next } /^[ \t]*$/ { next }
	{ d++; if (d > max) max = d } END { print max + 0 }' /tmp/prof4.script)
check_eq "--max-stack 4: the deepest chain has 3 frames" 3 "$deepest"

# The same workload under perf record -g, for the figure beside ours.
if [ "$beside_perf" = 1 ]; then
	perf record -q -F 499 -g -o /tmp/ref.data -- pp-prof 3000 >/dev/null 2>/tmp/ref.err
	perf script --no-inline -i /tmp/ref.data -F comm,tid,ip,sym >/tmp/ref.script 2>/dev/null
	set -- $(FROM_HOT=$from_hot chain_stats /tmp/ref.script pp-prof pp_hot_inner pp_hot_outer)
	echo "# perf record -g: $2 of $1 samples of pp-prof in pp_hot_inner called by pp_hot_outer ($(pct "$1" "$2") %)"
	check "perf record -g of the same workload names it too" [ "$(pct "$1" "$2")" -ge 90 ]
else
	skip "perf record -g of the same workload names it too" "PP_PROFILE_PERF=0"
fi
check "at least 95 % of its samples: pp_hot_inner, called by pp_hot_outer" \
	[ "$(pct "$n" "$m")" -ge 95 ]
# The others, by their first two and last three frames, for whoever reads
# the log.
awk '/^[^ \t]/ { if (c != "" && c !~ / pp_hot_inner pp_hot_outer/) print c
		mine = ($1 == "pp-prof"); c = ""; next }
	mine && NF >= 2 { c = c " " $2 }
	END { if (c != "" && c !~ / pp_hot_inner pp_hot_outer/) print c }' /tmp/prof.script |
	awk '{ s = $1 " " $2; if (NF > 5) s = s " ..."; for (i = (NF > 5 ? NF - 2 : 3); i <= NF; i++) s = s " " $i; print s }' |
	sort | uniq -c | sort -rn | head -n 6 | sed 's/^/# other: /'

# dump_regs FILE: "R S", 1 if perf's dump of FILE shows a sample's user
# registers (R) and user stack (S); it stops reading at the first of both.
dump_regs() {
	perf report -D -i "$1" 2>/dev/null | awk '
		/user regs: mask 0x[0-9a-f]+ ABI 64-bit/ { r = 1 }
		/ustack: size [1-9][0-9]*/ { u = 1 }
		r && u { exit }
		END { print r + 0, u + 0 }'
}

# --- --call-graph dwarf: a program built without frame pointers ---
# The kernel's frames walked, the user's registers and 8 KiB of stack
# for perf to unwind with the binary's DWARF, as perf record --call-graph
# dwarf; beside it the frame-pointer walk, which cannot find the callers.
# Its figures are counted from the first to the last sample in the
# program's own code on every kernel (FROM_HOT=1): the samples of its exec,
# of the dynamic loader and of its exit are not in code it was built
# without frame pointers for, and under a loaded host they were 17 of the
# live reader's 162 (6.1 in make check, 2026-12-06).
# At 249 Hz: about 370 samples of the workload, each of which perf
# unwinds where it can (the 6.1 and arm64 lanes), which the rings of
# 4 MiB a CPU hold whole (about 480 of 8 KiB stacks).  The frame-pointer
# walk beside it, a figure for the log, at 99 Hz.
perf persistent create -d -n dw -m 4M -F 249 --call-graph dwarf cpu-clock \
	>/dev/null 2>&1 || not_ok "create --call-graph dwarf"
perf persistent create -d -n dwfp -m 1M -F 99 -g cpu-clock >/dev/null 2>&1 ||
	not_ok "create dwfp"
# The same at 99 Hz with 4 KiB of stack, read live through perf for
# convert below (perf's reader keeps up with that in every lane).
perf persistent create -d -n dwl -m 2M -F 99 --call-graph dwarf,4096 cpu-clock \
	>/dev/null 2>&1 || not_ok "create dwl"
perf record -q -a -R -m 512 -o /tmp/dwlive.data -e persistent/dwl,nohistory/ \
	2>/tmp/dwlive.err &
dwlive=$!
pp_wait_readers dwl "$(grep -c ^processor /proc/cpuinfo)" || not_ok "dwl's live reader attached"
# Paused while pp-prof-nofp, its spin done, waits on its standard input,
# by pp-ctl, not perf: what runs after the spin overwrites its samples in
# dw's 4 MiB of 8 KiB stacks.  On arm64-7.3, 3 s of a busy shell left 113
# of 272, and the start of "perf persistent pause" and the workload's exit
# left 82 of 1500 ms at 499 Hz (2026-12-06).  perf's exit,
# writing its file, is such work too: dw is paused before perf's reader
# stops.  If too few come again, the lines printed below say what dw
# held.
pp_run_held /tmp/nofp.out pp-prof-nofp -w 1500 || not_ok "pp-prof-nofp ran"
pp-ctl pause dw pause dwfp >/dev/null
pp_release_held
kill -INT $dwlive
wait $dwlive
perf persistent info dw >/tmp/dw.info
check_grep "info: dwarf's fields" "^sample fields: .*callchain" /tmp/dw.info
perf persistent record -o /tmp/dw.data dw 2>/tmp/dwrec.err
perf persistent record -o /tmp/dwfp.data dwfp 2>/dev/null
perf script --no-inline -i /tmp/dwfp.data -F comm,tid,ip,sym >/tmp/dwfp.script 2>/dev/null
set -- $(chain_stats /tmp/dwfp.script pp-prof-nofp pp_hot_inner pp_hot_outer)
echo "# no frame pointers: the frame-pointer walk names $2 of $1 samples as pp_hot_inner under pp_hot_outer"
# perf unwinds: the lab's perf 7.3 (the x86 7.x, 6.12 and debug lanes) is
# built without libdw and libunwind; Debian's perf 6.1 (the 6.1 lane) and
# Debian 13's arm64 perf (arm64-7.3) have them.  Without, perf script
# prints the kernel's frames and the sample's IP alone: what dw holds is
# then checked in perf's dump of it (dump_regs), not by a script of it.
unwinds=0
perf version --build-options 2>/dev/null | grep -q "dwarf-unwind: *\[ on" && unwinds=1
if [ $unwinds = 1 ]; then
	perf script --no-inline -i /tmp/dw.data -F comm,tid,ip,sym >/tmp/dw.script 2>/tmp/dw.err
	set -- $(FROM_HOT=1 chain_stats /tmp/dw.script pp-prof-nofp pp_hot_inner pp_hot_outer)
	dn=$1 dm=$2
	echo "# no frame pointers: dwarf names $dm of $dn samples as pp_hot_inner under pp_hot_outer ($(pct "$dn" "$dm") %)"
	if [ "$dn" -lt 100 ]; then
		# Too few to judge: what dw held and what reading it said.
		echo "# dw: $(wc -l </tmp/dw.script) lines of perf script, of which by comm:"
		awk '{ print $1 }' /tmp/dw.script | sort | uniq -c | sort -rn | head -n 5 | sed 's/^/#   /'
		tail -n 5 /tmp/dwrec.err /tmp/dw.err 2>/dev/null | sed 's/^/#   /'
	fi
fi
# A frame pointer left at a record whose return address nothing maps
# (tests/pp-stray.c), sample after sample: the sample's own IP is held, its
# caller never will be, and the process's mappings are read once a second
# for it, not every 50 ms (40 reads in 2 s).
perf persistent create -d -n stray -m 256K -F 499 -g cpu-clock >/dev/null 2>&1 ||
	not_ok "create stray"
m=/sys/bus/event_source/devices/persistent/maps
reads0=$(cat $m/reads)
pp-stray 2000 >/dev/null
reads1=$(cat $m/reads)
perf persistent destroy stray >/dev/null
echo "# a stray caller: $((reads1 - reads0)) reads of the mappings in 2 s"
check "a stray caller: at most a read a second for it" \
	[ $((reads1 - reads0)) -ge 1 -a $((reads1 - reads0)) -le 6 ]
if [ $unwinds = 1 ]; then
	check "dwarf: the callers of a program without frame pointers, 90 % and more" \
		[ "$dn" -ge 100 -a "$(pct "$dn" "$dm")" -ge 90 ]
else
	set -- $(dump_regs /tmp/dw.data)
	check "dwarf: perf reads the user registers" [ "$1" = 1 ]
	check "dwarf: ... and the user stack" [ "$2" = 1 ]
	skip "dwarf: unwound by perf" "this perf is built without DWARF unwinding"
fi
# What the live reader got, converted: the same registers and stacks, which
# convert decodes with the source's register mask.
perf persistent convert -i /tmp/dwlive.data -o /tmp/dwconv.data 2>/tmp/dwconv.err
check_grep "convert of a live dwarf reader: written" "Wrote [0-9]+ records of dwl to" /tmp/dwconv.err
set -- $(dump_regs /tmp/dwconv.data)
check "convert: the user registers" [ "$1" = 1 ]
check "convert: ... and the user stack" [ "$2" = 1 ]
if [ $unwinds = 1 ]; then
	perf script --no-inline -i /tmp/dwconv.data -F comm,tid,ip,sym >/tmp/dwconv.script 2>/dev/null
	set -- $(FROM_HOT=1 chain_stats /tmp/dwconv.script pp-prof-nofp pp_hot_inner pp_hot_outer)
	echo "# convert, dwarf: $2 of $1 samples as pp_hot_inner under pp_hot_outer"
	check "convert, dwarf: unwound by perf, 90 % and more" \
		[ "$1" -ge 50 -a "$(pct "$1" "$2")" -ge 90 ]
fi
perf persistent destroy dwl >/dev/null
perf persistent destroy dw >/dev/null
perf persistent destroy dwfp >/dev/null

# --- a tracepoint with call stacks: perf's counters, not the direct path ---
perf persistent create -d -n sw_g -m 256K -g sched:sched_switch >/dev/null 2>&1 ||
	not_ok "create -g sched:sched_switch"
pp_wait_stat sw_g written 20 || not_ok "sched_switch recorded"
perf persistent pause sw_g >/dev/null
perf persistent info sw_g >/tmp/sw_g.info
check_grep "a tracepoint with call stacks: perf's path" "^record path: +perf" /tmp/sw_g.info
perf persistent record -o /tmp/sw_g.data sw_g 2>/dev/null
perf script --no-inline -i /tmp/sw_g.data -F comm,ip,sym >/tmp/sw_g.script 2>/dev/null
check_grep "its chains hold __schedule's callers" "^[[:space:]]+[0-9a-f]+ (schedule|schedule_idle|do_task_dead)$" \
	/tmp/sw_g.script

# --- the refusals ---
perf persistent create -d -n bad --call-graph lbr cpu-clock >/tmp/bad.out 2>&1
check_eq "--call-graph lbr: a usage error" 129 $?
check_grep "... which says what the module takes" "fp or dwarf" /tmp/bad.out
perf persistent create -d -n bad --call-graph dwarf,65536 cpu-clock >/tmp/bad.out 2>&1
check_eq "--call-graph dwarf,65536: a usage error" 129 $?
perf persistent create -d -n bad --max-stack 4 cpu-clock >/tmp/bad.out 2>&1
check_eq "--max-stack without -g: a usage error" 129 $?
perf persistent create -d -n bad -g --max-stack 1000 cpu-clock >/tmp/bad.out 2>&1
check_eq "--max-stack above the module's: refused" 1 $?
check_grep "... EOVERFLOW, named with the parameter" "max_stack" /tmp/bad.out
check_eq "nothing left of the refusals" "" "$(perf persistent list 2>/dev/null | grep -w bad)"

# --- the idle loop's chain, kept per CPU (x86-64) ---
# An idle CPU's chain is reused while the registers and stack words it was
# walked from are the same.  The idle chains are those of the walk: with
# the cache off (idle_chain_cache=0) the frequent idle chains are the
# same, return address for return address, and every idle chain ends in
# one of the outermost frames of those walked.  Each sampler at 199 Hz,
# read once it wrote 200 records: a few hundred idle samples a run.
idle_written() { # NAME N: has NAME written N records?
	[ "$(perf persistent info "$1" |
		awk '$1 ~ /^[0-9]+$/ { n += $3 } END { print n + 0 }')" -ge "$2" ]
}
idle_chains() { # NAME OUT: the idle tasks' chains, one a line, by count
	perf persistent create -d -n "$1" -m 1M -F 199 -g cpu-clock >/dev/null 2>&1 ||
		not_ok "create $1"
	pp_wait_until -- idle_written "$1" 200 || not_ok "$1 sampled"
	perf persistent pause "$1" >/dev/null
	perf persistent record -o "/tmp/$1.data" "$1" 2>/dev/null
	perf persistent destroy "$1" >/dev/null
	perf script --no-inline -i "/tmp/$1.data" -F comm,ip,sym 2>/dev/null | awk '
		/^[^ \t]/ { if (c != "") print c; idle = ($1 ~ /^swapper/); c = ""; next }
		/^[ \t]*$/ { if (c != "") print c; c = ""; idle = 0; next }
		idle { c = c " " $2 ":" $1 }
		END { if (c != "") print c }' | sort | uniq -c | sort -rn >"$2"
}
icp=/sys/module/perf_persistent/parameters/idle_chain_cache
if [ -e $icp ]; then
	idle_chains idle_on /tmp/idle_on.chains
	echo N >$icp
	idle_chains idle_off /tmp/idle_off.chains
	echo Y >$icp
	# The chains of a tenth of the idle samples or more: each idle CPU's
	# own (which CPU idles more varies from run to run).
	for c in on off; do
		awk '{ n[NR] = $1; l[NR] = $0; t += $1 }
			END { for (i = 1; i <= NR; i++) if (n[i] * 10 >= t) {
				s = l[i]; sub(/^ *[0-9]+ /, "", s); print s } }' \
			/tmp/idle_$c.chains | sort >/tmp/idle_$c.top
	done
	echo "# idle chains: $(wc -l </tmp/idle_on.chains) kinds with the cache, $(wc -l </tmp/idle_off.chains) without; the most frequent:$(head -n1 /tmp/idle_on.top)"
	check "idle chains sampled, with and without the cache" \
		[ -s /tmp/idle_on.top -a -s /tmp/idle_off.top ]
	# Each is found in the other run, return address for return address.
	for c in on off; do
		sed 's/^ *[0-9]* //' /tmp/idle_$c.chains >/tmp/idle_$c.all
	done
	check_eq "the frequent idle chains with the cache are walked ones" "" \
		"$(grep -vxFf /tmp/idle_off.all /tmp/idle_on.top)"
	check_eq "the frequent walked idle chains come from the cache too" "" \
		"$(grep -vxFf /tmp/idle_on.all /tmp/idle_off.top)"
	# A chain the cache gave is one it had walked, and gave again: three
	# times or more.  A rarer kind (an interrupt's entry code as the
	# outermost frame, seen once on 6.12) may be in one run's sample and
	# not the other's.
	awk '{ print $NF }' /tmp/idle_off.chains | sort -u >/tmp/idle_off.outer
	check_eq "every idle chain seen three times ends where a walked one does" "" \
		"$(awk '$1 >= 3 { print $NF }' /tmp/idle_on.chains | sort -u | grep -vxFf /tmp/idle_off.outer)"
else
	skip "the idle chains with and without the cache" "the cache is x86-64's"
fi

# shellcheck disable=SC2086
pp_profiles_gone prof prof4 sw_g

pp_log_clean
done_testing
