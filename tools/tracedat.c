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
 * The file is written by libtracecmd, trace-cmd's library, as trace-cmd
 * record writes one: it reads the formats, the header texts and
 * saved_cmdlines from a tracing directory, and each CPU's pages from a
 * file, so the tool writes those into a temporary directory and points
 * the library at it.  Debian 12's libtracecmd (trace-cmd 3.1.6) exports
 * its writer but declares it only in trace-cmd's private header, whose
 * ABI may change with any release: the tool declares the functions it
 * calls as 3.1 has them, and loads the library when a trace.dat is asked
 * for, so that nothing else depends on it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

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
				return pp_error("%s and %s: their records carry one id, %u: perf could not tell them apart",
						ev[i].name, ev[e].name, ev[e].id);
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

/*
 * libtracecmd's writer, from trace-cmd 3.1's private header
 * (lib/trace-cmd/include/private/trace-cmd-private.h).
 */
#define TRACECMD_LIB	"libtracecmd.so.1"

struct tracecmd_output;
struct tracecmd_event_list;
struct tracecmd_option;

/* The option that says the file names its clock after the CPUs' table. */
#define TRACECMD_OPTION_TRACECLOCK	4

struct tracecmd_writer {
	struct tracecmd_output *(*create_fd)(int fd);
	int (*set_trace_dir)(struct tracecmd_output *h, const char *dir);
	int (*set_kallsyms)(struct tracecmd_output *h, const char *path);
	int (*set_version)(struct tracecmd_output *h, int version);
	int (*write_headers)(struct tracecmd_output *h,
			     struct tracecmd_event_list *list);
	int (*write_cmdlines)(struct tracecmd_output *h);
	int (*write_cpus)(struct tracecmd_output *h, int cpus);
	int (*write_options)(struct tracecmd_output *h);
	int (*write_cpu_data)(struct tracecmd_output *h, int cpus,
			      char * const *files, const char *buffer);
	void (*close)(struct tracecmd_output *h);
	void (*set_quiet)(struct tracecmd_output *h, bool quiet);
	void (*set_out_clock)(struct tracecmd_output *h, const char *clock);
	struct tracecmd_option *(*add_option)(struct tracecmd_output *h,
					      unsigned short id, int size,
					      const void *data);
	void (*set_loglevel)(enum tep_loglevel level);
};

bool tracedat_available(void)
{
	void *lib = dlopen(TRACECMD_LIB, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);

	if (!lib)
		lib = dlopen(TRACECMD_LIB, RTLD_LAZY | RTLD_LOCAL);
	if (!lib)
		return false;
	dlclose(lib);
	return true;
}

/*
 * Load libtracecmd and find its writer.  The library stays loaded for the
 * rest of the run, as a linked one does.  Returns 0, or -1 (reported).
 */
