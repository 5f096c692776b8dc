# SPDX-License-Identifier: GPL-2.0
#
# Load-time events: events= and buffer_kb=, from the command line and from
# /etc/modprobe.d; bad entries are logged and skipped.
. ./lib.sh

pp_load
check_eq "default: mce_record only" "mce_record" "$(ls "$PP_SYS/events" | xargs)"
check_eq "default buffer_kb=64" 65536 "$(pp_stat mce_record buffer_size)"
pp_unload

pp_log_mark
pp_load "events=sched:sched_switch, mce:mce_record,bogus,nosuch:tp,sched:sched_switch" buffer_kb=16
check_eq "events= creates each listed tracepoint" "mce_record sched_switch" \
	"$(ls "$PP_SYS/events" | xargs)"
check_eq "buffer_kb=16 applies" 16384 "$(pp_stat sched_switch buffer_size)"
dmesg | tail -n +$((_pp_log_lines + 1)) >/tmp/log
check_grep "an entry without ':' is logged and skipped" "events: 'bogus' is not system:tracepoint; skipped" /tmp/log
check_grep "an unknown tracepoint is logged and skipped" "events: no tracepoint nosuch:tp .*skipped" /tmp/log
check_grep "a duplicate is logged and skipped" "events: sched:sched_switch: cannot create: -17; skipped" /tmp/log
check "sched_switch records from load" pp_wait_stat sched_switch written 1
pp_unload

pp_load events=
check_eq "events= (empty) creates none" "" "$(ls "$PP_SYS/events")"
pp_unload

pp_load buffer_kb=12
check_eq "buffer_kb not a power-of-two of pages: default kept" 65536 "$(pp_stat mce_record buffer_size)"
pp_unload

mkdir -p /etc/modprobe.d
echo "options perf_persistent events=sched:sched_wakeup buffer_kb=8" >/etc/modprobe.d/pp.conf
pp_load
check_eq "options from /etc/modprobe.d" "sched_wakeup" "$(ls "$PP_SYS/events" | xargs)"
check_eq "buffer_kb from /etc/modprobe.d" 8192 "$(pp_stat sched_wakeup buffer_size)"
rm /etc/modprobe.d/pp.conf
pp_unload

done_testing
