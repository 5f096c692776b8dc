# SPDX-License-Identifier: GPL-2.0
#
# Delivery to live readers from sources that fire in task and in interrupt
# context on the same CPU (kmem:kmalloc, timer:hrtimer_expire_entry), so
# that the delivery work often interrupts a writer in the middle of its
# record: it must leave the writer to finish (its commit queues the next
# delivery) instead of queueing itself again at once, which would keep
# the CPU in interrupts for good.  And no source the delivery itself
# fires may make it feed itself.
. ./lib.sh

pp_load events=
kp=/sys/kernel/tracing
ncpus=$(grep -c ^processor /proc/cpuinfo)
pp-ctl create km tp=kmem:kmalloc buffer=65536 detached \
	create hrt tp=timer:hrtimer_expire_entry buffer=65536 detached >/tmp/out
check_grep "kmem:kmalloc source created" "^create km: OK" /tmp/out
check_grep "timer:hrtimer_expire_entry source created" "^create hrt: OK" /tmp/out

# Load in task context meanwhile: allocations and timers on every CPU (a
# shell opening a seq_file over and over, which kmallocs its buffer; ls -R
# made a tenth as many), until 5000 more allocations and 1000 more timer
# expiries were recorded;
# then the load stops and perf reads until its readers have every record.
# (With the load still running the readers are never done: each moment
# brings new records.)
work="pp_wait_readers km $ncpus && pp_wait_readers hrt $ncpus &&
	km=\$((\$(pp_stat km written) + 5000)) && hrt=\$((\$(pp_stat hrt written) + 1000)) &&
	p= && for c in \$(seq 0 $((ncpus - 1))); do
		taskset -c \$c sh -c 'while :; do read l </proc/self/stat; done' &
		p=\"\$p \$!\"
	done &&
	pp_wait_stat km written \$km && pp_wait_stat hrt written \$hrt; rc=\$?;
	kill \$p; wait; [ \$rc = 0 ] && pp_wait_delivered km && pp_wait_delivered hrt"
perf record -a -o /tmp/d.data -e persistent/km/ -e persistent/hrt/ -- \
	sh -c ". /tests/lib.sh; $work" >/tmp/d.out 2>&1
check "perf record reads them to the end" test $? -eq 0
type=$(cat "$PP_SYS/type")
pp-perfdata /tmp/d.data "$type" >/tmp/d.samples
check "and received their records" test "$(sed -n 's/^samples=//p' /tmp/d.samples)" -gt 5000
pp-ctl destroy km destroy hrt >/dev/null

# A steady stream of records is delivered in batches, not with an
# interrupt per record: 40000 system calls in a row (dd, one byte at a
# time) on CPU 0 with a reader of raw_syscalls:sys_enter on every CPU
# cost far fewer irq_work interrupts than records.  (One interrupt per
# record was the rate before the delivery coalesced them.)
pp-ctl create sc tp=raw_syscalls:sys_enter buffer=1048576 detached >/tmp/out
check_grep "raw_syscalls:sys_enter source created" "^create sc: OK" /tmp/out
work="pp_wait_readers sc $ncpus && i0=\$(pp_irq_work_interrupts) &&
	w0=\$(pp_stat sc written) &&
	taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null &&
	echo records=\$((\$(pp_stat sc written) - w0)) iwi=\$((\$(pp_irq_work_interrupts) - i0))"
perf record -a -o /tmp/s.data -e persistent/sc/ -- \
	sh -c ". /tests/lib.sh; $work" >/tmp/s.out 2>&1
check "perf record over raw_syscalls:sys_enter ends" test $? -eq 0
records=$(sed -n 's/^records=\([0-9]*\) .*/\1/p' /tmp/s.out)
interrupts=$(sed -n 's/.* iwi=\([0-9]*\)$/\1/p' /tmp/s.out)
echo "# $records records, $interrupts irq_work interrupts"
check "fewer than one irq_work interrupt per 4 records" \
	test "$((${interrupts:-1000000} * 4))" -lt "${records:-0}"
pp-ctl destroy sc >/dev/null

# Coalescing must not cost records: a 4 KiB buffer goes round in far less
# than the coalescing delay under the same stream, so a writer that finds
# half the buffer undelivered queues the delivery at once.  Nothing may be
# overwritten before the reader has it.
pp-ctl create small tp=raw_syscalls:sys_enter buffer=4096 detached >/dev/null
work="pp_wait_readers small $ncpus &&
	taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null"
perf record -a -o /tmp/s.data -e persistent/small/ -- \
	sh -c ". /tests/lib.sh; $work" >/tmp/s.out 2>&1
check "perf record over a 4 KiB buffer ends" test $? -eq 0
check "more than the buffer went round" test "$(pp_stat small overwritten)" -gt 1000
check_eq "and the reader lost nothing of it" 0 "$(pp_stat small lost)"
pp-ctl destroy small >/dev/null

# Sources the delivery fires itself: the self-IPI of its irq_work, and the
# local timer of its pace.  A record made by a run's own interrupt must not
# queue a run that follows at once, for good: the CPU would never leave
# interrupts.  Each CPU must still run a task to its end meanwhile, and the
# records still reach perf.  (Every x86 lab kernel has these tracepoints;
# the kernel itself refuses to sample irq_work_exit, for this very loop:
# row E67 of 98-errnos.)  arm64 has no irq_vectors: there the irq_work's
# self-IPI is ipi:ipi_raise (which the delivery's queueing fires itself)
# and ipi:ipi_entry, and its timer's interrupt an irq:irq_handler_entry.
if [ -d /sys/kernel/tracing/events/irq_vectors ]; then
	set -- irq_vectors:irq_work_entry irq_vectors:local_timer_entry irq_vectors:local_timer_exit
