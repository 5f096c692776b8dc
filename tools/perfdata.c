// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: export to perf.data.
 *
 * The file is what "perf record" writes for one event.  It holds the
 * header, the source event's attr with the persistent event's id, and a
 * data section: COMM records of the pids whose comm is known from /proc,
 * then the stored records, unchanged and oldest first.  Those are
 * PERF_RECORD_SAMPLEs of that attr and, for an event with comm, the COMM
 * records that name their tasks as they were; with sample_id_all, perf
 * orders them by time.  For a tracepoint, the HEADER_TRACING_DATA feature
 * carries the formats perf needs to decode the RAW payloads, in the layout
 * of perf's trace-event-info.c, version 0.6.  HOSTNAME, OSRELEASE and
 * CLOCK_DATA say where the records were made and the wall-clock time of
 * each (perf script -F +tod).  perf script and perf report then read the
 * file with perf's own code.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "perf-persistent.h"

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
/* perf's feature bits (tools/perf/util/header.h) this file may carry. */
#define HEADER_TRACING_DATA	1
#define HEADER_HOSTNAME		3
#define HEADER_OSRELEASE	4
#define HEADER_CLOCK_DATA	29
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

/* A growable byte buffer. */
struct blob {
	unsigned char	*p;
	size_t		len;
	size_t		cap;
	bool		failed;
};

