# SPDX-License-Identifier: GPL-2.0
#
# Profiling: a cpu-clock sampler with call stacks (create -g), exported
# with "perf persistent record" and read by perf report and perf script.
# The workload's user frames are named with their callers, as in a
# "perf record -g" of the same workload, run here beside it; the kernel's
# frames are named; the chain's length is bounded as asked; a tracepoint
# with call stacks takes perf's path; the refusals.
#
# The workload (tests/pp-prof.c, built with frame pointers) still runs
# when the file is written: the export reads its mappings from /proc then.
# perf script and report run with --no-inline: the guests have no
# addr2line, and perf 7.3 stops printing call chains without it.
. ./lib.sh

pp_load
pp_log_mark

# --- the sampler, the workload still running at the read ---
perf persistent create -d -n prof -m 1M -F 499 -g cpu-clock >/tmp/prof.create 2>&1 ||
	not_ok "create -g cpu-clock"
perf persistent create -d -n prof4 -m 1M -F 499 -g --max-stack 4 cpu-clock \
	>/dev/null 2>&1 || not_ok "create -g --max-stack 4"
rm -f /tmp/prof-hold
mkfifo /tmp/prof-hold
pp-prof -w 3000 </tmp/prof-hold >/tmp/prof.out 2>&1 &
prof=$!
exec 3>/tmp/prof-hold
pp_wait_until -- grep -q done /tmp/prof.out || not_ok "pp-prof ran"
perf persistent pause prof >/dev/null
perf persistent pause prof4 >/dev/null
perf persistent record -o /tmp/prof.data prof 2>/tmp/prof.rec
perf persistent record -o /tmp/prof4.data prof4 2>/dev/null
exec 3>&-
wait $prof
check_grep "record wrote the profile" "Wrote [0-9]+ records of prof to" /tmp/prof.rec
perf persistent info prof >/tmp/prof.info
check_grep "info: the records carry call chains" "^sample fields: .*callchain" /tmp/prof.info
check_grep "info: a sampler takes perf's counters" "^record path: +perf" /tmp/prof.info

perf script --no-inline -i /tmp/prof.data -F comm,tid,ip,sym >/tmp/prof.script 2>/tmp/prof.script.err
set -- $(chain_stats /tmp/prof.script pp-prof pp_hot_inner pp_hot_outer)
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
perf record -q -F 499 -g -o /tmp/ref.data -- pp-prof 3000 >/dev/null 2>/tmp/ref.err
perf script --no-inline -i /tmp/ref.data -F comm,tid,ip,sym >/tmp/ref.script 2>/dev/null
set -- $(chain_stats /tmp/ref.script pp-prof pp_hot_inner pp_hot_outer)
echo "# perf record -g: $2 of $1 samples of pp-prof in pp_hot_inner called by pp_hot_outer ($(pct "$1" "$2") %)"
check "perf record -g of the same workload names it too" [ "$(pct "$1" "$2")" -ge 90 ]
# The goal, 95 %, on Debian's kernels.  On the lab's debug kernel (KASAN,
# lockdep), exec and the dynamic loader take so long that their samples
# alone are over 5 % of a 3 s run, for perf record -g as well: there the
# bar is perf's own figure, less 3 points.
want=95
case $(uname -r) in *debug*) want=$(($(pct "$1" "$2") - 3)) ;; esac
check "at least $want % of its samples: pp_hot_inner, called by pp_hot_outer" \
	[ "$(pct "$n" "$m")" -ge "$want" ]

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
set -- $(chain_stats /tmp/gone.script pp-prof pp_hot_inner pp_hot_outer)
total=$1 hot=$2
set -- $(chain_stats /tmp/gone.script pp-prof pp_lib_spin pp_lib_caller)
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
perf record -q --overwrite -a -g -F 499 -m 32 -o /tmp/ow.data >/dev/null 2>/tmp/ow.err &
ow=$!
# perf record is recording once its counters are enabled: sampled.
pp_wait_until -- sh -c "grep -q 'perf' /proc/$ow/comm"
pp-prof 2500 /tests/bin/libpp-prof.so >/tmp/ow.out
ow_pid=$(sed -n 's/^pp-prof \([0-9]*\) done/\1/p' /tmp/ow.out)
perf persistent pause ow >/dev/null
kill -INT $ow
wait $ow
perf persistent record -o /tmp/owpp.data ow 2>/dev/null
# named FILE: "N M": the samples of pp-prof (by its pid: perf may have
# lost its name too), and those whose innermost user frame perf names.
named() {
	perf script --no-inline -i "$1" -F comm,tid,ip,sym 2>/dev/null | awk -v pid="$ow_pid" '
	/^[^ \t]/ { if (mine) { n++; if (ok) m++ } mine = ($2 == pid); ok = 0; seen = 0; next }
	/^[ \t]*$/ { next }
	mine && !seen && $1 !~ /^ffff/ { seen = 1; ok = ($2 != "[unknown]") }
	END { if (mine) { n++; if (ok) m++ } print n + 0, m + 0 }'
}
set -- $(named /tmp/owpp.data)
echo "# wrapped rings: persistent names $2 of the $1 samples of pp-prof it holds ($(pct "$1" "$2") %)"
pn=$1 pm=$2
set -- $(named /tmp/ow.data)
echo "# wrapped rings: perf record --overwrite -g names $2 of the $1 it holds ($(pct "$1" "$2") %)"
check "wrapped: persistent names at least 95 % of what it holds" \
	[ "$pn" -ge 100 -a "$(pct "$pn" "$pm")" -ge 95 ]
