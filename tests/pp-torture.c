// SPDX-License-Identifier: GPL-2.0
/*
 * pp-torture - hammer perf_persistent from several threads at once
 *
 * pp-torture [-t THREADS] [-d SECONDS] [-s SEED]
 *
 * Each thread picks random operations for a bounded time: create, destroy,
 * detach, attach, pause, resume, info, list; reader open/read/close through
 * perf_event_open(); mmap/walk/munmap of buffers.  Sources flood: a
 * high-rate cpu-clock and sched:sched_switch.  Checks as it goes:
 *   - every errno is one the documentation lists for that operation;
 *   - per CPU, on a paused private event: written == held + overwritten
 *     (held counted by walking the mapping), dropped counted apart;
 *   - every record read through a mapping is well-formed (or provably
 *     overwritten while being read);
 *   - no file descriptor leaks.
 * Run it with other processes doing rmmod and CPU offline/online cycles.
 * Prints the seed; a failure names it, so `-s SEED` reproduces the choices.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perf_persistent/decode.h"

#define MAX_IDS		4096
#define NAMES		24

static unsigned int seed, nthreads = 4, seconds = 60;
static int ctl, pmu_type, tp_switch;
static long page_size;
static time_t deadline;
static volatile int failed;
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int ids[MAX_IDS], nr_ids;
static unsigned long long ops, checks, records_ok, records_discarded;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("torture: FAILED (seed %u): ", seed);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failed = 1;
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* errno must be in the list (0-terminated) of those documented for the op. */
static void expect(const char *op, int ret, ...)
{
	va_list ap;
	int e;

	__atomic_add_fetch(&ops, 1, __ATOMIC_RELAXED);
	if (ret >= 0)
		return;
	va_start(ap, ret);
	while ((e = va_arg(ap, int)))
		if (e == errno) {
			va_end(ap);
			return;
		}
	va_end(ap);
	fail("%s: unexpected errno %d (%s)", op, errno, strerror(errno));
}

static unsigned int pick_id(unsigned int *r)
{
	unsigned int id;

	pthread_mutex_lock(&ids_lock);
	id = nr_ids ? ids[rand_r(r) % nr_ids] : 1;
	pthread_mutex_unlock(&ids_lock);
	/* sometimes an id that never existed */
	return rand_r(r) % 16 ? id : 100000U + rand_r(r) % 1000;
}

static int create(unsigned int *r, int fd, const char *name, int detached,
		  unsigned long long buffer, unsigned int *id)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_period = 1 };
	struct perf_persistent_create c = { .size = sizeof(c) };

	switch (rand_r(r) % 3) {
	case 0:
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_CPU_CLOCK;
		attr.sample_period = 100000 + rand_r(r) % 400000;
		break;
	case 1:
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = tp_switch;
		break;
	default:
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	}
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_TID;
	if (attr.type == PERF_TYPE_TRACEPOINT)
		attr.sample_type |= PERF_SAMPLE_RAW;
	c.attr = (unsigned long)&attr;
	c.buffer_size = buffer;
	c.flags = detached ? PERF_PERSISTENT_CREATE_DETACHED : 0;
	snprintf(c.name, sizeof(c.name), "%s", name);
	if (ioctl(fd, PERF_PERSISTENT_IOC_CREATE, &c))
		return -1;
	*id = c.id;
	return 0;
}

/* Walk one mapped buffer; every record kept must decode. */
static void walk(unsigned char *map, unsigned long long dsize)
{
	struct perf_event_mmap_page *pg = (void *)map;
	struct perf_persistent_page_ext *ext = (void *)(map + PERF_PERSISTENT_PAGE_EXT_OFFSET);
	unsigned long long head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	unsigned long long tail = ext->tail, pos, now;
	unsigned char rec[512];
	struct pp_decoded d;
	unsigned int size;

	for (pos = head; pos != tail && tail - pos <= dsize; pos += size) {
		unsigned long long off = pos & (dsize - 1), i;

		size = *(unsigned short *)(map + page_size + off + 6);
		if (size < 8 || size > sizeof(rec))
			size = 8;
		for (i = 0; i < size; i++)
			rec[i] = map[page_size + ((off + i) & (dsize - 1))];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		/* The UAPI's rule: intact unless within a buffer of reserve_head. */
		now = __atomic_load_n(&ext->reserve_head, __ATOMIC_RELAXED);
		if (pos + size - now > dsize) {
			__atomic_add_fetch(&records_discarded, 1, __ATOMIC_RELAXED);
			return;
		}
		if (pp_decode(rec, size, ext->sample_type, &d) || d.id != ext->id) {
			fail("torn record at %llu (id %u cpu %u)", pos, ext->id, ext->cpu);
			return;
		}
		__atomic_add_fetch(&records_ok, 1, __ATOMIC_RELAXED);
	}
}

