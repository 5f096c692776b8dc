# SPDX-License-Identifier: GPL-2.0
#
# Run by scripts/crash-check with vm-run --warm-reset, the kernel booted
# with RAM reserved for ramoops (memmap=) and pstore taking the whole log
# (pstore.kmsg_bytes=).  First boot: known records, what perf persistent
# script prints of them, a SysRq-c panic, whose log ramoops keeps in that
# RAM through the warm reset.  Second boot: the dump decoded from
# /sys/fs/pstore.  Output sections start with "==== ".
. ./lib.sh

mkdir -p /sys/fs/pstore
mount -t pstore pstore /sys/fs/pstore
# PP_RAMOOPS_ADDR: where the RAM kept for it is (arm64's virt machine has
# no memmap=; crash-check keeps the top of its RAM from the kernel there).
modprobe ramoops mem_address="${PP_RAMOOPS_ADDR:-0x10000000}" mem_size=0x200000 \
	record_size=0x100000 || exit 1
echo "==== error event $pp_error_event"
if ls /sys/fs/pstore/dmesg-ramoops-* >/dev/null 2>&1; then
	echo "==== second boot: $(ls /sys/fs/pstore | xargs)"
	echo "==== from pstore"
	# Part 1 is the newest end of the log: oldest part first.
	cat $(ls -r /sys/fs/pstore/dmesg-ramoops-*) |
		perf persistent script --from-log - $pp_error_event
	echo "==== end"
	exit 0
fi
echo "==== first boot"
pp_inject_error 0 0xbe00000000800400 2
pp_inject_error 1 0xbe00000000800401 3
pp_wait_stat $pp_error_event written 2
perf persistent pause $pp_error_event >/dev/null
echo "==== script $pp_error_event"
perf persistent script $pp_error_event
echo "==== crash"
pp_console_drain
echo c >/proc/sysrq-trigger
