// SPDX-License-Identifier: GPL-2.0
/*
 * pp-fuzz - fuzzing of /dev/perf_persistent's ioctls, random or steered by
 * the module's coverage (KCOV)
 *
 * pp-fuzz [-n ITERATIONS] [-s SEED]        seeded random calls
 * pp-fuzz -r FILE...                       replay a corpus: each FILE one
 *                                          input (hex bytes)
 * pp-fuzz -k SECONDS [-s SEED] [FILE...]   coverage-steered, for SECONDS,
 *                                          from the inputs FILE... (the
 *                                          corpus); prints each input it
 *                                          keeps ("fuzz: keep HEX")
 * pp-fuzz -k SECONDS -R [-s SEED]          the same with random inputs
 *                                          only, never mutated: what
 *                                          random calls reach, to compare
 *
 * Random and mutated arguments for every ioctl: bad pointers (NULL, kernel
 * addresses, unmapped, unaligned), struct sizes from 0 to past a page,
 * random bytes in the struct and in the attr, random ids and names, unknown
 * commands; mappings of the buffers, reads of the control file and perf
 * readers of the events made.  Every failure must carry an errno the
 * documentation lists for that call; afterwards the events that existed
 * before are all that is left.  Prints the seed; a failure names it.
 *
 * Every choice is a draw of rnd().  Random mode draws from random();
 * an input is the bytes the draws take instead, four a draw (0 once they
 * run out), so that an input replays the same calls whatever the kernel
 * (ids and the events made may differ; the checks do not depend on them).
 * The steered mode (-k) keeps an input when the module code it ran
 * (KCOV's trace of the module's blocks, /sys/kernel/debug/kcov, on a
 * module built with KCOV_INSTRUMENT: make fuzz) has a block no input
 * kept before ran; its mutations flip bits, set bytes, insert, delete and
 * splice inputs of the corpus.  It prints, every ten seconds and at the
 * end, the inputs run, the corpus and the module's blocks reached.
 *
 * Tracepoint sources are ids 0 to 9, but never ftrace:function: it hooks
 * every kernel function, and taking it down patches each one back, which
 * under TCG takes longer than the soft-lockup watchdog allows (__text_poke
 * for 20 s and more; a finding of seed 115, about the kernel in the lab,
 * not the module).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kcov.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned int seed, iterations = 20000;
static unsigned long long ftrace_function_id = ~0ULL;
static int failed;
static unsigned char *page, *guard;

/* The input the draws take their bytes from, in replay and -k. */
static const unsigned char *in;
static size_t in_len, in_pos;

