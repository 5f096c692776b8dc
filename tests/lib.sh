# SPDX-License-Identifier: GPL-2.0
#
# tests/lib.sh - sourced by the guest tests (busybox sh).  Each test prints
# TAP: "ok N - what" / "not ok N - what", then "1..N" from done_testing.

PP_SYS=/sys/bus/event_source/devices/persistent
_pp_n=0
_pp_failed=0

# With PP_TIMES set, each result is followed by the guest's uptime, to
# see where a suite spends its time.
_pp_time() {
	[ -z "${PP_TIMES:-}" ] || echo "# uptime $(cut -d' ' -f1 /proc/uptime)"
}

ok() {
	_pp_n=$((_pp_n + 1))
	echo "ok $_pp_n - $*"
	_pp_time
}

# skip DESCRIPTION REASON: a check this kernel or machine cannot make,
# counted as passed and marked as TAP marks a skip.
skip() {
	ok "$1 # SKIP $2"
}

not_ok() {
	_pp_n=$((_pp_n + 1))
	_pp_failed=$((_pp_failed + 1))
	echo "not ok $_pp_n - $*"
	_pp_time
}

# check DESCRIPTION COMMAND...: ok if COMMAND succeeds.
check() {
	_pp_desc=$1
	shift
	if "$@"; then ok "$_pp_desc"; else not_ok "$_pp_desc"; fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   expected: '$2'"
		echo "#   actual:   '$3'"
		return 1
	fi
}

# check_grep DESCRIPTION PATTERN FILE: ok if the extended regex matches.
check_grep() {
	if grep -qE -- "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   no line matches /$2/ in:"
		sed 's/^/#   | /' "$3" | head -n 20
	fi
}

# check_match DESCRIPTION PATTERN STRING: ok if a line of STRING matches.
check_match() {
	printf '%s\n' "$3" >/tmp/pp-match
	check_grep "$1" "$2" /tmp/pp-match
}

# check_no_grep DESCRIPTION PATTERN FILE
check_no_grep() {
	if grep -qE -- "$2" "$3"; then
		not_ok "$1"
		grep -E -- "$2" "$3" | head -n 5 | sed 's/^/#   | /'
	else
		ok "$1"
	fi
}

done_testing() {
	echo "1..$_pp_n"
	[ "$_pp_failed" -eq 0 ]
}

pp_loaded() {
	[ -d /sys/module/perf_persistent ]
}

pp_load() {
	pp_loaded || modprobe perf_persistent "$@"
}

pp_unload() {
	! pp_loaded || rmmod perf_persistent
}

# The kernel log since the last pp_log_mark must hold no kernel problem.
pp_log_mark() {
	_pp_log_lines=$(dmesg | wc -l)
}

# On a problem, the first report is printed whole (its RIP, registers and
# stack), once per boot: later suites of the guest see the same report.
pp_log_clean() {
	dmesg | tail -n +$((${_pp_log_lines:-0} + 1)) >/tmp/pp-log-since
	splat-scan /tmp/pp-log-since >/dev/null && return 0
	if [ ! -e /tmp/pp-log-reported ]; then
		: >/tmp/pp-log-reported
		splat-scan --first /tmp/pp-log-since | head -n 80 | sed 's/^/# /'
	else
		splat-scan /tmp/pp-log-since | head -n 4 | sed 's/^/# /'
	fi
	# The report's first line once more, last: what a log cut to the
	# lines around the failed check shows.
	echo "# kernel problem: $(splat-scan /tmp/pp-log-since | head -n 1)"
	return 1
}

# pp_stat NAME FIELD: a statistic of a persistent event from sysfs.  Read
# by the shell, not cat: the suites call it hundreds of times, and on the
# debug kernel each process started costs a tenth of a second.
pp_stat() {
	{
		while IFS= read -r _pp_l || [ -n "$_pp_l" ]; do
			printf '%s\n' "$_pp_l"
		done <"$PP_SYS/instances/$1/$2"
	} 2>/dev/null
}

