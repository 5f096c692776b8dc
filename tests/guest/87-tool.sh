# SPDX-License-Identifier: GPL-2.0
#
# The perf persistent tool, run as "perf persistent" (perf finds it in its
# exec directory): every verb, the records decoded by the tool and by perf
# itself from the exported perf.data, and each bad input's message and exit
# status.
. ./lib.sh

PP=$(perf --exec-path)/perf-persistent
check "the tool is in perf's exec directory" test -x "$PP"
check_match "--help lists the verbs" "script .*NAME" "$($PP --help 2>&1)"
check_match "help VERB describes it" "usage: perf persistent record \[-o FILE\] \[--format perf.data\|trace.dat\] \[--previous\] \[-N\] NAME" \
	"$(perf persistent help record)"

# One load-time event, the machine's error event: id 1.  Its records are
# MCEs where the machine has machine checks: their fields are checked
# decoded (on_mce).
E=$pp_error_event
TP=$pp_error_tp
pp_load "events=$TP"
pp_log_mark

# ---- errors injected with nobody listening: list, info, stat, script ---
pp_inject_error 0 0xbe00000000800400 2
pp_wait_stat "$E" written 1
pp_inject_error 1 0x9c00000000010151 3
pp_wait_stat "$E" written 2
check_eq "two errors recorded" 2 "$(pp_stat "$E" written)"

perf persistent list >/tmp/list
check_grep "list: a header" "^ *ID +NAME +SOURCE +STATE +BUFFER +RECORDS +OVERWRITTEN +DROPPED" /tmp/list
check_grep "list: $E's line" "^ *1 +$E +$TP +detached +64K +2 +0 +0  cpus$" /tmp/list
# The source's name is the module's (instances/NAME/tracepoint), not
# found by reading every tracepoint's id in tracefs: it is there without
# tracefs.
umount /sys/kernel/tracing
perf persistent list >/tmp/list 2>&1
mount -t tracefs tracefs /sys/kernel/tracing
check_grep "list: the tracepoint's name without tracefs" "^ *1 +$E +$TP +detached " /tmp/list

perf persistent info "$E" >/tmp/info
check_grep "info: source" "^source: *$TP \\(type 2," /tmp/info
check_grep "info: fields" "^sample fields: *identifier,ip,tid,time,cpu,period,raw" /tmp/info
check_grep "info: totals" "^records: *2 written, 2 held, 0 overwritten, 0 dropped" /tmp/info
check_grep "info: CPU 0 wrote one" "^ *0 +yes +1 +1 +0 +0 " /tmp/info
check_grep "info: CPU 1 wrote one" "^ *1 +yes +1 +1 +0 +0 " /tmp/info
check_grep "info: positions as a user reads them: HEAD signed, bytes held" \
	"^ *0 +yes +1 +1 +0 +0 +[0-9]+ +[0-9]+ +-[0-9]+ +[1-9][0-9]*$" /tmp/info

perf persistent stat "$E" >/tmp/stat
check_grep "stat: the count" "^ +2 +$TP$" /tmp/stat
check_grep "stat: the records" "2 records written, 2 held, 0 overwritten, 0 dropped" /tmp/stat
perf persistent stat -A "$E" >/tmp/stat
check_eq "stat -A: one line per CPU" 2 "$(grep -c "^CPU[01] .* 1 .*$TP\$" /tmp/stat)"

perf persistent script "$E" >/tmp/script 2>&1
sed 's/^/# /' /tmp/script
check_eq "script: one line per error" 2 "$(grep -c " $TP: " /tmp/script)"
# mce_record prints "ADDR/MISC/SYND: a/m/s" on 6.1, "ADDR: a, MISC: m, ..." on 6.12.
# On 7.x its vendor data are printed with __print_dynamic_array(), which
# libtraceevent (1.7.1, 1.8.4) cannot parse: it prints "[FAILED TO PARSE]"
# and the raw fields, status and address in decimal.  There the checks
# take that form too, for the same facts.
mce1="mce:mce_record: CPU: 0, .*MC2: be00000000800400, .*ADDR(/MISC/SYND)?: 0000000001234000[/,]"
mce2="mce:mce_record: CPU: 0, .*MC3: 9c00000000010151, "
if pp_have_mce && grep -q __print_dynamic_array /sys/kernel/tracing/events/mce/mce_record/format; then
	mce1="mce:mce_record: (CPU: 0, .*MC2: be00000000800400, .*ADDR: 0000000001234000,|\[FAILED TO PARSE\] .* status=13690942867214697472 addr=19087360 .* cpu=0 .* bank=2 )"
	mce2="mce:mce_record: (CPU: 0, .*MC3: 9c00000000010151, |\[FAILED TO PARSE\] .* status=11240984669916823889 .* cpu=0 .* bank=3 )"
