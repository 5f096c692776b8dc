// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the machine-check records read back from the kernel log
 * (module/hwerr.c): the lines __print_mce() prints for the lab's fatal
 * machine check and for a corrected error, with and without the printk
 * timestamp, AMD's SMCA fields, what is skipped and what drops a record.
 */
#include <kunit/test.h>

#include <linux/string.h>

#include "../module/hwerr.h"

/* Feed @lines to a new parser; the records given go to @out. */
static unsigned int pp_hwerr_feed(const char * const *lines, unsigned int n,
				  struct pp_hwerr *out, unsigned int max)
{
	struct pp_hwerr_parser p;
	struct pp_hwerr r;
	unsigned int i, got = 0;

	pp_hwerr_parser_init(&p);
	for (i = 0; i < n; i++) {
		if (pp_hwerr_parse_line(&p, lines[i], strlen(lines[i]), &r) &&
		    got < max)
			out[got++] = r;
	}
	return got;
}

/*
 * QEMU's "mce 0 2 0xb200000000070f0f 0x4 0x5678000 0", as 6.1 printed it
 * at the panic: the timestamp, "mce: ", an inexact RIP with its symbol,
 * then the lines after the record.
 */
static void pp_hwerr_test_fatal(struct kunit *test)
{
	static const char * const lines[] = {
		"[   41.052331] mce: [Hardware Error]: CPU 0: Machine Check Exception: 4 Bank 2: b200000000070f0f\n",
		"[   41.052498] mce: [Hardware Error]: RIP !INEXACT! 10:<ffffffff81a592eb> {native_safe_halt+0xb/0x10}\n",
		"[   41.052702] mce: [Hardware Error]: TSC 2d7d6c3c4a ADDR 5678000 ",
		"[   41.052848] mce: [Hardware Error]: PROCESSOR 2:60fb1 TIME 1795769346 SOCKET 0 APIC 0 microcode 1000065\n",
		"[   41.053011] mce: [Hardware Error]: Machine check: Processor context corrupt\n",
		"[   41.053120] Kernel panic - not syncing: Fatal local machine check\n",
	};
	struct pp_hwerr r[2];

	KUNIT_ASSERT_EQ(test, pp_hwerr_feed(lines, ARRAY_SIZE(lines), r, 2), 1U);
	KUNIT_EXPECT_EQ(test, r[0].cpu, 0U);
	KUNIT_EXPECT_EQ(test, r[0].mcgstatus, 0x4ULL);
	KUNIT_EXPECT_EQ(test, r[0].bank, 2);
	KUNIT_EXPECT_EQ(test, r[0].status, 0xb200000000070f0fULL);
	KUNIT_EXPECT_TRUE(test, r[0].inexact);
	KUNIT_EXPECT_EQ(test, r[0].cs, 0x10);
	KUNIT_EXPECT_EQ(test, r[0].ip, 0xffffffff81a592ebULL);
	KUNIT_EXPECT_EQ(test, r[0].tsc, 0x2d7d6c3c4aULL);
	KUNIT_EXPECT_EQ(test, r[0].addr, 0x5678000ULL);
	KUNIT_EXPECT_EQ(test, r[0].misc, 0ULL);
	KUNIT_EXPECT_EQ(test, r[0].cpuvendor, 2);
	KUNIT_EXPECT_EQ(test, r[0].cpuid, 0x60fb1U);
	KUNIT_EXPECT_EQ(test, r[0].walltime, 1795769346ULL);
	KUNIT_EXPECT_EQ(test, r[0].socketid, 0U);
	KUNIT_EXPECT_EQ(test, r[0].apicid, 0U);
	KUNIT_EXPECT_EQ(test, r[0].microcode, 0x1000065U);
}

/*
 * mce_panic() prints the corrected records still pending first, then the
 * fatal one: two records, the first with a timestamp and a caller
 * (CONFIG_PRINTK_CALLER), the others without, one with no RIP line, on
 * another CPU, and AMD's SMCA fields (SYND1 and SYND2: 7.3, not 6.1).
 */