# pp_irq_work_interrupts: irq_work interrupts taken so far, all CPUs (x86).
pp_irq_work_interrupts() {
	awk '$1 == "IWI:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# pp_destroy_stray NAME: destroy the detached event NAME if it exists: a
# check that expected its creation to fail must not fail the next ones.
pp_destroy_stray() {
	[ ! -e "$PP_SYS/events/$1" ] || pp-ctl destroy "$1" >/dev/null
}

# pp_tp_record_size SYSTEM NAME: bytes of one record of tracepoint
# SYSTEM:NAME as the load-time events store it (header, the six u64 fields
# of PP_LOAD_SAMPLE_TYPE, then RAW: a u32 size and the tracepoint's entry,
# padded as perf pads it), with DYNAMIC bytes of strings and arrays after
# the fixed fields (default 0).  Derived from the running kernel's format
# file: the entry is the struct up to its last field, aligned to 8 bytes
# when a field is 8 bytes wide (else 4), then the dynamic data; perf makes
# the u32 size plus the entry a multiple of 8.  Tracepoint layouts change
# between kernels (mce_record is 176 bytes on 6.1, 184 on 6.12, 208 on
# 7.x with its vendor data).
pp_tp_record_size() {
	sed -n 's/.*offset:\([0-9]*\);[[:space:]]*size:\([0-9]*\);.*/\1 \2/p' \
		"/sys/kernel/tracing/events/$1/$2/format" |
		awk -v dyn="${3:-0}" '{ if ($1 + $2 > end) end = $1 + $2; if ($2 == 8) a = 8 }
		     END { if (!a) a = 4; s = int((end + a - 1) / a) * a + dyn
			   print 8 + 6 * 8 + int((s + 4 + 7) / 8) * 8 }'
}

# pp_console_drain: wait until the console has sent what was written to it
# (standard output must be the console): a guest that panics next would
# lose the lines still in the serial port's queue.
pp_console_drain() {
	pp-ctl drain
}

# pp_kdump_load: load this run's kernel and initramfs (vm-run --kdump) as
# the crash kernel, with this boot's command line less crashkernel=, and
# what Debian's kdump-config appends (its KDUMP_CMDLINE_APPEND's default
# less systemd.unit=): the capture kernel then loads the module with the
# same parameters, as systemd-modules-load does in Debian's capture boot.
pp_kdump_load() {
	pp-kexec /kdump/vmlinuz /kdump/initrd \
		"$(sed -E 's/(^| )crashkernel=[^ ]*//g' /proc/cmdline) reset_devices nr_cpus=1 irqpoll"
}

# pp_inject_mce [CPU [STATUS [BANK]]]: log one software-injected MCE on CPU
# (default 0) with STATUS; the mce:mce_record tracepoint fires from a
# kworker on that CPU shortly after.
pp_inject_mce() {
	modprobe mce-inject 2>/dev/null
	_pp_d=/sys/kernel/debug/mce-inject
	echo sw >$_pp_d/flags
	echo "${2:-0x9c00000000010151}" >$_pp_d/status
	echo 0x1234000 >$_pp_d/addr
	taskset -c "${1:-0}" sh -c "echo ${3:-1} > $_pp_d/bank"
}

# pp_keep_switches SIZE: what a reset is to keep, with the module loaded
# with region=: one MCE in the load-time mce_record, and context switches
# in an event kept across a reboot, "switches" (SIZE a CPU), until its
# buffers wrap; both paused, so that what is printed of them stays.
pp_keep_switches() {
	pp_inject_mce 0 0xbe00000000800400 2
	pp_wait_stat mce_record written 1
	perf persistent create -d --keep-across-reboot -m "$1" -n switches \
		sched:sched_switch >/dev/null || return 1
	pp_wait_stat switches overwritten 1
	perf persistent pause mce_record switches >/dev/null
}

# The machine errors the suites make, and the load-time event that records
# them: machine checks through mce-inject where the kernel has
# mce:mce_record (x86), else memory-controller errors (ras:mc_event)
# through the lab's pp_ras module (tests/kmod/pp_ras.c).  PP_INJECT=ras
# takes pp_ras on x86 too: the suites run as on a machine without machine
# checks, their MCE-specific checks skipped.
if [ "${PP_INJECT:-}" != ras ] && [ -d /sys/kernel/tracing/events/mce/mce_record ]; then
	pp_error_tp=mce:mce_record
else
	pp_error_tp=ras:mc_event
fi
pp_error_event=${pp_error_tp#*:}

# pp_have_mce: pp_inject_error makes machine checks, which the checks of
# mce_record's own fields (status, bank) need.
pp_have_mce() {
	[ "$pp_error_tp" = mce:mce_record ]
}

# pp_inject_error [CPU [STATUS [BANK]]]: one machine error on CPU (default
# 0), recorded by $pp_error_event: an MCE of STATUS in BANK
# (pp_inject_mce, fired from a kworker on CPU shortly after), or pp_ras's
# mc_event at address 0x1234000, which takes no STATUS or BANK, fired by
# the writing task pinned to CPU before this returns.
pp_inject_error() {
	if pp_have_mce; then
		pp_inject_mce "$@"
		return
	fi
	modprobe pp_ras 2>/dev/null
	taskset -c "${1:-0}" sh -c "echo 0x1234000 >/sys/kernel/debug/pp_ras/mc_event"
}

# pp_oops_records: the start of the oops tests (tests/crash-oops.sh,
# tests/crash-oops-live.sh): the lab's pp_oops module loaded, two known
# machine errors recorded by $pp_error_event, which is left paused, and
# what script prints of them, in the sections "==== error event" and
# "==== script".  Fails if pp_oops does not load.
pp_oops_records() {
	echo "==== error event $pp_error_event"
	modprobe pp_oops || return 1
	pp_inject_error 0 0xbe00000000800400 2
	pp_inject_error 1 0x9c00000000010151 5
	pp_wait_stat $pp_error_event written 2
	perf persistent pause $pp_error_event >/dev/null
	echo "==== script $pp_error_event"
	perf persistent script $pp_error_event
}

# on_mce CHECK DESCRIPTION ARGS...: the check CHECK (check, check_eq, ...)
# of an MCE's own fields where pp_inject_error makes MCEs; else skipped.
on_mce() {
	if pp_have_mce; then
		"$@"
	else
		skip "$2" "no machine checks here"
	fi
}

# pp_error_record_size: bytes of a record of pp_inject_error's error in
# $pp_error_event.  mce_record has on 7.x a dynamic array, v_data, of
# sizeof(union vendor_info) bytes whatever the vendor: 16 (AMD's SYND1
# and SYND2; the format file says where the array is, not how long).
# pp_ras's mc_event has three strings, 41 bytes with their NULs ("pp_ras
# injected error", "pp_ras DIMM", "pp_ras").
pp_error_record_size() {
	if pp_have_mce; then
		if grep -q '__data_loc u8\[\] v_data;' \
			/sys/kernel/tracing/events/mce/mce_record/format; then
			pp_tp_record_size mce mce_record 16
		else
			pp_tp_record_size mce mce_record
		fi
	else
		pp_tp_record_size ras mc_event 41
	fi
}

# pp_nap SECONDS: sleep without starting a process: a read, with a time
# limit, from a FIFO that nobody writes.  busybox's sleep is a program, and
# on the debug kernel a fork and an exec take longer (150 ms) than the
# naps of a wait.
pp_nap() {
	[ -p /tmp/pp-nap ] || mkfifo /tmp/pp-nap 2>/dev/null
	if [ -p /tmp/pp-nap ]; then
		read -t "$1" _pp_nap_line <>/tmp/pp-nap
	else
		sleep "$1"
	fi
	return 0
}

# pp_wait_until [SECONDS] -- COMMAND...: wait until COMMAND succeeds; fail
# after SECONDS (default 120: a bound for a hang, far above what the
# slowest lab kernel takes, not a timing).  Every wait of the suites is a
# wait for a condition through this.  COMMAND runs again after 20 ms,
# 50 ms, then every 100 ms.
pp_wait_until() {
	_pp_lim=120
	[ "$1" = -- ] || { _pp_lim=$1; shift; }
	shift
	_pp_cs=0
	until "$@"; do
		[ $_pp_cs -gt $((_pp_lim * 100)) ] && return 1
		case $_pp_cs in
		0) _pp_cs=2; pp_nap 0.02 ;;
		2) _pp_cs=7; pp_nap 0.05 ;;
		*) _pp_cs=$((_pp_cs + 10)); pp_nap 0.1 ;;
		esac
	done
}

