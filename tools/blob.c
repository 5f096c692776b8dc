// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the bytes of a perf.data: a growing buffer and its
 * writers (struct blob, put_*()), and the sample_id fields that end a
 * non-sample record.  perfdata.c writes the file with them, and maps.c the
 * records of a profile's mappings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perf-persistent.h"
#include "export.h"

void put(struct blob *b, const void *data, size_t len)
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

void put_u8(struct blob *b, uint8_t v)
{
	put(b, &v, 1);
}

void put_u32(struct blob *b, uint32_t v)
{
	put(b, &v, 4);
}

void put_u64(struct blob *b, uint64_t v)
{
	put(b, &v, 8);
}

void put_str(struct blob *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

size_t sample_id_size(uint64_t sample_type)
{
	static const unsigned long long id_fields[] = {
		PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
	};
	size_t i, size = 0;

	for (i = 0; i < sizeof(id_fields) / sizeof(id_fields[0]); i++)
		if (sample_type & id_fields[i])
			size += 8;
	return size;
}

/*
 * The sample_id fields that end a non-sample record of an event of
 * @sample_type, in perf's order: a record of @pid/@tid at @time on @cpu,
 * of the event of @id.
 */
void put_sample_id(struct blob *b, uint64_t sample_type, uint32_t pid,
		   uint32_t tid, uint64_t time, uint64_t id, uint32_t cpu)
{
	if (sample_type & PERF_SAMPLE_TID) {
		put_u32(b, pid);
		put_u32(b, tid);
	}
	if (sample_type & PERF_SAMPLE_TIME)
		put_u64(b, time);
	if (sample_type & PERF_SAMPLE_ID)
		put_u64(b, id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		put_u64(b, id);
	if (sample_type & PERF_SAMPLE_CPU) {
		put_u32(b, cpu);
		put_u32(b, 0);
	}
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		put_u64(b, id);
}
