// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the machine-check records read back from the kernel log
 * (module/hwerr.c): the lines __print_mce() prints for the lab's fatal
 * machine check and for a corrected error, with and without the printk
 * timestamp, AMD's SMCA fields, what is skipped and what drops a record;
 * and the records mce_panic() writes to ERST, well formed, of another
 * kind, and damaged.
 */
#include <kunit/test.h>

#include <linux/cper.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/uuid.h>

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

/* An ERST record as apei_write_mce() lays it out: 328 bytes. */
struct pp_test_erst {
	struct cper_record_header	hdr;
	struct cper_section_descriptor	sec;
	u8				mce[128];
} __packed;

static void pp_test_put(struct pp_test_erst *r, unsigned int off,
			const void *v, size_t n)
{
	memcpy(r->mce + off, v, n);
}

#define PP_TEST_PUT(r, off, type, val)					\
	do {								\
		type __v = (val);					\
		pp_test_put((r), (off), &__v, sizeof(__v));		\
	} while (0)

/*
 * The lab's fatal machine check (QEMU's "mce 0 2 0xb600000000070f0f 0x4
 * 0x5678000 0") as mce_panic() wrote it: struct mce's fields at their
 * offsets in x86's uapi header.
 */
static void pp_test_erst_fill(struct pp_test_erst *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->hdr.signature, CPER_SIG_RECORD, CPER_SIG_SIZE);
	r->hdr.revision = CPER_RECORD_REV;
	r->hdr.signature_end = CPER_SIG_END;
	r->hdr.section_count = 1;
	r->hdr.error_severity = CPER_SEV_FATAL;
	r->hdr.record_length = sizeof(*r);
	r->hdr.creator_id = GUID_INIT(0x75a574e3, 0x5052, 0x4b29, 0x8a, 0x8e,
				      0xbe, 0x2c, 0x64, 0x90, 0xb8, 0x9d);
	r->hdr.notification_type = CPER_NOTIFY_MCE;
	r->hdr.record_id = 0x6543210000000001ULL;
	r->sec.section_offset = offsetof(struct pp_test_erst, mce);
	r->sec.section_length = sizeof(r->mce);
	r->sec.revision = CPER_SEC_REV;
	r->sec.flags = CPER_SEC_PRIMARY;
	r->sec.section_type = GUID_INIT(0xfe08ffbe, 0x95e4, 0x4be7, 0xbc, 0x73,
					0x40, 0x96, 0x04, 0x4a, 0x38, 0xfc);
	r->sec.section_severity = CPER_SEV_FATAL;
	PP_TEST_PUT(r, 0, u64, 0xb600000000070f0fULL);	/* status */
	PP_TEST_PUT(r, 8, u64, 0x8cULL);		/* misc */
	PP_TEST_PUT(r, 16, u64, 0x5678000ULL);		/* addr */
	PP_TEST_PUT(r, 24, u64, 0x4ULL);		/* mcgstatus: MCIP */
	PP_TEST_PUT(r, 32, u64, 0xffffffff81a592ebULL);	/* ip */
	PP_TEST_PUT(r, 40, u64, 0x2d7d6c3c4aULL);	/* tsc */
	PP_TEST_PUT(r, 48, u64, 1795846177ULL);		/* time */
	PP_TEST_PUT(r, 56, u8, 2);			/* cpuvendor */
	PP_TEST_PUT(r, 60, u32, 0x60fb1);		/* cpuid */
	PP_TEST_PUT(r, 64, u8, 0x10);			/* cs */
	PP_TEST_PUT(r, 65, u8, 2);			/* bank */
	PP_TEST_PUT(r, 66, u8, 1);			/* cpu (old) */
	PP_TEST_PUT(r, 68, u32, 1);			/* extcpu */
	PP_TEST_PUT(r, 72, u32, 0);			/* socketid */
	PP_TEST_PUT(r, 76, u32, 1);			/* apicid */
	PP_TEST_PUT(r, 80, u64, 0x1000a0aULL);		/* mcgcap */
	PP_TEST_PUT(r, 104, u64, 0x77ULL);		/* ppin */
	PP_TEST_PUT(r, 112, u32, 0x1000065);		/* microcode */
}

