# SPDX-License-Identifier: GPL-2.0
#
# Scopes: persistent events of one process tree or one cgroup, and the
# seeds' signals.  A process with a thread it had before the event, then
# new threads, children and a grandchild (tests/pp-tree.c), watched
# through its renames (task:task_rename) by a task-scoped event its creator left detached:
# every task's records with inherit, the existing threads' without, the
# threads' only with inherit_thread; the target's exit shown as "exited"
# with its history kept, readers attached across it.  A process-wide
# watchpoint with sigtrap signals each thread that writes, with
# si_perf_data, not the child inherit_thread leaves out, and not after
# exec (remove_on_exec).  SIGIO on overflow to a subscriber's process
# group, every wakeup_events-th record.  A cgroup-scoped event, by path and
# by fd, on perf's path and the direct path, keeps only its cgroup's
# tasks.  perf persistent create --pid, --pidfd, --cgroup and -- CMD.  The errnos
# are rows E100-E117 of 98-errnos.
. ./lib.sh

pp_load
ncpus=$(nproc)
before=$(ls "$PP_SYS/events")

# tids NAME: the tids of NAME's samples, one per line, sorted.
tids() {
	_id=$(pp_stat "$1" id)
	_c=0
	while [ $_c -lt "$ncpus" ]; do
		pp-mmap "$_id" $_c
		_c=$((_c + 1))
	done | grep -v ' comm$' | sed -n 's/^record .* tid=\([0-9]*\) .*/\1/p' | sort -n
}

# started FILE: the tids the tree printed, sorted.
started() {
	sed -n 's/^task tid=\([0-9]*\) .*/\1/p' "$1" | sort -n
}

# tree NAME N OPTIONS...: run pp-tree tree N watched by task-scoped event
# NAME (created detached with OPTIONS by a pp-ctl that exits), to its end.
tree() {
	_name=$1 _n=$2
	shift 2
	pp-tree tree "$_n" >/tmp/$_name.tree 2>&1 &
	_tp=$!
	pp_wait_grep '^ready pid=' /tmp/$_name.tree
	pp-ctl create "$_name" tp=task:task_rename pid=$_tp "$@" \
		detached >/tmp/$_name.create
	check_grep "$_name: created for pid $_tp" "^create $_name: OK" /tmp/$_name.create
	check_eq "$_name: scope in sysfs" "task $_tp" "$(pp_stat "$_name" scope)"
	check_eq "$_name: the creator is gone, the event stays detached" detached \
		"$(pp_stat "$_name" state)"
	kill -USR1 $_tp
	wait $_tp
	check_eq "$_name: the tree ran" 0 $?
}

# ---- inherit: every thread and child --------------------------------------
tree all 3 inherit
check_eq "all: six tasks ran" 6 "$(started /tmp/all.tree | wc -l)"
check_eq "all: records of every task, threads and children, 3 each" \
	"$(started /tmp/all.tree | sed 'p;p')" "$(tids all)"
check_eq "all: 18 records" 18 "$(pp_stat all written)"
check "all: state exited once the target has" pp_wait_until -- \
	test "$(pp_stat all state)" = "detached exited"
check_eq "all: scope says exited" "task $(sed -n 's/^ready pid=//p' /tmp/all.tree) exited" \
	"$(pp_stat all scope)"
pp-ctl info all >/tmp/all.info
check_eq "info: scope TASK" 1 "$(pp_field scope /tmp/all.info)"
check_eq "info: target" "$(sed -n 's/^ready pid=//p' /tmp/all.tree)" "$(pp_field target /tmp/all.info)"
check_eq "info: count, the exited children's included" 18 "$(pp_field count /tmp/all.info)"
check_eq "info: state has EXITED (0x80)" 128 $(($(pp_field state /tmp/all.info) & 0x80))
check_eq "info: the history stays after the exit" 18 "$(pp_field written /tmp/all.info)"

# ---- no inherit: the threads it had --------------------------------------
tree own 2
check_eq "own: records of the two threads it had, not of later tasks" \
	"$(grep -E ' (main|first-thread)$' /tmp/own.tree | sed 's/^task tid=\([0-9]*\) .*/\1/' | sort -n | sed p)" \
	"$(tids own)"

