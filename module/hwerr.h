/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: machine-check records read back from the kernel log
 *
 * A fatal machine check never reaches the mce_record tracepoint: x86's
 * mce_panic() prints its records and panics before the work that traces
 * them runs.  What it printed is in the kernel log, in the format that
 * __print_mce() keeps for the tools that parse it (the same from 6.1 to
 * 7.3, where SMCA machines also get SYND1 and SYND2):
 *
 *   [Hardware Error]: CPU 0: Machine Check Exception: 5 Bank 2: b200000000070f0f
 *   [Hardware Error]: RIP 10:<ffffffff81a592eb> {native_safe_halt+0xb/0x10}
 *   [Hardware Error]: TSC 2d7d6c3c4a ADDR 5678000 MISC 0
 *   [Hardware Error]: PROCESSOR 0:663 TIME 1764200000 SOCKET 0 APIC 0 microcode 1
 *
 * This is the reader of what the kernel printed and never traced: the
 * fatal error's records at the panic, and the errors it logged from the
 * MCA banks at boot, before the module could load.  The parser takes the
 * log's lines one at a time, with whatever printk put in front (the
 * timestamp, the caller, "mce: "), and gives a record back when its last
 * line (PROCESSOR) has come.  Lines that are not a record's are skipped; a
 * record whose first line is missing is not given.  Pure logic: any
 * context, no allocation, bounded work per line.
 */
#ifndef _PERF_PERSISTENT_HWERR_H
#define _PERF_PERSISTENT_HWERR_H

#include <linux/types.h>

/*
 * The fields of struct mce that __print_mce() prints, and MCG_CAP, which
 * only a record read whole (from ERST) has: 0 from the log.
 */
struct pp_hwerr {
	u64	mcgcap;
	u64	mcgstatus;
	u64	status;
	u64	addr;
	u64	misc;
	u64	synd;
	u64	synd1;
	u64	synd2;
	u64	ipid;
	u64	ip;
	u64	tsc;
	u64	ppin;
	u64	walltime;
	u32	cpu;
	u32	cpuid;
	u32	apicid;
	u32	socketid;
	u32	microcode;
	u8	cs;
	u8	bank;
	u8	cpuvendor;
	/* MCG_STATUS_EIPV was clear: the RIP line said !INEXACT! */
	bool	inexact;
};

/**
 * struct pp_hwerr_parser - the record being read
 * @rec: its fields so far
 * @in_record: its first line has been read
 */
struct pp_hwerr_parser {
	struct pp_hwerr	rec;
	bool		in_record;
};

/*
 * The records of one panic kept.  mce_panic() prints every record still
 * pending, then the final one: the oldest of a longer run are dropped.
 */
#define PP_HWERR_PANIC_MAX	16

/**
 * struct pp_hwerr_panic - the records printed right before a panic
 * @parser: the record being read
 * @run: the records of the run of "[Hardware Error]" lines being read,
 *	oldest first
 * @nr_run: how many are in @run
 * @lost_run: records of the run that did not fit (its oldest)
 * @taken: the records of the last run that "Kernel panic - not syncing"
 *	followed, oldest first
 * @nr_taken: how many are in @taken
 * @lost_taken: records of that run that did not fit
 *
 * mce_panic() prints the records of the error that panics the machine,
 * and those still pending, as one run of "[Hardware Error]" lines, then
 * calls panic(), whose first line is "Kernel panic - not syncing: ...".
 * A line of any other message ends a run.  The records of a run that the
 * panic's line does not follow are not kept.
 */
struct pp_hwerr_panic {
	struct pp_hwerr_parser	parser;
	struct pp_hwerr		run[PP_HWERR_PANIC_MAX];
	unsigned int		nr_run;
	unsigned int		lost_run;
	struct pp_hwerr		taken[PP_HWERR_PANIC_MAX];
	unsigned int		nr_taken;
	unsigned int		lost_taken;
};

void pp_hwerr_parser_init(struct pp_hwerr_parser *p);
int pp_hwerr_parse_line(struct pp_hwerr_parser *p, const char *line,
			size_t len, struct pp_hwerr *out);
void pp_hwerr_panic_init(struct pp_hwerr_panic *s);
void pp_hwerr_panic_line(struct pp_hwerr_panic *s, const char *line,
			 size_t len);

/*
 * The largest ERST record that holds a machine check: apei_write_mce()'s
 * is 328 bytes (the CPER record's header, one section descriptor, the
 * kernel's struct mce).  A record read into a buffer of this size whose
 * length is larger is another creator's.
 */
#define PP_HWERR_ERST_MAX	1024

int pp_hwerr_erst(const void *rec, size_t len, struct pp_hwerr *out);
#endif /* _PERF_PERSISTENT_HWERR_H */
