// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: reading a crash dump back from a kernel log (a
 * dmesg, a pstore file, a serial console capture), with whatever else the
 * log holds between its lines.  The line format is in
 * include/perf_persistent/dump.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perf-persistent.h"

uint32_t pp_crc32(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t crc = ~0U;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320U & -(crc & 1));
	}
	return ~crc;
}

static int b64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/*
 * Decode base64 @s, up to its first space or its end, into @out.  Returns
 * the number of bytes, or -1 if @s is bad or @max is too small.
 */
static int b64_decode(const char *s, unsigned char *out, size_t max)
{
	size_t n = 0, i, len = strcspn(s, " \t\r\n");
	int v[4], k;

	if (len % 4)
		return -1;
	for (i = 0; i < len; i += 4) {
		for (k = 0; k < 4; k++)
			v[k] = s[i + k] == '=' && i + 4 == len && k >= 2 ? 0 :
			       b64_value((unsigned char)s[i + k]);
		if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0 ||
		    (s[i + 2] == '=' && s[i + 3] != '='))
			return -1;
		if (n + 3 > max)
			return -1;
		out[n++] = v[0] << 2 | v[1] >> 4;
		if (s[i + 2] != '=')
			out[n++] = (v[1] & 15) << 4 | v[2] >> 2;
		if (s[i + 3] != '=')
			out[n++] = (v[2] & 3) << 6 | v[3];
	}
	return (int)n;
}

/*
 * Append @len bytes that belong at @offset.  If they do not follow on, a
 * line was lost, and the stream keeps nothing from the gap on.
 */
static int stream_put(struct pp_dump_stream *st, unsigned long offset,
		      const unsigned char *data, size_t len)
{
	unsigned char *grown;

	if (st->gap)
		return 0;
	if (offset != st->len) {
		st->gap = true;
		return 0;
	}
	if (st->len + len > st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 4096;

		while (cap < st->len + len)
			cap *= 2;
		grown = realloc(st->data, cap);
		if (!grown)
			return -1;
		st->data = grown;
		st->cap = cap;
	}
	memcpy(st->data + st->len, data, len);
	st->len += len;
	return 0;
}

static struct pp_dump_event *find_event(struct pp_dump *d, unsigned int id)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (d->events[i].id == id)
			return &d->events[i];
	return NULL;
}

/*
 * A task's records on a CPU follow its COMM record there under the same
 * name, so each CPU's COMM records name that CPU's records; another CPU's
 * may predate a rename.  A task with no COMM record among its CPU's
 * records in the dump is named by that CPU's T line: the newest COMM
 * record the CPU gave it, older than all of them.  When the CPU's records
 * hold one, the T line's record is that one or newer, and the task's
 * records before the first one stay unnamed: the name that held for them
 * is lost.  So a record is named rightly or not at all (":TID").
 */
int dump_name_tasks(const struct pp_dump_event *ev, struct pp_snapshot *snap)
{
	bool *held;
	size_t i, t;

	if (snapshot_name_tasks(snap, true))
		return -1;
	held = calloc(ev->nr_tasks + 1, sizeof(*held));
	if (!held)
		return -1;
	for (i = 0; i < snap->nr; i++) {
		const struct pp_decoded *d = &snap->recs[i].d;

		if (d->type != PERF_RECORD_COMM)
			continue;
		for (t = 0; t < ev->nr_tasks; t++)
			held[t] |= ev->tasks[t].cpu == (int)d->cpu &&
				   ev->tasks[t].tid == (int)d->tid;
	}
	for (i = 0; i < snap->nr; i++) {
		struct pp_decoded *d = &snap->recs[i].d;

		for (t = 0; !d->comm && t < ev->nr_tasks; t++)
			if (!held[t] && ev->tasks[t].cpu == (int)d->cpu &&
			    ev->tasks[t].tid == (int)d->tid)
				d->comm = ev->tasks[t].comm;
	}
	free(held);
	return 0;
}