static unsigned int rnd(void)
{
	unsigned int v = 0, i;

	if (!in)
		return (unsigned int)random();
	for (i = 0; i < 4; i++)
		v = v << 8 | (in_pos < in_len ? in[in_pos++] : 0);
	return v;
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

/* What one run has made, taken back at its end. */
static unsigned int before[4096], nb;
static unsigned int created[4096], nc;
static int fds[8], nfds;
static void *maps[8];
static size_t map_lens[8];
static int nmaps;
static unsigned int pp_type;
static const int read_errnos[] = { EAGAIN, EINVAL, EFAULT, ENOSPC, ENOMEM, 0 };
static const int mmap_errnos[] = { EACCES, EINVAL, ENOENT, ENODEV, ENOMEM, EPERM, 0 };
static const int open_errnos[] = { EINVAL, ENOENT, EOPNOTSUPP, EACCES, EPERM,
	ENODEV, ENOMEM, E2BIG, EFAULT, EBUSY, 0 };

/* A made event's id, or a random one; never one of the events from before. */
static unsigned int some_id(void)
{
	unsigned int id, i;

	id = nc && rnd() % 2 ? created[rnd() % nc] : rnd() % 80;
	for (i = 0; i < nb; i++)
		if (id == before[i])
			id += 100000;
	return id;
}

/* One call, its arguments drawn; @fd is the run's control file. */
static void one_call(int fd, unsigned int it)
{
	unsigned char *buf = page + 4096 - 512;	/* 512 bytes before the guard */
	struct perf_persistent_create *c = (void *)page;
	struct perf_event_attr *attr = (void *)(page + 1024);
	unsigned long arg;
	int ret;

	switch (rnd() % 15) {
	case 9: {	/* TRIGGER: random ids, never the events from before */
		struct perf_persistent_trigger *t = (void *)buf;
		unsigned int *ids = (void *)(page + 2048), j, n = rnd() % 70;

		fill(buf, 512);
		t->size = rnd() % 3 ? sizeof(*t) : sizes[rnd() % 15];
		t->flags = rnd() % 2 ? 0 : rnd() % 3 ? 1U << (rnd() % 3) : rnd();
		t->source = some_id();
		t->nr_targets = rnd() % 4 ? n : rnd();
		for (j = 0; j < n; j++)
			ids[j] = some_id();
		t->targets = (unsigned long)bad_or(ids);
		t->count = rnd() % 3;
		t->after = rnd() % 3;
		if (rnd() % 2) {
			struct perf_persistent_filter_op *op = (void *)(page + 3072);

			fill(op, 128);
			t->filter = (unsigned long)bad_or(op);
			t->nr_filter = rnd() % 4 ? rnd() % 8 : rnd();
			t->filter_text = rnd() % 2 ? 0 : (unsigned long)bad_or("prev_pid > 0");
		}
		ret = ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, bad_or(t));
		check("TRIGGER", ret, trigger_errnos, it);
		break;
	}
	case 10: {	/* WATCH, WATCH_OVERFLOW, on this file or a new one */
		int wfd = fd;

		if (rnd() % 2 && nfds < 8) {
			wfd = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_NONBLOCK);
			if (wfd >= 0)
				fds[nfds++] = wfd;
			else
				wfd = fd;
		}
		ret = ioctl(wfd, rnd() % 2 ? PERF_PERSISTENT_IOC_WATCH :
			    PERF_PERSISTENT_IOC_WATCH_OVERFLOW,
			    rnd() % 4 ? some_id() : ((unsigned long)rnd() << 32 | rnd()));
		check("WATCH", ret, watch_errnos, it);
		break;
	}
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
		 * Scopes: this process (never another: a random source
		 * inherited into the guest's init would be another test), a
		 * pid that does not exist, an fd, a cgroup path or a bad
		 * pointer.
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
	case 3: {	/* the id verbs */
		static const unsigned long cmds[] = {
			PERF_PERSISTENT_IOC_DESTROY, PERF_PERSISTENT_IOC_DETACH,
			PERF_PERSISTENT_IOC_ATTACH, PERF_PERSISTENT_IOC_PAUSE,
			PERF_PERSISTENT_IOC_RESUME,
		};

		arg = rnd() % 4 ? some_id() : ((unsigned long)rnd() << 32 | rnd());
		ret = ioctl(fd, cmds[rnd() % 5], arg);
		check("id verb", ret, id_errnos, it);
		break;
	}
	case 4:
	case 5: {	/* INFO */
		struct perf_persistent_info *info = (void *)buf;

		fill(buf, 512);
		info->size = rnd() % 3 ? sizeof(*info) : sizes[rnd() % 15];
		info->id = some_id();
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
	case 12: {	/* a mapping of an event's buffer, and a look at it */
		unsigned int cpu = rnd() % 3, pages = rnd() % 4 ? 1U << rnd() % 5 : rnd() % 9;
		size_t len = (size_t)(1 + pages) * 4096;
		int prot = rnd() % 4 ? PROT_READ : PROT_READ | PROT_WRITE;
		void *m;

		if (nmaps >= 8)
			break;
		m = mmap(NULL, len, prot, MAP_SHARED, fd,
			 PERF_PERSISTENT_MMAP_OFFSET(some_id(), cpu, 4096));
		if (m == MAP_FAILED) {
			check("mmap", -1, mmap_errnos, it);
			break;
		}
		maps[nmaps] = m;
		map_lens[nmaps++] = len;
		/* The control page's head, as a reader reads it. */
		__atomic_load_n((volatile __u64 *)((char *)m + 1024), __ATOMIC_ACQUIRE);
		break;
	}
	case 13: {	/* read() of a file's notices; poll() */
		struct pollfd p = { .fd = nfds ? fds[rnd() % nfds] : fd, .events = POLLIN };
		char nb_buf[256];
		ssize_t n;

		poll(&p, 1, 0);
		n = read(p.fd, rnd() % 4 ? nb_buf : bad_or(nb_buf), rnd() % 2 ? sizeof(nb_buf) : rnd() % 64);
		if (n < 0)
			check("read", -1, read_errnos, it);
		break;
	}
	case 14: {	/* a perf reader of an event */
		struct perf_event_attr *r = (void *)buf;
		long rfd;

		if (nfds >= 8)
			break;
		memset(r, 0, sizeof(*r));
		r->size = sizeof(*r);
		r->type = pp_type;
		r->config = rnd() % 8 ? some_id() : ((unsigned long long)rnd() << 32 | rnd());
		r->config1 = rnd() % 4 ? 0 : rnd() % 2 ? 1 : rnd();
		r->sample_period = rnd() % 4 ? 1 : rnd();
		r->sample_type = rnd() % 2 ? PERF_SAMPLE_RAW | PERF_SAMPLE_TIME : rnd();
		r->exclude_kernel = rnd() % 16 == 0;
		rfd = syscall(SYS_perf_event_open, r, -1, rnd() % 2, -1, PERF_FLAG_FD_CLOEXEC);
		if (rfd < 0)
			check("perf_event_open", -1, open_errnos, it);
		else
			fds[nfds++] = rfd;
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

/* Takes back what a run made: the mappings, files and events. */
static void clean_up(int fd)
{
	unsigned int i;

	for (i = 0; i < (unsigned int)nmaps; i++)
		munmap(maps[i], map_lens[i]);
	for (i = 0; i < (unsigned int)nfds; i++)
		close(fds[i]);
	for (i = 0; i < nc; i++)
		ioctl(fd, PERF_PERSISTENT_IOC_DESTROY, created[i]);
	nmaps = nfds = 0;
	nc = 0;
}

/* The events left must be those from before. */
static void check_left(const char *what)
{
	static unsigned int after[4096];
	unsigned int na;
	int fd = open(PERF_PERSISTENT_DEVICE, O_RDWR);

	na = fd < 0 ? 0 : list_ids(fd, after, 4096);
	if (fd >= 0)
		close(fd);
	if (na != nb || memcmp(before, after, nb * sizeof(*before))) {
		printf("fuzz: FAILED (%s): %u events before, %u after\n", what, nb, na);
		failed = 1;
	}
}

/* Runs one input on a control file of its own: at most 256 calls. */
static void run_input(const unsigned char *bytes, size_t len)
{
	unsigned int it;
	int fd = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_NONBLOCK);

	if (fd < 0) {
		printf("fuzz: FAILED: open: %s\n", strerror(errno));
		failed = 1;
		return;
	}
	in = bytes;
	in_len = len;
	in_pos = 0;
	for (it = 0; in_pos < in_len && it < 256 && !failed; it++)
		one_call(fd, it);
	in = NULL;
	clean_up(fd);
	close(fd);
}

/* A corpus file: hex digits, any whitespace between them. */
static size_t read_hex(const char *path, unsigned char *out, size_t max)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;
	int hi = -1, ch;

	if (!f)
		return 0;
	while ((ch = fgetc(f)) != EOF && n < max) {
		int v = ch >= '0' && ch <= '9' ? ch - '0' :
			ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;

		if (v < 0)
			continue;
		if (hi < 0) {
			hi = v;
		} else {
			out[n++] = hi << 4 | v;
			hi = -1;
		}
	}
	fclose(f);
	return n;
}

/* ------------------------------------------------------------------ */
/* Steered by coverage (-k).                                           */

#define INPUT_MAX	1024
#define CORPUS_MAX	4096
#define COVER_WORDS	(1 << 18)
#define SEEN_BITS	(1 << 20)

struct input {
	unsigned char bytes[INPUT_MAX];
	size_t len;
};

static struct input *corpus;
static unsigned int ncorpus;
static unsigned long *cover;
static unsigned long text_lo = ~0UL, text_hi;
static unsigned char seen[SEEN_BITS / 8];
static unsigned long nseen;
static int random_only;		/* -R */

/* The module's code, from its symbols: the blocks KCOV reports there. */
static void module_text(void)
{
	char line[512], type, name[256], mod[64];
	unsigned long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s [%63[^]]]", &addr, &type, name, mod) != 4)
			continue;
		if (strcmp(mod, "perf_persistent") || (type != 't' && type != 'T'))
			continue;
		if (addr < text_lo)
			text_lo = addr;
		if (addr > text_hi)
			text_hi = addr;
	}
	if (f)
		fclose(f);
	/* Past the last function's start: its own blocks. */
	text_hi += 65536;
}

