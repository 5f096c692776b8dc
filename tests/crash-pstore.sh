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
modprobe ramoops mem_address=0x10000000 mem_size=0x200000 record_size=0x100000 ||
	exit 1
if ls /sys/fs/pstore/dmesg-ramoops-* >/dev/null 2>&1; then
	echo "==== second boot: $(ls /sys/fs/pstore | xargs)"
	echo "==== from pstore"
	# Part 1 is the newest end of the log: oldest part first.
	cat $(ls -r /sys/fs/pstore/dmesg-ramoops-*) |
		perf persistent script --from-log - mce_record
	echo "==== end"
	exit 0
fi
echo "==== first boot"
pp_inject_mce 0 0xbe00000000800400 2
pp_inject_mce 1 0xbe00000000800401 3
pp_wait_stat mce_record written 2
perf persistent pause mce_record >/dev/null
echo "==== script mce_record"
perf persistent script mce_record
echo "==== crash"
pp_console_drain
echo c >/proc/sysrq-trigger
