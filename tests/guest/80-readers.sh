# SPDX-License-Identifier: GPL-2.0
#
# Readers through the persistent PMU with Debian's perf: history then live,
# each record exactly once with its original values, perf report/stat/top,
# concurrent readers, lost samples, a big history without loss, destroy while
# read, module pinning.
. ./lib.sh

pp_load
type=$(cat "$PP_SYS/type")
ncpus=$(grep -c ^processor /proc/cpuinfo)
E=$pp_error_event

# The records of MCEs of distinct status values (mce_record's 4th u64:
# raw_u64_3) go through perf record, the mmap reader and two readers at
# once: where the machine has no machine checks, those checks are skipped.
if pp_have_mce; then
	# Three MCEs while nobody listens (distinct status values a, b, c).
	pp_inject_mce 0 0x9c000000000a0151
	pp_inject_mce 1 0x9c000000000b0151
	pp_inject_mce 1 0x9c000000000c0151
	check "three MCEs recorded with no reader" pp_wait_stat mce_record written 3

	# perf record: history first, then two live MCEs (d, e) during the run.
	perf record -a -R -o /tmp/rec.data -e persistent/mce_record/ -- \
		pp-read-window mce_record "$ncpus" $(($(pp_stat mce_record written) + 2)) \
		"pp_inject_mce 0 0x9c000000000d0151; pp_inject_mce 1 0x9c000000000e0151" \
		>/tmp/rec.out 2>&1
	check "perf record -a -R -e persistent/mce_record/ succeeds" test $? -eq 0
	pp-perfdata /tmp/rec.data "$type" >/tmp/samples
	check_eq "five samples" 5 "$(grep -c '^sample ' /tmp/samples)" || sed 's/^/#   /' /tmp/samples
	for s in a b c d e; do
		check_eq "MCE $s arrives exactly once" 1 \
			"$(grep -c "raw_u64_3=0x9c000000000${s}0151$" /tmp/samples)"
	done
	check_eq "each arrives on the CPU that recorded it" 5 \
		"$(grep -cE 'sample cpu=([0-9]+) .* orig_cpu=\1 ' /tmp/samples)"
	orig() { grep "raw_u64_3=0x9c000000000${1}0151" /tmp/samples | sed 's/.*orig_time=\([0-9]*\).*/\1/'; }
	deliv() { grep "raw_u64_3=0x9c000000000${1}0151" /tmp/samples | sed 's/.*sample cpu=[0-9]* time=\([0-9]*\).*/\1/'; }
	check "original timestamps, not delivery times (history)" test "$(orig b)" -lt "$(deliv b)"
	# In order: b's sample comes before c's in CPU 1's ring (their delivery
	# times may be equal: the guest's clock can repeat a value).
	line() { grep -n "raw_u64_3=0x9c000000000${1}0151" /tmp/samples | cut -d: -f1; }
	check "history in order on CPU 1 (b before c)" test "$(line b)" -lt "$(line c)"
	check "live records after the history (c before e)" test "$(orig c)" -lt "$(orig e)"
	check "live record keeps its original time (e)" test "$(orig e)" -le "$(deliv e)"
	check_eq "original pid is the MCE kworker's, not perf's" "" \
		"$(grep -E 'orig_pid=0 ' /tmp/samples)"
	check_eq "perf saw no lost samples" "lost=0" "$(grep ^lost= /tmp/samples)"
	perf report -D -i /tmp/rec.data 2>/dev/null >/tmp/report
	check_eq "perf report -D shows the five samples" 5 \
		"$(grep -c 'PERF_RECORD_SAMPLE' /tmp/report)"

	# The mmap reader and perf agree on the records.
	for cpu in 0 1; do pp-mmap 1 $cpu pause; done >/tmp/mmap
	grep '^record ' /tmp/mmap | sed 's/.*time=\([0-9]*\) .*raw_u64_3=\(0x[0-9a-f]*\)/\1 \2/' | sort >/tmp/m.set
	grep '^sample ' /tmp/samples | sed 's/.*orig_time=\([0-9]*\) .*raw_u64_3=\(0x[0-9a-f]*\)/\1 \2/' | sort >/tmp/p.set
	check_eq "mmap and perf: same records, same times" "$(cat /tmp/m.set)" "$(cat /tmp/p.set)"

	# nohistory: only what arrives after the reader started.
	perf record -a -R -o /tmp/live.data -e persistent/mce_record,nohistory/ -- \
		pp-read-window mce_record "$ncpus" $(($(pp_stat mce_record written) + 1)) "pp_inject_mce 1 0x9c000000000f0151" >/dev/null 2>&1
	pp-perfdata /tmp/live.data "$type" >/tmp/live
	check_eq "nohistory: only the live record" "1 f" \
		"$(grep -c '^sample ' /tmp/live) $(sed -n 's/.*raw_u64_3=0x9c000000000\(.\)0151$/\1/p' /tmp/live)" ||
		sed 's/^/#   /' /tmp/live
