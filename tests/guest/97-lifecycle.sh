# SPDX-License-Identifier: GPL-2.0
#
# PP_CYCLES load/unload cycles, each creating events and readers and
# tearing them down; unload refused while any user exists; memory back to
# where it started.  100 cycles by default, so that a leak of a few KiB a
# cycle shows in the slab level; 25 on a kernel with kmemleak, whose scan
# at the end of the run (tests/run) names any object a cycle leaked.
. ./lib.sh

if [ -e /sys/kernel/debug/kmemleak ]; then
	cycles=${PP_CYCLES:-25}
else
	cycles=${PP_CYCLES:-100}
fi
slab() { sed -n 's/^Slab: *\([0-9]*\) kB/\1/p' /proc/meminfo; }
vmalloc() { sed -n 's/^VmallocUsed: *\([0-9]*\) kB/\1/p' /proc/meminfo; }
# Free what the kernel keeps of freed memory before measuring: the page
# cache, and in each slab cache its empty slabs and, with KASAN, the
# quarantine of freed objects (up to 1/32 of memory, counted in Slab until
# it is drained: kmem_cache_shrink() drains it).
settle() {
	echo 3 >/proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do echo 1 >"$f"; done 2>/dev/null
}

# One cycle first, so that caches it fills once are filled before measuring.
pp_load && pp-ctl create warm sw=3 detached >/dev/null && pp_unload
settle
slab0=$(slab)
vmalloc0=$(vmalloc)

done_cycles=0 refused=0
i=0
while [ $i -lt "$cycles" ]; do
	i=$((i + 1))
	[ $((i % 10)) = 0 ] && echo "# cycle $i"
	pp_load || break
	pp-ctl create "a$i" sw=3 detached create "b$i" tp=sched:sched_switch buffer=8192 \
		detached >/tmp/c || break
	grep -q ': OK id=' /tmp/c || break
	id=$(pp_stat "a$i" id)
	# A reader and a control file hold the module while they exist.
	pp-open --config "$id" --cpu 0 >/dev/null || break
	: >/tmp/h
	pp-ctl create "h$i" sw=1 hold >>/tmp/h &
	h=$!
	if ! pp_wait_grep '^hold: OK' /tmp/h; then
		echo "# cycle $i: the holder never held its event"
		break
	fi
	if [ $((i % 10)) = 1 ]; then
		rmmod perf_persistent 2>/dev/null || refused=$((refused + 1))
	fi
	kill $h
	wait $h
	pp_unload || break
	done_cycles=$i
done
check_eq "$cycles load/unload cycles with events and readers" "$cycles" "$done_cycles"
check_eq "unload refused each time a user existed" $(((cycles + 9) / 10)) "$refused"

# Triggers hold references to their targets: a cycle (ta -> tb, tb -> ta),
# a trigger on itself, a target destroyed first, a source owned by a file
# that closes, a watching file, and the unload with triggers still set
# must free everything (kmemleak and the slab level below say so).
pp_load events=
pp-ctl create ta sw=0 period=200000 buffer=8192 detached \
	create tb sw=0 period=200000 buffer=8192 detached \
	create tc sw=0 period=200000 buffer=8192 detached \
	trigger ta tb,tc trigger tb ta count=100000000 trigger tc tc after=3 >/tmp/trig
check_eq "triggers: a cycle, a trigger on itself" 3 "$(grep -c '^trigger .*: OK$' /tmp/trig)"
check "ta's records froze tb" pp_wait_stat tb freezes 1
check "tc froze itself" pp_wait_stat tc freezes 1
pp-ctl destroy tb >/dev/null
: >/tmp/h
pp-ctl create td sw=0 period=200000 buffer=8192 trigger td ta,tc after=2 watch 0 hold >/tmp/h &
h=$!
pp_wait_grep '^hold: OK' /tmp/h
check "a trigger of an event a file owns" grep -q '^trigger td: OK$' /tmp/h
kill $h
wait $h
check_eq "closed: its event and trigger are gone" "" "$(ls "$PP_SYS/events" | grep td)"
check "unload with triggers set" pp_unload

# A burst on one tracepoint (Documentation/benchmark.rst: a thousand events
# in two seconds).  perf is asked about the source once for the burst, and
# every event of it takes the direct path as the first did.  DESTROY
# returns before the buffers go; they go once the handlers still running
# have finished, and a creation short of memory waits for them.
pp_load events=
args="" i=0
while [ $i -lt 50 ]; do
	args="$args create burst$i tp=sched:sched_switch buffer=8192 detached"
	i=$((i + 1))
