// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: machine-check records read back from the kernel log
 * (hwerr.h)
 */

#include <linux/build_bug.h>
#include <linux/cper.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "hwerr.h"

/* HW_ERR, in front of each line __print_mce() prints (after "mce: "). */
#define PP_HWERR_PREFIX		"[Hardware Error]: "
/* The first line panic() prints. */
#define PP_HWERR_PANIC_LINE	"Kernel panic - not syncing: "
/* Longer than any line __print_mce() prints, the RIP's symbol included. */
#define PP_HWERR_TEXT_MAX	256

/**
 * pp_hwerr_parser_init - start reading records
 * @p: the parser
 */
void pp_hwerr_parser_init(struct pp_hwerr_parser *p)
{
	memset(p, 0, sizeof(*p));
}

/* The TSC line's "KEY value" pairs, in hex; a key not known is skipped. */
static bool pp_hwerr_values(struct pp_hwerr *r, char *t)
{
	static const struct {
		const char	*key;
		size_t		off;
	} keys[] = {
		{ "TSC", offsetof(struct pp_hwerr, tsc) },
		{ "ADDR", offsetof(struct pp_hwerr, addr) },
		{ "MISC", offsetof(struct pp_hwerr, misc) },
		{ "PPIN", offsetof(struct pp_hwerr, ppin) },
		{ "SYND", offsetof(struct pp_hwerr, synd) },
		{ "SYND1", offsetof(struct pp_hwerr, synd1) },
		{ "SYND2", offsetof(struct pp_hwerr, synd2) },
		{ "IPID", offsetof(struct pp_hwerr, ipid) },
	};
	char *key, *val;
	unsigned int i;
	u64 v;

	while ((key = strsep(&t, " "))) {
		if (!*key)
			continue;
		val = strsep(&t, " ");
		if (!val || kstrtou64(val, 16, &v))
			return false;
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			if (!strcmp(key, keys[i].key)) {
				*(u64 *)((u8 *)r + keys[i].off) = v;
				break;
			}
		}
	}
	return true;
}

/* "CPU %d: Machine Check[ Exception]: MCGSTATUS Bank N: STATUS" */
static bool pp_hwerr_first(struct pp_hwerr *r, const char *t)
{
	unsigned int cpu, bank;
	int n = 0;

	if (sscanf(t, "CPU %u: Machine Check%n", &cpu, &n) != 1 || !n)
		return false;
	t += n;
	if (!strncmp(t, " Exception", 10))
		t += 10;
	if (sscanf(t, ": %llx Bank %u: %llx", &r->mcgstatus, &bank,
		   &r->status) != 3 || bank > U8_MAX)
		return false;
	r->cpu = cpu;
	r->bank = bank;
	return true;
}

/* "RIP[ !INEXACT!] CS:<IP> {symbol}" */
static bool pp_hwerr_rip(struct pp_hwerr *r, const char *t)
{
	unsigned int cs;

	t += 3;
	if (!strncmp(t, " !INEXACT!", 10)) {
		r->inexact = true;
		t += 10;
	}
	if (sscanf(t, " %x:<%llx>", &cs, &r->ip) != 2 || cs > U8_MAX)
		return false;
	r->cs = cs;
	return true;
}

/* "PROCESSOR VENDOR:CPUID TIME T SOCKET S APIC A microcode M" */
static bool pp_hwerr_last(struct pp_hwerr *r, const char *t)
{
	unsigned int vendor;

	if (sscanf(t, "PROCESSOR %u:%x TIME %llu SOCKET %u APIC %x microcode %x",
		   &vendor, &r->cpuid, &r->walltime, &r->socketid, &r->apicid,
		   &r->microcode) != 6 || vendor > U8_MAX)
		return false;
	r->cpuvendor = vendor;
	return true;
}

/**
 * pp_hwerr_parse_line - read one line of the kernel log
 * @p: the parser
 * @line: the line, not necessarily NUL-terminated
 * @len: its length
 * @out: receives the record that this line completes
 *
 * A line that no record has (or that a record has in a shape not known)
 * is skipped; a malformed line of a record drops that record.
 *
 * Return: 1 if @out holds a record, else 0.
 */
