// SPDX-License-Identifier: GPL-2.0
/*
 * pp-leakcheck ID - no uninitialised byte and no kernel pointer reaches
 * userspace through INFO, LIST, CREATE or a mapping of event ID's buffer.
 *
 * User buffers are filled with a pattern (0xa5) before each call; afterwards
 * every byte the kernel returns must have been written.  Event ID must
 * record PERF_SAMPLE_RAW from a source without raw data (records then carry
 * a 4-byte size and 4 bytes of padding, which must be zero) and must have
 * records held on CPU 0.  Prints one line per check, "leakcheck: passed" or
 * the first failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_persistent/decode.h"

#define PAT 0xa5
static int failed;

static void result(const char *what, int ok)
{
	printf("leakcheck: %s: %s\n", what, ok ? "ok" : "FAILED");
	failed |= !ok;
}

/* No aligned u32 in [p, p + n) still holds the pattern. */
static int all_written(const void *p, size_t n)
{
	const unsigned int *w = p;
	size_t i;

	for (i = 0; i < n / 4; i++)
		if (w[i] == 0xa5a5a5a5)
			return 0;
	return 1;
}

static int zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_persistent_cpu_stats stats[8];
	struct perf_persistent_info info;
	struct perf_persistent_list list;
	struct perf_event_attr attr;
	unsigned int id, ids[16], i;
	unsigned char *map;
	size_t len;
	int fd;

	if (argc != 2)
		return 2;
	id = strtoul(argv[1], NULL, 0);
	fd = open(PERF_PERSISTENT_DEVICE, O_RDWR);
	if (fd < 0)
		return printf("leakcheck: open: %s\n", strerror(errno)), 1;

	memset(&info, PAT, sizeof(info));
	memset(stats, PAT, sizeof(stats));
	memset(&attr, PAT, sizeof(attr));
	info.size = sizeof(info);
	info.id = id;
	info.__reserved = 0;
	info.nr_cpus = 8;
	info.cpu_stats = (unsigned long)stats;
	info.attr = (unsigned long)&attr;
	info.attr_size = sizeof(attr);
	if (ioctl(fd, PERF_PERSISTENT_IOC_INFO, &info))
		return printf("leakcheck: INFO: %s\n", strerror(errno)), 1;
	result("INFO name: NUL-padded", zero(info.name + strlen(info.name),
					     sizeof(info.name) - strlen(info.name)));
	result("INFO fields written", info.state != 0xa5a5a5a5 &&
	       info.nr_cpus <= 8 && info.buffer_size != 0xa5a5a5a5a5a5a5a5ULL);
	result("INFO cpu_stats: every field of every CPU written",
	       all_written(stats, info.nr_cpus * sizeof(stats[0])));
	result("INFO cpu_stats: untouched past nr_cpus",
	       info.nr_cpus == 8 || stats[info.nr_cpus].cpu == 0xa5a5a5a5);
	result("INFO attr: every byte written", all_written(&attr, sizeof(attr)));

	memset(ids, PAT, sizeof(ids));
	memset(&list, 0, sizeof(list));
	list.size = sizeof(list);
	list.nr = 16;
	list.ids = (unsigned long)ids;
	if (ioctl(fd, PERF_PERSISTENT_IOC_LIST, &list))
		return printf("leakcheck: LIST: %s\n", strerror(errno)), 1;
	result("LIST ids written", list.nr > 0 && all_written(ids, list.nr * 4));

	len = getpagesize() + info.buffer_size;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd,
		   PERF_PERSISTENT_MMAP_OFFSET(id, 0, getpagesize()));
	if (map == MAP_FAILED)
		return printf("leakcheck: mmap: %s\n", strerror(errno)), 1;
	{
		struct perf_event_mmap_page *pg = (void *)map;
		struct perf_persistent_page_ext *ext =
			(void *)(map + PERF_PERSISTENT_PAGE_EXT_OFFSET);
		size_t head = offsetof(struct perf_event_mmap_page, data_head);
		size_t size_end = offsetof(struct perf_event_mmap_page, data_size) + 8;
		unsigned long long pos;
		struct pp_decoded d;
		unsigned char rec[256];
		unsigned int n = 0, pads = 0;
		int walked;

		result("control page: zero before data_head", zero(map, head));
		result("control page: zero between the perf fields and the extension",
		       zero(map + size_end, PERF_PERSISTENT_PAGE_EXT_OFFSET - size_end));
		result("control page: zero after the extension",
		       zero(map + PERF_PERSISTENT_PAGE_EXT_OFFSET + sizeof(*ext),
			    getpagesize() - PERF_PERSISTENT_PAGE_EXT_OFFSET - sizeof(*ext)));

		ioctl(fd, PERF_PERSISTENT_IOC_PAUSE, id);
		for (pos = pg->data_head; pos != ext->tail; pos += d.size) {
			unsigned long long off = pos & (pg->data_size - 1);

			for (i = 0; i < 8; i++)
				rec[i] = map[getpagesize() + ((off + i) & (pg->data_size - 1))];
			d.size = ((struct perf_event_header *)rec)->size;
			if (d.size < 8 || d.size > sizeof(rec))
				break;
			for (i = 0; i < d.size; i++)
				rec[i] = map[getpagesize() + ((off + i) & (pg->data_size - 1))];
			if (pp_decode(rec, d.size, ext->sample_type, &d))
				break;
			n++;
			if (d.raw && d.raw_size == 4 && zero(d.raw, 4))
				pads++;
		}
		/* Before RESUME: afterwards the tail moves on. */
		walked = pos == ext->tail;
		if (!walked)
			printf("leakcheck: walk stopped at %llu: head %llu tail %llu size %u\n",
			       pos, (unsigned long long)pg->data_head,
			       (unsigned long long)ext->tail, d.size);
		ioctl(fd, PERF_PERSISTENT_IOC_RESUME, id);
		result("records: all decode", n > 0 && walked);
		result("records: RAW padding zeroed in every record", pads == n);
		printf("leakcheck: %u records checked\n", n);
	}
	printf("leakcheck: %s\n", failed ? "FAILED" : "passed");
	return failed;
}
