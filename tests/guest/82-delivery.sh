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
ncpus=$(grep -c ^processor /proc/cpuinfo)
pp-ctl create km tp=kmem:kmalloc buffer=65536 detached \
	create hrt tp=timer:hrtimer_expire_entry buffer=65536 detached >/tmp/out
check_grep "kmem:kmalloc source created" "^create km: OK" /tmp/out
check_grep "timer:hrtimer_expire_entry source created" "^create hrt: OK" /tmp/out

# Load in task context meanwhile: allocations and timers on every CPU.
loaders=
for cpu in $(seq 0 $((ncpus - 1))); do
	taskset -c "$cpu" sh -c 'while :; do ls -R /sys/bus >/dev/null 2>&1; done' &
	loaders="$loaders $!"
done
# perf reads both until 20000 more allocations and 1000 more timer
# expiries were recorded.
perf record -a -o /tmp/d.data -e persistent/km/ -e persistent/hrt/ -- sh -c "
	pp-read-window km $ncpus $(($(pp_stat km written) + 20000)) &&
	pp-read-window hrt $ncpus $(($(pp_stat hrt written) + 1000))" >/tmp/d.out 2>&1
check "perf record reads them to the end" test $? -eq 0
kill $loaders
wait
type=$(cat "$PP_SYS/type")
pp-perfdata /tmp/d.data "$type" >/tmp/d
check "and received their records" test "$(sed -n 's/^samples=//p' /tmp/d)" -gt 20000
pp-ctl destroy km destroy hrt >/dev/null
check "kernel log clean" pp_log_clean
check "rmmod" pp_unload

done_testing