int pp_hwerr_parse_line(struct pp_hwerr_parser *p, const char *line,
			size_t len, struct pp_hwerr *out)
{
	char text[PP_HWERR_TEXT_MAX], *t;
	const char *at = strnstr(line, PP_HWERR_PREFIX, len);
	size_t n;

	if (!at)
		return 0;
	at += strlen(PP_HWERR_PREFIX);
	n = min_t(size_t, line + len - at, sizeof(text) - 1);
	memcpy(text, at, n);
	text[n] = '\0';
	t = strim(text);

	if (!strncmp(t, "CPU ", 4)) {
		memset(&p->rec, 0, sizeof(p->rec));
		p->in_record = pp_hwerr_first(&p->rec, t);
		return 0;
	}
	if (!p->in_record)
		return 0;
	if (!strncmp(t, "RIP", 3)) {
		p->in_record = pp_hwerr_rip(&p->rec, t);
	} else if (!strncmp(t, "TSC ", 4)) {
		p->in_record = pp_hwerr_values(&p->rec, t);
	} else if (!strncmp(t, "PROCESSOR ", 10)) {
		p->in_record = false;
		if (!pp_hwerr_last(&p->rec, t))
			return 0;
		*out = p->rec;
		return 1;
	}
	return 0;
}

/**
 * pp_hwerr_panic_init - start reading a log for a panic's records
 * @s: the state
 */
void pp_hwerr_panic_init(struct pp_hwerr_panic *s)
{
	memset(s, 0, sizeof(*s));
}

/* Add @r to the run, dropping its oldest record if it is full. */
static void pp_hwerr_run_add(struct pp_hwerr_panic *s, const struct pp_hwerr *r)
{
	if (s->nr_run == PP_HWERR_PANIC_MAX) {
		memmove(&s->run[0], &s->run[1],
			sizeof(s->run[0]) * (PP_HWERR_PANIC_MAX - 1));
		s->nr_run--;
		s->lost_run++;
	}
	s->run[s->nr_run++] = *r;
}

/**
 * pp_hwerr_panic_line - read one line of the kernel log, oldest first
 * @s: the state
 * @line: the line, not necessarily NUL-terminated
 * @len: its length
 *
 * Once the log is read, @s->taken holds the records printed right before
 * the last panic, if that panic followed a run of them.
 */
void pp_hwerr_panic_line(struct pp_hwerr_panic *s, const char *line,
			 size_t len)
{
	struct pp_hwerr r;

	if (strnstr(line, PP_HWERR_PREFIX, len)) {
		if (pp_hwerr_parse_line(&s->parser, line, len, &r))
			pp_hwerr_run_add(s, &r);
		return;
	}
	if (strnstr(line, PP_HWERR_PANIC_LINE, len)) {
		memcpy(s->taken, s->run, sizeof(s->run[0]) * s->nr_run);
		s->nr_taken = s->nr_run;
		s->lost_taken = s->lost_run;
	}
	/* A record's lines may go on past another message: the parser's do. */
	s->nr_run = 0;
	s->lost_run = 0;
}

/*
 * The records mce_panic() writes to ERST (apei_write_mce(), x86): a CPER
 * record whose creator is the kernel's MCE GUID (the same as pstore's,
 * which shows them as /sys/fs/pstore/mce-erst-ID) and whose one section,
 * of the MCE section type, is the kernel's struct mce.  Neither GUID is in
 * a header the kernel exports.
 */
static const guid_t pp_hwerr_creator_mce =
	GUID_INIT(0x75a574e3, 0x5052, 0x4b29, 0x8a, 0x8e, 0xbe, 0x2c,
		  0x64, 0x90, 0xb8, 0x9d);
static const guid_t pp_hwerr_section_mce =
	GUID_INIT(0xfe08ffbe, 0x95e4, 0x4be7, 0xbc, 0x73, 0x40, 0x96,
		  0x04, 0x4a, 0x38, 0xfc);