static void pp_hwerr_test_several(struct kunit *test)
{
	static const char * const lines[] = {
		"[   12.000001][    C1] mce: [Hardware Error]: CPU 1: Machine Check: 0 Bank 1: 9c00000000010151",
		"mce: [Hardware Error]: TSC 1079216092 ADDR 1234000 MISC d012000100000086 PPIN 12345",
		"mce: [Hardware Error]: PROCESSOR 2:a20f10 TIME 1795769346 SOCKET 1 APIC 2 microcode a201016",
		"mce: [Hardware Error]: CPU 3: Machine Check Exception: 7 Bank 5: bea0000000000108",
		"mce: [Hardware Error]: RIP 10:<ffffffff81000000> ",
		"mce: [Hardware Error]: TSC 5 SYND 1f IPID 1000b000000000 SYND1 2 SYND2 3 ",
		"mce: [Hardware Error]: PROCESSOR 2:a20f10 TIME 1795769347 SOCKET 1 APIC 6 microcode a201016",
	};
	struct pp_hwerr r[3];

	KUNIT_ASSERT_EQ(test, pp_hwerr_feed(lines, ARRAY_SIZE(lines), r, 3), 2U);
	KUNIT_EXPECT_EQ(test, r[0].cpu, 1U);
	KUNIT_EXPECT_EQ(test, r[0].ip, 0ULL);
	KUNIT_EXPECT_EQ(test, r[0].misc, 0xd012000100000086ULL);
	KUNIT_EXPECT_EQ(test, r[0].ppin, 0x12345ULL);
	KUNIT_EXPECT_EQ(test, r[0].socketid, 1U);
	KUNIT_EXPECT_EQ(test, r[1].cpu, 3U);
	KUNIT_EXPECT_EQ(test, r[1].mcgstatus, 7ULL);
	KUNIT_EXPECT_FALSE(test, r[1].inexact);
	KUNIT_EXPECT_EQ(test, r[1].ip, 0xffffffff81000000ULL);
	KUNIT_EXPECT_EQ(test, r[1].tsc, 5ULL);
	KUNIT_EXPECT_EQ(test, r[1].synd, 0x1fULL);
	KUNIT_EXPECT_EQ(test, r[1].ipid, 0x1000b000000000ULL);
	KUNIT_EXPECT_EQ(test, r[1].synd1, 2ULL);
	KUNIT_EXPECT_EQ(test, r[1].synd2, 3ULL);
	KUNIT_EXPECT_EQ(test, r[1].apicid, 6U);
	KUNIT_EXPECT_EQ(test, r[1].walltime, 1795769347ULL);
}

/*
 * Other lines between a record's are skipped; a record whose first line
 * is missing, or one of whose lines is malformed, is not given; a line
 * cut short (no newline, a length shorter than the string) is read as
 * far as its length.
 */
