// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: export to perf.data.
 *
 * The file is what "perf record -a -e EVENT..." writes for the events: the
 * header, an attr per event with the persistent event's id, and a data
 * section: a COMM record for every task the records name (the samples'
 * tasks, and those a tracepoint's payload names in a pid field with a comm
 * beside it, as sched_switch's prev_pid and prev_comm), an EXIT record
 * for each record of sched_process_exit, then each event's stored
 * records, unchanged and oldest first.  Those are
 * PERF_RECORD_SAMPLEs and, for an event with comm, the COMM records that
 * name their tasks as they were; every attr has sample_id_all, so perf
 * orders them all by time.  The HEADER_TRACING_DATA feature carries the
 * tracepoints' formats, which perf needs to decode the RAW payloads, in
 * the layout of perf's trace-event-info.c, version 0.6.  A profile also
 * gets the MMAP and MMAP2 records of the kernel and the processes it
 * sampled, and the BUILD_ID table (maps.c).  The other
 * features say where and when the records were made, as perf record
 * writes them (HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID,
 * TOTAL_MEM, CMDLINE, SAMPLE_TIME, CLOCK_DATA): perf's tools read them,
 * and some fail without them (perf timechart draws no CPU without NRCPUS;
 * perf data convert --to-json dereferences the strings unchecked).  They
 * describe the machine the file is written on, which for a previous
 * boot's records may since have changed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "perf-persistent.h"
#include "export.h"
#include "perf_persistent/version.h"

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
/* perf's feature bits (tools/perf/util/header.h) this file may carry. */
#define HEADER_TRACING_DATA	1
#define HEADER_BUILD_ID		2
#define HEADER_HOSTNAME		3
#define HEADER_OSRELEASE	4
#define HEADER_VERSION		5
#define HEADER_ARCH		6
#define HEADER_NRCPUS		7
#define HEADER_CPUDESC		8
#define HEADER_CPUID		9
#define HEADER_TOTAL_MEM	10
#define HEADER_CMDLINE		11
#define HEADER_SAMPLE_TIME	21
#define HEADER_CLOCK_DATA	29
#define HEADER_LAST		HEADER_CLOCK_DATA
#define HEADER_FEAT_BITS	256

struct file_section {
	uint64_t	offset;
	uint64_t	size;
};

struct file_header {
	uint64_t		magic;
	uint64_t		size;
	uint64_t		attr_size;
	struct file_section	attrs;
	struct file_section	data;
	struct file_section	event_types;
	uint64_t		adds_features[HEADER_FEAT_BITS / 64];
};

struct file_attr {
	struct perf_event_attr	attr;
	struct file_section	ids;
};

/* A tracefs file under events/ as "u64 size, contents"; -1 if unreadable. */
static int put_tracefs_file(struct blob *b, const char *rel)
{
	size_t len;
	char *buf = tracefs_read(rel, &len);

	if (!buf)
		return pp_error("cannot read %s from tracefs: %s", rel,
				strerror(errno));
	put_u64(b, len);
	put(b, buf, len);
	free(buf);
	return 0;
}

/* One tracepoint's format, for the tracing data. */
struct tp_format {
	char		sys[64];
	char		name[192];
	const char	*fmt;		/* or NULL: tracefs' */
};

/*
 * The ring buffer's page and record headers, as the kernel's tracefs
 * events/header_page and header_event say them for a 64-bit kernel: a
 * page is a u64 time and a u64 count of bytes written, then the records;
 * a record is a 32-bit header of a 5-bit type or length and a 27-bit time
 * delta.  What trace.dat's pages are written in, and what perf expects.
 * Each returns the text's length.
 */
static int ring_header_page(char *text, size_t size)
{
	return snprintf(text, size,
			"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
			"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
			"\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:0;\n",
			PP_RB_PAGE_HEADER, getpagesize() - PP_RB_PAGE_HEADER);
}

static int ring_header_event(char *text, size_t size)
{
	return snprintf(text, size,
			"# compressed entry header\n"
			"\ttype_len    :    5 bits\n"
			"\ttime_delta  :   27 bits\n"
			"\tarray       :   32 bits\n\n"
			"\tpadding     : type == %u\n"
			"\ttime_extend : type == %u\n"
			"\ttime_stamp : type == %u\n"
			"\tdata max type_len  == %u\n",
			PP_RB_TYPE_PADDING, PP_RB_TYPE_TIME_EXTEND,
			PP_RB_TYPE_TIME_STAMP, PP_RB_MAX_TYPE_LEN);
}

static void put_ring_headers(struct blob *b)
{
	char text[512];
	int n;

	put_str(b, "header_page");
	n = ring_header_page(text, sizeof(text));
	put_u64(b, n);
	put(b, text, n);
	put_str(b, "header_event");
	n = ring_header_event(text, sizeof(text));
	put_u64(b, n);
	put(b, text, n);
}

/*
 * The tracing data: the formats of the @nr tracepoints @tp, by system, in
 * the layout of perf's trace-event-info.c (@version "0.6"), which is
 * trace.dat's up to its CPU data (@version "6"), then the tasks' names
 * @cmdlines ("PID COMM" lines, or none).
 */
static int tracing_data(struct blob *b, const struct tp_format *tp, size_t nr,
			const char *version, const struct blob *cmdlines)
{
	static const unsigned char magic[] = { 23, 8, 68 };
	char rel[300];
	size_t i, j, k, n, systems = 0;

	put(b, magic, sizeof(magic));
	put(b, "tracing", 7);
	put_str(b, version);
	put_u8(b, 0);				/* little endian */
	put_u8(b, sizeof(long));
	put_u32(b, getpagesize());
	put_ring_headers(b);

	put_u32(b, 0);				/* no ftrace formats */
	for (i = 0; i < nr; i++) {
		for (j = 0; j < i && strcmp(tp[j].sys, tp[i].sys); j++)
			;
		systems += j == i;
	}
	put_u32(b, systems);
	for (i = 0; i < nr; i++) {
		/* Each system once, where it first appears, with its events. */
		for (j = 0; j < i && strcmp(tp[j].sys, tp[i].sys); j++)
			;
		if (j < i)
			continue;
		put_str(b, tp[i].sys);
		for (n = 0, k = i; k < nr; k++)
			n += !strcmp(tp[k].sys, tp[i].sys);
		put_u32(b, n);
		for (k = i; k < nr; k++) {
			if (strcmp(tp[k].sys, tp[i].sys))
				continue;
			if (tp[k].fmt) {
				put_u64(b, strlen(tp[k].fmt));
				put(b, tp[k].fmt, strlen(tp[k].fmt));
				continue;
			}
			snprintf(rel, sizeof(rel), "%s/%s/format", tp[k].sys,
				 tp[k].name);
			if (put_tracefs_file(b, rel))
				return -1;
		}
	}
	put_u32(b, 0);				/* no kallsyms */
	put_u32(b, 0);				/* no ftrace_printk formats */
	put_u64(b, cmdlines ? cmdlines->len : 0);
	if (cmdlines)
		put(b, cmdlines->p, cmdlines->len);
	return 0;
}

/* A string as perf's feature sections hold it: u32 length, NUL-padded to 64. */
static void put_feat_string(struct blob *b, const char *str)
{
	static const char zero[64];
	size_t len = strlen(str) + 1, padded = (len + 63) & ~63UL;

	put_u32(b, padded);
	put(b, str, len);
	put(b, zero, padded - len);
}

/*
 * HEADER_CLOCK_DATA, version 1: the clock id, then a wall-clock time and the
 * records' clock at the same moment, so that perf script -F +tod prints
 * each record's time of day.  The records' clock is perf's default one, of
 * no POSIX clock id: CLOCK_MONOTONIC is the nearest.
 */
static void put_clock_data(struct blob *b, const struct pp_clock *clock)
{
	put_u32(b, 1);
	put_u32(b, CLOCK_MONOTONIC);
	put_u64(b, clock->realtime_ns);
	put_u64(b, clock->clock_ns);
}

/*
 * The value of the first line "KEY<blanks>: value" of /proc/cpuinfo, runs
 * of spaces made one as perf makes them; false if there is none.
 */
static bool cpuinfo(const char *key, char *buf, size_t len)
{
	char line[512], *v;
	size_t klen = strlen(key), n = 0;
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || !strchr(" \t:", line[klen]))
			continue;
		v = strchr(line + klen, ':');
		if (!v)
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		for (; *v && *v != '\n' && n + 1 < len; v++)
			if (*v != ' ' || (n && buf[n - 1] != ' '))
				buf[n++] = *v;
		buf[n] = '\0';
		found = true;
	}
	fclose(f);
	return found;
}