static void pp_hwerr_test_erst_mce(struct kunit *test)
{
	struct pp_test_erst r;
	struct pp_hwerr h;

	KUNIT_ASSERT_EQ(test, sizeof(r), (size_t)328);
	pp_test_erst_fill(&r);
	KUNIT_ASSERT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), 0);
	KUNIT_EXPECT_EQ(test, h.status, 0xb600000000070f0fULL);
	KUNIT_EXPECT_EQ(test, h.misc, 0x8cULL);
	KUNIT_EXPECT_EQ(test, h.addr, 0x5678000ULL);
	KUNIT_EXPECT_EQ(test, h.mcgstatus, 0x4ULL);
	KUNIT_EXPECT_EQ(test, h.mcgcap, 0x1000a0aULL);
	KUNIT_EXPECT_EQ(test, h.ip, 0xffffffff81a592ebULL);
	KUNIT_EXPECT_TRUE(test, h.inexact);
	KUNIT_EXPECT_EQ(test, h.tsc, 0x2d7d6c3c4aULL);
	KUNIT_EXPECT_EQ(test, h.walltime, 1795846177ULL);
	KUNIT_EXPECT_EQ(test, h.cpuvendor, 2);
	KUNIT_EXPECT_EQ(test, h.cpuid, 0x60fb1U);
	KUNIT_EXPECT_EQ(test, h.cs, 0x10);
	KUNIT_EXPECT_EQ(test, h.bank, 2);
	/* extcpu, not the old u8 cpu field. */
	KUNIT_EXPECT_EQ(test, h.cpu, 1U);
	KUNIT_EXPECT_EQ(test, h.apicid, 1U);
	KUNIT_EXPECT_EQ(test, h.ppin, 0x77ULL);
	KUNIT_EXPECT_EQ(test, h.microcode, 0x1000065U);
	/* A longer buffer: the record's own length counts. */
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, PP_HWERR_ERST_MAX, &h), 0);
	/* EIPV set: the RIP is exact. */
	PP_TEST_PUT(&r, 24, u64, 0x6ULL);
	KUNIT_ASSERT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), 0);
	KUNIT_EXPECT_FALSE(test, h.inexact);
}

/* pstore's kernel log under the same creator, and other creators. */
static void pp_hwerr_test_erst_other(struct kunit *test)
{
	struct pp_test_erst r;
	struct pp_hwerr h;

	pp_test_erst_fill(&r);
	r.sec.section_type = GUID_INIT(0xc197e04e, 0xd545, 0x4a70, 0x9c, 0x17,
				       0xa5, 0x54, 0x94, 0x19, 0xeb, 0x12);
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -ENOENT);
	pp_test_erst_fill(&r);
	r.hdr.creator_id.b[0] ^= 1;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -ENOENT);
}

/* Lengths and offsets that do not hold together, each alone. */
static void pp_hwerr_test_erst_damaged(struct kunit *test)
{
	struct pp_test_erst r;
	struct pp_hwerr h;

	pp_test_erst_fill(&r);
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r.hdr) - 1, &h), -EBADMSG);
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r) - 1, &h), -EBADMSG);
	r.hdr.signature[0] = 'X';
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.hdr.signature_end = 0;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.hdr.record_length = sizeof(r.hdr) - 1;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.hdr.record_length = sizeof(r.hdr) + sizeof(r.sec) - 1;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.hdr.section_count = 0;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.sec.section_length = sizeof(r.mce) - 1;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.sec.section_offset = 0;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.sec.section_offset += 8;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.sec.section_offset = 0xffffffffU;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
	pp_test_erst_fill(&r);
	r.sec.section_length = 0xffffffffU;
	KUNIT_EXPECT_EQ(test, pp_hwerr_erst(&r, sizeof(r), &h), -EBADMSG);
}

static struct kunit_case pp_hwerr_test_cases[] = {
	KUNIT_CASE(pp_hwerr_test_fatal),
	KUNIT_CASE(pp_hwerr_test_several),
	KUNIT_CASE(pp_hwerr_test_damaged),
	KUNIT_CASE(pp_hwerr_test_panic_run),
	KUNIT_CASE(pp_hwerr_test_panic_none),
	KUNIT_CASE(pp_hwerr_test_erst_mce),
	KUNIT_CASE(pp_hwerr_test_erst_other),
	KUNIT_CASE(pp_hwerr_test_erst_damaged),
	{}
};

static struct kunit_suite pp_hwerr_test_suite = {
	.name = "perf_persistent_hwerr",
	.test_cases = pp_hwerr_test_cases,
};

kunit_test_suites(&pp_hwerr_test_suite);

MODULE_LICENSE("GPL");
