// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: reading the buffers through the read-only mmap.
 *
 * Each CPU's buffer is written backward.  The newest record is at
 * data_head, and the oldest one held ends at the page extension's tail.
 * The event is paused around the copy, so that the heads stand still and
 * every buffer is read as of the same moment.  Then the records are
 * ordered by time across CPUs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf-persistent.h"

void snapshot_free(struct pp_snapshot *snap)
{
	size_t i;

	for (i = 0; i < snap->nr_images; i++)
		free(snap->images[i]);
	free(snap->images);
	free(snap->recs);
	memset(snap, 0, sizeof(*snap));
}

long snapshot_add(struct pp_snapshot *snap, const void *image, size_t len)
{
	const unsigned char *p = image;
	size_t off, first = snap->nr, i;
	void **images;

	images = realloc(snap->images, (snap->nr_images + 1) * sizeof(*images));
	if (!images)
		return -1;
	snap->images = images;
	snap->images[snap->nr_images++] = (void *)image;

	for (off = 0; off < len;) {
		const struct perf_event_header *hdr = (const void *)(p + off);
		struct pp_record *r;

		/*
		 * A live copy ends where the intact bytes end: its oldest
		 * record, cut there, is left out without a word.
		 */
		if (snap->live && (len - off < sizeof(*hdr) ||
				   hdr->size > len - off)) {
			off = len;
			break;
		}
		if (snap->nr == snap->cap) {
			size_t cap = snap->cap ? snap->cap * 2 : 256;
			struct pp_record *recs = realloc(snap->recs,
							 cap * sizeof(*recs));

			if (!recs)
				return -1;
			snap->recs = recs;
			snap->cap = cap;
		}
		r = &snap->recs[snap->nr];
		r->data = (void *)hdr;
		/*
		 * A malformed record says nothing sure of where the older
		 * ones start: the run of this image ends here.
		 */
		if (len - off < sizeof(*hdr) ||
		    pp_decode_regs(hdr, len - off, snap->sample_type,
				   snap->regs_user, &r->d))
			break;
		snap->nr++;
		off += hdr->size;
	}
	/* The buffer holds the newest record first: reverse this CPU's run. */
	for (i = 0; i < (snap->nr - first) / 2; i++) {
		struct pp_record tmp = snap->recs[first + i];

		snap->recs[first + i] = snap->recs[snap->nr - 1 - i];
		snap->recs[snap->nr - 1 - i] = tmp;
	}
	for (i = first; i < snap->nr; i++)
		snap->recs[i].seq = i;
	return len - off;
}

