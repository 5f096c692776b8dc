# SPDX-License-Identifier: GPL-2.0
#
# tests/lib.sh - sourced by the guest tests (busybox sh).  Each test prints
# TAP: "ok N - what" / "not ok N - what", then "1..N" from done_testing.

PP_SYS=/sys/bus/event_source/devices/persistent
_pp_n=0
_pp_failed=0

ok() {
	_pp_n=$((_pp_n + 1))
	echo "ok $_pp_n - $*"
}

not_ok() {
	_pp_n=$((_pp_n + 1))
	_pp_failed=$((_pp_failed + 1))
	echo "not ok $_pp_n - $*"
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

pp_log_clean() {
	dmesg | tail -n +$((${_pp_log_lines:-0} + 1)) >/tmp/pp-log-since
	splat-scan /tmp/pp-log-since
}

# pp_stat NAME FIELD: a statistic of a persistent event from sysfs.
pp_stat() {
	cat "$PP_SYS/instances/$1/$2" 2>/dev/null
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

# pp_wait_stat NAME FIELD MIN: wait up to 10 s for a statistic to reach MIN.
pp_wait_stat() {
	_pp_i=0
	while [ "$(pp_stat "$1" "$2")" -lt "$3" ] 2>/dev/null; do
		_pp_i=$((_pp_i + 1))
		[ $_pp_i -gt 100 ] && return 1
		sleep 0.1
	done
}

# pp_field KEY FILE: the value of "KEY=value" in pp-ctl output.
pp_field() {
	sed -n "s/^$1=//p" "$2" | head -n 1
}

# setpriv_nobody COMMAND...: run COMMAND as user nobody with no capability.
setpriv_nobody() {
	su -s /bin/sh nobody -c "$*"
}

# pp_wait_readers N: wait (up to 60 s) until N references hold the module
# (perf opens one reader per CPU), then a moment for perf to enable them.
pp_wait_readers() {
	_pp_i=0
	while [ "$(cat /sys/module/perf_persistent/refcnt)" -lt "$1" ]; do
		_pp_i=$((_pp_i + 1))
		[ $_pp_i -gt 600 ] && return 1
		sleep 0.1
	done
	sleep 1
}
