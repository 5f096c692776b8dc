# SPDX-License-Identifier: GPL-2.0
#
# Privileges and what reaches userspace.  The refusals (device root-only,
# EPERM without CAP_PERFMON/CAP_SYS_ADMIN for every verb that changes
# something, readers as perf_event_paranoid allows perf itself) are rows
# E01-E07 and E54 of 98-errnos; mappings need only the open device.  Here:
# the same
# with capabilities dropped by a root process, and no uninitialised byte or
# kernel pointer in what INFO, LIST and the mappings return.
. ./lib.sh

pp_load
# RAW from a source without raw data: every record has 4 bytes of padding;
# a small buffer that wraps many times, so stale bytes would show.
pp-ctl create pad sw=0 period=100000 sample=0x400 buffer=4096 detached >/dev/null
pp_wait_stat pad overwritten 1000
id=$(pp_stat pad id)

pp-ctl drop-caps create x sw=1 detached destroy pad detach pad attach pad pause pad resume pad \
	info pad list >/tmp/out
for verb in "create x" "destroy pad" "detach pad" "attach pad" "pause pad" "resume pad"; do
	check_grep "no capabilities: $verb -> EPERM" "^$verb: EPERM$" /tmp/out
done
check_grep "no capabilities: info still allowed (the device is root-only)" "^info pad: OK$" /tmp/out
check_eq "no capabilities, the device open: mapping allowed (its mode decides)" "mmap: MAPPED" \
	"$(PP_DROP_CAPS=1 pp-mmap "$id" 0 size 8192 | tail -n 1)"
check_eq "nothing changed meanwhile" "detached" "$(pp_stat pad state)"

pp-leakcheck "$id" >/tmp/leak
sed 's/^/# /' /tmp/leak
check_grep "no uninitialised byte, no stray data reaches userspace" "^leakcheck: passed$" /tmp/leak
check_no_grep "every leakcheck item passed" "FAILED" /tmp/leak

# A reader receives exactly what perf would give its opener from a
# CPU-wide event on the source: for every perf_event_paranoid value, for
# root, for user nobody with CAP_PERFMON and for nobody, a reader of a
# tracepoint event (raw data) and of a software event gets the answer that
# opening the source itself gets, and that is perf's table: raw tracepoint
# data needs -1 or CAP_PERFMON (EPERM), a CPU-wide event 0 or less or
# CAP_PERFMON (EACCES, checked after the source's own rule), kernel samples
# 1 or less (EACCES, checked before), and Debian's 3 needs CAP_SYS_ADMIN
# for anything (EACCES, before all).
pp-ctl create rtp tp=sched:sched_switch buffer=4096 detached \
	create rsw sw=1 buffer=4096 detached >/dev/null
tp_id=$(cat /sys/kernel/tracing/events/sched/sched_switch/id)
expected() { # PARANOID WHO SOURCE
	if [ "$2" = root ]; then
		echo OK
	elif [ "$1" = 3 ]; then
		echo EACCES
	elif [ "$2" = perfmon ]; then
		echo OK
	elif [ "$1" = 2 ]; then
		echo EACCES
	elif [ "$3" = rtp ] && [ "$1" -gt -1 ]; then
		echo EPERM
	elif [ "$1" -gt 0 ]; then
		echo EACCES
	else
		echo OK
	fi
}
for paranoid in -1 0 1 2 3; do
	echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
	for who in root perfmon nobody; do
		as=
		[ "$who" = root ] || as="--as $who"
		for ev in rtp rsw; do
			if [ $ev = rtp ]; then
				src=$(pp-open --type 2 --config "$tp_id" --raw --cpu 0 $as)
			else
				src=$(pp-open --type 1 --config 1 --raw --cpu 0 $as)
			fi
			got=$(pp-open --config "$(pp_stat $ev id)" --cpu 0 $as)
			want=$(expected "$paranoid" "$who" "$ev")
			check_eq "paranoid $paranoid, $who, $ev: the source itself gives $want" "$want" "$src"
			check_eq "paranoid $paranoid, $who, $ev: so does a reader" "$src" "$got"
		done
	done
done
echo 3 >/proc/sys/kernel/perf_event_paranoid

pp-ctl destroy pad destroy rtp destroy rsw >/dev/null
check "kernel log clean" pp_log_clean

done_testing