# ---- inherit_thread: threads, not children --------------------------------
tree thr 2 inherit inherit-thread
check_eq "thr: records of its threads, none of its children" \
	"$(grep -E ' (main|first-thread|new-thread)$' /tmp/thr.tree | sed 's/^task tid=\([0-9]*\) .*/\1/' | sort -n | sed p)" \
	"$(tids thr)"
for e in all own thr; do pp-ctl destroy $e >/dev/null; done

# ---- readers attached while the target exits ------------------------------
: >/tmp/rd.tree
pp-tree tree 2 >/tmp/rd.tree 2>&1 &
tp=$!
pp_wait_grep '^ready pid=' /tmp/rd.tree
pp-ctl create rdx tp=task:task_rename pid=$tp inherit detached >/dev/null
perf record -a -R -o /tmp/rd.data -e persistent/rdx/ -- \
	pp-read-window rdx "$ncpus" 12 "kill -USR1 $tp" >/tmp/rd.out 2>&1
check_eq "perf record -a of a task-scoped event across its target's exit" 0 $? ||
	{ sed 's/^/#   /' /tmp/rd.out; kill -USR1 $tp; }
wait $tp
check "rdx: exited" pp_wait_until -- test "$(pp_stat rdx state)" = "detached exited"
pp-perfdata /tmp/rd.data "$(cat $PP_SYS/type)" >/tmp/rd.samples
check_eq "the reader received every task's records" \
	"$(started /tmp/rd.tree | sed p)" \
	"$(sed -n 's/.* orig_tid=\([0-9]*\) .*/\1/p' /tmp/rd.samples | sort -n)"
check_eq "a reader after the exit gets the history" 12 \
	"$(perf persistent script rdx 2>/dev/null | grep -c task_rename)"
pp-ctl destroy rdx >/dev/null

# ---- a process-wide watchpoint with sigtrap (seeds 002, 004) ---------------
: >/tmp/w.out
pp-tree watch >/tmp/w.out 2>&1 &
wp=$!
pp_wait_grep '^ready pid=' /tmp/w.out
addr=$(sed -n 's/^ready pid=[0-9]* addr=//p' /tmp/w.out)
pp-ctl create wp bp=$addr:8:w pid=$wp inherit inherit-thread remove-on-exec \
	sigtrap=0xfeed sample=0x1040f detached >/tmp/w.create
if [ "$(uname -m)" = aarch64 ]; then
	# arm64 steps over a watchpoint's access only for perf's own
	# overflow handler (E144).
	check_grep "arm64: the watchpoint is refused" "^create wp: EOPNOTSUPP" /tmp/w.create
	kill -USR1 $wp
	wait $wp
	ok "watchpoint with sigtrap # SKIP breakpoints are refused on arm64"
else
	kill -USR1 $wp
	wait $wp
	check_eq "the watched process ran" 0 $?
	sed 's/^/# /' /tmp/w.out
	for role in first-thread new-thread main; do
		t=$(sed -n "s/^write tid=\([0-9]*\) $role$/\1/p" /tmp/w.out)
		check_grep "SIGTRAP to the $role that wrote, with si_perf_data, the address, TRAP_PERF and PERF_TYPE_BREAKPOINT" \
			"^sigtrap tid=$t code=6 data=0xfeed addr=$addr type=5$" /tmp/w.out
	done
	check_grep "no SIGTRAP to the child: inherit_thread covers threads only" "^nosig tid=[0-9]+ child$" /tmp/w.out
	check_grep "no SIGTRAP after exec: remove_on_exec" "^nosig tid=[0-9]+ after-exec$" /tmp/w.out
	check_eq "three hits recorded, the threads' (sigtrap keeps the record)" \
		"$(sed -n 's/^write tid=\([0-9]*\) \(first-thread\|new-thread\|main\)$/\1/p' /tmp/w.out | sort -n)" \
		"$(tids wp)"
	check_eq "the records hold the watched address (ADDR)" 3 \
		"$(c=0; while [ $c -lt "$ncpus" ]; do pp-mmap "$(pp_stat wp id)" $c; c=$((c + 1)); done | grep -c "addr=$addr")"
	pp-ctl destroy wp >/dev/null
fi

