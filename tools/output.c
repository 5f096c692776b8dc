// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: decoding records.
 *
 * A tracepoint's RAW payload is decoded with libtraceevent from the
 * tracepoint's format in tracefs, as perf script, trace-cmd and rasdaemon
 * do.  A line shows the fields as the tracepoint's print format does, and
 * JSON gives them one by one.  Other sources print their period, IP and
 * address.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "perf-persistent.h"
#include "perf_persistent/cper.h"

struct comm {
	int	pid;
	char	*comm;
};

struct pp_printer {
	struct perf_event_attr	attr;
	struct tep_handle	*tep;
	struct tep_event	*event;
	char			name[256];
	struct comm		*comms;
	size_t			nr_comms;
	struct pp_clock		clock;
	bool			wall_clock;
	char			*format;
};

void printer_set_clock(struct pp_printer *p, const struct pp_clock *clock,
		       bool wall_clock)
{
	p->clock = *clock;
	p->wall_clock = wall_clock && clock->realtime_ns;
}

const struct pp_clock *printer_clock(struct pp_printer *p)
{
	return &p->clock;
}

/*
 * The wall-clock time of a record stamped @t: "2026-11-23 13:50:01.123456"
 * in local time, or with @iso "2026-11-23T13:50:01.123456Z" in UTC.
 */
static void format_wall_clock(const struct pp_printer *p, unsigned long long t,
			      bool iso, char *buf, size_t len)
{
	unsigned long long ns = t - p->clock.clock_ns + p->clock.realtime_ns;
	time_t sec = ns / 1000000000ULL;
	struct tm tm;
	size_t n;

	if (iso)
		gmtime_r(&sec, &tm);
	else
		localtime_r(&sec, &tm);
	n = strftime(buf, len, iso ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%d %H:%M:%S",
		     &tm);
	snprintf(buf + n, len - n, ".%06llu%s", ns % 1000000000ULL / 1000,
		 iso ? "Z" : "");
}

/*
 * Parse @fmt, the format of @p's tracepoint in @system.  Returns 0, or -1
 * with a message on stderr.
 */
static int printer_parse(struct pp_printer *p, const char *fmt, size_t len,
			 const char *system)
{
	p->tep = tep_alloc();
	if (!p->tep)
		return pp_error("out of memory");
	tep_set_long_size(p->tep, sizeof(long));
	tep_set_page_size(p->tep, getpagesize());
	if (tep_parse_event(p->tep, fmt, len, system))
		return pp_error("libtraceevent cannot parse the format of %s", p->name);
	p->event = tep_find_event(p->tep, p->attr.config);
	if (!p->event)
		return pp_error("%s: its format has another id than %llu", p->name,
				(unsigned long long)p->attr.config);
	return 0;
}

struct pp_printer *printer_new(const struct perf_event_attr *attr)
{
	struct pp_printer *p = calloc(1, sizeof(*p));
	char rel[300], *fmt;
	size_t len;
	int ret;

	if (!p) {
		pp_error("out of memory");
		return NULL;
	}
	p->attr = *attr;
	format_source(attr, p->name, sizeof(p->name));
	if (attr->type != PERF_TYPE_TRACEPOINT)
		return p;

	if (!tracefs_dir())
		goto err;
	if (!strchr(p->name, ':') || !strncmp(p->name, "tracepoint:", 11)) {
		pp_error("tracepoint id %llu is not in tracefs: cannot decode it",
			 (unsigned long long)attr->config);
		goto err;
	}
	snprintf(rel, sizeof(rel), "%s/format", p->name);
	*strchr(rel, ':') = '/';
	fmt = tracefs_read(rel, &len);
	if (!fmt) {
		pp_error("cannot read the format of %s from tracefs: %s", p->name,
			 strerror(errno));
		goto err;
	}
	*strchr(rel, '/') = '\0';
	ret = printer_parse(p, fmt, len, rel);
	free(fmt);
	if (ret)
		goto err;
	return p;
err:
	printer_free(p);
	return NULL;
}

