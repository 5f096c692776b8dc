// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: export to trace-cmd's trace.dat, version 6.
 *
 * trace-cmd(1), KernelShark and libtracecmd read ftrace's ring buffer
 * pages as the kernel wrote them: a trace.dat is the tracing data (the
 * format of each tracepoint, as in perf.data's HEADER_TRACING_DATA, with
 * the tasks' names as saved_cmdlines), a table of where each CPU's pages
 * are, then the pages.  The persistent events hold the same tracepoint
 * payloads in perf's buffers, so this file takes every event's samples,
 * merges them by CPU in time order and writes them in ring buffer pages,
 * each payload exactly as the tracepoint made it.
 *
 * Debian 12's libtracecmd (trace-cmd 3.1.6) declares no writer in its
 * public header: its writer functions take per-CPU files of ring buffer
 * pages the kernel made, and are declared only in trace-cmd's private
 * header, whose ABI may change with any release.  So the file is written
 * here, in the documented format of trace-cmd.dat.v6(5), and the tests
 * read it back with Debian's trace-cmd and its libtracecmd.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf-persistent.h"
#include "export.h"

/* The fields a record needs to be placed in a CPU's ring buffer pages. */
#define DAT_FIELDS	(PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW)
/* CPUs a trace.dat may describe: as perf's tools, 4096. */
#define DAT_MAX_CPUS	4096

/* One tracepoint record, to be placed in its CPU's pages. */
struct dat_rec {
	uint64_t		time;
	const unsigned char	*raw;
	uint32_t		size;
	uint32_t		cpu;
	size_t			order;	/* among all records, to sort stably */
};

static int dat_rec_cmp(const void *a, const void *b)
{
	const struct dat_rec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void put_le32(unsigned char *at, uint32_t v)
{
	memcpy(at, &v, 4);
}

static void put_le64(unsigned char *at, uint64_t v)
{
	memcpy(at, &v, 8);
}

/*
 * Write the @n records @r of one CPU, oldest first, as ring buffer pages
 * of @page bytes into @b: each page starts at its first record's time,
 * each record holds its delta from the one before, a delta of 27 bits or
 * more as a TIME_EXTEND record before it.  Returns 0, or -1 (reported)
 * for a record that no page can hold.
 */
static int put_pages(struct blob *b, const struct dat_rec *r, size_t n,
		     unsigned char *pg, size_t page)
{
	const uint64_t small = PP_RB_MAX_TYPE_LEN * 4;
	size_t i = 0, off, need;
	uint64_t prev, delta, len;

	while (i < n) {
		memset(pg, 0, page);
		put_le64(pg, r[i].time);
		off = PP_RB_PAGE_HEADER;
		for (prev = r[i].time; i < n; prev = r[i].time, i++) {
			len = (r[i].size + 3) & ~3ULL;
			if (!len)
				len = 4;
			delta = r[i].time - prev;
			need = 4 + (len > small ? 4 : 0) + len +
			       (delta >> PP_RB_DELTA_BITS ? 8 : 0);
			if (off + need > page)
				break;
			if (delta >> PP_RB_DELTA_BITS) {
				put_le32(pg + off, PP_RB_TYPE_TIME_EXTEND |
					 (uint32_t)(delta << 5));
				put_le32(pg + off + 4, delta >> PP_RB_DELTA_BITS);
				off += 8;
				delta = 0;
			}
			if (len <= small) {
				put_le32(pg + off, len / 4 | (uint32_t)(delta << 5));
				off += 4;
			} else {
				put_le32(pg + off, (uint32_t)(delta << 5));
				put_le32(pg + off + 4, len + 4);
				off += 8;
			}
			memcpy(pg + off, r[i].raw, r[i].size);
			off += len;
		}
		if (off == PP_RB_PAGE_HEADER)
			return pp_error("a record of %u bytes does not fit a trace.dat page of %zu bytes",
					r[i].size, page);
		put_le64(pg + 8, off - PP_RB_PAGE_HEADER);
		put(b, pg, page);
	}
	return 0;
}

/* export_tasks()'s call for trace.dat: a "PID COMM" line of saved_cmdlines. */
static void cmdline_of(void *arg, int pid, int tid, const char *comm,
		       size_t comm_max)
{
	struct blob *b = arg;
	char line[64];
	size_t len = strnlen(comm, comm_max), i;
	int n;

	(void)pid;
	n = snprintf(line, sizeof(line), "%d %.*s\n", tid,
		     (int)(len < 32 ? len : 32), comm);
	/* A name may hold any byte: no line ends inside one. */
	for (i = 0; i + 1 < (size_t)n; i++)
		if (line[i] == '\n')
			line[i] = ' ';
	put(b, line, n);
}

/* The records of the events, checked for what a trace.dat needs. */
static int gather(const struct pp_export *ev, size_t nr, struct dat_rec **out,
		  size_t *count, unsigned int *cpus)
{
	size_t e, i, n = 0;
	struct dat_rec *r;

	*cpus = 1;
	for (e = 0; e < nr; e++) {
		if (ev[e].attr.type != PERF_TYPE_TRACEPOINT)
			return pp_error("%s: not a tracepoint: a trace.dat holds tracepoint records only",
					ev[e].name);
		if ((ev[e].snap->sample_type & DAT_FIELDS) != DAT_FIELDS)
			return pp_error("%s: its records lack the time, CPU or payload (fields time,cpu,raw), which a trace.dat needs",
					ev[e].name);
		for (i = 0; i < e; i++)
			if (ev[i].id == ev[e].id)
				return pp_error("%s: named twice", ev[e].name);
		n += ev[e].snap->nr;
	}
	r = calloc(n ? n : 1, sizeof(*r));
	if (!r)
		return pp_error("out of memory");
	for (n = 0, e = 0; e < nr; e++)
		for (i = 0; i < ev[e].snap->nr; i++) {
			const struct pp_decoded *d = &ev[e].snap->recs[i].d;

			if (d->type != PERF_RECORD_SAMPLE || !d->raw)
				continue;
			if (d->cpu >= DAT_MAX_CPUS) {
				free(r);
				return pp_error("%s: a record of CPU %u", ev[e].name,
						d->cpu);
			}
			r[n] = (struct dat_rec){ d->time, d->raw, d->raw_size,
						 d->cpu, n };
			if (d->cpu + 1 > *cpus)
				*cpus = d->cpu + 1;
			n++;
		}
	qsort(r, n, sizeof(*r), dat_rec_cmp);
	*out = r;
	*count = n;
	return 0;
}

int tracedat_write(const char *path, const struct pp_export *ev, size_t nr,
		   size_t *written)
{
	const size_t page = getpagesize();
	struct blob hdr = { 0 }, names = { 0 }, pages = { 0 };
	struct dat_rec *r = NULL;
	uint64_t *where = NULL;
	unsigned char *pg = NULL;
	size_t n = 0, i, j, start, pad;
	unsigned int cpus, cpu;
	uint16_t no_options = 0;
	int ret;
	FILE *f;

	ret = gather(ev, nr, &r, &n, &cpus);
	if (ret)
		return ret;
	/* As the kernel's saved_cmdlines, the name each task had last. */
	ret = export_tasks(ev, nr, true, cmdline_of, &names);
	if (!ret)
		ret = export_formats(&hdr, ev, nr, "6", &names);
	pg = malloc(page);
	where = calloc(2 * cpus, sizeof(*where));
	if (!ret && (!pg || !where))
		ret = pp_error("out of memory");
	/* Each CPU's pages, and where they are from the first page on. */
	for (i = 0; !ret && i < n; i = j) {
		cpu = r[i].cpu;
		for (j = i; j < n && r[j].cpu == cpu; j++)
			;
		where[2 * cpu] = pages.len;
		ret = put_pages(&pages, r + i, j - i, pg, page);
		where[2 * cpu + 1] = pages.len - where[2 * cpu];
	}
	if (ret)
		goto out;
	put_u32(&hdr, cpus);
	put(&hdr, "options  ", 10);
	put(&hdr, &no_options, sizeof(no_options));
	put(&hdr, "flyrecord", 10);
	/* The pages start at the first page boundary after the table. */
	start = hdr.len + 16 * (size_t)cpus;
	pad = (page - start % page) % page;
	for (cpu = 0; cpu < cpus; cpu++) {
		put_u64(&hdr, where[2 * cpu + 1] ? start + pad + where[2 * cpu] : 0);
		put_u64(&hdr, where[2 * cpu + 1]);
	}
	memset(pg, 0, page);
	put(&hdr, pg, pad);
	if (hdr.failed || names.failed || pages.failed) {
		ret = pp_error("out of memory");
		goto out;
	}
	f = fopen(path, "w");
	if (!f) {
		ret = pp_error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	fwrite(hdr.p, 1, hdr.len, f);
	fwrite(pages.p, 1, pages.len, f);
	if (ferror(f) | fclose(f)) {
		ret = pp_error("cannot write '%s': %s", path, strerror(errno));
		unlink(path);
		goto out;
	}
	*written = n;
out:
	free(r);
	free(pg);
	free(where);
	free(hdr.p);
	free(names.p);
	free(pages.p);
	return ret;
}
