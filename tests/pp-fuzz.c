// SPDX-License-Identifier: GPL-2.0
/*
 * pp-fuzz - seeded, bounded fuzzing of /dev/perf_persistent's ioctls
 *
 * pp-fuzz [-n ITERATIONS] [-s SEED]
 *
 * Random and mutated arguments for every ioctl: bad pointers (NULL, kernel
 * addresses, unmapped, unaligned), struct sizes from 0 to past a page,
 * random bytes in the struct and in the attr, random ids and names, unknown
 * commands.  Every failure must carry an errno the documentation lists for
 * that ioctl; afterwards the events that existed before are all that is
 * left.  Prints the seed; a failure names it.
 *
 * Tracepoint sources are ids 0 to 9, but never ftrace:function: it hooks
 * every kernel function, and taking it down patches each one back, which
 * under TCG takes longer than the soft-lockup watchdog allows (__text_poke
 * for 20 s and more; a finding of seed 115, about the kernel in the lab,
 * not the module).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static unsigned int seed, iterations = 20000;
static unsigned long long ftrace_function_id = ~0ULL;
static int failed;
static unsigned char *page, *guard;

static unsigned int rnd(void)
{
	return (unsigned int)random();
}

/* A pointer argument: mostly our buffer, sometimes a bad one. */
static void *bad_or(void *good)
{
	switch (rnd() % 16) {
	case 0:
		return NULL;
	case 1:
		return (void *)0xffffffff81000000UL;	/* kernel */
	case 2:
		return guard;				/* unmapped */
	case 3:
		return (char *)good + 1;		/* unaligned */
	case 4:
		return guard - 8;			/* runs into the guard */
	}
	return good;
}

static unsigned int sizes[] = { 0, 1, 4, 23, 24, 63, 64, 79, 80, 88, 128, 4095, 4096, 4097, 0xffffffff };

static void fill(void *p, size_t n)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = rnd() % 4 ? 0 : rnd();
}

static const int create_errnos[] = { EFAULT, EINVAL, E2BIG, EEXIST, EOPNOTSUPP,
	ENOENT, ENODEV, EACCES, EBUSY, ENOSPC, ENOMEM, EPERM, ESRCH, EBADF,
	ENOTDIR, 0 };
static const int id_errnos[] = { ENOENT, EBUSY, EALREADY, 0 };
static const int info_errnos[] = { EFAULT, EINVAL, E2BIG, ENOENT, ENOMEM, 0 };
static const int list_errnos[] = { EFAULT, EINVAL, E2BIG, ENOMEM, 0 };
static const int maps_errnos[] = { EFAULT, EINVAL, E2BIG, ENOSPC, ENOMEM, 0 };
static const int trigger_errnos[] = { EFAULT, EINVAL, E2BIG, ENOENT, ENOMEM, 0 };
static const int watch_errnos[] = { ENOENT, ENOMEM, EINVAL, 0 };

static void check(const char *op, int ret, const int *allowed, unsigned int it)
{
	const int *e;

	if (!ret)
		return;
	for (e = allowed; *e; e++)
		if (*e == errno)
			return;
	printf("fuzz: FAILED (seed %u, iteration %u): %s: errno %d (%s)\n",
	       seed, it, op, errno, strerror(errno));
	failed = 1;
}

static unsigned int list_ids(int fd, unsigned int *ids, unsigned int max)
{
	struct perf_persistent_list l = { .size = sizeof(l) };
	unsigned int n = 0;

	do {
		l.nr = max - n;
		l.ids = (unsigned long)(ids + n);
		if (ioctl(fd, PERF_PERSISTENT_IOC_LIST, &l))
			return n;
		n += l.nr;
		if (l.nr)
			l.start = ids[n - 1];
	} while (l.nr && n < max);
	return n;
}

/* The id of tracepoint SYSTEM/NAME in tracefs, or ~0 if there is none. */
static unsigned long long tracepoint_id(const char *event)
{
	unsigned long long id = ~0ULL;
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", event);
	f = fopen(path, "r");
	if (!f)
		return id;
	if (fscanf(f, "%llu", &id) != 1)
		id = ~0ULL;
	fclose(f);
	return id;
}