# ---- SIGIO on overflow to a subscriber and its child (seed 000) ------------
# overflow_sigio NOTIFIER WHAT: the scenario with the notifier program
# NOTIFIER (pp-notify, or pp-notify32 for the compat ioctl), WHAT naming it
# in the checks.
overflow_sigio() {
	: >/tmp/ov.out
	pp-tree calls 5 >/tmp/ov.out 2>&1 &
	op=$!
	pp_wait_grep '^ready pid=' /tmp/ov.out
	pp-ctl create ov tp=task:task_rename pid=$op wakeup=3 detached >/dev/null
	ov=$(pp_stat ov id)
	: >/tmp/ov.notify
	"$1" "$ov" overflow >/tmp/ov.notify 2>&1 &
	np=$!
	pp_wait_grep '^armed' /tmp/ov.notify
	kill -USR1 $op
	wait $op
	wait $np
	check_eq "overflow$2: the subscriber and its child both got SIGIO" 0 $?
	sed 's/^/# /' /tmp/ov.notify
	check_grep "SIGIO$2: the subscriber" "^parent: SIGIO$" /tmp/ov.notify
	check_grep "SIGIO$2: the child that inherited the file" "^child: SIGIO$" /tmp/ov.notify
	check_eq "5 records, wakeup_events 3: one overflow notice$2" 1 \
		"$(grep -c "^notice id=$ov what=4 " /tmp/ov.notify)"
	check_grep "then nothing$2" "^again: EAGAIN$" /tmp/ov.notify
	check_eq "the subscriber does not hold the event$2" "detached exited" \
		"$(pp_stat ov state)"
	pp-ctl destroy ov >/dev/null
}
overflow_sigio pp-notify ""
# A 32-bit program watches overflows through the compat ioctl.  Debian's
# kernels run i386 programs; the lab's debug kernel is built without
# IA32_EMULATION, and says so here.
if pp-notify32 0 unwatched >/tmp/ov32.probe 2>&1; then
	overflow_sigio pp-notify32 " (32-bit)"
else
	echo "# no 32-bit programs on this kernel: $(cat /tmp/ov32.probe)"
fi

# ---- Overflow notices that would feed themselves ---------------------------
# A subscriber's SIGIO is itself a record of an event on
# signal:signal_generate.  A daemon that reads each notice gets the next
# one no sooner than the pacing interval (10 ms) after it: on time, or,
# merged into the one it held while it was late, when it reads that one.
# One that does not read its notice gets no other, and the event goes
# quiet.
pp-ctl create sg tp=signal:signal_generate detached >/dev/null
sg=$(pp_stat sg id)
# sg_notifier MODE...: run "pp-notify $sg MODE..." to its end, its output in
# /tmp/sg.out, started by one signal once it is armed; $fed is how many
# records sg stored meanwhile.  (Before a merged notice was queued again
# on read, a daemon woken after the pace lost its chain: 2 and 14 notices
# of 20 on the debug kernel, beside other guests.)
sg_notifier() {
	_w0=$(pp_stat sg written)
	: >/tmp/sg.out
	pp-notify "$sg" "$@" >/tmp/sg.out 2>&1 &
	_np=$!
	pp_wait_grep '^armed' /tmp/sg.out
	kill -CONT $_np
	wait $_np
	fed=$(($(pp_stat sg written) - _w0))
	sed 's/^/# /' /tmp/sg.out
}
sg_notifier loop 20
n=$(sed -n 's/^notices=\([0-9]*\) .*/\1/p' /tmp/sg.out)
gap=$(sed -n 's/.* min_gap_ns=\([0-9]*\)$/\1/p' /tmp/sg.out)
check_eq "a reading subscriber's own SIGIO posts its next notice: 20 read" 20 "$n"
# (9 ms: the notices are stamped with local_clock() on the CPU that posts
# them, which may differ from the last one's by a little.)
check "... paced: 10 ms or more between two (the smallest gap: ${gap:-?} ns)" \
	[ "${gap:-0}" -ge 9000000 ]
check "... about one record per notice ($fed records for $n notices)" \
	[ "$fed" -le $((2 * ${n:-0} + 20)) ]
sg_notifier still
check_grep "a subscriber that reads nothing holds one notice, lost none" \
	"^queued=1 lost=0 again=[0-9]*$" /tmp/sg.out
# Its SIGIO recorded while it slept, which asked for another notice: that
# one was merged into the one held, and the read left it queued.
check_grep "... and the notice merged into it is there on the next read" \
	" again=1$" /tmp/sg.out