/* Runs @x under KCOV; the number of blocks of the module no input ran before. */
static unsigned long run_covered(const struct input *x)
{
	unsigned long n, i, fresh = 0;

	__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
	run_input(x->bytes, x->len);
	n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
	if (n > COVER_WORDS - 1)
		n = COVER_WORDS - 1;
	for (i = 0; i < n; i++) {
		unsigned long pc = cover[i + 1], h;

		if (pc < text_lo || pc >= text_hi)
			continue;
		h = (pc - text_lo) % SEEN_BITS;
		if (!(seen[h / 8] & 1 << h % 8)) {
			seen[h / 8] |= 1 << h % 8;
			fresh++;
		}
	}
	nseen += fresh;
	return fresh;
}

static void mutate(struct input *x)
{
	unsigned int k, i, n = 1 + random() % 4;

	for (k = 0; k < n; k++) {
		switch (random() % 6) {
		case 0:		/* flip a bit */
			if (x->len)
				x->bytes[random() % x->len] ^= 1 << random() % 8;
			break;
		case 1:		/* set a byte */
			if (x->len)
				x->bytes[random() % x->len] = random();
			break;
		case 2:		/* insert four bytes: a draw more */
			if (x->len + 4 <= INPUT_MAX) {
				i = x->len ? random() % x->len : 0;
				memmove(x->bytes + i + 4, x->bytes + i, x->len - i);
				for (n = 0; n < 4; n++)
					x->bytes[i + n] = random();
				x->len += 4;
				n = 1;
			}
			break;
		case 3:		/* delete four bytes */
			if (x->len > 4) {
				i = random() % (x->len - 4);
				memmove(x->bytes + i, x->bytes + i + 4, x->len - i - 4);
				x->len -= 4;
			}
			break;
		case 4:		/* splice another input's tail */
			if (ncorpus) {
				const struct input *y = &corpus[random() % ncorpus];
				size_t at = x->len ? random() % x->len : 0;
				size_t from = y->len ? random() % y->len : 0;
				size_t take = y->len - from;

				if (at + take > INPUT_MAX)
					take = INPUT_MAX - at;
				memcpy(x->bytes + at, y->bytes + from, take);
				x->len = at + take;
			}
			break;
		default:	/* a small number into a byte */
			if (x->len)
				x->bytes[random() % x->len] = random() % 16;
			break;
		}
	}
}