done
pp-ctl $args >/tmp/burst
check_eq "a burst of 50 events on one tracepoint" 50 "$(grep -c ': OK id=' /tmp/burst)"
check_eq "each on the direct path" 50 \
	"$(i=0; while [ $i -lt 50 ]; do pp_stat "burst$i" path; i=$((i + 1)); done | grep -c '^direct$')"
check "the last one records" pp_wait_stat burst49 written 1
pp-ctl $(echo "$args" | sed 's/create \(burst[0-9]*\) [^ ]* [^ ]* detached/destroy \1/g') >/tmp/burst
check_eq "destroyed, all at once" 50 "$(grep -c ': OK$' /tmp/burst)"
check_eq "gone from events/ when DESTROY returns" "" "$(ls "$PP_SYS/events")"
check "their memory comes back" pp_wait_memory_used 0
pp_unload
# The largest power-of-two buffer of which one event fits in 1 MiB and two
# do not.
ncpus=$(grep -c ^processor /proc/cpuinfo)
size=524288
while [ $((size * ncpus)) -gt 524288 ]; do size=$((size / 2)); done
pp_load events= memory_limit_mb=1
pp-ctl create room sw=1 buffer=$size detached >/tmp/room
check_grep "an event that takes most of memory_limit_mb" "^create room: OK" /tmp/room
pp-ctl destroy room create again sw=1 buffer=$size detached >/tmp/room
check_grep "created right after DESTROY: it waited for the memory" "^create again: OK" /tmp/room
pp_unload

# The scopes' lifetimes, under the leak scan at the end of the run on the
# debug kernel (91-scopes has their behaviour, on lanes without kmemleak):
# a task-scoped event with inherit whose target, its threads and children
# exit while it records; one destroyed while its target runs on; cgroup-
# scoped events by path and by fd, on perf's path and the direct path, the
# cgroup removed after them.
pp_load events=
cg=/sys/fs/cgroup
mkdir -p $cg
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
mkdir -p $cg/pplc
: >/tmp/sx.tree
pp-tree tree 2 >/tmp/sx.tree 2>&1 &
sx=$!
: >/tmp/sd.tree
pp-tree tree 2 >/tmp/sd.tree 2>&1 &
sd=$!
pp_wait_grep '^ready pid=' /tmp/sx.tree
pp_wait_grep '^ready pid=' /tmp/sd.tree
pp-ctl create sx tp=task:task_rename pid=$sx inherit detached \
	create sd tp=task:task_rename pid=$sd inherit inherit-thread detached \
	create cp tp=task:task_rename cgroup=/pplc detached \
	create cf tp=raw_syscalls:sys_enter cgroup-fd=$cg/pplc detached \
	create cd tp=raw_syscalls:sys_enter cgroup=/pplc detached >/tmp/sc
check_eq "scopes: two task-scoped and three cgroup-scoped events" 5 \
	"$(grep -c ': OK id=' /tmp/sc)"
kill -USR1 $sx
wait $sx
check "scopes: the target exited, its threads' and children's records kept" \
	pp_wait_until -- test "$(pp_stat sx state) $(pp_stat sx written)" = "detached exited 12"
pp-ctl destroy sd >/dev/null
kill -USR1 $sd
wait $sd
check_eq "scopes: destroyed while its target ran, the target ran on" 0 $?
: >/tmp/cg.out
pp-tree calls 3 $cg/pplc >/tmp/cg.out 2>&1 &
cgp=$!
pp_wait_grep '^ready pid=' /tmp/cg.out
kill -USR1 $cgp
wait $cgp
check_eq "scopes: the cgroup's task recorded" 3 "$(pp_stat cp written)"
pp-ctl destroy sx destroy cp destroy cf destroy cd >/dev/null
rmdir $cg/pplc
check "scopes: unload" pp_unload

settle
check "slab back to its starting level (+-2 MiB): $slab0 -> $(slab) kB" \
	test $(($(slab) - slab0)) -lt 2048
check "vmalloc back to its starting level (+-1 MiB): $vmalloc0 -> $(vmalloc) kB" \
	test $(($(vmalloc) - vmalloc0)) -lt 1024
check "kernel log clean" pp_log_clean

done_testing