/*
 * HEADER_CPUID as perf writes it: on x86 "vendor,family,model,stepping",
 * on arm64 the MIDR of CPU 0 as 0x%016lx; elsewhere the machine's name.
 */
static void cpuid_string(const struct utsname *uts, char *buf, size_t len)
{
	char vendor[64], family[16], model[16], stepping[16];
	unsigned long long midr;
	FILE *f;

	if (cpuinfo("vendor_id", vendor, sizeof(vendor)) &&
	    cpuinfo("cpu family", family, sizeof(family)) &&
	    cpuinfo("model", model, sizeof(model)) &&
	    cpuinfo("stepping", stepping, sizeof(stepping))) {
		snprintf(buf, len, "%s,%s,%s,%s", vendor, family, model, stepping);
		return;
	}
	f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	if (f) {
		if (fscanf(f, "%llx", &midr) == 1) {
			snprintf(buf, len, "0x%016llx", midr);
			fclose(f);
			return;
		}
		fclose(f);
	}
	snprintf(buf, len, "%s", uts->machine);
}

/* A task the records name: its thread id, process id and name. */
struct task {
	int		tid;
	int		pid;		/* -1 while unknown */
	const char	*comm;		/* NULL while unknown */
	size_t		comm_max;	/* bytes at @comm, up to a NUL */
	bool		then;		/* @comm is the name it had then */
	uint64_t	time;		/* of the record that names it */
};