else
	skip "perf record -a -R of MCEs: history then live, each once, with its values" "no machine checks here"
fi

# perf stat counts the records that arrive.
perf stat -a -x, -e "persistent/$E,nohistory/" -- \
	pp-read-window "$E" "$ncpus" $(($(pp_stat "$E" written) + 2)) \
	"pp_inject_error 0; pp_inject_error 1" 2>/tmp/stat >/dev/null
check_eq "perf stat counts the two live records" 2 "$(cut -d, -f1 /tmp/stat | grep -v '^#' | head -n1)"
perf stat -a -x, -e "persistent/$E/" -- \
	pp-read-window "$E" "$ncpus" "$(pp_stat "$E" written)" 2>/tmp/stat >/dev/null
check_eq "perf stat with history counts every record held" \
	"$(pp_stat "$E" written)" "$(cut -d, -f1 /tmp/stat | grep -v '^#' | head -n1)"

if pp_have_mce; then
	# Two readers at once each see every record, once: the second injects
	# when both read, each stops when both records reached every reader.
	w=$(($(pp_stat mce_record written) + 2))
	perf record -a -R -o /tmp/r1.data -e persistent/mce_record/ -- \
		pp-read-window mce_record "$ncpus" $w >/tmp/r1.out 2>&1 &
	r1=$!
	perf record -a -R -o /tmp/r2.data -e persistent/mce_record/ -- \
		pp-read-window mce_record $((2 * ncpus)) $w \
		"pp_inject_mce 0 0x9c00000000120151; pp_inject_mce 1 0x9c00000000130151" >/tmp/r2.out 2>&1
	echo "r2 exit $?" >>/tmp/r2.out
	wait $r1
	echo "r1 exit $?" >>/tmp/r1.out
	for r in r1 r2; do
		pp-perfdata /tmp/$r.data "$type" >/tmp/$r
		echo "$(grep -c 'raw_u64_3=0x9c00000000120151$' /tmp/$r)$(grep -c 'raw_u64_3=0x9c00000000130151$' /tmp/$r)"
	done >/tmp/n
	check_eq "concurrent readers each get both records, once" "11 11" "$(echo $(cat /tmp/n))" || {
		echo "#   written $(pp_stat mce_record written), wanted $w; $ncpus CPUs online"
		grep -v '^sample ' /tmp/r1 /tmp/r2 /tmp/r1.out /tmp/r2.out | sed 's/^/#   /'
	}
else
	skip "two readers at once each get every MCE once" "no machine checks here"
fi

# A flood into a too-small reader ring buffer: perf counts lost samples.
pp-ctl create flood sw=0 period=100000 buffer=262144 detached >/dev/null
# perf reads until 5000 more records were made (a quarter of a second at
# 10 kHz on 2 CPUs): far more than its one page holds.
perf record -a -m 1 -o /tmp/flood.data -e persistent/flood/ -- \
	pp-read-window flood "$ncpus" $(($(pp_stat flood written) + 5000)) >/tmp/flood.out 2>&1
check "perf record survives the flood" test $? -eq 0
pp-perfdata /tmp/flood.data "$type" >/tmp/flood
check "perf accounts lost samples" test "$(sed -n 's/^lost=//p' /tmp/flood)" -gt 0
check "and records many" test "$(sed -n 's/^samples=//p' /tmp/flood)" -gt 100

pp-ctl destroy flood >/dev/null

# A history of megabytes replays into perf's default ring (512 KiB) without
# loss: delivery is paced while history is replayed (Documentation/readers.rst).
pp-ctl create big tp=raw_syscalls:sys_enter buffer=2097152 detached >/dev/null
dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null
pp-ctl pause big >/dev/null
held=$(($(pp_stat big written) - $(pp_stat big overwritten)))
check "the big history holds more than perf's ring" test "$held" -gt 10000
perf record -a -o /tmp/big.data -e persistent/big/ -- \
	pp-read-window big "$ncpus" "$(pp_stat big written)" >/dev/null 2>&1
pp-perfdata /tmp/big.data "$type" >/tmp/big
# (Without -R: small samples, as perf's default ring needs for the pace.)
# perf 6.12 under load was seen to write a chunk of its ring into perf.data
# twice: the same samples byte for byte, delivery times included.  Those
# repeats are perf's; a record the module delivered twice would carry two
# delivery times.  (Lines alike for other reasons only loosen the bound:
# the guest's clock can repeat a value.)
samples=$(grep -c '^sample ' /tmp/big)
repeats=$((samples - $(grep '^sample ' /tmp/big | sort -u | wc -l)))
echo "# big history: $held held, $samples samples, $repeats lines written twice by perf"
check "every record of the big history replayed" test "$samples" -ge "$held"
check "none delivered twice" test "$samples" -le $((held + repeats))
check_eq "perf lost none" "lost=0" "$(grep ^lost= /tmp/big)"
pp-ctl destroy big >/dev/null