fi
on_mce check_match "script: the first MCE decoded (bank 2, its status, its address)" \
	"\[000\] .*$mce1" "$(sed -n 1p /tmp/script)"
on_mce check_match "script: the second MCE decoded (bank 3, its status)" \
	"\[001\] .*$mce2" "$(sed -n 2p /tmp/script)"
# The original time: the tool prints what the record holds (pp-mmap reads
# the same record through the mapping).
t0=$(pp-mmap 1 0 | sed -n 's/^record time=\([0-9]*\) .*/\1/p')
want=$(printf '%d.%06d' $((t0 / 1000000000)) $((t0 % 1000000000 / 1000)))
check_match "script: the first error's original time ($want)" " $want: $TP" \
	"$(sed -n 1p /tmp/script)"
check_match "script: comm and pid columns" "^ *[^ ]+ +[0-9]+ \[00[01]\] " "$(sed -n 1p /tmp/script)"
perf persistent script --newest-first "$E" >/tmp/newest
# (From the CPU column on: a kworker's comm changes with its work.)
check_eq "script --newest-first: the reverse order" \
	"$(sed -n '2s/^.*\[/[/p' /tmp/script)" "$(sed -n '1s/^.*\[/[/p' /tmp/newest)"

perf persistent script --json "$E" >/tmp/json
check "script --json: every line parses" pp-json </tmp/json
on_mce check_eq "script --json: status and bank of each MCE" \
	"13690942867214697472 2
11240984669916823889 3" \
	"$(pp-json fields.status fields.bank </tmp/json)"
check_eq "script --json: event, cpu, time" "\"$TP\" 0 $t0" \
	"$(pp-json event cpu time </tmp/json | sed -n 1p)"

# Wall-clock time: the records were made minutes ago at most (the lab
# boots with the host's time), so each time of day is within an hour of
# now; text in local time, JSON in UTC.
within_hour() { # EPOCH
	[ "$1" -gt 0 ] && [ $(($(date +%s) - $1)) -ge 0 ] && [ $(($(date +%s) - $1)) -lt 3600 ]
}
perf persistent script --wall-clock "$E" >/tmp/wall
w=$(sed -n "1s/^.*\] \([0-9-]* [0-9:]*\)\.[0-9]*: $TP.*/\1/p" /tmp/wall)
check "script --wall-clock: the first error's time of day ($w) is the wall clock's" \
	within_hour "$(date -d "$w" +%s 2>/dev/null || echo 0)"
w=$(pp-json wallclock </tmp/json | sed -n '1s/^"\([0-9-]*\)T\([0-9:]*\)\.[0-9]*Z"$/\1 \2/p')
check "script --json: wallclock in UTC ($w)" \
	within_hour "$(date -u -d "$w" +%s 2>/dev/null || echo 0)"

# ---- record -o, then perf's own decoder --------------------------------
perf persistent record "$E" -o /tmp/f.data 2>/tmp/rec
check_grep "record: says what it wrote" "Wrote 2 records of $E to /tmp/f.data" /tmp/rec
perf script -i /tmp/f.data >/tmp/pscript 2>/tmp/pscript.err
sed 's/^/# perf script: /' /tmp/pscript
check_eq "perf script -i: both records" 2 "$(grep -c " $TP: " /tmp/pscript)"
check_match "perf script -i: the first record's original time" \
	"\[000\] +$want: +$TP: " "$(sed -n 1p /tmp/pscript)"
on_mce check_match "perf script -i: the first MCE (bank 2, status, original time)" \
	"\[000\] +$want: +$mce1" "$(sed -n 1p /tmp/pscript)"
on_mce check_match "perf script -i: the second MCE (bank 3, status)" \
	"\[001\] .*$mce2" "$(sed -n 2p /tmp/pscript)"