_pp_stat_ge() {
	[ "$(pp_stat "$1" "$2")" -ge "$3" ] 2>/dev/null
}

_pp_is_zombie() {
	_pp_z=$(sed -n 's/^zombie pid=//p' /tmp/pp-zombie 2>/dev/null) &&
		[ -n "$_pp_z" ] && grep -q '^State:.*Z' "/proc/$_pp_z/status" 2>/dev/null
}

# pp_make_zombie: start a process whose child has exited and is not
# reaped (tests/pp-tree.c); sets pp_zombie (the child: a zombie) and
# pp_zombie_parent.  pp_end_zombie ends both.
pp_make_zombie() {
	pp-tree zombie >/tmp/pp-zombie 2>&1 &
	pp_zombie_parent=$!
	pp_wait_until -- _pp_is_zombie || return 1
	pp_zombie=$_pp_z
}

pp_end_zombie() {
	kill "$pp_zombie_parent"
	wait "$pp_zombie_parent" 2>/dev/null
}

# row ID ERRNO COMMAND...: a row of Documentation/errors.rst: the last line
# COMMAND prints ends in ": ERRNO".  A creation of "b" meant to fail that
# succeeds is undone.  (The last line is read by the shell itself: on the
# debug kernel each process a row starts costs a tenth of a second.)
row() {
	_id=$1 _want=$2
	shift 2
	"$@" >/tmp/pp-row 2>&1
	_got=
	while IFS= read -r _line || [ -n "$_line" ]; do
		_got=$_line
	done </tmp/pp-row
	check_eq "$_id -> $_want ($*)" "$_want" "${_got##*: }"
	pp_destroy_stray b
}