struct tasks {
	struct task	*t;
	size_t		nr;
	size_t		cap;
	bool		failed;
};

static void task_add(struct tasks *ts, int tid, int pid, const char *comm,
		     size_t comm_max, bool then, uint64_t time)
{
	struct task *grown;

	if (ts->failed || tid <= 0)
		return;
	if (ts->nr == ts->cap) {
		grown = realloc(ts->t, (ts->cap * 2 + 256) * sizeof(*grown));
		if (!grown) {
			ts->failed = true;
			return;
		}
		ts->t = grown;
		ts->cap = ts->cap * 2 + 256;
	}
	ts->t[ts->nr] = (struct task){ tid, pid, comm, comm_max, then, time };
	ts->nr++;
}

static int task_cmp(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * The tasks a tracepoint's payload @raw names: each field "pid" or
 * "X_pid" with a field "comm" or "X_comm" beside it (sched_switch's
 * prev_pid and prev_comm, sched_wakeup's pid and comm, ...).
 */
static void payload_tasks(struct tasks *ts, struct tep_event *event,
			  const unsigned char *raw, unsigned int size,
			  uint64_t time)
{
	struct tep_format_field *f, *c;
	char name[128];
	size_t len;
	int32_t tid;

	for (f = event->format.fields; f; f = f->next) {
		len = strlen(f->name);
		if (f->size != 4 || len < 3 || strcmp(f->name + len - 3, "pid") ||
		    (len > 3 && f->name[len - 4] != '_') ||
		    f->offset < 0 || (unsigned int)f->offset + 4 > size)
			continue;
		snprintf(name, sizeof(name), "%.*scomm", (int)(len - 3), f->name);
		c = tep_find_field(event, name);
		if (!c || !(c->flags & TEP_FIELD_IS_ARRAY) ||
		    (c->flags & TEP_FIELD_IS_DYNAMIC) || !c->size ||
		    c->offset < 0 || c->size < 0 ||
		    (unsigned int)(c->offset + c->size) > size)
			continue;
		memcpy(&tid, raw + f->offset, 4);
		/* The name points into the record, which outlives the table. */
		task_add(ts, tid, -1, (const char *)raw + c->offset, c->size,
			 true, time);
	}
}

/*
 * A COMM record naming thread @tid of process @pid.  It ends with zeroed
 * sample_id fields (@id_size bytes): time 0 puts it before every record,
 * so that the events' own COMM records, where they have them, override
 * it from their time on, and IDENTIFIER 0 gives it to the first event.
 */
static void comm_record(struct blob *b, int pid, int tid, const char *comm,
			size_t comm_max, size_t id_size)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_COMM };
	size_t len = strnlen(comm, comm_max), padded = (len + 8) & ~7UL, i;
	static const char zero[8];

	hdr.size = sizeof(hdr) + 8 + padded + id_size;
	put(b, &hdr, sizeof(hdr));
	put_u32(b, pid);
	put_u32(b, tid);
	put(b, comm, len);
	put(b, zero, padded - len);
	for (i = 0; i < id_size; i += 8)
		put(b, zero, 8);
}