perf report -i /tmp/f.data --header-only >/tmp/header 2>&1
# (Fixed strings: a release such as 6.12.117+deb12-amd64 holds regex characters.)
check "perf.data: the hostname, as perf record writes it" grep -qxF "# hostname : $(uname -n)" /tmp/header
check "perf.data: the OS release" grep -qxF "# os release : $(uname -r)" /tmp/header
perf script -i /tmp/f.data -F tod,event >/tmp/tod 2>&1
# (The first record's line: libtraceevent's complaints about a format it
# cannot print come before it, mc_event's say.)
w=$(sed -n "s/^\([0-9-]* [0-9:]*\)\.[0-9]* *$TP.*/\1/p" /tmp/tod | head -n 1)
check "perf script -F tod: the clock data gives the time of day ($w)" \
	within_hour "$(date -d "$w" +%s 2>/dev/null || echo 0)"
perf report -i /tmp/f.data --stdio --sort comm,pid 2>&1 >/tmp/report
check_grep "perf report -i: two samples of $TP" \
	"# Samples: 2 +of event '$TP'" /tmp/report
# A trace.dat is written by libtracecmd, which the tool loads when asked
# for one; the guests without trace-cmd (arm64's) have neither.
if ls /usr/lib/*/libtracecmd.so.1 >/dev/null 2>&1; then
	skip "record --format trace.dat without libtracecmd" "this guest has it (92-analysis writes one)"
else
	perf persistent record --format trace.dat -o /tmp/f.dat "$E" 2>/tmp/rec
	check_eq "record --format trace.dat without libtracecmd: refused (exit 1)" 1 "$?"
	check_grep "... naming the library and its package" \
		"libtracecmd.so.1 \(Debian: libtracecmd1\)" /tmp/rec
	check "... leaving no file" test ! -e /tmp/f.dat
fi

# ---- create, pause/resume, software events, breakpoints ---------------
out=$(perf persistent create -n cs -m 8K --detached context-switches)
check_match "create --detached: says so" "^created cs \(id [0-9]+\)$" "$out"
check_match "list: the new event" "^ *[0-9]+ +cs +context-switches +detached +8K " \
	"$(perf persistent list)"
pp_wait_stat cs written 5
perf persistent script cs >/tmp/cs
check_match "script of a software event: period and name" \
	" [0-9]+\.[0-9]{6}: +1 context-switches: +[0-9a-f]+$" "$(head -n 1 /tmp/cs)"
check_match "pause" "^paused cs$" "$(perf persistent pause cs)"
check_match "info: paused" "^state: *detached,paused$" "$(perf persistent info cs)"
w=$(pp_stat cs written)
check "paused: drops counted" pp_wait_stat cs dropped $(($(pp_stat cs dropped) + 1))
check_eq "paused: nothing written" "$w" "$(pp_stat cs written)"
perf persistent script cs >/dev/null
check_match "script leaves a paused event paused" "paused" "$(pp_stat cs state)"
check_match "resume" "^resumed cs$" "$(perf persistent resume cs)"
pp_wait_stat cs written $((w + 1))
check "resumed: recording again" test "$(pp_stat cs written)" -gt "$w"
perf persistent script cs >/dev/null
check_match "script resumes what it paused" "^detached$" "$(pp_stat cs state)"

out=$(perf persistent create --detached -c 2000000 cpu-clock)
check_match "create: default name from the event" "^created cpu_clock " "$out"
check_match "create -c: the period" "^sample period: 2000000$" "$(perf persistent info cpu_clock)"
perf persistent create -d -F 250 -n cf cpu-clock >/dev/null
check_match "create -F: the frequency" "^sample freq: *250 Hz$" "$(perf persistent info cf)"
check "create -F: it records" pp_wait_stat cf written 1
perf persistent destroy cf >/dev/null
# jiffies by name, whatever its type: /proc/kallsyms says D on 6.x, T on
# 7.3 (x86; jiffies_64 too).
addr=$(awk 'NF == 3 && $3 == "jiffies" { print $1; exit }' /proc/kallsyms)
if [ "$(uname -m)" = aarch64 ]; then
	# Refused on arm64 (E144), and the tool says why.
	perf persistent create -d -n jif "mem:0x${addr:-ffff800008000000}/8:w" >/tmp/bp.out 2>&1
	check_match "arm64: a breakpoint is refused, the tool says why" \
		"steps over a breakpoint's hits for perf's own buffers only" "$(cat /tmp/bp.out)"
else
	out=$(perf persistent create -d -n jif "mem:0x$addr/8:w")
	check_match "create mem:ADDR/8:w" "^created jif " "$out"
	check_match "list: the breakpoint" " jif +mem:0x$addr/8:w " "$(perf persistent list)"
	pp_wait_stat jif written 1
	check_match "script of a breakpoint: the address written" " addr $addr$" \
		"$(perf persistent script jif | sed -n 1p)"
fi
out=$(perf persistent create -d -n sw2 -s time,cpu,raw sched:sched_switch)
check_match "create -s: chosen fields" "^sample fields: *time,cpu,raw$" "$(perf persistent info sw2)"
pp_wait_stat sw2 written 1
check_match "script: sched_switch decoded" "sched:sched_switch: prev_comm=.* prev_pid=[0-9]+ .*==> next_comm=" \
	"$(perf persistent script sw2 | sed -n 1p)"
check_match "destroy several" "destroyed sw2" "$(perf persistent destroy cpu_clock jif sw2)"
check_eq "destroyed: gone from the list" "" "$(perf persistent list | grep -E ' (cpu_clock|jif|sw2) ')"

# ---- COMM records: a task named as it was when recorded -----------------
# A shell renames itself between two context switches, then exits: the
# records name it alpha, then beta, though /proc knows neither any more.
perf persistent create -d -n named -m 256K context-switches >/dev/null
perf persistent create -d -n unnamed -m 256K --no-comm context-switches >/dev/null
check_match "info: COMM records by default" "^comm records: *yes$" "$(perf persistent info named)"
check_match "info: --no-comm" "^comm records: *no$" "$(perf persistent info unnamed)"
sh -c 'echo $$ >/tmp/renamed; printf alpha >/proc/self/comm; sleep 0.1
	printf beta >/proc/self/comm; sleep 0.1; true'
rp=$(cat /tmp/renamed)
# Every CPU's context switches go on meanwhile: pause both events so that
# the four reads below see the same records, and none overwrites the
# oldest ones (alpha's) in between.
perf persistent pause named unnamed >/dev/null
# names: the names alpha and beta in the order stdin gives the shell them
names() { awk -v p="$rp" '$2 == p { print $1 }' | uniq | grep -x -e alpha -e beta | tr '\n' ' '; }
check_eq "script: the task under each name it had, in order" "alpha beta " \
	"$(perf persistent script named | names)"
check_match "script --json: the name at record time" '"tid":'"$rp"',"comm":"alpha"' \
	"$(perf persistent script --json named)"
check "--no-comm: one name for all its records at most" \
	test "$(perf persistent script unnamed | names | wc -w)" -le 1
perf persistent record -o /tmp/named.data named 2>/dev/null
check_eq "perf script -i of the export: both names" "alpha beta " \
	"$(perf script -i /tmp/named.data -F comm,tid 2>/dev/null | names)"
perf persistent destroy named unnamed >/dev/null

# ---- holding in the foreground: create without -d, attach, detach -------
# hold_bg FILE LINE ARGS...: run the tool with ARGS in the background (pid
# in $h), its output in FILE, until it has printed LINE.
hold_bg() {
	_f=$1 _l=$2
	shift 2
	: >"$_f"
	$PP "$@" >"$_f" &
	h=$!
	pp_wait_grep "^$_l" "$_f" || echo "# the tool never printed '$_l'"
}

hold_bg /tmp/held "created held" create -n held cpu-migrations
check_match "create without -d: holds the event" " held +cpu-migrations +attached " "$(perf persistent list)"
check_match "destroy of a held event: refused" "held: attached to another process" \
	"$(perf persistent destroy held 2>&1)"
kill -INT $h
wait $h
check_grep "interrupted: the holder destroyed it" "^destroyed held$" /tmp/held
check_eq "interrupted: the event is gone" "" "$(perf persistent list | grep ' held ')"
hold_bg /tmp/held "created held" create -n held cpu-migrations
kill -HUP $h
wait $h
check_grep "hangup (ssh gone): the holder detached it" "^detached held: it goes on recording" /tmp/held
check_match "hangup: the event and its history live on" " held +cpu-migrations +detached " \
	"$(perf persistent list)"
perf persistent destroy held >/dev/null

hold_bg /tmp/att "attached cs" attach cs
check_match "attach: attached" " cs +context-switches +attached " "$(perf persistent list)"
# (Bounded: were the first attach missing, this one would hold the event.)
check_match "attach twice: refused" "cs: attached to another process already" \
	"$(timeout -s INT 120 perf persistent attach cs 2>&1)"
check_match "detach of a held event: the holder detaches it" "^detached cs$" \
	"$(perf persistent detach cs)"
wait $h
check_eq "detach: the holder exited" 0 $?
check_match "detach: the event lives on, detached" " cs +context-switches +detached " \
	"$(perf persistent list)"
check_match "detach of a detached event" "cs: already detached" "$(perf persistent detach cs 2>&1)"
hold_bg /tmp/att "attached cs" attach cs
kill -INT $h
wait $h
check_grep "attach, then Ctrl-C: the holder detached it again" "^detached cs: " /tmp/att
check_match "and the event and its history live on" " cs +context-switches +detached " \
	"$(perf persistent list)"
# A Ctrl-C right after the attaching ioctl, before the holder waits for
# signals (the shim raises SIGINT then): blocked since before the ioctl,
# it detaches the event as a later Ctrl-C does, instead of killing the
# tool, whose closed file would have destroyed the event and its history.
env LD_PRELOAD="$PWD/bin/preload-sigint.so" $PP attach cs >/tmp/att 2>&1
check_eq "SIGINT right after ATTACH: the holder exits normally" 0 $?
check_grep "... having detached the event again" "^detached cs: " /tmp/att
check_match "... whose history lives on" " cs +context-switches +detached " \
	"$(perf persistent list)"
env LD_PRELOAD="$PWD/bin/preload-sigint.so" $PP create -n early cpu-migrations \
	>/tmp/held 2>&1
check_eq "SIGINT right after CREATE: the holder exits normally" 0 $?
check_grep "... having destroyed the event, as Ctrl-C does" "^destroyed early$" /tmp/held
hold_bg /tmp/att "attached cs" attach --destroy-on-exit cs
kill -TERM $h
wait $h
check_eq "attach --destroy-on-exit, then SIGTERM: the event is destroyed" "" \
	"$(perf persistent list | grep ' cs ')"

# ---- an operator group with read access to the device -------------------
# What a udev rule (GROUP=, MODE="0640") gives: the group's members list,
# inspect and read the events (the tool opens the device read-only for
# that, and reads the buffers as they record: it may not pause them);
# changing anything still needs write access and CAP_PERFMON.
# For the tracepoints' formats the group reads tracefs too: its gid= and
# mode= mount options (Documentation/tool.rst).
# A small buffer, so that the guest's own switches wrap it soon.
perf persistent create -d -n sw_live -m 8K sched:sched_switch >/dev/null
pp_wait_stat sw_live overwritten 1
chgrp 65534 /dev/perf_persistent
chmod 0640 /dev/perf_persistent
tmode=$(stat -c %a /sys/kernel/tracing)
mount -o remount,gid=65534,mode=0750 /sys/kernel/tracing
check_match "group read access: list works" "^ +1 +$E +" \
	"$(setpriv_nobody perf persistent list)"
check_match "group read access: info works" "^name: *$E$" \
	"$(setpriv_nobody perf persistent info "$E")"
check_match "group read access: script reads the history" "^ *[^ ]+ +[0-9]+ \[000\] .* $TP: " \
	"$(setpriv_nobody perf persistent script "$E" 2>&1)"
check_match "group read access: script reads a recording event live" "^ *[^ ]+ +[0-9]+ \[[0-9]+\] .* sched:sched_switch: prev_comm=" \
	"$(setpriv_nobody perf persistent script sw_live 2>&1 | sed -n 1p)"
check_eq "group read access: the event was not paused" detached "$(pp_stat sw_live state)"
check "group read access: record writes perf.data" \
	setpriv_nobody perf persistent record -o /tmp/nobody.data "$E"
check_match "group read access: create is refused at open" "Permission denied" \
	"$(setpriv_nobody perf persistent create -d cpu-clock 2>&1)"
check_match "group read access: pause is refused at open" "Permission denied" \
	"$(setpriv_nobody perf persistent pause "$E" 2>&1)"
mount -o remount,gid=0,mode="$tmode" /sys/kernel/tracing
chmod 0600 /dev/perf_persistent
chgrp 0 /dev/perf_persistent
perf persistent destroy sw_live >/dev/null

# ---- bad input: one line on stderr, non-zero status ---------------------
# expect STATUS PATTERN COMMAND...: COMMAND fails with STATUS and one line
# on stderr matching PATTERN.
expect() {
	_st=$1 _pat=$2
	shift 2
	"$@" >/tmp/out 2>/tmp/err
	_rc=$?
	check_eq "$* -> status $_st" "$_st" "$_rc"
	check_eq "$*: one line on stderr" 1 "$(wc -l </tmp/err)"
	check_grep "$*: says why" "$_pat" /tmp/err
}
expect 1 "no persistent event 'nosuch' \\(see: perf persistent list\\)" perf persistent script nosuch
expect 1 "no persistent event '4242'" perf persistent info 4242
expect 1 "unknown tracepoint 'nosys:noevent'" perf persistent create -d nosys:noevent
expect 1 "unknown event 'bogus-event'" perf persistent create -d bogus-event
expect 1 "event modifiers \\(:u, :k, :p, ...\\) are not supported" perf persistent create -d cycles:u
expect 1 "a pattern names many events" perf persistent create -d 'sched:*'
expect 129 "-c and -F exclude each other" perf persistent create -d -c 5 -F 5 cpu-clock
expect 129 "bad frequency '0'" perf persistent create -d -F 0 cpu-clock
expect 1 "bad buffer size '3000': a power of two from 4K to 64M" \
	perf persistent create -d -m 3000 cpu-clock
expect 1 "bad buffer size '128M'" perf persistent create -d -m 128M cpu-clock
expect 1 "bad event name 'Bad-Name'" perf persistent create -d -n Bad-Name cpu-clock
expect 1 "an event named '$E' exists already" perf persistent create -d "$TP"
expect 1 "unknown sample field 'nope'" perf persistent create -d -s ip,nope cpu-clock
expect 1 "bad breakpoint access" perf persistent create -d mem:0x1000:q
expect 129 "perf persistent list: unknown option or missing argument: '--bogus' \\(see: perf persistent help list\\)" \
	perf persistent list --bogus
expect 129 "option '-o' needs an argument" $PP record "$E" -o
expect 129 "unknown verb 'frobnicate'" perf persistent frobnicate
expect 129 "missing the event name" perf persistent script
expect 1 "cannot write '/nonexistent/f.data': No such file or directory" \
	perf persistent record -o /nonexistent/f.data "$E"
expect 129 "unexpected argument 'extra'" perf persistent archive extra
expect 129 "bad number of archives to keep '0'" perf persistent archive --keep 0
expect 129 "--textfile and --no-textfile exclude each other" \
	perf persistent archive --textfile /tmp --no-textfile
# archive where the module found no previous boot (no region here).
perf persistent archive -d /tmp/noarch >/tmp/out 2>&1
check_eq "archive without a previous boot: exit 0" 0 $?
check_grep "... says there is nothing to archive" \
	"^no previous boot in a reserved region: nothing to archive$" /tmp/out
check "... and makes no directory" [ ! -e /tmp/noarch ]
check_eq "nothing left behind by the bad input" "1" "$(perf persistent list | grep -c '^ *[0-9]')"
check "$E still holds its records" test "$(pp_stat "$E" written)" -eq 2

# An event destroyed while the tool reads it (destroyed right after the
# tool paused it, by the preload shim).
perf persistent create -d -n doomed context-switches >/dev/null
expect 1 "doomed: the event was destroyed while being read" \
	env LD_PRELOAD="$PWD/bin/preload-destroy.so" $PP script doomed
check_eq "the doomed event is gone" "" "$(perf persistent list | grep ' doomed ')"

expect 1 "Permission denied: persistent events need root" setpriv_nobody "$PP list"

umount /sys/kernel/debug/tracing 2>/dev/null
umount /sys/kernel/tracing
expect 1 "tracefs is not mounted; mount it with: mount -t tracefs nodev /sys/kernel/tracing" \
	$PP script "$E"
mount -t tracefs tracefs /sys/kernel/tracing
check "tracefs back: script works" $PP script "$E"

pp_unload
expect 1 "/dev/perf_persistent: No such file or directory: is the perf_persistent module loaded?" \
	perf persistent list
expect 1 "/dev/perf_persistent: No such file or directory: is the perf_persistent module loaded?" \
	perf persistent archive -d /tmp/noarch
check "archive without the module: no archive directory" test ! -e /tmp/noarch
check "kernel log clean" pp_log_clean

done_testing
