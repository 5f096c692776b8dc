# SPDX-License-Identifier: GPL-2.0
#
# tests/fatal.sh - a fatal machine check in the history.  Run by
# scripts/fatal-check in both boots of one vm-run --warm-reset, the module
# loaded with region= at each boot.
#   Boot 1: two corrected errors through mce-inject, recorded by the
#   load-time mce_record and printed ("==== boot 1 script mce_record");
#   then a fatal machine check raised by QEMU's monitor ("vm-run: monitor
#   mce ..."), whose panic resets the guest warm.
#   Boot 2 prints what the previous boot kept ("==== boot 2 previous
#   mce_record", and as JSON) and its archive (perf persistent archive:
#   its files, summary, JSON, perf.data's events, textfile, and a second
#   run), and the first boot's kernel log lines are in the console: the
#   host checks them.
# MCE sets QEMU's command: "CPU BANK STATUS MCG_STATUS ADDR MISC".
# PROFILE=1: tests/profile-reset.sh's profile too, made in boot 1 before
# the fatal machine check (CRASH=none) and checked in boot 2 (TAP): the
# seconds before the crash that the machine check ended.
. ./lib.sh

if [ ! -e "$PP_SYS/previous_boot/end" ]; then
	echo "==== boot 1"
	pp_inject_mce 0 0x9c00000000010151 1
	pp_inject_mce 1 0x9c00000000010152 3
	pp_wait_stat mce_record written 2
	echo "==== boot 1 script mce_record"
	perf persistent script mce_record
	[ -z "${PROFILE:-}" ] || CRASH=none sh ./profile-reset.sh
	echo "==== boot 1 fatal"
	pp_console_drain
	echo "vm-run: monitor mce $MCE"
	# The machine check's panic ends this boot, or vm-run's timeout does.
	sleep 600
fi

echo "==== boot 2 end"
cat "$PP_SYS/previous_boot/end"
echo "==== boot 2 previous mce_record"
perf persistent script --previous mce_record
echo "==== boot 2 previous json"
perf persistent script --json --previous mce_record
# The archive of the previous boot (perf persistent archive), as the
# packaged unit makes it at boot, and a second run, which writes nothing.
echo "==== boot 2 archive refused"
perf persistent archive -d /nonexistent/arch --no-textfile 2>&1
echo "exit $?"
echo "==== boot 2 archive"
perf persistent archive -d /tmp/arch --textfile /tmp
echo "==== boot 2 archive files"
ls -1 /tmp/arch/boot-*
echo "==== boot 2 archive summary"
cat /tmp/arch/boot-*/summary
echo "==== boot 2 archive json"
cat /tmp/arch/boot-*/hardware-errors.json
echo "==== boot 2 archive perf.data"
perf script -i /tmp/arch/boot-*/perf.data -F event 2>/dev/null | sort | uniq -c
echo "==== boot 2 textfile"
cat /tmp/perf_persistent.prom
echo "==== boot 2 archive again"
perf persistent archive -d /tmp/arch --textfile /tmp
echo "==== boot 2 archive files again"
ls -1a /tmp/arch
[ -z "${PROFILE:-}" ] || sh ./profile-reset.sh
