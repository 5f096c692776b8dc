# SPDX-License-Identifier: GPL-2.0
#
# Sources other than tracepoints: software events, a hardware breakpoint, a
# counting (non-sampling) source, and the kernel's refusal passed on.
. ./lib.sh

pp_load events=

# PERF_COUNT_SW_CONTEXT_SWITCHES = 3, sampled on every switch.
pp-ctl create cs sw=3 detached >/tmp/out
check_grep "software source created" "^create cs: OK" /tmp/out
check "software source records" pp_wait_stat cs written 1

# A write breakpoint on jiffies_64: the timer tick writes it.  On arm64
# the module refuses breakpoints (E144): that kernel steps over a
# watchpoint's access only for perf's own overflow handler, and the
# guest hung in the exception before it did.
addr=$(grep ' jiffies_64$' /proc/kallsyms | cut -d' ' -f1)
pp-ctl create jif "bp=0x${addr:-ffff800008000000}:8:w" detached >/tmp/out
if [ "$(uname -m)" = aarch64 ]; then
	check_grep "arm64: a breakpoint source is refused" "^create jif: EOPNOTSUPP" /tmp/out
	check "and nothing is left of it" test ! -e "$PP_SYS/events/jif"
else
	check_grep "breakpoint source created" "^create jif: OK" /tmp/out
	check "breakpoint source records" pp_wait_stat jif written 1
	pp-ctl info jif >/tmp/info
	check_grep "breakpoint attr kept (type 5)" "^type=5$" /tmp/info
	pp-ctl destroy jif >/dev/null
fi

# Counting only (period 0): no records, counts readable per CPU.
pp-ctl create cnt sw=3 period=0 detached >/dev/null
cnt_counts() {
	pp-ctl info cnt >/tmp/info && grep -qE '^cpu0 online=1 .* count=[1-9][0-9]* ' /tmp/info
}
pp_wait_until -- cnt_counts
check_eq "counting source writes no record" 0 "$(pp_field written /tmp/info)"
check_grep "counting source's per-CPU count is readable" "^cpu0 online=1 .* count=[1-9][0-9]* " /tmp/info

# A PERF_TYPE_HARDWARE event that no PMU has (config 99, past
# PERF_COUNT_HW_MAX): the kernel's errno comes back.  (Cycles would do on
# x86 under TCG, which has no PMU, but arm64's virt CPU has one.)
pp-ctl create hw hw=99 detached >/tmp/out
# x86 under TCG has no PMU (ENOENT); arm64's PMU driver refuses the
# config (EINVAL); the module checks no hardware config itself.
check_grep "a source the kernel refuses: its errno passed on" "^create hw: (ENOENT|EOPNOTSUPP|ENODEV|EINVAL)$" /tmp/out
check "and nothing is left of it" test ! -e "$PP_SYS/events/hw"

pp-ctl destroy cs destroy cnt >/dev/null
check_eq "all destroyed" "" "$(ls "$PP_SYS/events")"
check "kernel log clean" pp_log_clean

done_testing