check "... and its SIGIO fed no records (the event stored $fed)" \
	[ "$fed" -le 10 ]
pp-ctl destroy sg >/dev/null

# ---- cgroup scope ----------------------------------------------------------
cg=/sys/fs/cgroup
# run_in_and_out: a task in /ppa/sub makes 4 calls (pid in ip) while one in
# /ppb makes 5 (pid in op); both have ended on return.
run_in_and_out() {
	: >/tmp/in.out
	pp-tree calls 4 $cg/ppa/sub >/tmp/in.out 2>&1 &
	ip=$!
	: >/tmp/out.out
	pp-tree calls 5 $cg/ppb >/tmp/out.out 2>&1 &
	op=$!
	pp_wait_grep '^ready pid=' /tmp/in.out
	pp_wait_grep '^ready pid=' /tmp/out.out
	kill -USR1 $ip $op
	wait $ip
	wait $op
}
mkdir -p $cg
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
mkdir -p $cg/ppa/sub $cg/ppb
pp-ctl create cgp tp=task:task_rename cgroup=/ppa detached >/dev/null
pp-ctl create cgf tp=task:task_rename cgroup-fd=$cg/ppa detached >/dev/null
pp-ctl create cgd tp=raw_syscalls:sys_enter cgroup=/ppa detached >/dev/null
pp-ctl create cgq tp=raw_syscalls:sys_enter cgroup=/ppa flags=0x5 >/dev/null
check_eq "cgroup by path: scope in sysfs" "cgroup /ppa" "$(pp_stat cgp scope)"
check_eq "cgroup by fd: scope in sysfs" "cgroup /ppa" "$(pp_stat cgf scope)"
check_eq "raw_syscalls:sys_enter in a cgroup scope: the direct path" direct "$(pp_stat cgd path)"
check_eq "... and with PERF_PATH: perf's" perf "$(pp_stat cgq path)"
pp-ctl info cgp >/tmp/cgp.info
check_eq "info: scope CGROUP" 2 "$(pp_field scope /tmp/cgp.info)"
check_eq "info: the cgroup's id, its directory's inode" "$(stat -c %i $cg/ppa)" \
	"$(pp_field cgroup_id /tmp/cgp.info)"
run_in_and_out
for e in cgp cgf; do
	check_eq "$e: 4 records, all of the task in the cgroup's descendant" \
		"$ip $ip $ip $ip" "$(tids $e | tr '\n' ' ' | sed 's/ $//')"
done
for e in cgd cgq; do
	check_eq "$e: records only of the cgroup's task" "$ip" "$(tids $e | uniq)"
done
check "counts are the CPUs': the task outside counts too" \
	test "$(pp-ctl info cgp | sed -n 's/^count=//p')" -ge 9
for e in cgp cgf cgd cgq; do pp-ctl destroy $e >/dev/null; done

# The cgroup-scoped events of one tracepoint share one probe, which looks
# up the running task's cgroup and its ancestors in a table (the hub,
# module/direct.h): each event keeps its own cgroup's tasks, nested or not,
# and the others go on when one of them goes.
pp-ctl create hpa tp=raw_syscalls:sys_enter cgroup=/ppa detached \
	create hps tp=raw_syscalls:sys_enter cgroup=/ppa/sub detached \
	create hpb tp=raw_syscalls:sys_enter cgroup=/ppb detached >/tmp/hub
check_eq "hub: three scoped events on one tracepoint" 3 "$(grep -c ': OK id=' /tmp/hub)"
run_in_and_out
check_eq "hub: /ppa keeps its descendant's task only" "$ip" "$(tids hpa | uniq)"
check_eq "hub: /ppa/sub keeps its own task only" "$ip" "$(tids hps | uniq)"
check_eq "hub: /ppb keeps its own task only" "$op" "$(tids hpb | uniq)"
pp-ctl destroy hps >/dev/null
: >/tmp/in.out
pp-tree calls 4 $cg/ppa/sub >/tmp/in.out 2>&1 &
ip2=$!
pp_wait_grep '^ready pid=' /tmp/in.out
kill -USR1 $ip2
wait $ip2
check_eq "hub: /ppa records on after /ppa/sub's event went" "$ip $ip2" \
	"$(tids hpa | uniq | tr '\n' ' ' | sed 's/ $//')"