int main(int argc, char **argv)
{
	static unsigned int before[4096], after[4096], created[4096];
	unsigned int it, nb, na, nc = 0, i;
	int fd, opt;

	seed = getpid() ^ time(NULL);
	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			iterations = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			seed = strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	srandom(seed);
	setvbuf(stdout, NULL, _IOLBF, 0);
	ftrace_function_id = tracepoint_id("ftrace/function");
	printf("fuzz: seed %u, %u iterations\n", seed, iterations);

	/* Two pages: ours, then an inaccessible guard page. */
	page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	guard = page + 4096;
	mprotect(guard, 4096, PROT_NONE);

	fd = open(PERF_PERSISTENT_DEVICE, O_RDWR);
	if (fd < 0)
		return printf("fuzz: open: %s\n", strerror(errno)), 1;
	nb = list_ids(fd, before, 4096);

	for (it = 0; it < iterations && !failed; it++) {
		unsigned char *buf = page + 4096 - 512;	/* 512 bytes before the guard */
		struct perf_persistent_create *c = (void *)page;
		struct perf_event_attr *attr = (void *)(page + 1024);
		unsigned long arg;
		int ret;

		switch (rnd() % 12) {
		case 9: {	/* TRIGGER: random ids, never the events from before */
			struct perf_persistent_trigger *t = (void *)buf;
			unsigned int *ids = (void *)(page + 2048), j, n = rnd() % 70;

			fill(buf, 512);
			t->size = rnd() % 3 ? sizeof(*t) : sizes[rnd() % 15];
			t->flags = rnd() % 2 ? 0 : rnd() % 3 ? 1U << (rnd() % 3) : rnd();
			t->source = rnd() % 80;
			t->nr_targets = rnd() % 4 ? n : rnd();
			for (j = 0; j < n; j++)
				ids[j] = rnd() % 80;
			for (j = 0; j < nb; j++) {
				unsigned int k;

				if (t->source == before[j])
					t->source += 100000;
				for (k = 0; k < n; k++)
					if (ids[k] == before[j])
						ids[k] += 100000;
			}
			t->targets = (unsigned long)bad_or(ids);
			t->count = rnd() % 3;
			t->after = rnd() % 3;
			ret = ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, bad_or(t));
			check("TRIGGER", ret, trigger_errnos, it);
			break;
		}
		case 10:	/* WATCH */
			ret = ioctl(fd, PERF_PERSISTENT_IOC_WATCH,
				    rnd() % 2 ? rnd() % 80 : ((unsigned long)rnd() << 32 | rnd()));
			check("WATCH", ret, watch_errnos, it);
			break;
		case 0:
		case 1: {	/* CREATE: mutated valid struct and attr */
			memset(page, 0, 4096);
			c->size = rnd() % 4 ? sizeof(*c) : sizes[rnd() % 15];
			c->flags = rnd() % 4 ? PERF_PERSISTENT_CREATE_DETACHED : rnd();
			c->buffer_size = rnd() % 3 ? 4096ULL << (rnd() % 6) : ((unsigned long long)rnd() << (rnd() % 40));
			snprintf(c->name, sizeof(c->name), "f%u", rnd() % 64);
			if (rnd() % 8 == 0)
				fill(c->name, sizeof(c->name));
			attr->size = rnd() % 4 ? sizeof(*attr) : sizes[rnd() % 15];
			attr->type = rnd() % 3 ? PERF_TYPE_SOFTWARE : rnd() % 12;
			attr->config = rnd() % 4 ? rnd() % 10 : ((unsigned long long)rnd() << 32 | rnd());
			if (attr->type == PERF_TYPE_TRACEPOINT && attr->config == ftrace_function_id)
				attr->config = 0;
			attr->sample_period = rnd() % 2;
			attr->sample_type = rnd() % 3 ? PERF_SAMPLE_TIME : ((unsigned long long)rnd() << 32 | rnd());
			if (rnd() % 6 == 0)
				fill(attr, 128);
			c->attr = (unsigned long)bad_or(attr);
			if (rnd() % 10 == 0)
				fill((char *)c + 8, 56);
			/*
			 * Scopes: this process (never another: a random
			 * source inherited into the guest's init would be
			 * another test), a pid that does not exist, an fd, a
			 * cgroup path or a bad pointer.
			 */
			if (rnd() % 8 == 0) {
				c->scope = rnd() % 4;
				c->target = rnd() % 3 ? getpid() : (int)rnd();
				c->cgroup_path = rnd() % 2 ? 0 :
					(unsigned long)bad_or(rnd() % 2 ? "/" : "/nonexistent");
			}
			ret = ioctl(fd, PERF_PERSISTENT_IOC_CREATE, bad_or(c));
			check("CREATE", ret, create_errnos, it);
			if (!ret && nc < 4096)
				created[nc++] = c->id;
			break;
		}
		case 2:
		case 3: {	/* the id verbs, random ids */
			static const unsigned long cmds[] = {
				PERF_PERSISTENT_IOC_DESTROY, PERF_PERSISTENT_IOC_DETACH,
				PERF_PERSISTENT_IOC_ATTACH, PERF_PERSISTENT_IOC_PAUSE,
				PERF_PERSISTENT_IOC_RESUME,
			};

			arg = rnd() % 2 ? rnd() % 80 : ((unsigned long)rnd() << 32 | rnd());
			/* Leave the events that existed before alone. */
			for (i = 0; i < nb; i++)
				if (arg == before[i])
					arg += 100000;
			ret = ioctl(fd, cmds[rnd() % 5], arg);
			check("id verb", ret, id_errnos, it);
			break;
		}
		case 4:
		case 5: {	/* INFO */
			struct perf_persistent_info *info = (void *)buf;

			fill(buf, 512);
			info->size = rnd() % 3 ? sizeof(*info) : sizes[rnd() % 15];
			info->id = rnd() % 80;
			info->nr_cpus = rnd() % 2 ? rnd() % 16 : rnd();
			info->cpu_stats = (unsigned long)bad_or(page);
			info->attr = (unsigned long)bad_or(page + 2048);
			info->attr_size = rnd() % 2 ? sizeof(struct perf_event_attr) : rnd();
			if (rnd() % 2)
				info->__reserved = 0;
			ret = ioctl(fd, PERF_PERSISTENT_IOC_INFO, bad_or(info));
			check("INFO", ret, info_errnos, it);
			break;
		}
		case 6: {	/* LIST */
			struct perf_persistent_list *l = (void *)buf;

			fill(buf, 64);
			l->size = rnd() % 3 ? sizeof(*l) : sizes[rnd() % 15];
			l->nr = rnd() % 2 ? rnd() % 64 : rnd();
			l->ids = (unsigned long)bad_or(page);
			ret = ioctl(fd, PERF_PERSISTENT_IOC_LIST, bad_or(l));
			check("LIST", ret, list_errnos, it);
			break;
		}
		case 11: {	/* MAPS: the table's records into a random buffer */
			struct perf_persistent_maps *m = (void *)buf;

			fill(buf, 128);
			m->size = rnd() % 3 ? sizeof(*m) : sizes[rnd() % 15];
			m->flags = rnd() % 3 ? rnd() % 2 : rnd();
			m->buf = rnd() % 3 ? (unsigned long)bad_or(page) : 0;
			m->len = rnd() % 2 ? rnd() % 4096 : rnd();
			ret = ioctl(fd, PERF_PERSISTENT_IOC_MAPS, bad_or(m));
			check("MAPS", ret, maps_errnos, it);
			break;
		}
		default: {	/* unknown commands: ENOTTY, never anything else */
			static const int enotty[] = { ENOTTY, 0 };
			unsigned long cmd = rnd() % 2 ? _IOC(rnd() % 4, PERF_PERSISTENT_IOC_MAGIC,
							      13 + rnd() % 200, rnd() % 512) : rnd();

			if (_IOC_TYPE(cmd) == PERF_PERSISTENT_IOC_MAGIC && _IOC_NR(cmd) <= 12)
				break;
			ret = ioctl(fd, cmd, bad_or(page));
			check("unknown ioctl", ret, enotty, it);
		}
		}
	}

	for (i = 0; i < nc; i++)
		ioctl(fd, PERF_PERSISTENT_IOC_DESTROY, created[i]);
	close(fd);
	fd = open(PERF_PERSISTENT_DEVICE, O_RDWR);
	na = list_ids(fd, after, 4096);
	if (na != nb || memcmp(before, after, nb * sizeof(*before))) {
		printf("fuzz: FAILED (seed %u): %u events before, %u after\n", seed, nb, na);
		failed = 1;
	}
	printf("fuzz: %u iterations, %u events created and destroyed, %s (seed %u)\n",
	       it, nc, failed ? "FAILED" : "passed", seed);
	return failed;
}