static void print_input(const char *what, const struct input *x)
{
	size_t i;

	printf("fuzz: %s ", what);
	for (i = 0; i < x->len; i++)
		printf("%02x", x->bytes[i]);
	printf("\n");
}

static int steered(unsigned int seconds, char **files, int nfiles)
{
	time_t start = time(NULL), last = start;
	unsigned long execs = 0, kept = 0;
	struct input x;
	int kfd, i;

	kfd = open("/sys/kernel/debug/kcov", O_RDWR);
	if (kfd < 0)
		return printf("fuzz: FAILED: /sys/kernel/debug/kcov: %s (CONFIG_KCOV)\n",
			      strerror(errno)), 1;
	if (ioctl(kfd, KCOV_INIT_TRACE, COVER_WORDS))
		return printf("fuzz: FAILED: KCOV_INIT_TRACE: %s\n", strerror(errno)), 1;
	cover = mmap(NULL, COVER_WORDS * sizeof(unsigned long), PROT_READ | PROT_WRITE,
		     MAP_SHARED, kfd, 0);
	if (cover == MAP_FAILED)
		return printf("fuzz: FAILED: mmap of kcov: %s\n", strerror(errno)), 1;
	if (ioctl(kfd, KCOV_ENABLE, KCOV_TRACE_PC))
		return printf("fuzz: FAILED: KCOV_ENABLE: %s\n", strerror(errno)), 1;
	module_text();
	if (!text_hi)
		return printf("fuzz: FAILED: no perf_persistent code in /proc/kallsyms\n"), 1;
	corpus = calloc(CORPUS_MAX, sizeof(*corpus));

	/* The corpus first: what it reaches is the start. */
	for (i = 0; i < nfiles && ncorpus < CORPUS_MAX; i++) {
		x.len = read_hex(files[i], x.bytes, INPUT_MAX);
		if (!x.len)
			continue;
		run_covered(&x);
		corpus[ncorpus++] = x;
	}
	printf("fuzz: %u inputs from the corpus reach %lu blocks of the module\n",
	       ncorpus, nseen);
	if (!nseen && ncorpus)
		return printf("fuzz: FAILED: KCOV saw no block of the module (not built with KCOV_INSTRUMENT?)\n"), 1;
	while (!failed && time(NULL) - start < seconds) {
		if (ncorpus && !random_only && random() % 8) {
			x = corpus[random() % ncorpus];
			mutate(&x);
		} else {
			x.len = 4 * (1 + random() % 64);
			for (i = 0; i < (int)x.len; i++)
				x.bytes[i] = random();
		}
		execs++;
		if (run_covered(&x) && ncorpus < CORPUS_MAX) {
			corpus[ncorpus++] = x;
			kept++;
			print_input("keep", &x);
		}
		if (time(NULL) - last >= 10) {
			last = time(NULL);
			printf("fuzz: %lds: %lu inputs run, %lu kept, corpus %u, %lu blocks\n",
			       (long)(last - start), execs, kept, ncorpus, nseen);
		}
	}
	printf("fuzz: %lds: %lu inputs run, %lu kept, corpus %u, %lu blocks (seed %u)\n",
	       (long)(time(NULL) - start), execs, kept, ncorpus, nseen, seed);
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char bytes[INPUT_MAX];
	unsigned int it, seconds = 0;
	int fd, opt, replay = 0, i;

	seed = getpid() ^ time(NULL);
	while ((opt = getopt(argc, argv, "n:s:rk:R")) != -1) {
		if (opt == 'n')
			iterations = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			seed = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			replay = 1;
		else if (opt == 'k')
			seconds = strtoul(optarg, NULL, 0);
		else if (opt == 'R')
			random_only = 1;
		else
			return 2;
	}
	srandom(seed);
	setvbuf(stdout, NULL, _IOLBF, 0);
	ftrace_function_id = tracepoint_id("ftrace/function");

	/* Two pages: ours, then an inaccessible guard page. */
	page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	guard = page + 4096;
	mprotect(guard, 4096, PROT_NONE);

	fd = open(PERF_PERSISTENT_DEVICE, O_RDWR);
	if (fd < 0)
		return printf("fuzz: open: %s\n", strerror(errno)), 1;
	nb = list_ids(fd, before, 4096);
	close(fd);
	{
		FILE *f = fopen("/sys/bus/event_source/devices/persistent/type", "r");

		if (!f || fscanf(f, "%u", &pp_type) != 1)
			return printf("fuzz: no persistent PMU\n"), 1;
		fclose(f);
	}

	if (replay) {
		for (i = optind; i < argc && !failed; i++) {
			size_t len = read_hex(argv[i], bytes, sizeof(bytes));

			if (!len) {
				printf("fuzz: FAILED: %s: no input\n", argv[i]);
				failed = 1;
				break;
			}
			run_input(bytes, len);
			if (failed)
				printf("fuzz: the input was %s\n", argv[i]);
		}
		check_left("after the corpus");
		printf("fuzz: %d inputs replayed, %s\n", argc - optind,
		       failed ? "FAILED" : "passed");
		return failed;
	}
	if (seconds) {
		printf("fuzz: steered by KCOV for %u s, seed %u\n", seconds, seed);
		if (steered(seconds, argv + optind, argc - optind))
			return 1;
		check_left("after the steered run");
		return failed;
	}

	printf("fuzz: seed %u, %u iterations\n", seed, iterations);
	/* Never blocking: read() of a watching file with no notice. */
	fd = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		return printf("fuzz: open: %s\n", strerror(errno)), 1;
	for (it = 0; it < iterations && !failed; it++) {
		one_call(fd, it);
		/* Keep the run's own files and mappings few. */
		if (nfds == 8 || nmaps == 8) {
			for (i = 0; i < nmaps; i++)
				munmap(maps[i], map_lens[i]);
			for (i = 0; i < nfds; i++)
				close(fds[i]);
			nmaps = nfds = 0;
		}
	}
	it = nc;
	clean_up(fd);
	close(fd);
	check_left("at the end");
	printf("fuzz: %u iterations, %u events created and destroyed, %s (seed %u)\n",
	       iterations, it, failed ? "FAILED" : "passed", seed);
	return failed;
}
