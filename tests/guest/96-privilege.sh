# SPDX-License-Identifier: GPL-2.0
#
# Privileges and what reaches userspace.  The refusals (device root-only,
# EPERM without CAP_PERFMON/CAP_SYS_ADMIN for every verb that changes
# something and for mappings, readers as perf_event_paranoid allows perf
# itself) are rows E01-E07, E54 and E61 of 98-errnos; here: the same
# with capabilities dropped by a root process, and no uninitialised byte or
# kernel pointer in what INFO, LIST and the mappings return.
. ./lib.sh

pp_load
# RAW from a source without raw data: every record has 4 bytes of padding;
# a small buffer that wraps many times, so stale bytes would show.
pp-ctl create pad sw=0 period=100000 sample=0x400 buffer=4096 detached >/dev/null
pp_wait_stat pad overwritten 1000
id=$(pp_stat pad id)

pp-ctl drop-caps create x sw=1 detached destroy pad detach pad attach pad pause pad resume pad \
	info pad list >/tmp/out
for verb in "create x" "destroy pad" "detach pad" "attach pad" "pause pad" "resume pad"; do
	check_grep "no capabilities: $verb -> EPERM" "^$verb: EPERM$" /tmp/out
done
check_grep "no capabilities: info still allowed (the device is root-only)" "^info pad: OK$" /tmp/out
check_eq "no capabilities: mapping -> EPERM" "mmap: EPERM" "$(PP_DROP_CAPS=1 pp-mmap "$id" 0 | tail -n 1)"
check_eq "nothing changed meanwhile" "detached" "$(pp_stat pad state)"

pp-leakcheck "$id" >/tmp/leak
sed 's/^/# /' /tmp/leak
check_grep "no uninitialised byte, no stray data reaches userspace" "^leakcheck: passed$" /tmp/leak
check_no_grep "every leakcheck item passed" "FAILED" /tmp/leak

pp-ctl destroy pad >/dev/null
check "kernel log clean" pp_log_clean

done_testing
