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
