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

settle
check "slab back to its starting level (+-2 MiB): $slab0 -> $(slab) kB" \
	test $(($(slab) - slab0)) -lt 2048
check "vmalloc back to its starting level (+-1 MiB): $vmalloc0 -> $(vmalloc) kB" \
	test $(($(vmalloc) - vmalloc0)) -lt 1024
check "kernel log clean" pp_log_clean

done_testing