# pp_wait_stat NAME FIELD MIN: wait for a statistic to reach MIN.
pp_wait_stat() {
	pp_wait_until -- _pp_stat_ge "$@"
}

_pp_memory_used_is() {
	[ "$(cat "$PP_SYS/memory_used" 2>/dev/null)" = "$1" ]
}

# pp_wait_memory_used BYTES: wait until the PMU's memory_used is BYTES.  A
# destroyed event's buffers go once the handlers still running in it have
# finished, a grace period after DESTROY returned.
pp_wait_memory_used() {
	pp_wait_until -- _pp_memory_used_is "$1"
}

_pp_grep() {
	grep -qE -- "$1" "$2" 2>/dev/null
}

# pp_wait_grep PATTERN FILE [SECONDS]: wait until a line of FILE matches the
# extended regex PATTERN (bound: pp_wait_until's).  When FILE is the output
# of a command started with &, empty it first (: >FILE): the shell opens
# the redirection in the child, so the wait may otherwise read what an
# earlier command left in FILE, and go on before the command is ready.
pp_wait_grep() {
	pp_wait_until "${3:-120}" -- _pp_grep "$1" "$2"
}

# pp_field KEY FILE: the value of "KEY=value" in pp-ctl output.
pp_field() {
	sed -n "s/^$1=//p" "$2" | head -n 1
}

# setpriv_nobody COMMAND...: run COMMAND as user nobody with no capability.
setpriv_nobody() {
	su -s /bin/sh nobody -c "$*"
}

# pp_wait_readers NAME N: wait until N readers receive NAME's records,
# that is until perf has enabled them (perf -a: one per CPU).
pp_wait_readers() {
	pp_wait_stat "$1" readers "$2"
}

