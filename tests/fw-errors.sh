# SPDX-License-Identifier: GPL-2.0
#
# tests/fw-errors.sh - the errors a firmware-first machine's firmware
# reports, in the history.  Run by scripts/fatal-check in both boots of
# one vm-run --warm-reset, on the lab's firmware-first machine
# (scripts/fw-tables: a HEST with one polled GHES source, a BERT whose
# region holds three error sections "from the boot before"), the module
# loaded with region= at each boot.
#   Boot 1: the module's firmware_errors has BERT's sections ("==== boot
#   1 firmware_errors", and as JSON).  Then pp_ras writes a fatal memory
#   error into the GHES source's block (BLOCK, its physical address); the
#   kernel's GHES driver finds it at its next poll, prints it and panics,
#   and the panic resets the guest warm.
#   Boot 2 prints what the previous boot's non_standard_event kept ("====
#   boot 2 previous non_standard_event") and archives that boot, with
#   BERT's sections: the archive's message and node_exporter's textfile
#   ("==== boot 2 archive", "==== boot 2 textfile"); the first boot's
#   kernel log lines are in the console: the host checks them.
. ./lib.sh

if [ ! -e "$PP_SYS/previous_boot/end" ]; then
	echo "==== boot 1 list"
	perf persistent list --previous
	echo "==== boot 1 firmware_errors"
	perf persistent script --previous firmware_errors
	echo "==== boot 1 firmware_errors json"
	perf persistent script --json --previous firmware_errors
	echo "==== boot 1 log"
	dmesg | grep -o 'firmware errors: .*'
	modprobe pp_ras
	echo "==== boot 1 fatal"
	pp_console_drain
	echo "$BLOCK" >/sys/kernel/debug/pp_ras/ghes_fatal
	# The GHES driver's panic ends this boot, or vm-run's timeout does.
	sleep 600
fi

echo "==== boot 2 end"
cat "$PP_SYS/previous_boot/end"
echo "==== boot 2 previous non_standard_event"
perf persistent script --previous non_standard_event
echo "==== boot 2 previous json"
perf persistent script --json --previous non_standard_event
echo "==== boot 2 archive"
mkdir -p /tmp/textfile
perf persistent archive -d /tmp/arch --no-journal --no-rasdaemon \
	--textfile /tmp/textfile
echo "==== boot 2 textfile"
grep '^perf_persistent_previous_boot_hardware_errors{' /tmp/textfile/*.prom