/*
 * Call @fn once for each task the records of the @nr events @ev name, in
 * the order of their thread ids, with the name it had when the oldest
 * (or, if @newest, the newest) record naming it was made: the event's own
 * COMM record before a sample, or a payload's comm field; failing those,
 * the name /proc gives it now.  A task only a payload names gets its
 * process id from a sample of it, else its thread id.  Returns 0, or -1
 * (reported).
 */
int export_tasks(const struct pp_export *ev, size_t nr, bool newest,
		 void (*fn)(void *arg, int pid, int tid, const char *comm,
			    size_t comm_max),
		 void *arg)
{
	struct tasks ts = { 0 };
	size_t e, i, j;
	const char *comm;

	for (e = 0; e < nr; e++) {
		const struct pp_snapshot *snap = ev[e].snap;
		struct tep_event *event = printer_tep_event(ev[e].p);

		for (i = 0; i < snap->nr; i++) {
			const struct pp_decoded *d = &snap->recs[i].d;

			if (d->type != PERF_RECORD_SAMPLE)
				continue;
			if (snap->sample_type & PERF_SAMPLE_TID) {
				comm = d->comm ? d->comm :
						 printer_comm(ev[e].p, d->tid);
				task_add(&ts, d->tid, d->pid, comm,
					 comm ? strlen(comm) : 0, d->comm,
					 d->time);
			}
			if (event && d->raw)
				payload_tasks(&ts, event, d->raw, d->raw_size,
					      d->time);
		}
	}
	if (ts.failed) {
		free(ts.t);
		return pp_error("out of memory");
	}
	qsort(ts.t, ts.nr, sizeof(*ts.t), task_cmp);
	for (i = 0; i < ts.nr; i = j) {
		const struct task *named = NULL;
		int pid = -1;

		for (j = i; j < ts.nr && ts.t[j].tid == ts.t[i].tid; j++) {
			if (pid < 0 && ts.t[j].pid > 0)
				pid = ts.t[j].pid;
			if (!ts.t[j].comm)
				continue;
			/* A name it had then beats one it has now. */
			if (!named || (ts.t[j].then && !named->then) ||
			    (newest && (ts.t[j].then || !named->then)))
				named = &ts.t[j];
		}
		if (named)
			fn(arg, pid > 0 ? pid : ts.t[i].tid, ts.t[i].tid,
			   named->comm, named->comm_max);
	}
	free(ts.t);
	return 0;
}

