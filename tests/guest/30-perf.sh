# SPDX-License-Identifier: GPL-2.0
#
# perf (Debian's 6.1, and the kernel's series on the 6.12 and 7.x kernels)
# finds the PMU, parses its format, and reports the module's own errno
# when an event is refused.  Where the series word a message differently,
# each one's wording is accepted.
. ./lib.sh

pp_load events=

# An unknown term makes perf list the PMU's valid terms: proof it parsed format/.
perf stat -a -e persistent/nosuchterm=1/ true >/tmp/out 2>&1
check_grep "perf parses the PMU's format: its terms are valid terms" \
	"valid terms: nohistory,id,config," /tmp/out

perf stat -a -e persistent/id=1/ true >/tmp/out 2>&1
check_no_grep "perf stat finds the PMU" "Cannot find PMU|Unable to find PMU" /tmp/out
# perf 6.1 and 6.12 count a refused event as "<not supported>"; 7.3's,
# with no other event to count, stops with "No supported events found."
# and says which event was refused.
if grep -q "^No supported events found\.$" /tmp/out; then
	check_grep "perf stat: the kernel refused the event" \
		"^The persistent/id=1/ event is not supported\.$" /tmp/out
else
	check_grep "perf stat: the kernel refused the event" \
		"<not supported> +persistent/id=1/" /tmp/out
fi

perf record -a -o /tmp/perf.data -e persistent/id=1/ true >/tmp/out 2>&1
check "perf record fails for an id that does not exist" test $? -ne 0
check_grep "perf record: the event is not supported (perf's text for ENOENT)" \
	"The persistent/id=1/ event is not supported" /tmp/out

perf stat -vv -a -e persistent/id=1/ true >/tmp/out 2>&1
check_grep "perf stat -vv shows the type and config perf opened" \
	"^  type +$(cat $PP_SYS/type)( \(persistent\))?\$" /tmp/out
check_grep "perf stat -vv shows the module's errno: -2 (ENOENT)" \
	"sys_perf_event_open failed, error -2\$" /tmp/out

perf record -o /tmp/perf.data -e persistent/id=1/ true >/tmp/out 2>&1
check_grep "perf record without -a: perf asks for system-wide mode" \
	"enable system wide with '-a'" /tmp/out

rmmod perf_persistent
perf stat -a -e persistent/id=1/ true >/tmp/out 2>&1
check_grep "without the module perf cannot find the PMU" \
	"Cannot find PMU .persistent'|Unable to find PMU or event on a PMU of 'persistent'" /tmp/out

done_testing
