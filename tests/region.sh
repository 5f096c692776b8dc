# SPDX-License-Identifier: GPL-2.0
#
# tests/region.sh - the reserved region (region=), in a guest booted with
# memory reserved for it by scripts/region-check.  The environment names
# the reserved ranges as region= takes them:
#   REGION   a range large enough, reserved by place (memmap=)
#   SMALL    a reserved range smaller than PP_REGION_MIN
#   CLAIMED  a reserved range that ramoops claims first (above the end of
#            RAM, where ramoops maps with ioremap and claims the range)
#   DEVICE   a range that is not reserved memory (x86: the local APIC's)
#   LABEL    a reserve_mem label, on kernels that have reserve_mem=
# Prints TAP.
. ./lib.sh

pp_unload
row E132 ENOSPC pp-ctl load "region=$SMALL"
claimed_at=${CLAIMED#*@}
if [ -z "$(find "/lib/modules/$(uname -r)" -name 'ramoops.ko*')" ]; then
	# The debug kernel builds no pstore (make coverage runs this there).
	skip "E133 -> EBUSY (pp-ctl load region=$CLAIMED)" "no ramoops in this kernel"
else
	modprobe ramoops mem_address="$claimed_at" mem_size=0x100000 record_size=0x10000
	row E133 EBUSY pp-ctl load "region=$CLAIMED"
	rmmod ramoops
fi
row E134 ENXIO pp-ctl load "region=$DEVICE"
check "the refused loads left no module" test ! -d /sys/module/perf_persistent

# region_ok SPEC: the module loads with region=SPEC, maps it, and gives it
# back when it unloads.
region_ok() {
	check_grep "loads with region=$1" ": OK$" "$(pp-ctl load "region=$1" >/tmp/rl; echo /tmp/rl)"
	check_grep "... says where the region is" "perf_persistent: region: [0-9]+ KiB at " \
		"$(dmesg >/tmp/rd; echo /tmp/rd)"
	check "... unloads" rmmod perf_persistent
}
region_ok "$REGION"
check "... claimed the range while loaded, and gave it back" \
	sh -c "! grep -q 'perf_persistent region' /proc/iomem"
pp-ctl load "region=$REGION" >/dev/null
check_grep "the range given by place is claimed in /proc/iomem" "perf_persistent region" /proc/iomem
rmmod perf_persistent
if [ -n "${LABEL:-}" ]; then
	region_ok "$LABEL"
fi

# Load-time events too large for the region still record, not kept.
pp-ctl load "region=$REGION buffer_kb=2048" >/dev/null
check "mce_record too large for the region is created all the same" \
	test -d "$PP_SYS/instances/mce_record"
check_grep "... and the log says it is not kept" \
	"mce:mce_record: no room left in the region; recording it, but not across a reboot" \
	"$(dmesg >/tmp/rd; echo /tmp/rd)"
check "... and its state says so" sh -c "! perf persistent list | grep -q kept"
rmmod perf_persistent
check "kernel log clean" pp_log_clean

done_testing