static void try_mmap(unsigned int *r)
{
	struct perf_persistent_info info = { .size = sizeof(info) };
	unsigned int cpu = rand_r(r) % 4;
	void *map;
	size_t len;

	info.id = pick_id(r);
	if (ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info)) {
		expect("info", -1, ENOENT, 0);
		return;
	}
	len = page_size + info.buffer_size;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, ctl,
		   PERF_PERSISTENT_MMAP_OFFSET(info.id, cpu, getpagesize()));
	if (map == MAP_FAILED) {
		expect("mmap", -1, ENOENT, ENODEV, EINVAL, 0);
		return;
	}
	expect("mmap", 0);
	walk(map, info.buffer_size);
	munmap(map, len);
}

static void try_reader(unsigned int *r, int *fds, unsigned int nfds)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	unsigned int slot = rand_r(r) % nfds;
	long long count;
	int fd;

	if (fds[slot] >= 0) {
		if (read(fds[slot], &count, sizeof(count)) != sizeof(count))
			fail("read of a reader: %s", strerror(errno));
		close(fds[slot]);
		fds[slot] = -1;
		return;
	}
	attr.type = pmu_type;
	attr.config = pick_id(r);
	attr.sample_period = 1;
	attr.config1 = rand_r(r) % 2;
	fd = syscall(SYS_perf_event_open, &attr, -1, rand_r(r) % 4, -1, 0);
	expect("reader open", fd, ENOENT, ENODEV, EINVAL, 0);
	fds[slot] = fd;
}

/* A private paused event: written == held + overwritten on every CPU. */
static void verify(unsigned int *r, unsigned int t)
{
	struct perf_persistent_cpu_stats cs[8];
	struct perf_persistent_info info = { .size = sizeof(info) };
	unsigned int id, i;
	char name[32];
	int fd = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return fail("open control: %s", strerror(errno));
	snprintf(name, sizeof(name), "v%u", t);
	if (create(r, fd, name, 0, 4096 << (rand_r(r) % 3), &id)) {
		expect("create (verifier)", -1, ENOMEM, 0);
		close(fd);
		return;
	}
	usleep(20000 + rand_r(r) % 100000);
	if (ioctl(fd, PERF_PERSISTENT_IOC_PAUSE, id))
		fail("pause of own event: %s", strerror(errno));
	info.id = id;
	info.cpu_stats = (unsigned long)cs;
	info.nr_cpus = 8;
	if (ioctl(fd, PERF_PERSISTENT_IOC_INFO, &info))
		fail("info of own event: %s", strerror(errno));
	for (i = 0; i < info.nr_cpus && i < 8 && !failed; i++) {
		size_t len = page_size + info.buffer_size;
		unsigned char *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd,
					  PERF_PERSISTENT_MMAP_OFFSET(id, cs[i].cpu, getpagesize()));
		struct perf_persistent_page_ext *ext;
		unsigned long long pos, held = 0;

		if (map == MAP_FAILED) {
			fail("mmap of own event cpu %u: %s", cs[i].cpu, strerror(errno));
			break;
		}
		ext = (void *)(map + PERF_PERSISTENT_PAGE_EXT_OFFSET);
		for (pos = ((struct perf_event_mmap_page *)map)->data_head;
		     pos != ext->tail; held++) {
			unsigned short size = *(unsigned short *)
				(map + page_size + (pos & (info.buffer_size - 1)) + 6);

			if (size < 8 || size > ext->tail - pos) {
				fail("bad record in a paused buffer");
				break;
			}
			pos += size;
		}
		if (cs[i].written != held + cs[i].overwritten)
			fail("cpu %u: written %llu != held %llu + overwritten %llu",
			     cs[i].cpu, (unsigned long long)cs[i].written, held,
			     (unsigned long long)cs[i].overwritten);
		__atomic_add_fetch(&checks, 1, __ATOMIC_RELAXED);
		munmap(map, len);
	}
	close(fd);	/* attached: destroys it */
}

