// SPDX-License-Identifier: GPL-2.0
/*
 * pp-mmap - read a persistent event's buffer through a read-only mapping
 * of /dev/perf_persistent, as seed 001 reads a backward-written buffer:
 * from data_head towards older records.
 *
 *   pp-mmap ID CPU [pause]       print the records held, newest first, one
 *                                line each (" comm" marks a COMM record,
 *                                " addr=" an ADDR); with "pause", PAUSE/RESUME around
 *                                the walk for a consistent snapshot
 *   pp-mmap ID CPU flood SECONDS [PERIOD]
 *                                read without pausing while a source floods;
 *                                validate every record read (its id, CPU,
 *                                PERIOD, time order); print counts
 *   pp-mmap ID CPU flood-unchecked SECONDS [PERIOD]
 *                                the same, ignoring the reservation head:
 *                                counts the torn records the rule avoids
 *   pp-mmap ID CPU try-write     attempt writable mappings (prints errnos)
 *   pp-mmap ID CPU size BYTES    attempt a mapping of BYTES (prints errno)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perf_persistent/decode.h"
#include "pp-errname.h"

static int ctl;
static unsigned char *map;
static struct perf_event_mmap_page *pg;
static struct perf_persistent_page_ext *ext;
static unsigned long long dsize;

static void copy_out(unsigned long long pos, void *dst, unsigned int len)
{
	unsigned long long off = pos & (dsize - 1);
	unsigned int first = len < dsize - off ? len : dsize - off;

	memcpy(dst, map + pg->data_offset + off, first);
	memcpy((char *)dst + first, map + pg->data_offset, len - first);
}

static unsigned long long load_head(void)
{
	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static void print_records(void)
{
	static unsigned char rec[65536];
	unsigned long long head = load_head(), tail = ext->tail, pos;
	struct perf_event_header hdr;
	struct pp_decoded d;
	unsigned int n = 0;

	for (pos = head; pos != tail; pos += hdr.size) {
		copy_out(pos, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > tail - pos) {
			printf("bad record at %llu\n", pos);
			break;
		}
		copy_out(pos, rec, hdr.size);
		if (pp_decode(rec, hdr.size, ext->sample_type, &d)) {
			printf("bad record at %llu\n", pos);
			break;
		}
		printf("record time=%llu cpu=%u pid=%u tid=%u ip=0x%llx id=%llu size=%u",
		       (unsigned long long)d.time, d.cpu, d.pid, d.tid,
		       (unsigned long long)d.ip, (unsigned long long)d.id,
		       d.size);
		if (d.type == PERF_RECORD_COMM)
			printf(" comm");
		else if (ext->sample_type & PERF_SAMPLE_ADDR)
			printf(" addr=0x%llx", (unsigned long long)d.addr);
		/* the 4th u64 of the payload: mce_record's status */
		if (d.raw && d.raw_size >= 32)
			printf(" raw_u64_3=0x%llx",
			       ((const unsigned long long *)d.raw)[3]);
		printf("\n");
		n++;
	}
	/* Written backward from 0: positions read best as signed offsets. */
	printf("records=%u head=%lld tail=%lld data_size=%llu\n", n,
	       (long long)head, (long long)tail, dsize);
}

/*
 * Is @d what the flooding source recorded?  Its own id and CPU, the
 * source's period (when given), and no newer than the record read before
 * it in the walk (newest first).
 */
static int intact(const struct pp_decoded *d, unsigned int cpu,
		  unsigned long long period, unsigned long long newer)
{
	return d->id == ext->id && d->cpu == cpu &&
	       (!period || d->period == period) && d->time <= newer;
}

/*
 * Read repeatedly without pausing; never accept a torn record.  With
 * @unchecked, ignore the reservation head (the UAPI's rule): what the rule
 * protects against, to show that the checks see it.
 */
