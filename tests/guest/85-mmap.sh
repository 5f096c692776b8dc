# SPDX-License-Identifier: GPL-2.0
#
# Read-only mmap of the buffers through /dev/perf_persistent: perf's
# control-page layout, backward reading, many readers, pause for a
# consistent snapshot, no torn record under a flood, references, refusals.
. ./lib.sh

E=$pp_error_event
pp_load "events=$pp_error_tp"
id=$(pp_stat "$E" id)
# Two errors on CPU 1; MCEs of distinct status values (aa, bb), where the
# machine has machine checks.
if pp_have_mce; then
	pp_inject_mce 1 0x9c00000000aa0151
	pp_inject_mce 1 0x9c00000000bb0151
else
	pp_inject_error 1
	pp_inject_error 1
fi
pp_wait_stat "$E" written 2

pp-mmap "$id" 1 >/tmp/m1
if pp_have_mce; then
	check_grep "a mapping shows the records, newest first (bb)" "^record .*raw_u64_3=0x9c00000000bb0151$" /tmp/m1
	check_eq "newest first: bb then aa" "bb aa" \
		"$(sed -n 's/.*raw_u64_3=0x9c00000000\(..\)0151$/\1/p' /tmp/m1 | xargs)"
else
	skip "a mapping shows the MCEs, newest first" "no machine checks here"
fi
rsize=$(pp_error_record_size)
check_grep "data_head is the newest record: two $rsize-byte records below 0" \
	"^records=2 head=-$((2 * rsize)) tail=0 data_size=65536$" /tmp/m1

# Any number of processes map the same buffer at once.
rm -f /tmp/h1
pp-mmap "$id" 1 hold >/tmp/h1 &
h1=$!
rm -f /tmp/h2
pp-mmap "$id" 1 hold >/tmp/h2 &
h2=$!
pp_wait_grep '^hold: OK' /tmp/h1 && pp_wait_grep '^hold: OK' /tmp/h2
check_eq "two mappings held at once" "2" "$(grep -c '^records=2 ' /tmp/h1 /tmp/h2 | grep -c ':1$')"

# A mapping holds a reference: destroy while mapped, free at unmap.
pp-ctl destroy "$E" >/tmp/out
check_grep "DESTROY while mapped" "^destroy $E: OK$" /tmp/out
check "gone from events/ at once" test ! -e "$PP_SYS/events/$E"
check_eq "mmap of an event being destroyed -> ENOENT" "mmap: ENOENT" "$(pp-mmap "$id" 1 | head -n1 | sed 's/info: ENOENT/mmap: ENOENT/')"
rmmod perf_persistent 2>/dev/null
check "mappings pin the module" pp_loaded
kill $h1 $h2
wait $h1 $h2 2>/dev/null
check_eq "unmapped: nothing holds the module" 0 "$(cat /sys/module/perf_persistent/refcnt)"

# Refusals.
pp-ctl create sw sw=3 buffer=16384 detached >/dev/null
id=$(pp_stat sw id)
pp-mmap "$id" 0 try-write >/tmp/w
check_grep "PROT_WRITE shared -> EACCES" "^shared writable: EACCES$" /tmp/w
check_grep "PROT_WRITE private -> EACCES" "^private writable: EACCES$" /tmp/w
check_grep "mprotect to writable later -> EACCES" "^mprotect writable: EACCES$" /tmp/w
check_eq "wrong length -> EINVAL" "mmap: EINVAL" "$(pp-mmap "$id" 0 size 4096)"
check_eq "length of another buffer size -> EINVAL" "mmap: EINVAL" "$(pp-mmap "$id" 0 size 36864)"
check_eq "CPU out of range -> EINVAL" "mmap: EINVAL" "$(pp-mmap "$id" 999 | tail -n1)"
check_eq "unknown id -> ENOENT" "info: ENOENT" "$(pp-mmap 999 0)"
check_eq "without CAP_PERFMON/SYS_ADMIN: the device is root-only" "open: EACCES" \
	"$(setpriv_nobody pp-mmap "$id" 0)"

# A reader walking from the head across many wraps while a source floods
# never returns a torn record: each one read is the source's (its id, CPU
# and period), and older than the one before it.  (The same walk ignoring
# the reservation head is printed for comparison: what the rule avoids.)
pp-ctl create flood sw=0 period=50000 buffer=16384 detached >/dev/null
fid=$(pp_stat flood id)
# (A reader that dies shows its status in place of its line.)
(pp-mmap "$fid" 0 flood 4 50000 || echo "pp-mmap: exit $?") >/tmp/f0 &
(pp-mmap "$fid" 1 flood 4 50000 || echo "pp-mmap: exit $?") >/tmp/f1
wait
(pp-mmap "$fid" 0 flood-unchecked 2 50000 || echo "pp-mmap: exit $?") >/tmp/fu0 &
(pp-mmap "$fid" 1 flood-unchecked 2 50000 || echo "pp-mmap: exit $?") >/tmp/fu1
wait
echo "# without the rule: CPU 0 $(cat /tmp/fu0), CPU 1 $(cat /tmp/fu1)"
check_grep "flood on CPU 0: records read, none torn" "^flood: walks=[0-9]+ read=[1-9][0-9]* discarded=[0-9]+ torn=0$" /tmp/f0
check_grep "flood on CPU 1: records read, none torn" "^flood: walks=[0-9]+ read=[1-9][0-9]* discarded=[0-9]+ torn=0$" /tmp/f1
check "the buffer wrapped many times meanwhile" test "$(pp_stat flood overwritten)" -gt 1000

# PAUSE for a consistent snapshot: nothing moves while paused.
pp-ctl pause flood >/dev/null
pp-mmap "$fid" 0 >/tmp/s1
# The source goes on firing meanwhile: its records are dropped.
pp_wait_stat flood dropped $(($(pp_stat flood dropped) + 100))
pp-mmap "$fid" 0 >/tmp/s2
check "paused: the snapshot is stable" cmp -s /tmp/s1 /tmp/s2
check_no_grep "paused: every record well-formed" "^bad record" /tmp/s1
check "paused: the records held fill the buffer" \
	test "$(sed -n 's/^records=\([0-9]*\) .*/\1/p' /tmp/s1)" -gt 100
pp-ctl resume flood >/dev/null
resumed() {
	pp-mmap "$fid" 0 >/tmp/s3 && [ "$(tail -n1 /tmp/s3)" != "$(tail -n1 /tmp/s1)" ]
}
check "resumed: recording again" pp_wait_until -- resumed
pp-ctl destroy flood destroy sw >/dev/null

check "kernel log clean" pp_log_clean

done_testing