check_eq "hub: /ppb got none of it" "$op" "$(tids hpb | uniq)"
for e in hpa hpb; do pp-ctl destroy $e >/dev/null; done

# ---- the tool ---------------------------------------------------------------
: >/tmp/tl.out
perf persistent create -n tl task:task_rename -- pp-tree tree 2 \
	>/tmp/tl.out 2>&1 </dev/null &
tlp=$!
pp_wait_grep '^ready pid=' /tmp/tl.out
check_grep "create -- CMD: says what it created" "^created tl \(id [0-9]+\)" /tmp/tl.out
check_eq "create -- CMD: the event's target is CMD" "task $(sed -n 's/^ready pid=//p' /tmp/tl.out)" \
	"$(pp_stat tl scope)"
kill -USR1 "$(sed -n 's/^ready pid=//p' /tmp/tl.out)"
wait $tlp
check_eq "create -- CMD: exits with CMD's status (0)" 0 $?
check_eq "create -- CMD: the event stays, detached" "detached exited" "$(pp_stat tl state)"
check_eq "create -- CMD: CMD's tree recorded, from its exec on (its own rename at exec included)" \
	"$(started /tmp/tl.out)" "$(tids tl | uniq)"
check_eq "create -- CMD: 2 renames a task, and the exec's" 13 \
	"$(tids tl | wc -l)"
perf persistent create -n tc task:task_rename -- sh -c 'exit 7' >/tmp/tc.out 2>&1
check_eq "create -- CMD: exits with CMD's status (7)" 7 $?
check_match "list: the task scope" " tc .* task [0-9]+ exited" "$(perf persistent list)"
check_match "info: scope" "^scope: +task [0-9]+ \(exited\), inherited by threads and children$" \
	"$(perf persistent info tc)"
: >/tmp/tp.out
pp-tree calls 3 >/tmp/tp.out 2>&1 &
tpp=$!
pp_wait_grep '^ready pid=' /tmp/tp.out
perf persistent create -d -n tpid --pid $tpp task:task_rename >/tmp/tpid.out 2>&1
check_grep "create --pid" "^created tpid \(id [0-9]+\)" /tmp/tpid.out
kill -USR1 $tpp
wait $tpp
check "--pid: its three records" pp_wait_stat tpid written 3
: >/tmp/pf.out
pp-tree calls 2 >/tmp/pf.out 2>&1 &
pfp=$!
pp_wait_grep '^ready pid=' /tmp/pf.out
pp-ctl with-pidfd $pfp 9 perf persistent create -d -n tpfd --pidfd 9 task:task_rename \
	>/tmp/tpfd.out 2>&1
check_grep "create --pidfd: a pidfd the tool inherited" "^created tpfd \(id [0-9]+\)" /tmp/tpfd.out
check_eq "--pidfd: the pidfd's process is the target" "task $pfp" "$(pp_stat tpfd scope)"
kill -USR1 $pfp
wait $pfp
check "--pidfd: its records" pp_wait_stat tpfd written 2
pp_make_zombie
pp-ctl with-pidfd "$pp_zombie" 9 perf persistent create -d -n tz --pidfd 9 \
	task:task_rename >/tmp/tz.out 2>&1
check_eq "--pidfd of an exited process: refused" 1 $?
check_grep "... saying so" "(has exited|no process)" /tmp/tz.out
check "... leaving no event" test ! -e "$PP_SYS/events/tz"
pp_end_zombie
perf persistent create -d -n tcg --cgroup /ppa task:task_rename >/tmp/tcg.out 2>&1
check_grep "create --cgroup" "^created tcg \(id [0-9]+\)" /tmp/tcg.out
check_match "info: cgroup scope" "^scope: +cgroup /ppa$" "$(perf persistent info tcg)"
check_match "list: cgroup scope" " tcg .* cgroup /ppa" "$(perf persistent list)"
perf persistent destroy tl tc tpid tpfd tcg >/dev/null
rmdir $cg/ppa/sub $cg/ppa $cg/ppb

check_eq "every event of the suite gone" "$before" "$(ls "$PP_SYS/events")"
check "the module unloads" pp_unload
check "kernel log clean" pp_log_clean

done_testing
