// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: machine-check records read back from the kernel log
 * (hwerr.h)
 */

#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>

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