static int flood(int seconds, unsigned int cpu, unsigned long long period,
		 int unchecked)
{
	static unsigned char rec[65536];
	unsigned long long read = 0, discarded = 0, torn = 0, walks = 0;
	time_t end = time(NULL) + seconds;

	while (time(NULL) < end) {
		unsigned long long head = load_head(), tail = ext->tail, pos, now;
		unsigned long long newer = ~0ULL;
		struct perf_event_header hdr;
		struct pp_decoded d;

		walks++;
		for (pos = head; pos != tail && tail - pos <= dsize; pos += hdr.size) {
			copy_out(pos, &hdr, sizeof(hdr));
			/*
			 * A header being overwritten may say any size: copy no
			 * more than the buffer holds (the walk's bound), and let
			 * the rule below tell a torn copy from a bad record.
			 */
			if (hdr.size < 8)
				hdr.size = 8;
			if (hdr.size > tail - pos)
				hdr.size = tail - pos;
			copy_out(pos, rec, hdr.size);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			now = __atomic_load_n(&ext->reserve_head, __ATOMIC_RELAXED);
			/*
			 * The UAPI's rule, no margin: writers (in flight
			 * included) may have written only what lies a buffer
			 * or more above the reservation head.
			 */
			if (!unchecked && pos + hdr.size - now > dsize) {
				discarded++;
				break;
			}
			if (pp_decode(rec, hdr.size, ext->sample_type, &d) ||
			    !intact(&d, cpu, period, newer)) {
				torn++;
				break;
			}
			newer = d.time;
			read++;
		}
	}
	printf("flood: walks=%llu read=%llu discarded=%llu torn=%llu\n", walks,
	       read, discarded, torn);
	return torn && !unchecked ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct perf_persistent_info info = { .size = sizeof(info) };
	unsigned int id, cpu;
	off_t off;
	size_t len;
	int ret = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: pp-mmap ID CPU [pause|flood[-unchecked] S [P]|try-write|size B]\n");
		return 2;
	}
	id = strtoul(argv[1], NULL, 0);
	cpu = strtoul(argv[2], NULL, 0);
	ctl = open(PERF_PERSISTENT_DEVICE, O_RDONLY);
	if (ctl < 0) {
		printf("open: %s\n", errname(errno));
		return 1;
	}
	info.id = id;
	if (ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info)) {
		/* With an explicit size, try the mapping anyway. */
		if (argc <= 4 || strcmp(argv[3], "size")) {
			printf("info: %s\n", errname(errno));
			return 1;
		}
	}
	off = PERF_PERSISTENT_MMAP_OFFSET(id, cpu, getpagesize());
	/* PP_DROP_CAPS=1: map without any capability (the fd stays open). */
	if (getenv("PP_DROP_CAPS")) {
		struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct data[2] = { { 0 } };

		if (syscall(SYS_capset, &hdr, data))
			printf("capset: %s\n", errname(errno));
	}
	len = getpagesize() + info.buffer_size;

	if (argc > 3 && !strcmp(argv[3], "try-write")) {
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ctl, off);

		printf("shared writable: %s\n", m == MAP_FAILED ? errname(errno) : "MAPPED");
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, ctl, off);
		printf("private writable: %s\n", m == MAP_FAILED ? errname(errno) : "MAPPED");
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, ctl, off);
		if (m == MAP_FAILED) {
			printf("read-only: %s\n", errname(errno));
			return 1;
		}
		printf("mprotect writable: %s\n",
		       mprotect(m, len, PROT_READ | PROT_WRITE) ? errname(errno) : "ALLOWED");
		return 0;
	}
	if (argc > 4 && !strcmp(argv[3], "size"))
		len = strtoul(argv[4], NULL, 0);

	map = mmap(NULL, len, PROT_READ, MAP_SHARED, ctl, off);
	if (map == MAP_FAILED) {
		printf("mmap: %s\n", errname(errno));
		return 1;
	}
	if (argc > 4 && !strcmp(argv[3], "size")) {
		printf("mmap: MAPPED\n");
		return 0;
	}
	pg = (void *)map;
	ext = (void *)(map + PERF_PERSISTENT_PAGE_EXT_OFFSET);
	dsize = pg->data_size;
	if (pg->data_offset != (unsigned long long)getpagesize() ||
	    dsize != info.buffer_size || ext->id != id || ext->cpu != cpu ||
	    ext->size < PERF_PERSISTENT_PAGE_EXT_SIZE_VER1 || ext->__reserved) {
		printf("control page: unexpected layout\n");
		return 1;
	}

	if (argc > 4 && !strncmp(argv[3], "flood", 5))
		return flood(atoi(argv[4]), cpu,
			     argc > 5 ? strtoull(argv[5], NULL, 0) : 0,
			     !strcmp(argv[3], "flood-unchecked"));
	if (argc > 3 && !strcmp(argv[3], "pause") &&
	    ioctl(ctl, PERF_PERSISTENT_IOC_PAUSE, id)) {
		printf("pause: %s\n", errname(errno));
		return 1;
	}
	print_records();
	if (argc > 3 && !strcmp(argv[3], "pause"))
		ret = ioctl(ctl, PERF_PERSISTENT_IOC_RESUME, id) ? 1 : 0;
	if (argc > 3 && !strcmp(argv[3], "hold")) {
		printf("hold: OK\n");
		fflush(stdout);
		pause();
	}
	return ret;
}