static void pp_hwerr_test_damaged(struct kunit *test)
{
	static const char * const between[] = {
		"mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 4: 9c00000000010151",
		"some other message",
		"mce: [Hardware Error]: Run the above through 'mcelog --ascii'",
		"mce: [Hardware Error]: TSC 10 ",
		"mce: [Hardware Error]: PROCESSOR 0:0 TIME 1 SOCKET 0 APIC 0 microcode 0",
	};
	static const char * const headless[] = {
		"mce: [Hardware Error]: TSC 10 ",
		"mce: [Hardware Error]: PROCESSOR 0:0 TIME 1 SOCKET 0 APIC 0 microcode 0",
	};
	static const char * const bad[][3] = {
		{ "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 256: 1",
		  "mce: [Hardware Error]: TSC 10 ",
		  "mce: [Hardware Error]: PROCESSOR 0:0 TIME 1 SOCKET 0 APIC 0 microcode 0" },
		{ "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: 1",
		  "mce: [Hardware Error]: TSC zz ",
		  "mce: [Hardware Error]: PROCESSOR 0:0 TIME 1 SOCKET 0 APIC 0 microcode 0" },
		{ "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: 1",
		  "mce: [Hardware Error]: RIP 10:ffffffff81000000",
		  "mce: [Hardware Error]: PROCESSOR 0:0 TIME 1 SOCKET 0 APIC 0 microcode 0" },
		{ "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: 1",
		  "mce: [Hardware Error]: TSC 10 ",
		  "mce: [Hardware Error]: PROCESSOR 0:0 TIME 1 SOCKET 0" },
	};
	static const char cut[] = "mce: [Hardware Error]: CPU 2: Machine Check: 0 Bank 9: 1234";
	struct pp_hwerr_parser p;
	struct pp_hwerr r[2];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, pp_hwerr_feed(between, ARRAY_SIZE(between), r, 2), 1U);
	KUNIT_EXPECT_EQ(test, r[0].bank, 4);
	KUNIT_EXPECT_EQ(test, pp_hwerr_feed(headless, ARRAY_SIZE(headless), r, 2), 0U);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, pp_hwerr_feed(bad[i], 3, r, 2), 0U,
				    "case %u", i);

	/* The line cut two bytes short: "Bank 9: 12". */
	pp_hwerr_parser_init(&p);
	KUNIT_EXPECT_EQ(test, pp_hwerr_parse_line(&p, cut, sizeof(cut) - 3, r), 0);
	KUNIT_EXPECT_EQ(test, pp_hwerr_parse_line(&p, headless[0],
						  strlen(headless[0]), r), 0);
	KUNIT_ASSERT_EQ(test, pp_hwerr_parse_line(&p, headless[1],
						  strlen(headless[1]), r), 1);
	KUNIT_EXPECT_EQ(test, r[0].cpu, 2U);
	KUNIT_EXPECT_EQ(test, r[0].bank, 9);
	KUNIT_EXPECT_EQ(test, r[0].status, 0x12ULL);
}

/* Feed @lines to a new panic reader. */
static void pp_hwerr_panic_feed(struct pp_hwerr_panic *s,
				const char * const *lines, unsigned int n)
{
	unsigned int i;

	pp_hwerr_panic_init(s);
	for (i = 0; i < n; i++)
		pp_hwerr_panic_line(s, lines[i], strlen(lines[i]));
}

#define PP_REC(cpu, bank, status, tsc)					\
	"mce: [Hardware Error]: CPU " #cpu ": Machine Check: 0 Bank " #bank ": " #status, \
	"mce: [Hardware Error]: TSC " #tsc " ",				\
	"mce: [Hardware Error]: PROCESSOR 2:60fb1 TIME 1 SOCKET 0 APIC 0 microcode 1"

/*
 * The records of the run that the panic's line follows are taken, in the
 * order printed: not a corrected error printed earlier (another message
 * ended its run), not the lines after the panic's.
 */
static void pp_hwerr_test_panic_run(struct kunit *test)
{
	static const char * const lines[] = {
		PP_REC(1, 1, 9c00000000010151, 100),
		"mce: [Hardware Error]: Machine check events logged",
		"[   30.1] random: crng init done",
		PP_REC(1, 3, 9c00000000010152, 200),
		"mce: [Hardware Error]: Run the above through 'mcelog --ascii'",
		"mce: [Hardware Error]: CPU 0: Machine Check Exception: 5 Bank 2: b200000000070f0f",
		"mce: [Hardware Error]: RIP !INEXACT! 10:<ffffffff81a592eb> {native_safe_halt+0xb/0x10}",
		"mce: [Hardware Error]: TSC 300 ADDR 5678000 ",
		"mce: [Hardware Error]: PROCESSOR 2:60fb1 TIME 2 SOCKET 0 APIC 0 microcode 1",
		"mce: [Hardware Error]: Machine check: Processor context corrupt",
		"Kernel panic - not syncing: Fatal local machine check",
		"CPU: 0 PID: 0 Comm: swapper/0 Not tainted 6.1.0-56-amd64 #1",
		PP_REC(0, 7, 9c00000000010153, 400),
	};
	static struct pp_hwerr_panic s;

	pp_hwerr_panic_feed(&s, lines, ARRAY_SIZE(lines));
	KUNIT_ASSERT_EQ(test, s.nr_taken, 2U);
	KUNIT_EXPECT_EQ(test, s.lost_taken, 0U);
	KUNIT_EXPECT_EQ(test, s.taken[0].bank, 3);
	KUNIT_EXPECT_EQ(test, s.taken[0].tsc, 0x200ULL);
	KUNIT_EXPECT_EQ(test, s.taken[1].bank, 2);
	KUNIT_EXPECT_EQ(test, s.taken[1].status, 0xb200000000070f0fULL);
	KUNIT_EXPECT_EQ(test, s.taken[1].mcgstatus, 5ULL);
	KUNIT_EXPECT_EQ(test, s.taken[1].addr, 0x5678000ULL);
}

