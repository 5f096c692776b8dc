// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the records in a perf.data of persistent readers.
 *
 * "perf record -a -R -e persistent/NAME/" writes one sample per record
 * its readers received: the sample's own fields describe the delivery,
 * and its RAW payload is a struct perf_persistent_sample followed by the
 * stored record, or by a struct perf_persistent_lost (UAPI header).  This
 * takes the stored records out, by persistent event, in the order they
 * arrived, so that they can be exported as the records of their source.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-persistent.h"

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define HEADER_COMPRESSED	27

struct section {
	uint64_t	offset;
	uint64_t	size;
};

struct header {
	uint64_t	magic;
	uint64_t	size;
	uint64_t	attr_size;
	struct section	attrs;
	struct section	data;
	struct section	event_types;
	uint64_t	features[4];
};

/* One attr of the file, and the sample ids that are its. */
struct evsel {
	struct perf_event_attr	attr;
	const uint64_t		*ids;
	size_t			nr_ids;
	struct pp_reader_event	*ev;	/* a persistent reader's, or NULL */
};

struct reader_file {
	unsigned char		*buf;
	size_t			len;
	struct evsel		*evsels;
	size_t			nr_evsels;
};

static int file_error(const char *path, const char *what)
{
	return pp_error("%s: %s", path, what);
}

/* The whole file, malloc()ed. */
static int slurp(const char *path, struct reader_file *f)
{
	FILE *in = fopen(path, "r");
	long size;

	if (!in)
		return pp_error("cannot read '%s': %s", path, strerror(errno));
	if (fseek(in, 0, SEEK_END) || (size = ftell(in)) < 0 ||
	    fseek(in, 0, SEEK_SET)) {
		fclose(in);
		return pp_error("cannot read '%s': %s", path, strerror(errno));
	}
	f->buf = malloc(size ? size : 1);
	if (!f->buf || fread(f->buf, 1, size, in) != (size_t)size) {
		fclose(in);
		return pp_error("cannot read '%s': %s", path,
				f->buf ? strerror(errno) : "out of memory");
	}
	fclose(in);
	f->len = size;
	return 0;
}

/* A section of the file lies within it. */
static bool within(const struct reader_file *f, const struct section *s)
{
	return s->offset <= f->len && s->size <= f->len - s->offset;
}

/* The attrs and their ids; the persistent readers' get an event each. */
static int read_attrs(const char *path, struct reader_file *f,
		      unsigned int pmu_type, struct pp_reader_events *out)
{
	const struct header *h = (const void *)f->buf;
	size_t i, n, j;

	/* perf's oldest attr has 64 bytes, then the ids' section. */
	if (h->attr_size < 64 + sizeof(struct section) || h->attr_size > 4096 ||
	    h->attrs.size % h->attr_size)
		return file_error(path, "its attrs are not perf's");
	n = h->attrs.size / h->attr_size;
	f->evsels = calloc(n ? n : 1, sizeof(*f->evsels));
	out->ev = calloc(n ? n : 1, sizeof(*out->ev));
	if (!f->evsels || !out->ev)
		return pp_error("out of memory");
	for (i = 0; i < n; i++) {
		const unsigned char *a = f->buf + h->attrs.offset + i * h->attr_size;
		struct evsel *e = &f->evsels[i];
		struct section ids;
		size_t attr_bytes = h->attr_size - sizeof(ids);

		memcpy(&e->attr, a, attr_bytes < sizeof(e->attr) ? attr_bytes :
								    sizeof(e->attr));
		memcpy(&ids, a + attr_bytes, sizeof(ids));
		if (!within(f, &ids) || ids.size % 8)
			return file_error(path, "an attr's ids lie outside it");
		e->ids = (const uint64_t *)(f->buf + ids.offset);
		e->nr_ids = ids.size / 8;
		if (e->attr.type != pmu_type)
			continue;
		/* Two attrs of one event (-e persistent/a/ twice) share it. */
		for (j = 0; j < out->nr; j++)
			if (out->ev[j].id == (unsigned int)e->attr.config)
				break;
		if (j == out->nr)
			out->ev[out->nr++].id = (unsigned int)e->attr.config;
		e->ev = &out->ev[j];
	}
	f->nr_evsels = n;
	if (!out->nr)
		return pp_error("%s: no persistent reader in it (perf record -a -R -e persistent/NAME/ writes one)",
				path);
	return 0;
}

/* The attr a sample with id @id is of. */
static struct evsel *evsel_of(struct reader_file *f, uint64_t id)
{
	size_t i, j;

	if (f->nr_evsels == 1)
		return &f->evsels[0];
	for (i = 0; i < f->nr_evsels; i++)
		for (j = 0; j < f->evsels[i].nr_ids; j++)
			if (f->evsels[i].ids[j] == id)
				return &f->evsels[i];
	return NULL;
}

/* Append the stored record @rec of @size bytes to @ev's list. */
static int keep(struct pp_reader_event *ev, const void *rec, size_t size,
		uint64_t sample_type)
{
	const void **grown;

	if (ev->nr && ev->sample_type != sample_type)
		return -1;
	ev->sample_type = sample_type;
	if (ev->nr == ev->cap) {
		grown = realloc(ev->recs, (ev->cap * 2 + 256) * sizeof(*grown));
		if (!grown)
			return -1;
		ev->recs = grown;
		ev->cap = ev->cap * 2 + 256;
	}
	ev->recs[ev->nr++] = rec;
	ev->bytes += size;
	return 0;
}

/*
 * One sample of the file: when it is a persistent reader's, the stored
 * record (or loss) its payload carries.  0, or -1 if it is malformed.
 */