/* What the file holds besides the records, as it is put together. */
struct perfdata {
	struct blob		comms;
	struct blob		feat[HEADER_LAST + 1];
	struct file_header	fh;
	struct file_attr	*fa;
	uint64_t		*ids;
	uint64_t		first, last;
	unsigned int		max_cpu;
};

/*
 * An EXIT record for each record of a sched:sched_process_exit event,
 * where perf ends the task (its row of perf timechart, its thread in perf
 * sched), as the kernel writes one when a task exits in a perf record of
 * the same tracepoints.  The task is the sample's, else the payload's pid.
 */
static void exit_records(struct blob *b, const struct pp_export *ev,
			 size_t nr)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_EXIT };
	struct tep_format_field *f;
	struct tep_event *event;
	unsigned long long v;
	uint32_t pid, tid;
	size_t e, i;

	for (e = 0; e < nr; e++) {
		const struct pp_snapshot *snap = ev[e].snap;
		uint64_t type = snap->sample_type;

		if (ev[e].attr.type != PERF_TYPE_TRACEPOINT ||
		    strcmp(printer_event_name(ev[e].p), "sched:sched_process_exit"))
			continue;
		event = printer_tep_event(ev[e].p);
		f = event ? tep_find_field(event, "pid") : NULL;
		for (i = 0; i < snap->nr; i++) {
			const struct pp_decoded *d = &snap->recs[i].d;

			if (d->type != PERF_RECORD_SAMPLE)
				continue;
			pid = d->pid;
			tid = d->tid;
			if (!(type & PERF_SAMPLE_TID)) {
				if (!f || !d->raw ||
				    tep_read_number_field(f, d->raw, &v))
					continue;
				pid = tid = v;
			}
			hdr.size = sizeof(hdr) + 4 * 4 + 8 +
				   sample_id_size(ev[e].attr.sample_type);
			put(b, &hdr, sizeof(hdr));
			put_u32(b, pid);
			put_u32(b, 0);			/* its parent: not known */
			put_u32(b, tid);
			put_u32(b, 0);
			put_u64(b, d->time);
			put_sample_id(b, ev[e].attr.sample_type, pid, tid,
				      d->time, ev[e].id, d->cpu);
		}
	}
}

/* export_tasks()'s call for perf.data: a COMM record for the task. */
static void comm_record_of(void *arg, int pid, int tid, const char *comm,
			   size_t comm_max)
{
	struct perfdata *pd = arg;

	comm_record(&pd->comms, pid, tid, comm, comm_max,
		    sample_id_size(pd->fa[0].attr.sample_type));
}

/*
 * The tracing data of the tracepoints of @ev, each once; 0 or -1
 * (reported).
 */
/*
 * The tracepoints of the @nr events @ev, each once, into *@out (malloc()ed)
 * and *@count.  Returns 0, or -1 (reported).
 */
static int export_tracepoints(const struct pp_export *ev, size_t nr,
			      struct tp_format **out, size_t *count)
{
	struct tp_format *tp = calloc(nr ? nr : 1, sizeof(*tp));
	size_t e, n = 0, k;
	const char *name, *colon;