struct pp_printer *printer_new_format(const struct perf_event_attr *attr,
				      const char *source, const char *fmt)
{
	struct pp_printer *p = calloc(1, sizeof(*p));
	char system[64];

	if (!p) {
		pp_error("out of memory");
		return NULL;
	}
	p->attr = *attr;
	snprintf(p->name, sizeof(p->name), "%s", source);
	snprintf(system, sizeof(system), "%.*s", (int)strcspn(source, ":"), source);
	p->format = strdup(fmt);
	if (!p->format) {
		pp_error("out of memory");
		printer_free(p);
		return NULL;
	}
	if (printer_parse(p, fmt, strlen(fmt), system)) {
		printer_free(p);
		return NULL;
	}
	return p;
}

void printer_free(struct pp_printer *p)
{
	size_t i;

	if (!p)
		return;
	if (p->tep)
		tep_free(p->tep);
	free(p->format);
	for (i = 0; i < p->nr_comms; i++)
		free(p->comms[i].comm);
	free(p->comms);
	free(p);
}

void print_records(struct pp_printer *p, FILE *out,
		   const struct pp_snapshot *snap, bool newest, bool json)
{
	size_t i;

	for (i = 0; i < snap->nr && !ferror(out); i++) {
		const struct pp_record *r = &snap->recs[newest ? snap->nr - 1 - i : i];

		if (json)
			print_record_json(p, out, &r->d);
		else
			print_record(p, out, &r->d);
	}
}

struct tep_event *printer_tep_event(struct pp_printer *p)
{
	return p->event;
}

const char *printer_event_name(struct pp_printer *p)
{
	return p->name;
}

const char *printer_format(struct pp_printer *p)
{
	return p->format;
}

static struct comm *find_comm(struct pp_printer *p, int pid)
{
	size_t i;

	for (i = 0; i < p->nr_comms; i++)
		if (p->comms[i].pid == pid)
			return &p->comms[i];
	return NULL;
}

void printer_add_comm(struct pp_printer *p, int pid, const char *comm)
{
	struct comm *c = find_comm(p, pid), *grown;

	if (c)
		return;
	grown = realloc(p->comms, (p->nr_comms + 1) * sizeof(*grown));
	if (!grown)
		return;
	p->comms = grown;
	c = &p->comms[p->nr_comms];
	c->pid = pid;
	c->comm = strdup(comm);
	if (!c->comm)
		return;
	p->nr_comms++;
	if (p->tep)
		tep_register_comm(p->tep, comm, pid);
}

int printer_comm_at(struct pp_printer *p, size_t i, const char **comm)
{
	if (i >= p->nr_comms)
		return -1;
	*comm = p->comms[i].comm;
	return p->comms[i].pid;
}

const char *printer_comm(struct pp_printer *p, int pid)
{
	struct comm *c = find_comm(p, pid);

	return c ? c->comm : NULL;
}