static void put(struct blob *b, const void *data, size_t len)
{
	if (b->failed)
		return;
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2 + 4096;
		unsigned char *p = realloc(b->p, cap);

		if (!p) {
			b->failed = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void put_u8(struct blob *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put_u32(struct blob *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct blob *b, uint64_t v)
{
	put(b, &v, 8);
}

static void put_str(struct blob *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

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

/*
 * The tracing data of one tracepoint "sys:name": its format @fmt, or the
 * one tracefs has when @fmt is NULL.
 */
static int tracing_data(struct blob *b, const char *event, const char *fmt)
{
	static const unsigned char magic[] = { 23, 8, 68 };
	char sys[256], rel[600];
	const char *colon = strchr(event, ':');

	if (!colon || colon - event >= (long)sizeof(sys))
		return pp_error("%s: not a tracepoint name", event);
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - event), event);

	put(b, magic, sizeof(magic));
	put(b, "tracing", 7);
	put_str(b, "0.6");
	put_u8(b, 0);				/* little endian */
	put_u8(b, sizeof(long));
	put_u32(b, getpagesize());

	put_str(b, "header_page");
	if (put_tracefs_file(b, "header_page"))
		return -1;
	put_str(b, "header_event");
	if (put_tracefs_file(b, "header_event"))
		return -1;

	put_u32(b, 0);				/* no ftrace formats */
	put_u32(b, 1);				/* one system ... */
	put_str(b, sys);
	put_u32(b, 1);				/* ... with one event */
	snprintf(rel, sizeof(rel), "%s/%s/format", sys, colon + 1);
	if (fmt) {
		put_u64(b, strlen(fmt));
		put(b, fmt, strlen(fmt));
	} else if (put_tracefs_file(b, rel)) {
		return -1;
	}
	put_u32(b, 0);				/* no kallsyms */
	put_u32(b, 0);				/* no ftrace_printk formats */
	put_u64(b, 0);				/* no saved cmdlines */
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
 * A COMM record of @pid as it is now.  With @id_size it ends with zeroed
 * sample_id fields; time 0 puts it before every record, so the event's
 * own COMM records override it.
 */
static void comm_record(struct blob *b, int pid, const char *comm,
			size_t id_size)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_COMM };
	size_t len = strlen(comm) + 1, padded = (len + 7) & ~7UL, i;
	static const char zero[8];

	hdr.size = sizeof(hdr) + 8 + padded + id_size;
	put(b, &hdr, sizeof(hdr));
	put_u32(b, pid);
	put_u32(b, pid);
	put(b, comm, len);
	put(b, zero, padded - len);
	for (i = 0; i < id_size; i += 8)
		put(b, zero, 8);
}

/* Bytes of the sample_id fields of non-sample records of @attr. */
static size_t sample_id_size(const struct perf_event_attr *attr)
{
	static const unsigned long long id_fields[] = {
		PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
	};
	size_t i, size = 0;

	if (!attr->sample_id_all)
		return 0;
	for (i = 0; i < sizeof(id_fields) / sizeof(id_fields[0]); i++)
		if (attr->sample_type & id_fields[i])
			size += 8;
	return size;
}

/* What the file holds besides the records, as it is put together. */
struct perfdata {
	struct blob		comms;
	struct blob		feat[HEADER_CLOCK_DATA + 1];
	struct file_header	fh;
	struct file_attr	fa;
	uint64_t		ids;
};

/*
 * The features (tracing data, host, release, clock) and a COMM record for
 * every pid whose comm the printer learnt from /proc; the event's own COMM
 * records, if it has them, are among the records, in their place.  0, or
 * -1 with the reason on stderr.
 */
static int gather(struct perfdata *pd, const struct perf_event_attr *attr,
		  struct pp_printer *p)
{
	const struct pp_clock *clock = printer_clock(p);
	struct utsname uts;
	const char *comm;
	int pid;
	size_t i;

	if (attr->type == PERF_TYPE_TRACEPOINT &&
	    tracing_data(&pd->feat[HEADER_TRACING_DATA], printer_event_name(p),
			 printer_format(p)))
		return -1;
	/* Where and when, as perf record writes them. */
	if (!uname(&uts)) {
		put_feat_string(&pd->feat[HEADER_HOSTNAME], uts.nodename);
		put_feat_string(&pd->feat[HEADER_OSRELEASE], uts.release);
	}
	if (clock->realtime_ns)
		put_clock_data(&pd->feat[HEADER_CLOCK_DATA], clock);
	for (i = 0; (pid = printer_comm_at(p, i, &comm)) >= 0; i++)
		comm_record(&pd->comms, pid, comm, sample_id_size(attr));
	for (i = 0; i <= HEADER_CLOCK_DATA; i++)
		pd->comms.failed |= pd->feat[i].failed;
	if (pd->comms.failed)
		return pp_error("out of memory");
	return 0;
}

/*
 * Layout: header, ids, attrs, data, then one section per feature in the
 * order of their bits, then the features.  Returns where the first
 * feature starts.
 */
static size_t lay_out(struct perfdata *pd, const struct perf_event_attr *attr,
		      unsigned int id, const struct pp_snapshot *snap)
{
	uint64_t records = 0;
	size_t i, off;

	for (i = 0; i < snap->nr; i++)
		records += ((const struct perf_event_header *)snap->recs[i].data)->size;
	pd->ids = id;
	pd->fa.attr = *attr;
	pd->fa.attr.size = sizeof(pd->fa.attr);
	pd->fa.attr.disabled = 0;
	off = sizeof(pd->fh);
	pd->fa.ids.offset = off;
	pd->fa.ids.size = sizeof(pd->ids);
	off += sizeof(pd->ids);
	pd->fh.magic = PERF_MAGIC2;
	pd->fh.size = sizeof(pd->fh);
	pd->fh.attr_size = sizeof(pd->fa);
	pd->fh.attrs.offset = off;
	pd->fh.attrs.size = sizeof(pd->fa);
	off += sizeof(pd->fa);
	pd->fh.data.offset = off;
	pd->fh.data.size = pd->comms.len + records;
	off += pd->fh.data.size;
	for (i = 0; i <= HEADER_CLOCK_DATA; i++)
		if (pd->feat[i].len) {
			pd->fh.adds_features[i / 64] |= 1ULL << (i % 64);
			off += sizeof(struct file_section);
		}
	return off;
}

/* Write the file laid out, the first feature at @off; 0 or -1 (reported). */
static int write_out(const char *path, const struct perfdata *pd,
		     const struct pp_snapshot *snap, size_t off)
{
	size_t i;
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		return pp_error("cannot write '%s': %s", path, strerror(errno));
	fwrite(&pd->fh, sizeof(pd->fh), 1, f);
	fwrite(&pd->ids, sizeof(pd->ids), 1, f);
	fwrite(&pd->fa, sizeof(pd->fa), 1, f);
	fwrite(pd->comms.p, 1, pd->comms.len, f);
	/* The stored records are perf's records already: as they are. */
	for (i = 0; i < snap->nr; i++) {
		const struct perf_event_header *hdr = snap->recs[i].data;

		fwrite(hdr, 1, hdr->size, f);
	}
	for (i = 0; i <= HEADER_CLOCK_DATA; i++) {
		struct file_section sec = { .offset = off, .size = pd->feat[i].len };

		if (!pd->feat[i].len)
			continue;
		fwrite(&sec, sizeof(sec), 1, f);
		off += pd->feat[i].len;
	}
	for (i = 0; i <= HEADER_CLOCK_DATA; i++)
		if (pd->feat[i].len)
			fwrite(pd->feat[i].p, pd->feat[i].len, 1, f);
	if (ferror(f) | fclose(f)) {
		pp_error("cannot write '%s': %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

int perfdata_write(const char *path, const struct perf_event_attr *attr,
		   unsigned int id, const struct pp_snapshot *snap,
		   struct pp_printer *p)
{
	struct perfdata pd = { 0 };
	int ret;
	size_t i;

	ret = gather(&pd, attr, p);
	if (!ret)
		ret = write_out(path, &pd, snap, lay_out(&pd, attr, id, snap));
	free(pd.comms.p);
	for (i = 0; i <= HEADER_CLOCK_DATA; i++)
		free(pd.feat[i].p);
	return ret;
}
