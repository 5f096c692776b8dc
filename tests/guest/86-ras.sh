# SPDX-License-Identifier: GPL-2.0
#
# The RAS tracepoints among the default load-time events, fed by the lab's
# pp_ras module (tests/kmod/pp_ras.c) as an EDAC driver or the firmware
# (GHES) of an arm64 server would: mc_event, arm_event and
# non_standard_event exist from load; their records, with pp_ras's
# values, come out of perf record -a -R through the persistent PMU, out of
# perf persistent script decoded, and out of perf script of the
# perf.data perf persistent record writes.  An mc_event record is the
# size pp_error_record_size says (the size the suites count on where the
# machine has no machine checks).
. ./lib.sh

R=/sys/kernel/tracing/events/ras
if [ ! -d $R/mc_event ] || ! modprobe pp_ras 2>/dev/null; then
	skip "the RAS tracepoints as load-time events" "no RAS tracepoints or no pp_ras on this kernel"
	done_testing
	exit
fi
D=/sys/kernel/debug/pp_ras

pp_load
pp_log_mark
type=$(cat "$PP_SYS/type")
ncpus=$(grep -c ^processor /proc/cpuinfo)
for e in mc_event arm_event non_standard_event; do
	check "$e is a load-time event" test -e "$PP_SYS/events/$e"
done

# fire NAME CPU VALUE: pp_ras fires the tracepoint NAME on CPU with VALUE.
fire() {
	taskset -c "$2" sh -c "echo $3 >$D/$1"
}

# ---- two memory-controller errors with nobody listening -----------------
fire mc_event 0 0x1230000
fire mc_event 1 0x4560000
check "two memory-controller errors recorded" pp_wait_stat mc_event written 2
rsize=$(PP_INJECT=ras sh -c '. ./lib.sh; pp_error_record_size')
check_eq "$rsize bytes a record, as pp_error_record_size says" $((2 * rsize)) \
	"$(pp_stat mc_event bytes)"

# ---- perf record -a -R: the history, then a live one --------------------
# mc_event's address is the u64 at index 4 of its entry.
perf record -a -R -o /tmp/ras.data -e persistent/mc_event/ -- \
	pp-read-window mc_event "$ncpus" 3 \
	"taskset -c 1 sh -c 'echo 0x7890000 >$D/mc_event'" >/tmp/rec.out 2>&1
check "perf record -a -R -e persistent/mc_event/ succeeds" test $? -eq 0
pp-perfdata /tmp/ras.data "$type" 4 >/tmp/samples
check_eq "three samples" 3 "$(grep -c '^sample ' /tmp/samples)" || sed 's/^/#   /' /tmp/samples
for a in 0x1230000:0 0x4560000:1 0x7890000:1; do
	check_eq "the error at ${a%:*} arrives once, from CPU ${a#*:}" 1 \
		"$(grep -c "orig_cpu=${a#*:} .* raw_u64_4=${a%:*}$" /tmp/samples)"
done
check_eq "perf saw no lost samples" "lost=0" "$(grep ^lost= /tmp/samples)"
perf report -D -i /tmp/ras.data 2>/dev/null >/tmp/report
check_eq "perf report -D shows the three samples" 3 "$(grep -c 'PERF_RECORD_SAMPLE' /tmp/report)"

# ---- perf persistent script: decoded with pp_ras's values ---------------
perf persistent script mc_event >/tmp/script 2>&1
sed 's/^/# /' /tmp/script
check_eq "script: one line per error" 3 "$(grep -c ' ras:mc_event: ' /tmp/script)"
# mc_line CPU ADDRESS: the line of pp_ras's error at ADDRESS, as a regex.
# mc_event's print format calls a function of the kernel's,
# mc_event_error_type(), which libtraceevent does not know: the tool, as
# perf script itself, then lists the fields after "[FAILED TO PARSE]".
# (The printed form is also taken, for a libtraceevent that knows it.)
mc_line() {
	printf '%s' "^ *[^ ]+ +[0-9]+ \[00$1\] +[0-9.]+: ras:mc_event: "
	printf '%s' "(\[FAILED TO PARSE\] error_type=0 msg=pp_ras injected error label=pp_ras DIMM "
	printf '%s' "error_count=1 mc_index=0 top_layer=1 middle_layer=2 lower_layer=3 "
	printf '%s' "address=$(($2)) grain_bits=6 syndrome=90 driver_detail=pp_ras"
	printf '%s' "|1 Corrected error: pp_ras injected error on pp_ras DIMM \(mc:0 location:1:2:3 "
	printf '%s' "address:$(printf 0x%08x "$2") grain:64 syndrome:0x0000005a pp_ras\))$"
}
check_match "script: the first decoded, on CPU 0" "$(mc_line 0 0x1230000)" "$(sed -n 1p /tmp/script)"
check_match "script: the newest decoded, on CPU 1" "$(mc_line 1 0x7890000)" "$(sed -n 3p /tmp/script)"
perf persistent script --json mc_event >/tmp/json
check_eq "script --json: the fields" '19070976 "pp_ras DIMM" 1 2 3' \
	"$(pp-json fields.address fields.label fields.top_layer fields.middle_layer fields.lower_layer </tmp/json | sed -n 1p)"
perf persistent record mc_event -o /tmp/mc.data 2>/dev/null
perf script -i /tmp/mc.data >/tmp/pscript 2>/dev/null
check_match "perf script of perf persistent record's perf.data: decoded by perf" \
	"$(mc_line 1 0x4560000)" "$(sed -n 2p /tmp/pscript)"

# ---- arm_event and non_standard_event ------------------------------------
# arm_event took the processor section alone on 6.1; later kernels add the
# CPU and the severity first (and data blocks after).
fire arm_event 1 0x80000101
fire non_standard_event 0 0x1122334455667788
check "an ARM processor error recorded" pp_wait_stat arm_event written 1
check "a non-standard section recorded" pp_wait_stat non_standard_event written 1
check_match "script: the ARM processor error decoded" \
	"\[001\] .*ras:arm_event: (cpu: 1; error: 2; )?affinity level: 1; MPIDR: 0000000080000101; MIDR: 00000000410fd0c0; running state: 1; PSCI state: 0" \
	"$(perf persistent script arm_event 2>&1)"
check_match "script: the non-standard section decoded" \
	"\[000\] .*ras:non_standard_event: severity: 2; .* pp_ras; data len:8; raw data:" \
	"$(perf persistent script non_standard_event 2>&1)"
# arm_event's MPIDR is the u64 at index 1 of its entry.
perf record -a -R -o /tmp/arm.data -e persistent/arm_event/ -- \
	pp-read-window arm_event "$ncpus" 1 >/dev/null 2>&1
check_match "perf record -a -R -e persistent/arm_event/: its MPIDR" \
	"^sample .* orig_cpu=1 .* raw_u64_1=0x80000101$" "$(pp-perfdata /tmp/arm.data "$type" 1)"

check "kernel log clean" pp_log_clean
check "the module unloads" pp_unload
rmmod pp_ras

done_testing