/*
 * x86's struct mce (uapi/asm/mce.h), the section's bytes: the same from
 * 6.1 to 7.3 (7.x's struct mce_hw_err wraps it; apei_write_mce() still
 * stores struct mce alone, so SYND1 and SYND2 are not kept).  Declared
 * here so that the reader builds, and is tested, on every architecture.
 */
struct pp_hwerr_cper_mce {
	u64	status;
	u64	misc;
	u64	addr;
	u64	mcgstatus;
	u64	ip;
	u64	tsc;
	u64	time;
	u8	cpuvendor;
	u8	inject_flags;
	u8	severity;
	u8	pad;
	u32	cpuid;
	u8	cs;
	u8	bank;
	u8	cpu;
	u8	finished;
	u32	extcpu;
	u32	socketid;
	u32	apicid;
	u64	mcgcap;
	u64	synd;
	u64	ipid;
	u64	ppin;
	u32	microcode;
	u64	kflags;
};

static_assert(sizeof(struct pp_hwerr_cper_mce) == 128);
static_assert(offsetof(struct pp_hwerr_cper_mce, extcpu) == 68);
static_assert(offsetof(struct pp_hwerr_cper_mce, microcode) == 112);

/**
 * pp_hwerr_erst - read a machine check from an ERST record
 * @rec: the record, as erst_read() copied it
 * @len: its length, as erst_read() returned it
 * @out: the machine check, if there is one
 *
 * Any context: pure logic.  The record's header and first section
 * descriptor are checked against @len and each other, not trusted: ERST's
 * storage outlives the kernel that wrote it, and other creators (pstore's
 * kernel log, firmware) share it.
 *
 * Return: 0 and @out filled; -ENOENT for a well-formed record that holds
 * no machine check (another creator's, or pstore's log under the same
 * creator GUID: its section type differs); -EBADMSG for a record that is
 * not CPER or whose lengths and offsets do not hold together.
 */
int pp_hwerr_erst(const void *rec, size_t len, struct pp_hwerr *out)
{
	const struct cper_record_header *hdr = rec;
	const struct cper_section_descriptor *sec;
	struct pp_hwerr_cper_mce m;

	if (len < sizeof(*hdr) ||
	    memcmp(hdr->signature, CPER_SIG_RECORD, CPER_SIG_SIZE) ||
	    hdr->signature_end != CPER_SIG_END ||
	    hdr->record_length < sizeof(*hdr) || hdr->record_length > len)
		return -EBADMSG;
	if (!guid_equal(&hdr->creator_id, &pp_hwerr_creator_mce))
		return -ENOENT;
	if (!hdr->section_count ||
	    hdr->record_length < sizeof(*hdr) + sizeof(*sec))
		return -EBADMSG;
	sec = rec + sizeof(*hdr);
	if (!guid_equal(&sec->section_type, &pp_hwerr_section_mce))
		return -ENOENT;
	if (sec->section_length < sizeof(m) ||
	    sec->section_offset < sizeof(*hdr) + sizeof(*sec) ||
	    sec->section_offset > hdr->record_length ||
	    sec->section_length > hdr->record_length - sec->section_offset)
		return -EBADMSG;
	memcpy(&m, rec + sec->section_offset, sizeof(m));

	memset(out, 0, sizeof(*out));
	out->mcgcap = m.mcgcap;
	out->mcgstatus = m.mcgstatus;
	out->status = m.status;
	out->addr = m.addr;
	out->misc = m.misc;
	out->synd = m.synd;
	out->ipid = m.ipid;
	out->ip = m.ip;
	out->tsc = m.tsc;
	out->ppin = m.ppin;
	out->walltime = m.time;
	out->cpu = m.extcpu;
	out->cpuid = m.cpuid;
	out->apicid = m.apicid;
	out->socketid = m.socketid;
	out->microcode = m.microcode;
	out->cs = m.cs;
	out->bank = m.bank;
	out->cpuvendor = m.cpuvendor;
	/* As __print_mce() marks the RIP: MCG_STATUS_EIPV (bit 1) clear. */
	out->inexact = m.ip && !(m.mcgstatus & BIT_ULL(1));
	return 0;
}