static int writer_load(struct tracecmd_writer *w)
{
	static void *lib;
	static const struct {
		const char	*name;
		size_t		at;
	} fn[] = {
#define FN(f, name) { name, offsetof(struct tracecmd_writer, f) }
		FN(create_fd, "tracecmd_output_create_fd"),
		FN(set_trace_dir, "tracecmd_output_set_trace_dir"),
		FN(set_kallsyms, "tracecmd_output_set_kallsyms"),
		FN(set_version, "tracecmd_output_set_version"),
		FN(write_headers, "tracecmd_output_write_headers"),
		FN(write_cmdlines, "tracecmd_write_cmdlines"),
		FN(write_cpus, "tracecmd_write_cpus"),
		FN(write_options, "tracecmd_write_options"),
		FN(write_cpu_data, "tracecmd_write_cpu_data"),
		FN(close, "tracecmd_output_close"),
		FN(set_quiet, "tracecmd_set_quiet"),
		FN(set_out_clock, "tracecmd_set_out_clock"),
		FN(add_option, "tracecmd_add_option"),
		FN(set_loglevel, "tracecmd_set_loglevel"),
#undef FN
	};
	size_t i;
	void *sym;

	if (!lib)
		lib = dlopen(TRACECMD_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return pp_error("a trace.dat is written by trace-cmd's library, %s (Debian: libtracecmd1): %s",
				TRACECMD_LIB, dlerror());
	for (i = 0; i < sizeof(fn) / sizeof(fn[0]); i++) {
		sym = dlsym(lib, fn[i].name);
		if (!sym)
			return pp_error("%s has no %s: not the trace-cmd 3.1 library this tool knows",
					TRACECMD_LIB, fn[i].name);
		memcpy((char *)w + fn[i].at, &sym, sizeof(sym));
	}
	return 0;
}

/*
 * Have libtracecmd write @path: version 6, the tracing data of @dir,
 * @cpus CPUs' pages from @files.
 */
static int writer_run(const struct tracecmd_writer *w, const char *path,
		      const char *dir, unsigned int cpus, char **files)
{
	/*
	 * The TRACECLOCK option says the records are on the clock of the
	 * file's trace_clock section; it holds the clock as trace_clock
	 * shows it, as trace-cmd record writes it.  trace-cmd 3.1.6 parses
	 * an empty one out of the heap beyond the 0 bytes it read.
	 */
	static const char clock[] = "[perf]";
	char none[PATH_MAX];
	struct tracecmd_output *h;
	const char *step = NULL;
	int fd;

	/* No kernel symbols: the records are tracepoints' payloads. */
	snprintf(none, sizeof(none), "%s/no-kallsyms", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return pp_error("cannot write '%s': %s", path, strerror(errno));
	h = w->create_fd(fd);
	if (!h) {
		close(fd);
		unlink(path);
		return pp_error("libtracecmd could not start '%s'", path);
	}
	/*
	 * Quiet: it would print where each CPU's data went, and warn that
	 * the top buffer has no description, which a version 6 file with
	 * no instances does not need.
	 */
	w->set_quiet(h, true);
	w->set_loglevel(TEP_LOG_ERROR);
	/* The records' times are perf's clock, which ftrace calls perf. */
	w->set_out_clock(h, "perf");
	if (w->set_trace_dir(h, dir) || w->set_kallsyms(h, none) ||
	    w->set_version(h, 6))
		step = "set up the file";
	else if (w->write_headers(h, NULL))
		step = "write the events' formats";
	else if (w->write_cmdlines(h))
		step = "write the tasks' names";
	else if (w->write_cpus(h, cpus) ||
		 !w->add_option(h, TRACECMD_OPTION_TRACECLOCK, sizeof(clock),
				clock) ||
		 w->write_options(h))
		step = "write the CPUs and options";
	else if (w->write_cpu_data(h, cpus, files, NULL))
		step = "write the CPUs' records";
	/* Closing the handle closes the file. */
	w->close(h);
	if (step) {
		unlink(path);
		return pp_error("%s: libtracecmd could not %s", path, step);
	}
	return 0;
}

int tracedat_write(const char *path, const struct pp_export *ev, size_t nr,
		   size_t *written)
{
	const size_t page = getpagesize();
	struct blob names = { 0 }, pages = { 0 };
	struct tracecmd_writer w;
	char dir[PATH_MAX], **files = NULL;
	struct dat_rec *r = NULL;
	unsigned char *pg = NULL;
	size_t n = 0, i, j;
	unsigned int cpus, cpu;
	const char *tmp = getenv("TMPDIR");
	int ret;

	ret = gather(ev, nr, &r, &n, &cpus);
	if (ret)
		return ret;
	/* As the kernel's saved_cmdlines, the name each task had last. */
	ret = export_tasks(ev, nr, true, cmdline_of, &names);
	if (!ret)
		ret = writer_load(&w);
	if (ret)
		goto out;
	snprintf(dir, sizeof(dir), "%s/perf-persistent-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ret = pp_error("cannot make a directory in %s: %s",
			       tmp && *tmp ? tmp : "/tmp", strerror(errno));
		goto out;
	}
	ret = export_tracing_dir(dir, ev, nr, &names);
	pg = malloc(page);
	files = calloc(cpus, sizeof(*files));
	if (!ret && (!pg || !files || names.failed))
		ret = pp_error("out of memory");
	/* Each CPU's pages in a file of its own, empty for a CPU without. */
	for (cpu = 0, i = 0; !ret && cpu < cpus; cpu++) {
		char rel[32];

		for (j = i; j < n && r[j].cpu == cpu; j++)
			;
		pages.len = 0;
		ret = put_pages(&pages, r + i, j - i, pg, page);
		i = j;
		snprintf(rel, sizeof(rel), "cpu%u", cpu);
		if (!ret && pages.failed)
			ret = pp_error("out of memory");
		if (!ret)
			ret = export_write_file(dir, rel, pages.p, pages.len);
		if (!ret && asprintf(&files[cpu], "%s/%s", dir, rel) < 0) {
			files[cpu] = NULL;
			ret = pp_error("out of memory");
		}
	}
	if (!ret)
		ret = writer_run(&w, path, dir, cpus, files);
	if (!ret)
		*written = n;
	remove_tree(dir);
out:
	for (cpu = 0; files && cpu < cpus; cpu++)
		free(files[cpu]);
	free(files);
	free(r);
	free(pg);
	free(names.p);
	free(pages.p);
	return ret;
}