	if (!tp)
		return pp_error("out of memory");
	for (e = 0; e < nr; e++) {
		if (ev[e].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		name = printer_event_name(ev[e].p);
		colon = strchr(name, ':');
		if (!colon || colon - name >= (long)sizeof(tp[n].sys) ||
		    strlen(colon + 1) >= sizeof(tp[n].name)) {
			free(tp);
			return pp_error("%s: not a tracepoint name", name);
		}
		snprintf(tp[n].sys, sizeof(tp[n].sys), "%.*s", (int)(colon - name), name);
		snprintf(tp[n].name, sizeof(tp[n].name), "%s", colon + 1);
		tp[n].fmt = printer_format(ev[e].p);
		for (k = 0; k < n; k++)
			if (!strcmp(tp[k].sys, tp[n].sys) &&
			    !strcmp(tp[k].name, tp[n].name))
				break;
		n += k == n;
	}
	*out = tp;
	*count = n;
	return 0;
}

int export_formats(struct blob *b, const struct pp_export *ev, size_t nr,
		   const char *version, const struct blob *cmdlines)
{
	struct tp_format *tp;
	size_t n;
	int ret = export_tracepoints(ev, nr, &tp, &n);

	if (ret)
		return ret;
	if (n)
		ret = tracing_data(b, tp, n, version, cmdlines);
	free(tp);
	return ret;
}

int export_write_file(const char *dir, const char *rel, const void *data,
		      size_t len)
{
	char path[PATH_MAX], *slash;
	FILE *f;
	int n = snprintf(path, sizeof(path), "%s/%s", dir, rel);

	if (n < 0 || (size_t)n >= sizeof(path))
		return pp_error("%s/%s: path too long", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			return pp_error("cannot make '%s': %s", path, strerror(errno));
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return pp_error("cannot write '%s': %s", path, strerror(errno));
	fwrite(data, 1, len, f);
	if (ferror(f) | fclose(f))
		return pp_error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

/* The format of ftrace's print event (kernel/trace/trace_entries.h). */
static const char ftrace_print[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

int export_tracing_dir(const char *dir, const struct pp_export *ev, size_t nr,
		       const struct blob *cmdlines)
{
	char text[512], rel[300];
	struct tp_format *tp;
	size_t n, i, len;
	char *buf;
	int ret = export_tracepoints(ev, nr, &tp, &n);

	if (ret)
		return ret;
	/*
	 * libtracecmd 3.1 needs one ftrace event at least (it dereferences
	 * the first of the list it globs): ftrace's print, whose id no
	 * tracepoint has.
	 */
	ret = export_write_file(dir, "events/ftrace/print/format", ftrace_print,
				strlen(ftrace_print));
	if (!ret)
		ret = export_write_file(dir, "events/header_page", text,
			 ring_header_page(text, sizeof(text)));
	if (!ret)
		ret = export_write_file(dir, "events/header_event", text,
				 ring_header_event(text, sizeof(text)));
	for (i = 0; !ret && i < n; i++) {
		snprintf(rel, sizeof(rel), "%s/%s/format", tp[i].sys, tp[i].name);
		buf = tp[i].fmt ? NULL : tracefs_read(rel, &len);
		if (!tp[i].fmt && !buf) {
			ret = pp_error("cannot read %s from tracefs: %s", rel,
				       strerror(errno));
			break;
		}
		snprintf(rel, sizeof(rel), "events/%s/%s/format", tp[i].sys,
			 tp[i].name);
		ret = export_write_file(dir, rel, buf ? buf : tp[i].fmt,
				 buf ? len : strlen(tp[i].fmt));
		free(buf);
	}
	if (!ret)
		ret = export_write_file(dir, "saved_cmdlines", cmdlines->p, cmdlines->len);
	free(tp);
	return ret;
}

/* A line "KEY: N kB" of /proc/meminfo: N, or -1. */
static long long meminfo_kb(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (v < 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':')
			v = atoll(line + len + 1);
	fclose(f);
	return v;
}

/* Where and when: the features perf record writes that its tools read. */
static void describe(struct perfdata *pd, const struct pp_export *ev,
		     int argc, char **cmdline)
{
	const struct pp_clock *clock = printer_clock(ev[0].p);
	char buf[256];
	struct utsname uts;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	long long kb;
	int i;

	if (uname(&uts))
		memset(&uts, 0, sizeof(uts));
	put_feat_string(&pd->feat[HEADER_HOSTNAME], uts.nodename);
	put_feat_string(&pd->feat[HEADER_OSRELEASE], uts.release);
	put_feat_string(&pd->feat[HEADER_VERSION], "perf-persistent " PP_VERSION);
	put_feat_string(&pd->feat[HEADER_ARCH], uts.machine);
	/* Every CPU a record names has a row, whatever this boot has. */
	if (conf < (long)pd->max_cpu + 1)
		conf = pd->max_cpu + 1;
	put_u32(&pd->feat[HEADER_NRCPUS], conf);
	put_u32(&pd->feat[HEADER_NRCPUS], online > 0 ? online : conf);
	if (!cpuinfo("model name", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "%s", uts.machine);
	put_feat_string(&pd->feat[HEADER_CPUDESC], buf);
	cpuid_string(&uts, buf, sizeof(buf));
	put_feat_string(&pd->feat[HEADER_CPUID], buf);
	kb = meminfo_kb("MemTotal");
	if (kb >= 0)
		put_u64(&pd->feat[HEADER_TOTAL_MEM], kb);
	put_u32(&pd->feat[HEADER_CMDLINE], argc);
	for (i = 0; i < argc; i++)
		put_feat_string(&pd->feat[HEADER_CMDLINE], cmdline[i]);
	if (pd->first <= pd->last) {
		put_u64(&pd->feat[HEADER_SAMPLE_TIME], pd->first);
		put_u64(&pd->feat[HEADER_SAMPLE_TIME], pd->last);
	}
	if (clock->realtime_ns)
		put_clock_data(&pd->feat[HEADER_CLOCK_DATA], clock);
}

/*
 * The attrs, one per event: the source attr with the id its records
 * carry.  perf tells events apart in a file by the IDENTIFIER field, and
 * requires sample_id_all of every attr alike: every attr gets it (the
 * module stores non-sample records only for an event with it).
 */
static int attrs(struct perfdata *pd, const struct pp_export *ev, size_t nr)
{
	size_t e, i;

	pd->fa = calloc(nr, sizeof(*pd->fa));
	pd->ids = calloc(nr, sizeof(*pd->ids));
	if (!pd->fa || !pd->ids)
		return pp_error("out of memory");
	pd->first = UINT64_MAX;
	for (e = 0; e < nr; e++) {
		if (nr > 1 && !(ev[e].attr.sample_type & PERF_SAMPLE_IDENTIFIER))
			return pp_error("%s: its records have no IDENTIFIER field, which perf needs to tell the events of a file apart: export it alone",
					ev[e].name);
		for (i = 0; i < e; i++)
			if (ev[i].id == ev[e].id)
				return pp_error("%s and %s: their records carry one id, %u: perf could not tell them apart",
						ev[i].name, ev[e].name, ev[e].id);
		pd->fa[e].attr = ev[e].attr;
		pd->fa[e].attr.size = sizeof(pd->fa[e].attr);
		pd->fa[e].attr.disabled = 0;
		pd->fa[e].attr.sample_id_all = 1;
		pd->ids[e] = ev[e].id;
		for (i = 0; i < ev[e].snap->nr; i++) {
			const struct pp_decoded *d = &ev[e].snap->recs[i].d;

			if (d->type != PERF_RECORD_SAMPLE)
				continue;
			if (ev[e].snap->sample_type & PERF_SAMPLE_TIME) {
				if (d->time < pd->first)
					pd->first = d->time;
				if (d->time > pd->last)
					pd->last = d->time;
			}
			if ((ev[e].snap->sample_type & PERF_SAMPLE_CPU) &&
			    d->cpu > pd->max_cpu && d->cpu < 4096)
				pd->max_cpu = d->cpu;
		}
	}
	return 0;
}

/*
 * Layout: header, ids, attrs, data, then one section per feature in the
 * order of their bits, then the features.  Returns where the first
 * feature starts.
 */
static size_t lay_out(struct perfdata *pd, const struct pp_export *ev,
		      size_t nr)
{
	uint64_t records = 0;
	size_t e, i, off;

	for (e = 0; e < nr; e++)
		for (i = 0; i < ev[e].snap->nr; i++)
			records += ((const struct perf_event_header *)
				    ev[e].snap->recs[i].data)->size;
	off = sizeof(pd->fh);
	for (e = 0; e < nr; e++) {
		pd->fa[e].ids.offset = off;
		pd->fa[e].ids.size = sizeof(pd->ids[e]);
		off += sizeof(pd->ids[e]);
	}
	pd->fh.magic = PERF_MAGIC2;
	pd->fh.size = sizeof(pd->fh);
	pd->fh.attr_size = sizeof(*pd->fa);
	pd->fh.attrs.offset = off;
	pd->fh.attrs.size = nr * sizeof(*pd->fa);
	off += nr * sizeof(*pd->fa);
	pd->fh.data.offset = off;
	pd->fh.data.size = pd->comms.len + records;
	off += pd->fh.data.size;
	for (i = 0; i <= HEADER_LAST; i++)
		if (pd->feat[i].len) {
			pd->fh.adds_features[i / 64] |= 1ULL << (i % 64);
			off += sizeof(struct file_section);
		}
	return off;
}

/* Write the file laid out, the first feature at @off; 0 or -1 (reported). */
static int write_out(const char *path, const struct perfdata *pd,
		     const struct pp_export *ev, size_t nr, size_t off)
{
	size_t e, i;
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		return pp_error("cannot write '%s': %s", path, strerror(errno));
	fwrite(&pd->fh, sizeof(pd->fh), 1, f);
	fwrite(pd->ids, sizeof(*pd->ids), nr, f);
	fwrite(pd->fa, sizeof(*pd->fa), nr, f);
	fwrite(pd->comms.p, 1, pd->comms.len, f);
	/* The stored records are perf's records already: as they are. */
	for (e = 0; e < nr; e++)
		for (i = 0; i < ev[e].snap->nr; i++) {
			const struct perf_event_header *hdr = ev[e].snap->recs[i].data;

			fwrite(hdr, 1, hdr->size, f);
		}
	for (i = 0; i <= HEADER_LAST; i++) {
		struct file_section sec = { .offset = off, .size = pd->feat[i].len };

		if (!pd->feat[i].len)
			continue;
		fwrite(&sec, sizeof(sec), 1, f);
		off += pd->feat[i].len;
	}
	for (i = 0; i <= HEADER_LAST; i++)
		if (pd->feat[i].len)
			fwrite(pd->feat[i].p, pd->feat[i].len, 1, f);
	if (ferror(f) | fclose(f)) {
		pp_error("cannot write '%s': %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

static bool buildid_cache = true;

void perfdata_set_buildid_cache(bool on)
{
	buildid_cache = on;
}

int perfdata_write(const char *path, const struct pp_export *ev, size_t nr,
		   int argc, char **cmdline)
{
	struct perfdata pd = { 0 };
	int ret;
	size_t i;

	ret = attrs(&pd, ev, nr);
	if (!ret)
		ret = export_formats(&pd.feat[HEADER_TRACING_DATA], ev, nr,
				     "0.6", NULL);
	if (!ret)
		ret = export_tasks(ev, nr, false, comm_record_of, &pd);
	if (!ret)
		exit_records(&pd.comms, ev, nr);
	if (!ret)
		ret = export_maps(&pd.comms, &pd.feat[HEADER_BUILD_ID], ev, nr,
				  buildid_cache);
	if (!ret) {
		describe(&pd, ev, argc, cmdline);
		for (i = 0; i <= HEADER_LAST; i++)
			pd.comms.failed |= pd.feat[i].failed;
		if (pd.comms.failed)
			ret = pp_error("out of memory");
	}
	if (!ret)
		ret = write_out(path, &pd, ev, nr, lay_out(&pd, ev, nr));
	free(pd.comms.p);
	for (i = 0; i <= HEADER_LAST; i++)
		free(pd.feat[i].p);
	free(pd.fa);
	free(pd.ids);
	return ret;
}
