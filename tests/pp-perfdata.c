// SPDX-License-Identifier: GPL-2.0
/*
 * pp-perfdata - list the persistent-event records in a perf.data file
 *
 * For every PERF_RECORD_SAMPLE of a persistent reader (an attr of the
 * persistent PMU's type) prints one line with the delivery (the sample's
 * own TIME/CPU) and the original record carried in the RAW payload:
 *
 *   sample cpu=C time=T orig_time=T0 orig_cpu=C0 orig_pid=P orig_tid=P
 *          orig_ip=0x.. id=N raw_u64_I=0x..
 *
 * raw_u64_I is the u64 at index I (default 3) of the stored RAW payload:
 * at 3 mce_record's status, at 4 mc_event's address, at 1 arm_event's
 * MPIDR.
 * A loss a reader was told of (struct perf_persistent_lost) prints
 *
 *   lost cpu=C time=T id=N bytes=B
 *
 * Then "lost=N" (perf's PERF_RECORD_LOST totals), "lost_bytes=B" (the
 * readers' losses) and "samples=N" (loss notices included).
 *
 * pp-perfdata FILE PMU_TYPE [I]
 */
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_persistent/decode.h"

struct section {
	__u64 offset, size;
};

struct file_header {
	__u64 magic, size, attr_size;
	struct section attrs, data, event_types;
};

struct evsel {
	struct perf_event_attr attr;
	__u64 *ids;
	__u64 nr_ids;
};

static unsigned char *file;
static size_t file_len;
static struct evsel evsels[64];
static unsigned int nr_evsels;
static unsigned long long lost_bytes;
static unsigned int raw_index = 3;

static struct evsel *find(__u64 id)
{
	unsigned int i, j;

	if (nr_evsels == 1)
		return &evsels[0];
	for (i = 0; i < nr_evsels; i++)
		for (j = 0; j < evsels[i].nr_ids; j++)
			if (evsels[i].ids[j] == id)
				return &evsels[i];
	return NULL;
}

static void sample(const struct perf_event_header *h, unsigned int pmu_type)
{
	/*
	 * perf record -a gives every evsel the same sample_type, or puts
	 * PERF_SAMPLE_IDENTIFIER first when they differ (a dummy event added
	 * for --control, say): then the sample's own evsel says.
	 */
	__u64 st = evsels[0].attr.sample_type, time = 0, id = 0;
	const __u64 *p = (const __u64 *)(h + 1);
	const struct perf_persistent_sample *payload;
	__u32 cpu = 0, raw_size;
	struct pp_decoded d;
	struct evsel *ev;

	if (st & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STREAM_ID)) {
		printf("unsupported sample_type 0x%llx\n", (unsigned long long)st);
		exit(1);
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		id = *p++;
		ev = find(id);
		if (!ev)
			return;
		st = ev->attr.sample_type;
	}
	if (st & PERF_SAMPLE_IP)
		p++;
	if (st & PERF_SAMPLE_TID)
		p++;
	if (st & PERF_SAMPLE_TIME)
		time = *p++;
	if (st & PERF_SAMPLE_ADDR)
		p++;
	if (st & PERF_SAMPLE_ID)
		id = *p++;
	if (st & PERF_SAMPLE_CPU)
		cpu = *(const __u32 *)p++;
	if (st & PERF_SAMPLE_PERIOD)
		p++;
	ev = find(id);
	if (!ev || ev->attr.type != pmu_type)
		return;
	if (!(st & PERF_SAMPLE_RAW)) {
		printf("sample cpu=%u time=%llu (no RAW)\n", cpu,
		       (unsigned long long)time);
		return;
	}
	raw_size = *(const __u32 *)p;
	payload = (const void *)((const char *)p + 4);
	if (raw_size >= sizeof(*payload) + sizeof(struct perf_persistent_lost) &&
	    ((const struct perf_event_header *)(payload + 1))->type == PERF_RECORD_LOST) {
		const struct perf_persistent_lost *l = (const void *)(payload + 1);

		printf("lost cpu=%u time=%llu id=%llu bytes=%llu\n", cpu,
		       (unsigned long long)time, (unsigned long long)l->id,
		       (unsigned long long)l->lost);
		lost_bytes += l->lost;
		return;
	}
	if (raw_size < sizeof(*payload) + 8 ||
	    pp_decode(payload + 1, raw_size - sizeof(*payload),
		      payload->sample_type, &d)) {
		printf("sample cpu=%u time=%llu malformed payload\n", cpu,
		       (unsigned long long)time);
		return;
	}
	printf("sample cpu=%u time=%llu orig_time=%llu orig_cpu=%u orig_pid=%u orig_tid=%u orig_ip=0x%llx id=%llu",
	       cpu, (unsigned long long)time, (unsigned long long)d.time,
	       d.cpu, d.pid, d.tid, (unsigned long long)d.ip,
	       (unsigned long long)d.id);
	if (d.raw && d.raw_size >= 8 * (raw_index + 1))
		printf(" raw_u64_%u=0x%llx", raw_index,
		       ((const unsigned long long *)d.raw)[raw_index]);
	printf("\n");
}

int main(int argc, char **argv)
{
	const struct file_header *fh;
	unsigned long long lost = 0, samples = 0, off, end;
	unsigned int pmu_type, i;
	FILE *f;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: pp-perfdata FILE PMU_TYPE [RAW_U64_INDEX]\n");
		return 2;
	}
	pmu_type = strtoul(argv[2], NULL, 0);
	if (argc == 4)
		raw_index = strtoul(argv[3], NULL, 0);
	f = fopen(argv[1], "r");
	if (!f)
		return perror(argv[1]), 1;
	fseek(f, 0, SEEK_END);
	file_len = ftell(f);
	rewind(f);
	file = malloc(file_len);
	if (!file || fread(file, 1, file_len, f) != file_len)
		return perror("read"), 1;
	fh = (const void *)file;
	if (memcmp(&fh->magic, "PERFILE2", 8)) {
		fprintf(stderr, "pp-perfdata: not a perf.data file\n");
		return 1;
	}

	for (off = fh->attrs.offset; off < fh->attrs.offset + fh->attrs.size &&
	     nr_evsels < 64; off += fh->attr_size) {
		const struct section *ids = (const void *)(file + off + fh->attr_size - sizeof(*ids));
		struct evsel *e = &evsels[nr_evsels++];

		memset(&e->attr, 0, sizeof(e->attr));
		memcpy(&e->attr, file + off,
		       fh->attr_size - sizeof(*ids) < sizeof(e->attr) ?
		       fh->attr_size - sizeof(*ids) : sizeof(e->attr));
		e->ids = (__u64 *)(file + ids->offset);
		e->nr_ids = ids->size / sizeof(__u64);
	}

	end = fh->data.offset + fh->data.size;
	for (off = fh->data.offset; off + 8 <= end; ) {
		const struct perf_event_header *h = (const void *)(file + off);

		if (h->size < 8)
			break;
		if (h->type == PERF_RECORD_SAMPLE) {
			samples++;
			sample(h, pmu_type);
		} else if (h->type == PERF_RECORD_LOST) {
			lost += ((const __u64 *)(h + 1))[1];
		} else if (h->type == PERF_RECORD_LOST_SAMPLES) {
			lost += ((const __u64 *)(h + 1))[0];
		}
		off += h->size;
	}
	(void)i;
	printf("lost=%llu\nlost_bytes=%llu\nsamples=%llu\n", lost, lost_bytes,
	       samples);
	return 0;
}
