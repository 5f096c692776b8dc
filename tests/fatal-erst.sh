# SPDX-License-Identifier: GPL-2.0
#
# tests/fatal-erst.sh - a fatal machine check kept in ERST across a cold
# power-off, and an error left in the MCA banks across a reset.  Run by
# scripts/fatal-check in two vm-runs that share QEMU's ERST storage
# (--erst FILE), each without the module loaded at boot (--no-load) and
# without a region.
#   PHASE=panic: a fatal machine check raised by QEMU's monitor ("vm-run:
#   monitor mce ..."); the kernel's mce_panic() writes it to ERST and
#   panics, and QEMU exits.
#   PHASE=after: a new QEMU, fresh RAM, two boots (vm-run --reset-by
#   monitor, mce=bootlog).  The first puts a corrected error in bank 3
#   through QEMU's monitor and has the machine reset before the kernel
#   polls the bank: QEMU keeps the bank, and the second boot's kernel logs
#   it ("TSC 0").  Then a corrected error through mce-inject before the
#   module loads, logged by the kernel; then the module, whose
#   boot_errors must hold all three ("==== after script", and as JSON),
#   and another corrected error while it is loaded.  The module loaded
#   again finds the same three, not the error its first load had
#   recorded, and keeps ERST as it was (erst_clear is off by default):
#   "==== after again"; loaded with erst_clear=1 it reads the record and
#   clears it ("==== after clear"), and the load after that finds the
#   logged errors only ("==== after cleared").
# MCE sets QEMU's command: "CPU BANK STATUS MCG_STATUS ADDR MISC".
. ./lib.sh

if [ "$PHASE" = panic ]; then
	echo "==== panic"
	pp_console_drain
	echo "vm-run: monitor mce $MCE"
	# The machine check's panic ends this boot, or vm-run's timeout does.
	sleep 600
fi

# The first boot after the power-off: an error in bank 3, then a reset
# with no kernel path (the bank is polled every five minutes).
if ! dmesg | grep -q 'Bank 3: 9c00000000030151'; then
	echo "==== after bank"
	echo "vm-run: monitor mce 0 3 0x9c00000000030151 0 0x3456000 0"
	pp_console_drain
	echo "vm-run: reset me"
	sleep 600
fi

# inject STATUS: a corrected error in bank 1; the kernel logs it from a
# work item: wait for its line.
logged() {
	dmesg | grep -q "Bank 1: $1"
}
inject() {
	pp_inject_mce 0 "0x$1" 1
	pp_wait_until -- logged "$1"
}
inject 9c000000000b0151

show() {
	echo "==== after $1"
	perf persistent script --previous boot_errors
	echo "==== after $1 json"
	perf persistent script --json --previous boot_errors
	rmmod perf_persistent
}
modprobe perf_persistent
# Logged while the module is loaded: mce_record's to record, not a boot
# error of any later load.
inject 9c000000000c0151
echo "==== after list"
perf persistent list --previous
show script
modprobe perf_persistent
show again
modprobe perf_persistent erst_clear=1
show clear
modprobe perf_persistent
show cleared
echo "==== after log"
dmesg | grep -a 'boot errors:' | sed 's/^\[[^]]*\] //'
