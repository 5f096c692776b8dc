# SPDX-License-Identifier: GPL-2.0
#
# Persistent events through /dev/perf_persistent: every ioctl, sysfs
# events/ growing and shrinking, a load-time event recording injected
# machine errors with no process running (mce_record, or mc_event where
# the machine has no machine checks).
. ./lib.sh

E=$pp_error_event
pp_load "events=$pp_error_tp"

check_eq "/dev/perf_persistent is root-only" "crw-------" \
	"$(ls -l /dev/perf_persistent | cut -c1-10)"

# The error event exists from load, detached, recording.
check_eq "events/$E alias" "id=1,period=1" "$(cat "$PP_SYS/events/$E")"
check_eq "instances/$E/id" 1 "$(pp_stat "$E" id)"
check_eq "$E is detached" detached "$(pp_stat "$E" state)"
check_grep "$E's source is the $pp_error_tp tracepoint" \
	"^type=2,config=0x$(printf %x "$(cat "/sys/kernel/tracing/events/${pp_error_tp%%:*}/$E/id")")," \
	"$PP_SYS/instances/$E/source"
perf list 2>/dev/null >/tmp/list
check_grep "perf list shows persistent/$E/" "persistent/$E/ +\[Kernel PMU event\]" /tmp/list

before=$(pp_stat "$E" written)
pp_inject_error 0
pp_inject_error 1
pp_inject_error 1
check "three injected errors are recorded" pp_wait_stat "$E" written $((before + 3))
rsize=$(pp_error_record_size)
check_eq "$rsize bytes per error record (the running kernel's $E)" \
	$(((before + 3) * rsize)) "$(pp_stat "$E" bytes)"
pp-ctl info "$E" >/tmp/info
check_grep "errors recorded on the CPU that logged them (cpu1: 2)" "^cpu1 online=1 written=2 " /tmp/info
check_grep "the tracepoint counter counts them too" "^cpu1 .* count=2 " /tmp/info

# Create, list, info, pause/resume, detach/attach, destroy.
pp-ctl create sw1 sw=1 buffer=8192 detached create sw2 sw=3 detached list >/tmp/out
check_grep "CREATE returns a new id" "^create sw1: OK id=2$" /tmp/out
check_grep "ids are unique" "^create sw2: OK id=3$" /tmp/out
check_grep "LIST lists all ids" "^list: 1 2 3 total=3$" /tmp/out
check_eq "events/ grows with each event" "$E sw1 sw2" "$(ls "$PP_SYS/events" | xargs)"
check_eq "instances/ too" "$E sw1 sw2" "$(ls "$PP_SYS/instances" | xargs)"
check_eq "alias of sw2" "id=3,period=1" "$(cat "$PP_SYS/events/sw2")"
check_eq "buffer_size of sw1" 8192 "$(pp_stat sw1 buffer_size)"
check_eq "default buffer_size" 65536 "$(pp_stat sw2 buffer_size)"

pp-ctl info sw1 >/tmp/info
check_grep "INFO by name" "^id=2$" /tmp/info
check_grep "INFO: detached, not paused" "^state=0x0$" /tmp/info
check_grep "INFO: source attr (software, config 1)" "^type=1$" /tmp/info
check_eq "INFO: one buffer per CPU" "$(grep -c ^processor /proc/cpuinfo)" "$(pp_field nr_cpus /tmp/info)"

pp-ctl pause sw1 info sw1 >/tmp/out
check_grep "PAUSE" "^pause sw1: OK$" /tmp/out
check_grep "INFO shows paused" "^state=0x4$" /tmp/out
w1=$(pp_stat sw1 written)
d1=$(pp_stat sw1 dropped)
check "paused: new records are dropped and counted" pp_wait_stat sw1 dropped $((d1 + 1))
check_eq "paused: nothing more is written" "$w1" "$(pp_stat sw1 written)"
check_eq "paused: state in sysfs" "detached paused" "$(pp_stat sw1 state)"
pp-ctl resume sw1 >/tmp/out
check_grep "RESUME" "^resume sw1: OK$" /tmp/out
check "resumed: recording again" pp_wait_stat sw1 written $((w1 + 1))

pp-ctl attach sw1 info sw1 detach sw1 info sw1 >/tmp/out
check_grep "ATTACH a detached event" "^attach sw1: OK$" /tmp/out
check_grep "INFO: attached and owned by this fd" "^state=0x3$" /tmp/out
check_grep "DETACH it again" "^detach sw1: OK$" /tmp/out
check_eq "still there after that fd closed" 2 "$(pp_stat sw1 id)"

pp-ctl destroy sw1 destroy 3 list >/tmp/out
check_grep "DESTROY by name" "^destroy sw1: OK$" /tmp/out
check_grep "DESTROY by id" "^destroy 3: OK$" /tmp/out
check_grep "LIST after destroy" "^list: 1 total=1$" /tmp/out
check_eq "events/ shrinks back" "$E" "$(ls "$PP_SYS/events" | xargs)"
check_eq "instances/ too" "$E" "$(ls "$PP_SYS/instances" | xargs)"

# Attached (the default), then close: the event and its alias are gone.
pp-ctl create tmp sw=1 info tmp >/tmp/out
check_grep "an event created without 'detached' is owned by its fd" "^state=0x3$" /tmp/out
check "closing the owning fd destroys it" test ! -e "$PP_SYS/events/tmp"
check_eq "and its id is not reused" "create again: OK id=5" \
	"$(pp-ctl create again sw=1 | sed 's/^create again/create again/')"

# Many events: the list has no fixed size; names are re-usable after destroy.
args=
for i in $(seq 1 40); do args="$args create e$i sw=9 buffer=4096 detached"; done
pp-ctl $args >/tmp/out
check_eq "40 events created" 40 "$(grep -c ': OK id=' /tmp/out)"
check_eq "events/ lists 41" 41 "$(ls "$PP_SYS/events" | wc -l)"
args=
for i in $(seq 1 40); do args="$args destroy e$i"; done
pp-ctl $args create e7 sw=9 detached >/tmp/out
check_eq "40 destroyed" 40 "$(grep -c '^destroy e[0-9]*: OK$' /tmp/out)"
check_eq "a destroyed name can be used again" "e7 $E" "$(ls "$PP_SYS/events" | xargs)"
pp-ctl destroy e7 >/dev/null

check "kernel log clean" pp_log_clean
check "rmmod with only detached events" pp_unload
check "nothing left in sysfs" test ! -e "$PP_SYS"

done_testing