else
	set -- ipi:ipi_raise ipi:ipi_entry irq:irq_handler_entry
fi
pp-ctl create iwe tp=$1 buffer=65536 detached \
	create lte tp=$2 buffer=65536 detached \
	create ltx tp=$3 buffer=65536 detached >/tmp/out
check_eq "$*: sources created" 3 "$(grep -c ': OK id=' /tmp/out)"
# The work: readers of all three on every CPU, then a task pinned to
# each CPU counting to 20000.
work="pp_wait_readers iwe $ncpus && pp_wait_readers lte $ncpus &&
	pp_wait_readers ltx $ncpus && for c in \$(seq 0 $((ncpus - 1))); do
	taskset -c \$c sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i + 1)); done; echo \$i' &
	done; wait"
perf record -a -o /tmp/i.data -e persistent/iwe/ -e persistent/lte/ \
	-e persistent/ltx/ -- sh -c ". /tests/lib.sh; $work" >/tmp/i.out 2>&1
check "perf record over self-fed sources ends" test $? -eq 0
check_eq "each CPU ran its task to the end" "$ncpus" "$(grep -c '^20000$' /tmp/i.out)"
pp-perfdata /tmp/i.data "$type" >/tmp/i
check "and the records reached perf" test "$(sed -n 's/^samples=//p' /tmp/i)" -gt 0
pp-ctl destroy iwe destroy lte destroy ltx >/dev/null
# The delivery's own timer must not keep itself going.  A reader of
# timer:hrtimer_expire_entry on every CPU: each expiry of the timer that
# coalesces deliveries (function=pp_pace) is a record, which the run it
# queues delivers.  Setting the timer again after such a run made it
# expire every millisecond on every CPU for as long as a reader was
# attached, idle or not.  Now it expires at most about once per record of
# other timers: it is set by a run that delivered something else.  The
# other timers: a task on each CPU sleeping 10 ms at a time, 100 expiries
# a second, a tenth of the 1000 a second the delivery's timer made.  (An
# idle guest has too few: on the KCSAN kernel 1500 took two minutes.)
pace=$(printf '%u' "0x$(awk '$3 == "pp_pace" { print $1; exit }' /proc/kallsyms)")
pp-ctl create hx tp=timer:hrtimer_expire_entry buffer=262144 detached >/tmp/out
check_grep "timer:hrtimer_expire_entry source created" "^create hx: OK" /tmp/out
work="pp_wait_readers hx $ncpus && p= && for c in \$(seq 0 $((ncpus - 1))); do
		taskset -c \$c sh -c 'while :; do usleep 10000; done' &
		p=\"\$p \$!\"
	done &&
	pp_wait_stat hx written $(($(pp_stat hx written) + 1500)); rc=\$?;
	kill \$p; wait; exit \$rc"
perf record -a -o /tmp/h.data -e persistent/hx/ -- \
	sh -c ". /tests/lib.sh; $work" >/tmp/h.out 2>&1
check "perf record over hrtimer_expire_entry ends" test $? -eq 0
perf persistent script hx --json >/tmp/h.json
self=$(grep -c "\"function\":$pace[,}]" /tmp/h.json)
other=$(($(grep -c '"function":' /tmp/h.json) - self))
echo "# the delivery's timer expired $self times, other timers $other times"
check "other timers' expiries were recorded" test "$other" -gt 100
check "the delivery's timer did not keep itself going" \
	test "$self" -le "$((other + 20))"
pp-ctl destroy hx >/dev/null

# A source that the run itself fires, once per record it delivers: a
# kprobe on the function each delivered record is read with, read
# together with system calls (the first records to deliver).  A run that
# queued the next one at once (when its budget ran out, or because its own
# records queued it) fed itself for good, in hardirq: the CPU never left
# interrupts.  Records stored during a run now wait for the timer.
if [ -w "$kp/kprobe_events" ] &&
   echo 'p:ppnext perf_persistent:pp_buffer_next_oldest' >>"$kp/kprobe_events"; then
	pp-ctl create nx tp=kprobes:ppnext buffer=65536 detached \
		create nxs tp=raw_syscalls:sys_enter buffer=65536 detached >/tmp/out
	check_eq "kprobes:ppnext, raw_syscalls:sys_enter sources created" 2 \
		"$(grep -c ': OK id=' /tmp/out)"
	work="pp_wait_readers nx $ncpus && for c in \$(seq 0 $((ncpus - 1))); do
		taskset -c \$c sh -c 'i=0; while [ \$i -lt 2000 ]; do i=\$((i + 1)); done; echo \$i' &
		done; wait"
	perf record -a -o /tmp/n.data -e persistent/nx/ -e persistent/nxs/ -- \
		sh -c ". /tests/lib.sh; $work" >/tmp/n.out 2>&1
	check "perf record over a source the delivery fires ends" test $? -eq 0
	check_eq "each CPU ran its task to the end" "$ncpus" \
		"$(grep -c '^2000$' /tmp/n.out)"
	check "the delivery fed it" test "$(pp_stat nx written)" -gt 1000
	pp-ctl destroy nx destroy nxs >/dev/null
	echo '-:ppnext' >>"$kp/kprobe_events"
else
	for t in "source created" "perf record ends" "each CPU ran its task" "fed"; do
		ok "kprobe on the delivery: $t # SKIP no kprobe events in this kernel"
	done
fi

check "kernel log clean" pp_log_clean
check "rmmod" pp_unload

done_testing