static int sample(struct reader_file *f, const struct perf_event_header *hdr)
{
	const uint64_t *p = (const uint64_t *)(hdr + 1);
	const uint64_t *end = (const uint64_t *)((const char *)hdr + hdr->size);
	uint64_t st = f->evsels[0].attr.sample_type, id = 0;
	const struct perf_persistent_sample *payload;
	const struct perf_event_header *rec;
	struct evsel *e = NULL;
	uint32_t raw_size;

	/* perf puts IDENTIFIER first when its attrs' layouts differ. */
	if (st & PERF_SAMPLE_IDENTIFIER) {
		if (p >= end)
			return -1;
		e = evsel_of(f, *p);
		if (!e)
			return 0;
		st = e->attr.sample_type;
	}
	if (st & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK |
		  PERF_SAMPLE_STREAM_ID))
		return e && !e->ev ? 0 : -2;
	p += pp_decode_weight(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
				    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				    PERF_SAMPLE_ADDR));
	if (st & PERF_SAMPLE_ID) {
		if (p >= end)
			return -1;
		id = *p++;
	}
	p += pp_decode_weight(st & (PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD));
	if (!e)
		e = evsel_of(f, id);
	if (!e || !e->ev)
		return 0;
	if (!(st & PERF_SAMPLE_RAW))
		return -3;
	if (p >= end)
		return -1;
	raw_size = *(const uint32_t *)p;
	payload = (const void *)((const char *)p + 4);
	if ((const char *)payload + raw_size > (const char *)end ||
	    raw_size < sizeof(*payload) + sizeof(*rec))
		return -1;
	rec = (const void *)(payload + 1);
	if (rec->size < sizeof(*rec) || rec->size % 8 ||
	    rec->size > raw_size - sizeof(*payload))
		return -1;
	if (rec->type == PERF_RECORD_LOST) {
		const struct perf_persistent_lost *l = (const void *)rec;

		if (rec->size < sizeof(*l))
			return -1;
		e->ev->lost_bytes += l->lost;
		e->ev->losses++;
		return 0;
	}
	return keep(e->ev, rec, rec->size, payload->sample_type) ? -4 : 0;
}

int readerdata_read(const char *path, unsigned int pmu_type,
		    struct pp_reader_events *out)
{
	struct reader_file f = { 0 };
	const struct header *h;
	uint64_t off;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (slurp(path, &f))
		goto out;
	h = (const void *)f.buf;
	if (f.len < sizeof(*h) || h->magic != PERF_MAGIC2 || h->size < sizeof(*h)) {
		file_error(path, "not a perf.data file (perf record -o FILE, not a pipe)");
		goto out;
	}
	if (h->features[HEADER_COMPRESSED / 64] & 1ULL << (HEADER_COMPRESSED % 64)) {
		file_error(path, "compressed (perf record -z): record without -z");
		goto out;
	}
	if (!within(&f, &h->attrs) || !within(&f, &h->data)) {
		file_error(path, "its sections lie outside it");
		goto out;
	}
	if (read_attrs(path, &f, pmu_type, out))
		goto out;
	for (off = h->data.offset; off < h->data.offset + h->data.size;) {
		const struct perf_event_header *hdr = (const void *)(f.buf + off);
		int err = 0;

		if (h->data.offset + h->data.size - off < sizeof(*hdr) ||
		    hdr->size < sizeof(*hdr) ||
		    hdr->size > h->data.offset + h->data.size - off) {
			file_error(path, "a record runs past its data section");
			goto out;
		}
		if (hdr->type == PERF_RECORD_SAMPLE)
			err = sample(&f, hdr);
		if (err == -2) {
			file_error(path, "its readers' samples have call chains, branch stacks or read values: record with -R only");
			goto out;
		}
		if (err == -3) {
			file_error(path, "its readers' samples have no RAW payload: record with -R");
			goto out;
		}
		if (err == -4) {
			pp_error("%s: out of memory, or readers of one event with records of different fields",
				 path);
			goto out;
		}
		if (err) {
			file_error(path, "a reader's sample is malformed");
			goto out;
		}
		off += hdr->size;
	}
	out->buf = f.buf;
	f.buf = NULL;
	ret = 0;
out:
	free(f.buf);
	free(f.evsels);
	if (ret)
		readerdata_free(out);
	return ret;
}

int readerdata_snapshot(const struct pp_reader_event *ev, __u64 regs_user,
			struct pp_snapshot *snap)
{
	unsigned char *img = malloc(ev->bytes ? ev->bytes : 1), *p;
	long bad;
	size_t i;

	memset(snap, 0, sizeof(*snap));
	if (!img)
		return pp_error("out of memory");
	/* The records' REGS_USER fields are as long as the source's mask says. */
	snap->regs_user = regs_user;
	/* A buffer's image holds the newest record first. */
	for (p = img, i = ev->nr; i-- > 0;) {
		const struct perf_event_header *hdr = ev->recs[i];

		memcpy(p, hdr, hdr->size);
		p += hdr->size;
	}
	snap->sample_type = ev->sample_type;
	bad = snapshot_add(snap, img, ev->bytes);
	if (bad < 0) {
		snapshot_free(snap);
		return pp_error("out of memory");
	}
	if (bad)
		pp_error("event %u: a stored record is malformed: it and the older ones (%ld bytes) are not shown",
			 ev->id, bad);
	snapshot_sort(snap);
	if (snapshot_name_tasks(snap, false)) {
		snapshot_free(snap);
		return pp_error("out of memory");
	}
	return 0;
}

void readerdata_free(struct pp_reader_events *r)
{
	size_t i;

	for (i = 0; r->ev && i < r->nr; i++)
		free(r->ev[i].recs);
	free(r->ev);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