void dump_free(struct pp_dump *d)
{
	size_t i;
	unsigned int c;

	for (i = 0; i < d->nr; i++) {
		free(d->events[i].format.data);
		for (c = 0; c < d->events[i].nr_cpus; c++)
			free(d->events[i].cpus[c].data);
		free(d->events[i].cpus);
		free(d->events[i].tasks);
	}
	free(d->events);
	memset(d, 0, sizeof(*d));
}

static int add_event(struct pp_dump *d, const char *args)
{
	struct pp_dump_event *ev, *grown;
	unsigned long long sample_type, config;
	unsigned int id, type;

	grown = realloc(d->events, (d->nr + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	d->events = grown;
	ev = &d->events[d->nr];
	memset(ev, 0, sizeof(*ev));
	if (sscanf(args, "%u %llx %u %llx %127s %31s", &id, &sample_type, &type,
		   &config, ev->source, ev->name) != 6) {
		d->bad_lines++;
		return 0;
	}
	ev->id = id;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = type;
	ev->attr.config = config;
	ev->attr.sample_type = sample_type;
	d->nr++;
	return 0;
}

/*
 * The stream of @ev's records on @cpu, made when first needed.  NULL when
 * out of memory or for a CPU number of 8192 or more.
 */
static struct pp_dump_stream *cpu_stream(struct pp_dump_event *ev,
					 unsigned int cpu)
{
	struct pp_dump_stream *grown;

	if (cpu >= 8192)
		return NULL;
	if (cpu >= ev->nr_cpus) {
		grown = realloc(ev->cpus, (cpu + 1) * sizeof(*grown));
		if (!grown)
			return NULL;
		memset(grown + ev->nr_cpus, 0,
		       (cpu + 1 - ev->nr_cpus) * sizeof(*grown));
		ev->cpus = grown;
		ev->nr_cpus = cpu + 1;
	}
	return &ev->cpus[cpu];
}

/*
 * Add the data of an F or R line to the stream it belongs to, or count a
 * bad line.  Returns -1 when out of memory.
 */
static int add_data(struct pp_dump *d, char kind, const char *args)
{
	unsigned char data[PP_DUMP_CHUNK_MAX];
	unsigned int id, cpu = 0, crc;
	unsigned long offset;
	struct pp_dump_event *ev;
	struct pp_dump_stream *st;
	int n, used = 0, len;

	if (kind == 'F')
		n = sscanf(args, "%u %lu %x %n", &id, &offset, &crc, &used) == 3;
	else
		n = sscanf(args, "%u %u %lu %x %n", &id, &cpu, &offset, &crc,
			   &used) == 4;
	ev = n ? find_event(d, id) : NULL;
	len = ev ? b64_decode(args + used, data, sizeof(data)) : -1;
	if (len < 0 || pp_crc32(data, len) != crc) {
		d->bad_lines++;
		return 0;
	}
	st = kind == 'F' ? &ev->format : cpu_stream(ev, cpu);
	if (!st)
		return -1;
	return stream_put(st, offset, data, len);
}

/*
 * Add a T line, which gives a task's name as the CPU's COMM records last
 * gave it.
 */
static int add_task(struct pp_dump *d, const char *args)
{
	struct pp_dump_task *grown;
	struct pp_dump_event *ev;
	unsigned int id, cpu, pid, tid;
	unsigned char comm[24];
	int used = 0, len;

	if (sscanf(args, "%u %u %u %u %n", &id, &cpu, &pid, &tid, &used) != 4 ||
	    !(ev = find_event(d, id)) ||
	    (len = b64_decode(args + used, comm, sizeof(comm))) <= 0 || len > 16) {
		d->bad_lines++;
		return 0;
	}
	grown = realloc(ev->tasks, (ev->nr_tasks + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	ev->tasks = grown;
	grown[ev->nr_tasks].cpu = cpu;
	grown[ev->nr_tasks].tid = tid;
	memcpy(grown[ev->nr_tasks].comm, comm, len);
	grown[ev->nr_tasks].comm[len] = '\0';
	ev->nr_tasks++;
	return 0;
}

static int add_line(struct pp_dump *d, const char *line)
{
	const char *s = strstr(line, "ppdump ");
	unsigned long seq;
	unsigned int cpu, id;
	char kind, *end;
	struct pp_dump_event *ev;
	struct pp_dump_stream *st;

	if (!s)
		return 0;
	s += strlen("ppdump ");
	seq = strtoul(s, &end, 10);
	if (end == s || end[0] != ' ' || !isupper((unsigned char)end[1]) ||
	    end[2] != ' ')
		return 0;
	kind = end[1];
	s = end + 3;
	if (kind == 'B' && seq == 0) {
		/* A later dump replaces an earlier one. */
		dump_free(d);
		d->started = true;
		if (sscanf(s, "%u %31s", &d->version, d->reason) != 2)
			d->bad_lines++;
		d->next_seq = 1;
		return 0;
	}
	if (!d->started)
		return 0;
	if (seq > d->next_seq)
		d->lost_lines += seq - d->next_seq;
	if (seq >= d->next_seq)
		d->next_seq = seq + 1;
	switch (kind) {
	case 'E':
		return add_event(d, s);
	case 'F':
	case 'R':
		return add_data(d, kind, s);
	case 'T':
		return add_task(d, s);
	case 'X':
		if (sscanf(s, "%u %u", &id, &cpu) == 2 &&
		    (ev = find_event(d, id)) && (st = cpu_stream(ev, cpu)))
			st->skipped = true;
		return 0;
	case 'Z':
		d->complete = true;
		return 0;
	}
	d->bad_lines++;
	return 0;
}

int dump_read(FILE *f, struct pp_dump *d)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	while (!ret && getline(&line, &cap, f) >= 0)
		ret = add_line(d, line);
	free(line);
	if (ret) {
		dump_free(d);
		return pp_error("out of memory");
	}
	if (!d->started)
		return pp_error("no perf-persistent crash dump in this log");
	if (d->version != 1) {
		pp_error("crash dump format version %u: this tool reads version 1",
			 d->version);
		dump_free(d);
		return -1;
	}
	return 0;
}

int dump_print_event(const struct pp_dump_event *ev, FILE *out, bool newest,
		     bool json)
{
	struct pp_snapshot snap = { .sample_type = ev->attr.sample_type,
				    .live = true };
	struct pp_printer *p;
	unsigned int cpu;
	char *fmt;

	if (ev->attr.type == PERF_TYPE_TRACEPOINT && ev->format.len &&
	    !ev->format.gap) {
		fmt = strndup((const char *)ev->format.data, ev->format.len);
		p = fmt ? printer_new_format(&ev->attr, ev->source, fmt) : NULL;
		free(fmt);
	} else {
		if (ev->attr.type == PERF_TYPE_TRACEPOINT)
			pp_error("%s: the dump lacks its format: decoding with this system's tracefs",
				 ev->name);
		p = printer_new(&ev->attr);
	}
	if (!p)
		return -1;
	for (cpu = 0; cpu < ev->nr_cpus; cpu++) {
		const struct pp_dump_stream *st = &ev->cpus[cpu];
		void *img;
		long bad;

		if (st->skipped)
			pp_error("%s: CPU %u was mid-record when the kernel crashed: not in the dump",
				 ev->name, cpu);
		if (st->gap)
			pp_error("%s: CPU %u: lines of the dump are missing or damaged: its older records are lost",
				 ev->name, cpu);
		if (!st->len)
			continue;
		img = malloc(st->len);
		if (!img) {
			snapshot_free(&snap);
			printer_free(p);
			return pp_error("out of memory");
		}
		memcpy(img, st->data, st->len);
		bad = snapshot_add(&snap, img, st->len);
		if (bad < 0) {
			snapshot_free(&snap);
			printer_free(p);
			return pp_error("out of memory");
		}
		if (bad)
			pp_error("%s: CPU %u: a damaged record: it and the older ones are lost",
				 ev->name, cpu);
	}
	snapshot_sort(&snap);
	if (dump_name_tasks(ev, &snap)) {
		snapshot_free(&snap);
		printer_free(p);
		return pp_error("out of memory");
	}
	print_records(p, out, &snap, newest, json);
	snapshot_free(&snap);
	printer_free(p);
	return 0;
}
