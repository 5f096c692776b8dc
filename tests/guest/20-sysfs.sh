# SPDX-License-Identifier: GPL-2.0
#
# The PMU's sysfs: type, format/ in perf's spelling, attr_format/ in the
# attr<num>:<mask> spelling, an events/ directory, cpumask.
. ./lib.sh

pp_load events=

type=$(cat "$PP_SYS/type")
# PERF_TYPE_MAX is 6: dynamic PMU types start there.
check "type is a dynamic PMU type (>= 6): $type" test "$type" -ge 6
check_eq "format/id in perf's spelling" "config:0-31" "$(cat "$PP_SYS/format/id")"
check_eq "attr_format/id in attr<num>:<mask> spelling" "attr1:0-31" \
	"$(cat "$PP_SYS/attr_format/id")"

# perf 6.1 drops the whole PMU on one format file it cannot parse.
bad=
for f in "$PP_SYS"/format/*; do
	grep -qxE 'config[12]?:[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*' "$f" || bad="$bad $f"
done
check_eq "every format/ file is in perf 6.1's grammar" "" "$bad"
bad=
for f in "$PP_SYS"/attr_format/*; do
	grep -qxE 'attr[0-9]+:[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*' "$f" || bad="$bad $f"
done
check_eq "every attr_format/ file is attr<num>:<mask>" "" "$bad"
check_eq "format/ and attr_format/ name the same terms" \
	"$(ls "$PP_SYS/format")" "$(ls "$PP_SYS/attr_format")"

check "events/ is a directory" test -d "$PP_SYS/events"
check_eq "events/ is empty with no persistent events" "" "$(ls "$PP_SYS/events")"
check_eq "cpumask lists all online CPUs" "$(cat /sys/devices/system/cpu/online)" \
	"$(cat "$PP_SYS/cpumask")"
check "sysfs files are read-only" sh -c "! echo 1 > $PP_SYS/format/id"

done_testing