static void *worker(void *arg)
{
	unsigned int t = (unsigned long)arg, r = seed * 1000 + t, id;
	int fds[8], i;
	char name[32];

	for (i = 0; i < 8; i++)
		fds[i] = -1;
	while (time(NULL) < deadline && !failed) {
		switch (rand_r(&r) % 12) {
		case 0:
		case 1:
			snprintf(name, sizeof(name), "t%u", rand_r(&r) % NAMES);
			if (create(&r, ctl, name, rand_r(&r) % 2,
				   4096 << (rand_r(&r) % 4), &id)) {
				expect("create", -1, EEXIST, ENOMEM, 0);
				break;
			}
			expect("create", 0);
			pthread_mutex_lock(&ids_lock);
			if (nr_ids < MAX_IDS)
				ids[nr_ids++] = id;
			pthread_mutex_unlock(&ids_lock);
			break;
		case 2:
			expect("destroy", ioctl(ctl, PERF_PERSISTENT_IOC_DESTROY, pick_id(&r)),
			       ENOENT, EBUSY, 0);
			break;
		case 3:
			expect("detach", ioctl(ctl, PERF_PERSISTENT_IOC_DETACH, pick_id(&r)),
			       ENOENT, EALREADY, EBUSY, 0);
			break;
		case 4:
			expect("attach", ioctl(ctl, PERF_PERSISTENT_IOC_ATTACH, pick_id(&r)),
			       ENOENT, EALREADY, EBUSY, 0);
			break;
		case 5:
			expect("pause", ioctl(ctl, PERF_PERSISTENT_IOC_PAUSE, pick_id(&r)),
			       ENOENT, 0);
			break;
		case 6:
			expect("resume", ioctl(ctl, PERF_PERSISTENT_IOC_RESUME, pick_id(&r)),
			       ENOENT, 0);
			break;
		case 7: {
			struct perf_persistent_cpu_stats cs[8];
			struct perf_persistent_info info = {
				.size = sizeof(info), .id = pick_id(&r),
				.cpu_stats = (unsigned long)cs, .nr_cpus = 8,
			};

			expect("info", ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info), ENOENT, 0);
			break;
		}
		case 8:
		case 9:
			try_reader(&r, fds, 8);
			break;
		case 10:
			try_mmap(&r);
			break;
		default:
			verify(&r, t);
		}
	}
	for (i = 0; i < 8; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return NULL;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	int opt, fds_before, fds_after;
	unsigned int i;

	seed = time(NULL);
	while ((opt = getopt(argc, argv, "t:d:s:")) != -1) {
		if (opt == 't')
			nthreads = atoi(optarg) > 64 ? 64 : atoi(optarg);
		else if (opt == 'd')
			seconds = atoi(optarg);
		else if (opt == 's')
			seed = strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("torture: seed %u, %u threads, %u s\n", seed, nthreads, seconds);
	page_size = getpagesize();
	pmu_type = read_int("/sys/bus/event_source/devices/persistent/type");
	tp_switch = read_int("/sys/kernel/tracing/events/sched/sched_switch/id");
	if (pmu_type < 0 || tp_switch < 0) {
		printf("torture: module or tracefs missing\n");
		return 1;
	}
	fds_before = count_fds();
	ctl = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return printf("torture: open: %s\n", strerror(errno)), 1;
	printf("torture: running\n");
	deadline = time(NULL) + seconds;
	for (i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, worker, (void *)(unsigned long)i);
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);

	/* Tear down: destroy what is detached; closing ctl takes the rest. */
	for (i = 0; i < nr_ids; i++)
		ioctl(ctl, PERF_PERSISTENT_IOC_DESTROY, ids[i]);
	close(ctl);
	fds_after = count_fds();
	if (fds_after != fds_before)
		fail("fd leak: %d open before, %d after", fds_before, fds_after);
	printf("torture: %llu operations, %llu invariant checks, %llu records read, %llu discarded as overwritten, %u ids\n",
	       ops, checks, records_ok, records_discarded, nr_ids);
	printf("torture: %s (seed %u)\n", failed ? "FAILED" : "passed", seed);
	return failed;
}