_pp_delivered() {
	[ "$(pp_stat "$1" backlog)" = 0 ]
}

# pp_wait_delivered NAME: wait until every reader of NAME has every record
# NAME holds.
pp_wait_delivered() {
	pp_wait_until -- _pp_delivered "$1"
}

# pp_read_window NAME READERS WRITTEN [COMMAND]: the workload of a perf
# command reading NAME, run as  sh -c '. /tests/lib.sh; pp_read_window ...':
# wait for READERS readers, run COMMAND (which makes records), wait until
# NAME has written WRITTEN records and its readers have them all, then
# return, so that perf stops reading: a window that lasts as long as the
# kernel at hand needs, no longer.
pp_read_window() {
	pp_wait_readers "$1" "$2" || { echo "pp_read_window: no $2 readers of $1" >&2; return 1; }
	[ -z "${4:-}" ] || eval "$4"
	pp_wait_stat "$1" written "$3" || { echo "pp_read_window: $1 wrote no $3 records" >&2; return 1; }
	pp_wait_delivered "$1" || { echo "pp_read_window: $1 not delivered" >&2; return 1; }
}

# Profiles (guest/94-profile.sh, guest/94-profile-maps.sh, profile-reset.sh).
# PP_AWK_ADDR: awk functions for kernel addresses, which awk's numbers (doubles,
# exact to 2^53) cannot hold: pad(h), the address as 16 hex digits;
# dist(a, b), a - b for padded a and b, exact while it is under 2^53;
# add(a, n), padded a + n for 0 <= n < 2^32, padded.  Padded addresses
# compare as strings ("x" a < "x" b: never as numbers), which is quicker
# than dist() for each of many addresses.
PP_AWK_ADDR='
function hex(h,   i, v) { v = 0
	for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v }
function hex8(v,   i, d, s) { s = ""
	for (i = 0; i < 8; i++) { d = v % 16; s = substr("0123456789abcdef", d + 1, 1) s; v = (v - d) / 16 }
	return s }
function pad(h) { h = sprintf("%16s", h); gsub(/ /, "0", h); return h }
function dist(a, b) { return (hex(substr(a, 1, 8)) - hex(substr(b, 1, 8))) * 4294967296 +
	hex(substr(a, 9, 8)) - hex(substr(b, 9, 8)) }
function add(a, n,   l, c) { l = hex(substr(a, 9, 8)) + n; c = 0
	if (l >= 4294967296) { l -= 4294967296; c = 1 }
	return hex8((hex(substr(a, 1, 8)) + c) % 4294967296) hex8(l) }
'

# PP_AWK_WINDOW: what chain_stats and innermost_named share.  user(a), a
# frame's address is not the kernel's (16 hex digits from ffff: arm64's
# user addresses start with ffff too, in 12); keep(v, ours), one sample's
# value V, OURS if it had a frame of the workload's code; counted(), "N
# M" over the samples kept, with from_hot from the first to the last of
# ours.
PP_AWK_WINDOW='
function user(a) { return !(length(a) == 16 && a ~ /^ffff/) }
function keep(v, ours) { k++; v_[k] = v; if (ours) { if (!first) first = k; last = k } }
function counted(   lo, hi, i, n, m) { lo = 1; hi = k
	if (from_hot) { lo = first ? first : k + 1; hi = last }
	for (i = lo; i <= hi; i++) { n++; m += v_[i] }
	return (n + 0) " " (m + 0) }
'

# pp_run_held OUT CMD...: CMD (pp-prof -w or pp-prof-nofp -w) started in
# the background, its output in OUT, its standard input a fifo this shell
# holds open (fd 3); returns once CMD printed "done", its spin over: it
# then waits, sampled no more, until pp_release_held closes the fifo and
# waits for it.  So what the profile suites check is read while the
# workload still runs, and its exit is not in the samplers' rings.
pp_run_held() {
	_pp_out=$1
	shift
	rm -f /tmp/pp-hold
	mkfifo /tmp/pp-hold
	"$@" </tmp/pp-hold >"$_pp_out" 2>&1 &
	_pp_held=$!
	exec 3>/tmp/pp-hold
	pp_wait_until -- grep -q done "$_pp_out"
}