static int by_time(const void *a, const void *b)
{
	const struct pp_record *x = a, *y = b;

	if (x->d.time != y->d.time)
		return x->d.time < y->d.time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void snapshot_sort(struct pp_snapshot *snap)
{
	if (snap->sample_type & PERF_SAMPLE_TIME)
		qsort(snap->recs, snap->nr, sizeof(*snap->recs), by_time);
}

/*
 * Each task's newest COMM record so far, in a hash table with open
 * addressing that is sized never to fill up.  A task is its tid, or its
 * tid and CPU when @by_cpu.
 */
struct comm_map {
	struct {
		unsigned long long	key;
		const char		*comm;
	} *slot;
	size_t mask;
	bool by_cpu;
};

/*
 * Find the slot of @d's task.  Every CPU's idle task has tid 0, so idle
 * tasks are told apart by their CPU.
 */
static const char **comm_map_at(struct comm_map *m, const struct pp_decoded *d)
{
	unsigned long long key = d->tid;
	size_t i;

	if (m->by_cpu || !d->tid)
		key |= (unsigned long long)(d->cpu + 1) << 32;
	i = ((key ^ key >> 29) * 2654435761U) & m->mask;
	while (m->slot[i].comm && m->slot[i].key != key)
		i = (i + 1) & m->mask;
	m->slot[i].key = key;
	return &m->slot[i].comm;
}

int snapshot_name_tasks(struct pp_snapshot *snap, bool by_cpu)
{
	struct comm_map m = { .by_cpu = by_cpu };
	size_t i, n = 0, cap = 16;

	for (i = 0; i < snap->nr; i++)
		n += snap->recs[i].d.type == PERF_RECORD_COMM;
	if (!n)
		return 0;
	while (cap < 2 * n)
		cap *= 2;
	m.slot = calloc(cap, sizeof(*m.slot));
	if (!m.slot)
		return -1;
	m.mask = cap - 1;
	for (i = 0; i < snap->nr; i++) {
		struct pp_decoded *d = &snap->recs[i].d;
		const char **comm = comm_map_at(&m, d);

		if (d->type == PERF_RECORD_COMM)
			*comm = d->comm;
		else
			d->comm = *comm;
	}
	free(m.slot);
	return 0;
}

void *snapshot_image(const unsigned char *map, size_t *len, bool live)
{
	const struct perf_event_mmap_page *pg = (const void *)map;
	const struct perf_persistent_page_ext *ext =
		(const void *)(map + PERF_PERSISTENT_PAGE_EXT_OFFSET);
	unsigned long long head, tail, size = pg->data_size, off, n, first;
	unsigned char *image;

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = __atomic_load_n(&ext->tail, __ATOMIC_RELAXED);
	n = tail - head;
	if (n > size)
		n = 0;
	image = malloc(n ? n : 1);
	if (!image)
		return NULL;
	off = head & (size - 1);
	first = n < size - off ? n : size - off;
	memcpy(image, map + pg->data_offset + off, first);
	memcpy(image + first, map + pg->data_offset, n - first);
	if (live) {
		unsigned long long rh, intact;

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		rh = __atomic_load_n(&ext->reserve_head, __ATOMIC_RELAXED);
		/* [pos, pos + len) is intact if pos + len - rh <= size. */
		intact = rh + size - head;
		if (intact < n)
			n = (long long)intact > 0 ? intact : 0;
	}
	*len = n;
	return image;
}

int snapshot_take(int fd, const struct pp_event_desc *desc,
		  struct pp_snapshot *snap)
{
	const char *name = desc->info.name;
	unsigned int id = desc->info.id, i;
	long page = sysconf(_SC_PAGESIZE);
	size_t maplen = page + desc->info.buffer_size;
	bool paused = false;

	memset(snap, 0, sizeof(*snap));
	snap->sample_type = desc->attr.sample_type;
	snap->regs_user = desc->attr.sample_regs_user;
	if (!(desc->info.state & PERF_PERSISTENT_STATE_PAUSED)) {
		/*
		 * A user who may read but not pause the event (an operator
		 * group without CAP_PERFMON) reads the buffers as they record.
		 */
		if (!ctl_ioctl(fd, PERF_PERSISTENT_IOC_PAUSE, id))
			paused = true;
		else if (errno == EPERM)
			snap->live = true;
		else
			goto gone;
	}
	for (i = 0; i < desc->nr_cpus; i++) {
		unsigned int cpu = desc->cpus[i].cpu;
		unsigned char *map;
		void *image;
		size_t len;
		long bad;

		map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd,
			   PERF_PERSISTENT_MMAP_OFFSET(id, cpu, getpagesize()));
		if (map == MAP_FAILED)
			goto gone;
		if (snap->live && ((const struct perf_persistent_page_ext *)
				   (map + PERF_PERSISTENT_PAGE_EXT_OFFSET))->size <
				  PERF_PERSISTENT_PAGE_EXT_SIZE_VER1) {
			munmap(map, maplen);
			pp_error("%s: cannot pause it (%s) and this module cannot be read while it records",
				 name, strerror(EPERM));
			goto out;
		}
		image = snapshot_image(map, &len, snap->live);
		munmap(map, maplen);
		if (!image) {
			pp_error("out of memory");
			goto out;
		}
		bad = snapshot_add(snap, image, len);
		if (bad < 0) {
			pp_error("out of memory");
			goto out;
		}
		if (bad)
			pp_error("%s: CPU %u: a malformed record: it and the older records (%ld bytes) are not shown",
				 name, cpu, bad);
	}
	if (paused) {
		paused = false;
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_RESUME, id))
			goto gone;
	}
	snapshot_sort(snap);
	if (snapshot_name_tasks(snap, false)) {
		pp_error("out of memory");
		goto out;
	}
	return 0;
gone:
	if (errno == ENOENT)
		pp_error("%s: the event was destroyed while being read", name);
	else
		pp_error("%s: reading the buffers: %s", name, strerror(errno));
out:
	if (paused)
		ctl_ioctl(fd, PERF_PERSISTENT_IOC_RESUME, id);
	snapshot_free(snap);
	return -1;
}

size_t snapshot_samples(const struct pp_snapshot *snap)
{
	size_t i, n = 0;

	for (i = 0; i < snap->nr; i++)
		n += snap->recs[i].d.type == PERF_RECORD_SAMPLE;
	return n;
}