perf persistent destroy ow >/dev/null

# --- --call-graph dwarf: a program built without frame pointers ---
# The kernel's frames walked, the user's registers and 8 KiB of stack
# for perf to unwind with the binary's DWARF, as perf record --call-graph
# dwarf; beside it the frame-pointer walk, which cannot find the callers.
perf persistent create -d -n dw -m 4M -F 499 --call-graph dwarf cpu-clock \
	>/dev/null 2>&1 || not_ok "create --call-graph dwarf"
perf persistent create -d -n dwfp -m 1M -F 499 -g cpu-clock >/dev/null 2>&1 ||
	not_ok "create dwfp"
pp-prof-nofp 1500 >/dev/null
perf persistent pause dw >/dev/null
perf persistent pause dwfp >/dev/null
perf persistent info dw >/tmp/dw.info
check_grep "info: dwarf's fields" "^sample fields: .*callchain" /tmp/dw.info
perf persistent record -o /tmp/dw.data dw 2>/dev/null
perf persistent record -o /tmp/dwfp.data dwfp 2>/dev/null
perf script --no-inline -i /tmp/dw.data -F comm,tid,ip,sym >/tmp/dw.script 2>/tmp/dw.err
perf script --no-inline -i /tmp/dwfp.data -F comm,tid,ip,sym >/tmp/dwfp.script 2>/dev/null
set -- $(chain_stats /tmp/dw.script pp-prof-nofp pp_hot_inner pp_hot_outer)
dn=$1 dm=$2
set -- $(chain_stats /tmp/dwfp.script pp-prof-nofp pp_hot_inner pp_hot_outer)
echo "# no frame pointers: dwarf names $dm of $dn samples as pp_hot_inner under pp_hot_outer ($(pct "$dn" "$dm") %), the frame-pointer walk $2 of $1"
# perf unwinds: the lab's perf 7.3 (the x86 7.x, 6.12 and debug lanes) is
# built without libdw and libunwind; Debian's perf 6.1 (the 6.1 lane) and
# Debian 13's arm64 perf (arm64-7.3) have them.
if perf version --build-options 2>/dev/null | grep -q "dwarf-unwind: *\[ on"; then
	check "dwarf: the callers of a program without frame pointers, 90 % and more" \
		[ "$dn" -ge 100 -a "$(pct "$dn" "$dm")" -ge 90 ]
else
	perf report -D -i /tmp/dw.data >/tmp/dw.dump 2>/dev/null
	check_grep "dwarf: perf reads the user registers" "user regs: mask 0x[0-9a-f]+ ABI 64-bit" /tmp/dw.dump
	check_grep "dwarf: ... and the user stack" "ustack: size [1-9][0-9]*" /tmp/dw.dump
	skip "dwarf: unwound by perf" "this perf is built without DWARF unwinding"
fi
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
# the cache off (idle_chain_cache=0), the most frequent idle chain is the
# same, return address for return address, and every idle chain ends in
# one of the outermost frames of those walked.
idle_written() { # NAME N: has NAME written N records?
	[ "$(perf persistent info "$1" |
		awk '$1 ~ /^[0-9]+$/ { n += $3 } END { print n + 0 }')" -ge "$2" ]
}
idle_chains() { # NAME OUT: the idle tasks' chains, one a line, by count
	perf persistent create -d -n "$1" -m 1M -F 499 -g cpu-clock >/dev/null 2>&1 ||
		not_ok "create $1"
	pp_wait_until -- idle_written "$1" 400 || not_ok "$1 sampled"
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
	top_on=$(head -n1 /tmp/idle_on.chains | sed 's/^ *[0-9]* //')
	top_off=$(head -n1 /tmp/idle_off.chains | sed 's/^ *[0-9]* //')
	echo "# idle chains: $(wc -l </tmp/idle_on.chains) kinds with the cache, $(wc -l </tmp/idle_off.chains) without; the most frequent:$top_on"
	check "idle chains sampled, with and without the cache" \
		[ -n "$top_on" -a -n "$top_off" ]
	check_eq "the most frequent idle chain is the walk's" "$top_off" "$top_on"
	awk '{ print $NF }' /tmp/idle_off.chains | sort -u >/tmp/idle_off.outer
	check_eq "every idle chain ends where a walked one does" "" \
		"$(awk '{ print $NF }' /tmp/idle_on.chains | sort -u | grep -vxFf /tmp/idle_off.outer)"
else
	skip "the idle chain cache is x86-64's"
fi

for e in prof prof4 sw_g gone flat; do
	perf persistent destroy "$e" >/dev/null || not_ok "destroy $e"
done
# An event is freed once its writers are done: wait for the last.
m=/sys/bus/event_source/devices/persistent/maps
pp_wait_until -- grep -qx 0 $m/processes
check_eq "the last profile gone, the table is empty" 0 "$(cat $m/processes)"
check_eq "... and takes no memory" 0 "$(cat $m/bytes)"

# --- the budget: a table of 1 KiB keeps one process, counts the other ---
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