/*
 * Nothing is taken without a panic, nor from a run that another message
 * separates from the panic's line.  A run longer than the records kept
 * loses its oldest.
 */
static void pp_hwerr_test_panic_none(struct kunit *test)
{
	static const char * const no_panic[] = {
		PP_REC(0, 1, 1, 10),
		PP_REC(0, 2, 2, 20),
	};
	static const char * const apart[] = {
		PP_REC(0, 1, 1, 10),
		"pp_oops: oops on request",
		"Kernel panic - not syncing: Fatal exception",
	};
	static const char * const many[] = {
		PP_REC(0, 1, 1, 1), PP_REC(0, 2, 2, 2), PP_REC(0, 3, 3, 3),
		PP_REC(0, 4, 4, 4), PP_REC(0, 5, 5, 5), PP_REC(0, 6, 6, 6),
		PP_REC(0, 7, 7, 7), PP_REC(0, 8, 8, 8), PP_REC(0, 9, 9, 9),
		PP_REC(0, 10, a, a), PP_REC(0, 11, b, b), PP_REC(0, 12, c, c),
		PP_REC(0, 13, d, d), PP_REC(0, 14, e, e), PP_REC(0, 15, f, f),
		PP_REC(0, 16, 10, 10), PP_REC(0, 17, 11, 11), PP_REC(0, 18, 12, 12),
		"Kernel panic - not syncing: Fatal machine check",
	};
	static struct pp_hwerr_panic s;

	pp_hwerr_panic_feed(&s, no_panic, ARRAY_SIZE(no_panic));
	KUNIT_EXPECT_EQ(test, s.nr_taken, 0U);
	pp_hwerr_panic_feed(&s, apart, ARRAY_SIZE(apart));
	KUNIT_EXPECT_EQ(test, s.nr_taken, 0U);
	pp_hwerr_panic_feed(&s, many, ARRAY_SIZE(many));
	KUNIT_ASSERT_EQ(test, s.nr_taken, (unsigned int)PP_HWERR_PANIC_MAX);
	KUNIT_EXPECT_EQ(test, s.lost_taken, 2U);
	KUNIT_EXPECT_EQ(test, s.taken[0].bank, 3);
	KUNIT_EXPECT_EQ(test, s.taken[PP_HWERR_PANIC_MAX - 1].bank, 18);
	KUNIT_EXPECT_EQ(test, s.taken[PP_HWERR_PANIC_MAX - 1].tsc, 0x12ULL);
}

static struct kunit_case pp_hwerr_test_cases[] = {
	KUNIT_CASE(pp_hwerr_test_fatal),
	KUNIT_CASE(pp_hwerr_test_several),
	KUNIT_CASE(pp_hwerr_test_damaged),
	KUNIT_CASE(pp_hwerr_test_panic_run),
	KUNIT_CASE(pp_hwerr_test_panic_none),
	{}
};

static struct kunit_suite pp_hwerr_test_suite = {
	.name = "perf_persistent_hwerr",
	.test_cases = pp_hwerr_test_cases,
};

kunit_test_suites(&pp_hwerr_test_suite);

MODULE_LICENSE("GPL");