# Records overwritten before a reader received them are not lost in
# silence: perf disables its readers (--control), 4000 system calls on
# CPU 0 go round the 4 KiB buffer many times, perf enables them again, and
# each reader gets one struct perf_persistent_lost saying how many bytes it
# missed; the instance's lost statistic sums the same.
pp-ctl create lossy tp=raw_syscalls:sys_enter buffer=4096 detached >/dev/null
rm -f /tmp/ctl /tmp/ack
mkfifo /tmp/ctl /tmp/ack
work="pp_wait_readers lossy $ncpus && echo disable >/tmp/ctl && head -c 4 /tmp/ack &&
	pp_wait_until -- test \$(pp_stat lossy readers) = 0 &&
	taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=2000 2>/dev/null &&
	echo enable >/tmp/ctl && head -c 4 /tmp/ack && pp_wait_readers lossy $ncpus &&
	pp_wait_stat lossy lost 1 && pp_stat lossy lost >/tmp/lossy.stat"
perf record -a -R -o /tmp/lossy.data -e persistent/lossy/ --control fifo:/tmp/ctl,/tmp/ack \
	-- sh -c ". /tests/lib.sh; $work" >/tmp/lossy.out 2>&1
check "perf record with a reader disabled meanwhile ends" test $? -eq 0
pp-perfdata /tmp/lossy.data "$type" >/tmp/lossy
lost_bytes=$(sed -n 's/^lost_bytes=//p' /tmp/lossy)
check "the reader on CPU 0 was told of its loss" grep -q '^lost cpu=0 .* bytes=[1-9]' /tmp/lossy
check "of more than the buffer's size" test "${lost_bytes:-0}" -gt 4096
check_eq "the lost statistic says the same" "$lost_bytes" "$(cat /tmp/lossy.stat)"
check_eq "perf itself lost nothing" "lost=0" "$(grep ^lost= /tmp/lossy)"
pp-ctl destroy lossy >/dev/null

# perf top runs and shows samples.  It reads keys: its stdin is a FIFO
# held open.  It is stopped once it has shown what is checked, however long
# its start and first refreshes take on the kernel at hand.  Its output to
# a file is buffered: a screen of 100 lines of 160 columns (perf takes the
# size from LINES and COLUMNS) and a row per task fill the buffer in a
# refresh or two, where 80 by 25 took 17 s.
pp-ctl create switches tp=sched:sched_switch detached >/dev/null
rm -f /tmp/top /tmp/topin
mkfifo /tmp/topin
LINES=100 COLUMNS=160 perf top --stdio -d 1 -s pid,dso,sym -e persistent/switches/ \
	</tmp/topin >/tmp/top 2>&1 &
top_pid=$!
exec 3>/tmp/topin
check "perf top shows samples of persistent/switches/" \
	pp_wait_grep "PerfTop: +[1-9][0-9]* irqs/sec .*persistent/switches/" /tmp/top
check "attributed to the delivery (in perf_persistent)" \
	pp_wait_grep "\[perf_persistent\] +\[k\] " /tmp/top
kill -INT $top_pid
wait $top_pid
exec 3>&-
grep -E "PerfTop:|perf_persistent" /tmp/top | tail -n 3 | sed 's/^/#   | /'
pp-ctl destroy switches >/dev/null

# Destroy while read: the stream ends cleanly, the event goes with the reader.
pp-ctl create victim sw=3 detached >/dev/null
perf record -a -o /tmp/v.data -e persistent/victim/ -- \
	sh -c "while [ -e $PP_SYS/instances/victim ]; do sleep 0.1; done" >/tmp/v.out 2>&1 &
perf_pid=$!
pinned() { [ "$(cat /sys/module/perf_persistent/refcnt)" -ge "$ncpus" ]; }
check "the readers pin the module" pp_wait_until -- pinned
rmmod perf_persistent 2>/dev/null
check "rmmod refused while a reader is open" pp_loaded
pp-ctl destroy victim >/tmp/out
check_grep "DESTROY while read" "^destroy victim: OK$" /tmp/out
check "gone from events/ at once" test ! -e "$PP_SYS/events/victim"
wait $perf_pid
check "perf record ends normally" test $? -eq 0
check_eq "nothing holds the module afterwards" 0 "$(cat /sys/module/perf_persistent/refcnt)"

check "kernel log clean" pp_log_clean
check "rmmod after the readers are gone" pp_unload

done_testing
