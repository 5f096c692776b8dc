# SPDX-License-Identifier: GPL-2.0
#
# tests/failnth.sh - every allocation of the module's operations failed on
# purpose (tests/pp-failnth.c), run by scripts/failnth-check in two runs of
# the debug kernel of 7.3 (fault injection, KASAN, kmemleak, lockdep)
# that share their RAM (vm-run --ram-file), the region reserved by
# MEMMAP (memmap=) and given as REGION (region=):
#   STEP=walk    the operations' walks, the module loaded with the region:
#                opening the device, CREATE of every source kind and
#                scope (the kept one into the region), ATTACH, a perf
#                reader's open, mmap, TRIGGER, WATCH, MAPS; then the
#                load's walks, with load-time events and triggers, and
#                with the region (this boot's: nothing found in it).
#                Last, the module is loaded with the region, its kept
#                events record and are paused and printed ("==== script
#                NAME"), and the run powers off with its RAM kept.
#   STEP=region  the load's walk with the region holding the first run's
#                events: every load that failed must have left them
#                there, so the load that succeeds shows them whole
#                ("==== previous NAME", "==== found NAME"; the host
#                compares them with the first run's).
# Each run ends with kmemleak's scan: nothing a failure left behind.
# Prints TAP.
. ./lib.sh

# vm-run --no-load: the module loads here, after kmemleak's slate is
# cleared, so that the scan at the end sees what the walks leaked.
km=/sys/kernel/debug/kmemleak
[ -w $km ] || km=
[ -z "$km" ] || { echo scan=off >$km; echo clear >$km; }

# Fault injection: fail-nth fails the Nth allocation of this task's, among
# those whose stack passes through a module's code (from the end of the
# kernel's image up: the modules' addresses; the only module loaded is
# perf_persistent, and the load's walk fails only what its init does,
# not what the kernel's module loader allocates).  Sleeping allocations
# too (ignore-gfp-wait), order 0 pages too (min-order).  verbose=1: each
# failure is logged in one line, without its stack; the allocator's own
# report of a page allocation failure, with its stack, follows it
# (scripts/splat-scan passes those, in pp-failnth).
# (The addresses go in as hex: the shell's arithmetic is signed.)
end=$(sed -n 's/^\([0-9a-f]*\) . _end$/\1/p' /proc/kallsyms)
for d in /sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc; do
	echo N >$d/ignore-gfp-wait
	echo 1 >$d/verbose
	echo 32 >$d/stacktrace-depth
	echo "0x$end" >$d/require-start
	echo 0xffffffffff000000 >$d/require-end
	# After the Nth, every later allocation of a task that asks for it
	# (make-it-fail, which pp-failnth sets while its operation runs).
	echo Y >$d/task-filter
	echo 100 >$d/probability
	echo 1 >$d/interval
	echo -1 >$d/times
done
echo N >/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
ranged() {
	for d in /sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc; do
		[ "$(cat $d/require-start)" != 0 ] &&
			[ "$(cat $d/require-end)" != 18446744073709551615 ] || return 1
	done
}
check "fault injection fails only what the modules' code allocates" ranged

# leak_check: the module unloaded, kmemleak's scan finds nothing the
# walks left.
leak_check() {
	pp_unload
	[ -n "$km" ] || return 0
	# kmemleak reports only objects older than 5 s.
	sleep 6
	echo scan >$km
	check_eq "kmemleak: the failures leaked nothing" "" "$(grep -A12 unreferenced $km)"
}

# walks ROW ERRNO ARGS...: pp-failnth ARGS, whose every failure must give
# ERRNO: the row of Documentation/errors.rst these walks test
# (scripts/errno-check reads the lines).
walks() {
	shift 2
	failnth "$@"
}

# failnth ARGS...: pp-failnth's TAP as this script's.
failnth() {
	pp-failnth "$@" >/tmp/failnth 2>&1
	echo "# pp-failnth $*: exit $?"
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) not_ok "${line#not ok - }" ;;
		*) echo "# $line" ;;
		esac
	done </tmp/failnth
}

modargs="region=$REGION"
if [ "$STEP" = walk ]; then
	modprobe perf_persistent "$modargs" || exit 1
	pp_log_mark
	walks E153 ENOMEM open create-tp create-perf-path create-syscall \
		create-comm create-callchain create-breakpoint create-task \
		create-cgroup create-keep attach reader mmap trigger watch \
		watch-overflow maps
	pp_unload
	# Every part of the load: the region (this boot's), load-time events
	# of three kinds with COMM records, a trigger between them.  Each try
	# is a module load (a second and more on this kernel), so one
	# allocation in twelve is failed, with every later one: the walk
	# passes over the sites between two it fails, each of which the
	# shortage of the try before meets too, in its own unwinding.
	walks E154 ENOMEM -s 12 "load=$modargs events=sched:sched_switch/16K,?mce:mce_record,raw_syscalls:sys_enter/8K comm=1 triggers=sched_switch:mce_record+sys_enter/count=5"
	check "kernel log clean after the walks" pp_log_clean
	leak_check

	# What the next run must find after its failed loads; the module
	# stays loaded (an unload would empty the region's directory).
	modprobe perf_persistent "$modargs" || exit 1
	pp_keep_switches 16K || exit 1
	for n in mce_record switches; do
		echo "==== script $n"
		perf persistent script "$n"
	done
	echo "==== end"
else
	pp_log_mark
	# No load-time events: a load that makes some of them and not the
	# others loads all the same (each is logged).  The walk ends at the
	# first load that succeeds (-e): its unload would take the previous
	# boot's events with it.
	walks E155 ENOMEM -e -s 25 "load=$modargs events="
	check "the module is loaded" test -d /sys/module/perf_persistent
	check_eq "no kept descriptor was dropped" 0 \
		"$(cat "$PP_SYS/previous_boot/dropped_descriptors" 2>/dev/null)"
	for n in mce_record switches; do
		echo "==== previous $n"
		perf persistent script --previous "$n"
		echo "==== found $n"
		cat "$PP_SYS/instances/previous.$n/found"
	done
	echo "==== end"
	check "kernel log clean after the walk" pp_log_clean

	leak_check
fi
done_testing