pp_release_held() {
	exec 3>&-
	wait $_pp_held
}

# pp_from_hot: the FROM_HOT of the profile suites (94-profile,
# 94-profile-maps), 1 on the lab's debug kernel and on arm64, else 0.
# Their goal, 95 % of the workload's samples named with their callers,
# holds over all of them on Debian's x86 kernels.  On the debug kernel
# (KASAN, lockdep) and on arm64 emulated on x86, exec and the dynamic
# loader take so long (longer still while the host is loaded) that their
# samples alone can be over 5 % of the run, for perf record -g as well,
# and its exit after (arm64-7.3 beside a loaded host: 93 %): there
# the samples are counted from the first to the last with a frame of the
# workload's own code.
pp_from_hot() {
	case $(uname -r)/$(uname -m) in
	*debug*/* | */aarch64) echo 1 ;;
	*) echo 0 ;;
	esac
}

# pp_profiles_gone EVENT...: the profile suites' last samplers destroyed;
# then the module's mappings table is empty and takes no memory (two
# checks).  An event is freed once its writers are done: the table is
# waited for.
pp_profiles_gone() {
	_m=/sys/bus/event_source/devices/persistent/maps
	for _e in "$@"; do
		perf persistent destroy "$_e" >/dev/null || not_ok "destroy $_e"
	done
	pp_wait_until -- grep -qx 0 $_m/processes
	check_eq "the last profile gone, the table is empty" 0 "$(cat $_m/processes)"
	check_eq "... and takes no memory" 0 "$(cat $_m/bytes)"
}

# chain_stats FILE COMM INNER OUTER: from perf script's output with call
# chains, "N M": N samples of the tasks whose name starts with COMM, M of
# them whose chain has INNER directly called by OUTER.
# With FROM_HOT=1 in the environment, only the samples from the first to
# the last with a frame of the workload's own code (a function pp_* in
# user space) are counted: not the process's exec and dynamic loading,
# nor its exit.  The module's own functions are pp_* too, and one of them
# (pp_maps_work) runs in the workload's exec: a kernel address (ffff...,
# on x86-64 and arm64) is not the workload's.
chain_stats() {
	awk -v comm="$2" -v inner="$3" -v outer="$4" -v from_hot="${FROM_HOT:-0}" "$PP_AWK_WINDOW"'
	function flush() {
		if (mine) keep(hit, ours)
		mine = 0; hit = 0; ours = 0; prev = ""
	}
	/^[^ \t]/ { flush(); mine = (index($1, comm) == 1); next }
	/^[ \t]*$/ { flush(); next }
	{ sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym)
	  if (sym ~ /^pp_/ && user($1)) ours = 1
	  if (prev == inner && sym == outer) hit = 1
	  prev = sym }
	END { flush(); print counted() }' "$1"
}

# innermost_named FILE PID: from perf script's output with call chains
# (-F comm,tid,ip,sym), "N M": N samples of task PID, M of them whose
# innermost user frame perf names.  With FROM_HOT=1, as chain_stats.
innermost_named() {
	awk -v pid="$2" -v from_hot="${FROM_HOT:-0}" "$PP_AWK_WINDOW"'
	function flush() {
		if (mine) keep(ok, ours)
		mine = 0
	}
	/^[^ \t]/ { flush(); mine = ($2 == pid); ok = 0; seen = 0; ours = 0; next }
	/^[ \t]*$/ { next }
	mine && user($1) {
		if (!seen) { seen = 1; ok = ($2 != "[unknown]") }
		if ($2 ~ /^pp_/) ours = 1 }
	END { flush(); print counted() }' "$1"
}

# pct N M: M of N in percent, whole.
pct() {
	[ "$1" -gt 0 ] && echo $(($2 * 100 / $1)) || echo 0
}