/* Look up the comm of @pid in /proc, then in tracefs' saved_cmdlines. */
static bool lookup_comm(int pid, char *buf, size_t len)
{
	const char *dir;
	char path[PATH_MAX], line[128];
	bool found = false;
	FILE *f;

	if (!pid) {
		snprintf(buf, len, "swapper");
		return true;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (f) {
		found = fgets(buf, len, f);
		fclose(f);
		if (found) {
			buf[strcspn(buf, "\n")] = '\0';
			return true;
		}
	}
	dir = tracefs_dir();
	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	f = fopen(path, "r");
	while (f && !found && fgets(line, sizeof(line), f)) {
		char comm[64];
		int p;

		if (sscanf(line, "%d %63[^\n]", &p, comm) == 2 && p == pid) {
			snprintf(buf, len, "%s", comm);
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

void printer_learn_comms(struct pp_printer *p, const struct pp_snapshot *snap)
{
	size_t i;

	if (!(snap->sample_type & PERF_SAMPLE_TID))
		return;
	for (i = 0; i < snap->nr; i++) {
		int pid = snap->recs[i].d.tid;
		char comm[64];

		/* Skip the records whose task a COMM record names. */
		if (snap->recs[i].d.type == PERF_RECORD_COMM ||
		    snap->recs[i].d.comm)
			continue;
		if (!find_comm(p, pid) && lookup_comm(pid, comm, sizeof(comm)))
			printer_add_comm(p, pid, comm);
	}
}

/*
 * The task's name as the COMM record before the sample gives it, else as
 * it is now (from /proc or tracefs' saved_cmdlines), else NULL.
 */
static const char *task_name(struct pp_printer *p, const struct pp_decoded *d)
{
	return d->comm ? d->comm : printer_comm(p, d->tid);
}

/*
 * The comm column shows the task's name, or ":pid" as perf script does
 * when the name is unknown.  A name can hold any byte (prctl() sets it,
 * and a previous boot's region may be damaged): a control byte is shown
 * as '?', so that a record stays one line.
 */
static const char *comm_of(struct pp_printer *p, const struct pp_decoded *d,
			   char *buf, size_t len)
{
	const char *comm = task_name(p, d);
	size_t i;

	if (!comm) {
		snprintf(buf, len, ":%u", d->tid);
		return buf;
	}
	for (i = 0; comm[i] && !iscntrl((unsigned char)comm[i]); i++)
		;
	if (!comm[i])
		return comm;
	for (i = 0; comm[i] && i < len - 1; i++)
		buf[i] = iscntrl((unsigned char)comm[i]) ? '?' : comm[i];
	buf[i] = '\0';
	return buf;
}

/*
 * Print the tracepoint's fields into @s through its print format.  This
 * initialises @s, and the caller destroys it.
 */
static void format_info(struct pp_printer *p, const struct pp_decoded *d,
			struct trace_seq *s)
{
	struct tep_record rec = {
		.ts	= d->time,
		.cpu	= d->cpu,
		.data	= (void *)d->raw,
		.size	= d->raw_size,
	};

	trace_seq_init(s);
	tep_print_event(p->tep, s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
}

int record_origin_pid(const struct pp_decoded *d)
{
	int32_t pid;

	/* struct trace_entry: type (2), flags (1), preempt_count (1), pid. */
	if (!d->raw || d->raw_size < 2 * sizeof(pid))
		return 0;
	memcpy(&pid, (const char *)d->raw + sizeof(pid), sizeof(pid));
	return pid < 0 ? pid : 0;
}

/*
 * Where the module found the error of a record it wrote itself, which the
 * tracepoint never saw: its payload's common_pid is then negative
 * (PERF_PERSISTENT_ORIGIN_*, the UAPI header), else NULL.
 */
const char *record_origin(const struct pp_decoded *d)
{
	switch (record_origin_pid(d)) {
	case PERF_PERSISTENT_ORIGIN_PANIC:
		return "taken at the panic from the kernel log";
	case PERF_PERSISTENT_ORIGIN_ERST:
		return "read at load from ERST";
	case PERF_PERSISTENT_ORIGIN_BOOT_LOG:
		return "logged before the load";
	case PERF_PERSISTENT_ORIGIN_BERT:
		return "read at load from BERT";
	case PERF_PERSISTENT_ORIGIN_GHES:
		return "taken at the panic from the GHES error source";
	}
	return NULL;
}

/* A memory error's location fields: cper_print_mem()'s names, ghes_edac's. */
static const struct {
	__u64		bit;
	const char	*name;
	const char	*edac;
	size_t		off;
} cper_mem_where[] = {
	{ PP_CPER_MEM_NODE, "node", "node", offsetof(struct pp_cper_mem, node) },
	{ PP_CPER_MEM_CARD, "card", "card", offsetof(struct pp_cper_mem, card) },
	{ PP_CPER_MEM_MODULE, "module", "module",
	  offsetof(struct pp_cper_mem, module) },
	{ PP_CPER_MEM_BANK, "bank", "bank", offsetof(struct pp_cper_mem, bank) },
	{ PP_CPER_MEM_DEVICE, "device", "device",
	  offsetof(struct pp_cper_mem, device) },
	{ PP_CPER_MEM_ROW, "row", "row", offsetof(struct pp_cper_mem, row) },
	{ PP_CPER_MEM_COLUMN, "column", "col",
	  offsetof(struct pp_cper_mem, column) },
	{ PP_CPER_MEM_BIT_POS, "bit_position", "bit_pos",
	  offsetof(struct pp_cper_mem, bit_pos) },
};

void cper_mem_location(const struct pp_cper_mem *m, bool edac, char *buf,
		       size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(cper_mem_where) / sizeof(cper_mem_where[0]); i++)
		if ((m->valid & cper_mem_where[i].bit) && n < len)
			n += snprintf(buf + n, len - n, edac ? " %s:%u" : " %s %u",
				      edac ? cper_mem_where[i].edac :
					     cper_mem_where[i].name,
				      *(const __u16 *)((const char *)m +
						       cper_mem_where[i].off));
}

/*
 * After a ras:non_standard_event line whose section is a memory error
 * (firmware's, from BERT or a GHES source), the fields of the section
 * that its raw data holds, as the kernel prints them for a memory error
 * (cper_print_mem()).
 */
static void print_cper_memory(struct pp_printer *p, FILE *out,
			      const struct pp_decoded *d)
{
	static const __u8 memory[] = PP_CPER_SEC_MEMORY;
	struct tep_record rec = {
		.data	= (void *)d->raw,
		.size	= d->raw_size,
	};
	struct tep_format_field *f;
	struct pp_cper_mem m;
	const char *name;
	const void *data;
	char loc[256];
	int len = 0;

	if (strcmp(p->event->system, "ras") ||
	    strcmp(p->event->name, "non_standard_event"))
		return;
	f = tep_find_field(p->event, "sec_type");
	if (!f || f->size != 16 || (unsigned int)f->offset + 16 > d->raw_size ||
	    !pp_cper_type_is((const __u8 *)d->raw + f->offset, memory))
		return;
	data = tep_get_field_raw(NULL, p->event, "buf", &rec, &len, 0);
	if (!data || len < 0 || pp_cper_mem_read(data, len, &m))
		return;
	fputs(" [memory error", out);
	if (m.valid & PP_CPER_MEM_PA)
		fprintf(out, " physical_address 0x%016llx",
			(unsigned long long)m.addr);
	cper_mem_location(&m, false, loc, sizeof(loc));
	fputs(loc, out);
	name = m.valid & PP_CPER_MEM_TYPE ? pp_cper_mem_type_name(m.type) :
					    NULL;
	if (name)
		fprintf(out, " error_type %u, %s", m.type, name);
	fputc(']', out);
}

void print_record(struct pp_printer *p, FILE *out, const struct pp_decoded *d)
{
	char pidbuf[32], wall[64];

	/* COMM records only name tasks, and perf script skips them too. */
	if (d->type == PERF_RECORD_COMM)
		return;
	fprintf(out, "%16s %6u [%03u] ",
		comm_of(p, d, pidbuf, sizeof(pidbuf)), d->tid, d->cpu);
	if (p->wall_clock) {
		format_wall_clock(p, d->time, false, wall, sizeof(wall));
		fprintf(out, "%s: ", wall);
	} else {
		fprintf(out, "%5llu.%06llu: ",
			(unsigned long long)(d->time / 1000000000ULL),
			(unsigned long long)(d->time % 1000000000ULL / 1000));
	}
	if (p->event && d->raw) {
		const char *origin = record_origin(d);
		struct trace_seq s;

		format_info(p, d, &s);
		fprintf(out, "%s: %s", p->name, s.buffer);
		print_cper_memory(p, out, d);
		if (origin)
			fprintf(out, " [%s]", origin);
		fputc('\n', out);
		trace_seq_destroy(&s);
		return;
	}
	fprintf(out, "%10llu %s: %16llx", (unsigned long long)d->period,
		p->name, (unsigned long long)d->ip);
	if (p->attr.sample_type & PERF_SAMPLE_ADDR)
		fprintf(out, " addr %llx", (unsigned long long)d->addr);
	fputc('\n', out);
}

static void json_string(FILE *out, const char *s, size_t max)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_field(struct pp_printer *p, FILE *out,
		       struct tep_format_field *f, const unsigned char *data,
		       unsigned int size)
{
	unsigned int off = f->offset, len = f->size, i, esize;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned int loc;

		if (off + 4 > size) {
			fputs("null", out);
			return;
		}
		loc = tep_read_number(p->tep, data + off, 4);
		len = loc >> 16;
		off = loc & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (off > size || len > size - off) {
		fputs("null", out);
		return;
	}
	if (f->flags & TEP_FIELD_IS_STRING) {
		json_string(out, (const char *)data + off, len);
		return;
	}
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		esize = f->elementsize ? f->elementsize : 1;
		if (esize != 1 && esize != 2 && esize != 4 && esize != 8)
			esize = 1;
		fputc('[', out);
		for (i = 0; i + esize <= len; i += esize)
			fprintf(out, "%s%llu", i ? "," : "",
				tep_read_number(p->tep, data + off + i, esize));
		fputc(']', out);
		return;
	}
	if (len != 1 && len != 2 && len != 4 && len != 8) {
		fputs("null", out);
		return;
	}
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		long long v = tep_read_number(p->tep, data + off, len);

		if (len < 8 && (v & (1LL << (len * 8 - 1))))
			v |= ~((1LL << (len * 8)) - 1);
		fprintf(out, "%lld", v);
	} else {
		fprintf(out, "%llu", tep_read_number(p->tep, data + off, len));
	}
}

void print_record_json(struct pp_printer *p, FILE *out,
		       const struct pp_decoded *d)
{
	unsigned long long st = p->attr.sample_type;
	const char *comm = task_name(p, d);

	if (d->type == PERF_RECORD_COMM)
		return;
	fprintf(out, "{\"event\":");
	json_string(out, p->name, sizeof(p->name));
	if (st & PERF_SAMPLE_TIME)
		fprintf(out, ",\"time\":%llu,\"timestamp\":\"%llu.%06llu\"",
			(unsigned long long)d->time,
			(unsigned long long)(d->time / 1000000000ULL),
			(unsigned long long)(d->time % 1000000000ULL / 1000));
	if ((st & PERF_SAMPLE_TIME) && p->clock.realtime_ns) {
		char wall[64];

		format_wall_clock(p, d->time, true, wall, sizeof(wall));
		fprintf(out, ",\"wallclock\":\"%s\"", wall);
	}
	if (st & PERF_SAMPLE_CPU)
		fprintf(out, ",\"cpu\":%u", d->cpu);
	if (st & PERF_SAMPLE_TID) {
		fprintf(out, ",\"pid\":%u,\"tid\":%u,\"comm\":", d->pid, d->tid);
		if (comm)
			json_string(out, comm, 64);
		else
			fputs("null", out);
	}
	if (st & PERF_SAMPLE_IP)
		fprintf(out, ",\"ip\":\"0x%llx\"", (unsigned long long)d->ip);
	if (st & PERF_SAMPLE_ADDR)
		fprintf(out, ",\"addr\":\"0x%llx\"", (unsigned long long)d->addr);
	if (st & PERF_SAMPLE_PERIOD)
		fprintf(out, ",\"period\":%llu", (unsigned long long)d->period);
	if (p->event && d->raw) {
		struct tep_format_field *f;
		struct trace_seq s;

		fputs(",\"fields\":{", out);
		for (f = p->event->format.fields; f; f = f->next) {
			json_string(out, f->name, 256);
			fputc(':', out);
			json_field(p, out, f, d->raw, d->raw_size);
			if (f->next)
				fputc(',', out);
		}
		fputc('}', out);
		format_info(p, d, &s);
		fputs(",\"text\":", out);
		json_string(out, s.buffer, s.len);
		trace_seq_destroy(&s);
		if (record_origin(d)) {
			fputs(",\"origin\":", out);
			json_string(out, record_origin(d), 64);
		}
	}
	fputs("}\n", out);
}
