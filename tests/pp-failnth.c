// SPDX-License-Identifier: GPL-2.0
/*
 * pp-failnth - every allocation of an operation failed on purpose, one at
 * a time, with the kernel's fault injection (/proc/thread-self/fail-nth).
 *
 *   pp-failnth [-1] [-e] [-s STRIDE] OP...
 *                         OP: one of the operations in ops[] below, or
 *                         "load=PARAMS" (finit_module() of the module with
 *                         PARAMS, the module unloaded first)
 *
 * For each operation, for N = 1, 2, ...: the Nth allocation the thread
 * makes fails, and every one after it in the operation (memory stays
 * short: the module's retries fail too), or with -1 the Nth alone (a
 * passing shortage, which a retry may get past); and the operation is
 * made.  Only the allocations whose stack passes through a module's code
 * count (tests/failnth.sh sets failslab's and fail_page_alloc's stack
 * filter to the modules' addresses): fail-nth fails the Nth, and the
 * task filter (make-it-fail) with probability 100 every later one.
 * -s STRIDE takes N = 1, 1 + STRIDE, ... for the loads, whose every try
 * is a module load.  -e ends a load's walk at the first load that
 * succeeds, even one that did without an allocation: its unload would
 * drop what it found in the region (a previous boot's events).  When the Nth allocation was reached and failed, the
 * operation must fail with ENOMEM (or succeed, if the module can do
 * without what it asked for), and afterwards the module's state must be
 * as before: the same events (LIST), the same sysfs entries (events/ and
 * instances/), and a paused event created first with the same records
 * (INFO's per-CPU written, overwritten, bytes, head and tail: nothing
 * already recorded is lost).  The walk ends at the first N the operation
 * does not reach: it must then succeed.
 *
 * Prints TAP, one line per operation ("ok - fail-nth create-tp: 12
 * allocations ..."), with "#" lines saying what went wrong, and exits 1 if
 * anything failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pp-errname.h"

#define PP_SYS		"/sys/bus/event_source/devices/persistent"
/* A walk that has not ended after this many allocations is stuck. */
#define WALK_MAX	5000

static int ctl = -1;		/* the control file the events are made on */
static int failnth = -1;	/* /proc/thread-self/fail-nth */
static int makeitfail = -1;	/* /proc/thread-self/make-it-fail */
static int once;		/* -1: the Nth allocation alone fails */
static unsigned int stride = 1;	/* -s: the loads' walk's step */
static int end_loaded;		/* -e: a load's walk ends loaded */
static int nfailed;		/* operations that failed the test */
static unsigned int base_id;	/* the paused event whose records must stay */
static volatile int watched;	/* the breakpoint's address */
static pid_t child;		/* the TASK scope's target */

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("Bail out! ");
	vprintf(fmt, ap);
	printf(": %s\n", errname(errno));
	va_end(ap);
	exit(1);
}

/* ------------------------------------------------------------------ */
/* The module's state, as userspace sees it.                           */

#define STATE_MAX	8192

/* Appends the sorted names in @dir to @s. */
static void dir_names(const char *dir, char *s, size_t size)
{
	struct dirent **names;
	int i, n = scandir(dir, &names, NULL, alphasort);

	for (i = 0; i < n; i++) {
		size_t len = strlen(s);

		snprintf(s + len, size - len, "%s ", names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static void event_stats(unsigned int id, char *s, size_t size)
{
	struct perf_persistent_cpu_stats cs[64];
	struct perf_persistent_info info = {
		.size = sizeof(info), .id = id,
		.cpu_stats = (unsigned long)cs, .nr_cpus = 64,
	};
	unsigned int i;

	if (ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info)) {
		snprintf(s, size, "INFO %u: %s", id, errname(errno));
		return;
	}
	for (i = 0; i < info.nr_cpus && i < 64; i++) {
		size_t len = strlen(s);

		snprintf(s + len, size - len,
			 "cpu%u %llu/%llu/%llu/%llx/%llx ", cs[i].cpu,
			 (unsigned long long)cs[i].written,
			 (unsigned long long)cs[i].overwritten,
			 (unsigned long long)cs[i].bytes,
			 (unsigned long long)cs[i].head,
			 (unsigned long long)cs[i].tail);
	}
}

/* The events (LIST), the sysfs entries, and the paused event's records. */
static void snapshot(char *s, size_t size)
{
	__u32 ids[256];
	struct perf_persistent_list l = {
		.size = sizeof(l), .nr = 256, .ids = (unsigned long)ids,
	};
	unsigned int i;

	s[0] = 0;
	if (ioctl(ctl, PERF_PERSISTENT_IOC_LIST, &l)) {
		snprintf(s, size, "LIST: %s", errname(errno));
		return;
	}
	strcat(s, "ids ");
	for (i = 0; i < l.nr && i < 256; i++)
		snprintf(s + strlen(s), size - strlen(s), "%u ", ids[i]);
	strcat(s, "\nevents ");
	dir_names(PP_SYS "/events", s, size);
	strcat(s, "\ninstances ");
	dir_names(PP_SYS "/instances", s, size);
	strcat(s, "\nbase ");
	event_stats(base_id, s + strlen(s), size - strlen(s));
}

/* ------------------------------------------------------------------ */
/* Building events.                                                    */

static unsigned int sysfs_uint(const char *path)
{
	unsigned int v;
	FILE *f = fopen(path, "r");

	if (!f || fscanf(f, "%u", &v) != 1)
		die("reading %s", path);
	fclose(f);
	return v;
}

static unsigned int tracepoint(const char *sys, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id",
		 sys, name);
	return sysfs_uint(path);
}

static void tp_attr(struct perf_event_attr *a, const char *sys, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = tracepoint(sys, name);
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
}

/* CREATE on @fd; the new id, or -errno. */
static long create(int fd, const char *name, struct perf_event_attr *a,
		   unsigned int flags, unsigned int scope, int target,
		   const char *cgroup)
{
	struct perf_persistent_create c = {
		.size = sizeof(c), .flags = flags, .attr = (unsigned long)a,
		.buffer_size = 16384, .scope = scope, .target = target,
		.cgroup_path = (unsigned long)cgroup,
	};

	snprintf(c.name, sizeof(c.name), "%s", name);
	if (ioctl(fd, PERF_PERSISTENT_IOC_CREATE, &c))
		return -errno;
	return c.id;
}

static int destroy(int fd, unsigned int id)
{
	return ioctl(fd, PERF_PERSISTENT_IOC_DESTROY, (unsigned long)id) ? -errno : 0;
}

/* ------------------------------------------------------------------ */
/* The operations.  setup() runs before the fault is armed, run() with it
 * armed (returns 0 or -errno), undo() takes back what a run() that
 * succeeded made, teardown() what setup() made.                      */

struct op {
	const char *name;
	void (*setup)(void);
	int (*run)(void);
	void (*undo)(void);
	void (*teardown)(void);
};

static long made;		/* what run() made: an id, an fd */
static unsigned int src_id, tgt_id;
static int fd2 = -1;
static void *map;
static size_t map_len;

static int run_create(struct perf_event_attr *a, unsigned int flags,
		      unsigned int scope, int target, const char *cgroup)
{
	made = create(ctl, "failnth_new", a, flags, scope, target, cgroup);
	return made < 0 ? made : 0;
}

static void undo_create(void)
{
	if (destroy(ctl, made))
		die("destroying the new event");
}

static int run_create_tp(void)
{
	struct perf_event_attr a;

	tp_attr(&a, "sched", "sched_switch");
	return run_create(&a, 0, 0, 0, NULL);
}

static int run_create_perf_path(void)
{
	struct perf_event_attr a;

	tp_attr(&a, "sched", "sched_switch");
	return run_create(&a, PERF_PERSISTENT_CREATE_PERF_PATH, 0, 0, NULL);
}

static int run_create_syscall(void)
{
	struct perf_event_attr a;

	tp_attr(&a, "raw_syscalls", "sys_enter");
	return run_create(&a, 0, 0, 0, NULL);
}

static int run_create_comm(void)
{
	struct perf_event_attr a;

	tp_attr(&a, "sched", "sched_switch");
	a.comm = 1;
	a.sample_id_all = 1;
	return run_create(&a, 0, 0, 0, NULL);
}

static int run_create_chain(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN,
	};

	return run_create(&a, 0, 0, 0, NULL);
}

static int run_create_bp(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_BREAKPOINT,
		.bp_addr = (unsigned long)&watched, .bp_len = HW_BREAKPOINT_LEN_4,
		.bp_type = HW_BREAKPOINT_W, .sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
	};

	return run_create(&a, 0, 0, 0, NULL);
}

static void setup_child(void)
{
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		for (;;)
			pause();
	}
}

static void teardown_child(void)
{
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static int run_create_task(void)
{
	struct perf_event_attr a;

	tp_attr(&a, "sched", "sched_switch");
	a.inherit = 1;
	return run_create(&a, 0, PERF_PERSISTENT_SCOPE_TASK, child, NULL);
}

static int run_create_cgroup(void)
{
	struct perf_event_attr a;

	tp_attr(&a, "sched", "sched_switch");
	return run_create(&a, 0, PERF_PERSISTENT_SCOPE_CGROUP, -1, "/");
}

static int run_create_keep(void)
{
	struct perf_event_attr a;

	tp_attr(&a, "sched", "sched_switch");
	a.comm = 1;
	a.sample_id_all = 1;
	return run_create(&a, PERF_PERSISTENT_CREATE_KEEP, 0, 0, NULL);
}

/* An event of the test's own, made before the fault is armed. */
static void setup_src(void)
{
	struct perf_event_attr a;
	long id;

	tp_attr(&a, "sched", "sched_switch");
	id = create(ctl, "failnth_src", &a, PERF_PERSISTENT_CREATE_DETACHED,
		    0, 0, NULL);
	if (id < 0)
		errno = -id, die("creating the operation's event");
	src_id = id;
}

static void teardown_src(void)
{
	if (destroy(ctl, src_id))
		die("destroying the operation's event");
}

static int run_attach(void)
{
	fd2 = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd2 < 0)
		die("opening the device");
	if (ioctl(fd2, PERF_PERSISTENT_IOC_ATTACH, (unsigned long)src_id)) {
		int e = -errno;

		close(fd2);
		return e;
	}
	return 0;
}

static void undo_attach(void)
{
	if (ioctl(fd2, PERF_PERSISTENT_IOC_DETACH, (unsigned long)src_id))
		die("detaching");
	close(fd2);
}

static int run_reader(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = sysfs_uint(PP_SYS "/type"),
		.config = src_id, .sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
	};

	made = syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	return made < 0 ? -errno : 0;
}

static void undo_close(void)
{
	close(made);
}

static int run_mmap(void)
{
	map_len = getpagesize() + 16384;
	map = mmap(NULL, map_len, PROT_READ, MAP_SHARED, ctl,
		   PERF_PERSISTENT_MMAP_OFFSET(src_id, 0, getpagesize()));
	return map == MAP_FAILED ? -errno : 0;
}

static void undo_mmap(void)
{
	munmap(map, map_len);
}

static void setup_src_tgt(void)
{
	struct perf_event_attr a;
	long id;

	setup_src();
	tp_attr(&a, "sched", "sched_wakeup");
	id = create(ctl, "failnth_tgt", &a, PERF_PERSISTENT_CREATE_DETACHED,
		    0, 0, NULL);
	if (id < 0)
		errno = -id, die("creating the trigger's target");
	tgt_id = id;
}

static void teardown_src_tgt(void)
{
	teardown_src();
	if (destroy(ctl, tgt_id))
		die("destroying the trigger's target");
}

static int run_trigger(void)
{
	__u32 targets[2] = { src_id, tgt_id };
	/* prev_pid (the field at offset 24 of sched_switch's record) > 0. */
	struct perf_persistent_filter_op op = {
		.op = PERF_PERSISTENT_FILTER_GT, .size = 4, .offset = 24,
		.value = 0,
	};
	struct perf_persistent_trigger t = {
		.size = sizeof(t), .source = src_id, .nr_targets = 2,
		.targets = (unsigned long)targets, .count = 1000000,
		.filter = (unsigned long)&op, .nr_filter = 1,
		.filter_text = (unsigned long)"prev_pid > 0",
	};

	return ioctl(ctl, PERF_PERSISTENT_IOC_TRIGGER, &t) ? -errno : 0;
}

static void undo_trigger(void)
{
	struct perf_persistent_trigger t = {
		.size = sizeof(t), .flags = PERF_PERSISTENT_TRIGGER_REMOVE,
		.source = src_id,
	};

	if (ioctl(ctl, PERF_PERSISTENT_IOC_TRIGGER, &t))
		die("removing the trigger");
}

static int run_watch_req(unsigned long req)
{
	fd2 = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd2 < 0)
		die("opening the device");
	if (ioctl(fd2, req, (unsigned long)src_id)) {
		int e = -errno;

		close(fd2);
		return e;
	}
	return 0;
}

static int run_watch(void)
{
	return run_watch_req(PERF_PERSISTENT_IOC_WATCH);
}

static int run_watch_overflow(void)
{
	return run_watch_req(PERF_PERSISTENT_IOC_WATCH_OVERFLOW);
}

static void undo_watch(void)
{
	close(fd2);
}

static int run_open(void)
{
	fd2 = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_CLOEXEC);
	return fd2 < 0 ? -errno : 0;
}

static int run_maps(void)
{
	static char buf[65536];
	struct perf_persistent_maps m = {
		.size = sizeof(m), .buf = (unsigned long)buf, .len = sizeof(buf),
	};

	return ioctl(ctl, PERF_PERSISTENT_IOC_MAPS, &m) ? -errno : 0;
}

static void nothing(void)
{
}

static const struct op ops[] = {
	{ "open", nothing, run_open, undo_watch, nothing },
	{ "create-tp", nothing, run_create_tp, undo_create, nothing },
	{ "create-perf-path", nothing, run_create_perf_path, undo_create, nothing },
	{ "create-syscall", nothing, run_create_syscall, undo_create, nothing },
	{ "create-comm", nothing, run_create_comm, undo_create, nothing },
	{ "create-callchain", nothing, run_create_chain, undo_create, nothing },
	{ "create-breakpoint", nothing, run_create_bp, undo_create, nothing },
	{ "create-task", setup_child, run_create_task, undo_create, teardown_child },
	{ "create-cgroup", nothing, run_create_cgroup, undo_create, nothing },
	{ "create-keep", nothing, run_create_keep, undo_create, nothing },
	{ "attach", setup_src, run_attach, undo_attach, teardown_src },
	{ "reader", setup_src, run_reader, undo_close, teardown_src },
	{ "mmap", setup_src, run_mmap, undo_mmap, teardown_src },
	{ "trigger", setup_src_tgt, run_trigger, undo_trigger, teardown_src_tgt },
	{ "watch", setup_src, run_watch, undo_watch, teardown_src },
	{ "watch-overflow", setup_src, run_watch_overflow, undo_watch, teardown_src },
	{ "maps", nothing, run_maps, nothing, nothing },
};

/* ------------------------------------------------------------------ */
/* The walk.                                                           */

static void arm(unsigned int n)
{
	char s[16];
	int len = snprintf(s, sizeof(s), "%u", n);

	if (pwrite(failnth, s, len, 0) != len)
		die("arming fail-nth");
	if (!once && pwrite(makeitfail, "1", 1, 0) != 1)
		die("arming make-it-fail");
}

/*
 * Disarms; returns how many allocations were left to go before the armed
 * one: 0 if it was reached (and failed), else the Nth less those made.
 */
static unsigned int disarm(void)
{
	char s[16] = "";
	unsigned int left;

	if (pread(failnth, s, sizeof(s) - 1, 0) <= 0)
		die("reading fail-nth");
	left = strtoul(s, NULL, 10);
	if (pwrite(failnth, "0", 1, 0) != 1)
		die("disarming fail-nth");
	if (pwrite(makeitfail, "0", 1, 0) != 1)
		die("disarming make-it-fail");
	return left;
}

/*
 * Reports the walk of @name: the operation makes @points allocations
 * (under the stack filter), of which @tries were failed in turn, @absorbed
 * of them without failing the operation; @why says what went wrong, if
 * anything.
 */
static void report(const char *name, unsigned int points, unsigned int tries,
		   unsigned int absorbed, const char *why)
{
	if (why) {
		printf("not ok - fail-nth %s: %s\n", name, why);
		nfailed++;
		return;
	}
	if (!points && tries <= 1)
		printf("ok - fail-nth %s: no allocation under module code to fail; no state left, nothing recorded lost\n",
		       name);
	else if (stride == 1)
		printf("ok - fail-nth %s: allocations 1 to %u failed in turn%s (%u when none fails): each ENOMEM%s, no state left, nothing recorded lost\n",
		       name, tries, once ? " alone" : " with every later one",
		       points, absorbed ? " or done without" : "");
	else
		printf("ok - fail-nth %s: %u allocations failed in turn, every %uth from the 1st%s (%u when none fails): each ENOMEM%s, no state left, nothing recorded lost\n",
		       name, tries, stride,
		       once ? " alone" : " with every later one", points,
		       absorbed ? " or done without" : "");
	if (absorbed)
		printf("# %s: %u of them the operation did without\n", name, absorbed);
}

static void walk(const struct op *op)
{
	static char before[STATE_MAX], after[STATE_MAX], why[STATE_MAX * 2 + 256];
	unsigned int n, left, absorbed = 0;
	int ret, reached;

	for (n = getenv("PP_FAILNTH_FROM") ? atoi(getenv("PP_FAILNTH_FROM")) : 1; n <= WALK_MAX; n++) {
		op->setup();
		snapshot(before, sizeof(before));
		arm(n);
		ret = op->run();
		left = disarm();
		reached = !left;
		if (!ret)
			op->undo();
		snapshot(after, sizeof(after));
		op->teardown();
		if (!reached) {
			if (ret) {
				snprintf(why, sizeof(why), "with no allocation failed (%u made), %s",
					 n - 1, errname(-ret));
				break;
			}
			if (strcmp(before, after)) {
				snprintf(why, sizeof(why), "the state changed without a failure:\n# before: %s\n# after:  %s",
					 before, after);
				break;
			}
			report(op->name, n - left, n - 1, absorbed, NULL);
			return;
		}
		if (getenv("PP_FAILNTH_FROM"))
			printf("# %s: allocation %u: %s\n", op->name, n, ret ? errname(-ret) : "done without");
		if (!ret) {
			absorbed++;
			printf("# %s: allocation %u failed, and it was done all the same\n",
			       op->name, n);
		} else if (ret != -ENOMEM) {
			snprintf(why, sizeof(why), "allocation %u failed: %s, not ENOMEM",
				 n, errname(-ret));
			break;
		}
		if (strcmp(before, after)) {
			snprintf(why, sizeof(why), "allocation %u failed (%s), and the state changed:\n# before: %s\n# after:  %s",
				 n, ret ? errname(-ret) : "done without", before, after);
			break;
		}
	}
	if (n > WALK_MAX)
		snprintf(why, sizeof(why), "still failing after %u allocations", WALK_MAX);
	report(op->name, n, n, absorbed, why);
}

/*
 * load=PARAMS: the module loaded with PARAMS, every allocation of its
 * initialisation failed in turn.  A load that fails must fail with ENOMEM
 * and leave no module; one that succeeds all the same (the module did
 * without what it asked for) is unloaded and counted.  The walk ends
 * loaded.
 */
static void walk_load(const char *params)
{
	char path[256], name[300], why[128] = "";
	unsigned int n, left = 0, absorbed = 0, tries = 0;
	struct utsname u;
	int fd, ret = 0, reached = 0;

	snprintf(name, sizeof(name), "load %s", params);
	uname(&u);
	snprintf(path, sizeof(path), "/lib/modules/%s/extra/perf_persistent.ko",
		 u.release);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("opening %s", path);
	if (syscall(SYS_delete_module, "perf_persistent", O_NONBLOCK) && errno != ENOENT)
		die("unloading the module");
	for (n = 1; n <= WALK_MAX; n += stride) {
		arm(n);
		ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
		left = disarm();
		reached = !left;
		if (!reached) {
			if (ret)
				snprintf(why, sizeof(why), "with no allocation failed (%u made): %s",
					 n - 1, errname(-ret));
			break;
		}
		tries++;
		if (!ret) {
			absorbed++;
			printf("# %s: allocation %u failed, and it loaded all the same\n", name, n);
			if (end_loaded)
				break;
			if (syscall(SYS_delete_module, "perf_persistent", O_NONBLOCK))
				die("unloading the module");
			continue;
		}
		if (ret != -ENOMEM) {
			snprintf(why, sizeof(why), "allocation %u failed: %s, not ENOMEM",
				 n, errname(-ret));
			break;
		}
		if (!access("/sys/module/perf_persistent", F_OK)) {
			snprintf(why, sizeof(why), "allocation %u failed, and the module is left", n);
			break;
		}
	}
	close(fd);
	if (n > WALK_MAX)
		snprintf(why, sizeof(why), "still failing after %u allocations", WALK_MAX);
	report(name, n - left, tries, absorbed, why[0] ? why : NULL);
}

/* The paused event whose records every failure must leave alone. */
static void base_setup(void)
{
	struct perf_persistent_info info = { .size = sizeof(info) };
	struct perf_event_attr a;
	unsigned int tries;
	long id;

	ctl = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		die("opening the device");
	tp_attr(&a, "sched", "sched_switch");
	id = create(ctl, "failnth_base", &a, PERF_PERSISTENT_CREATE_DETACHED, 0, 0, NULL);
	if (id < 0)
		errno = -id, die("creating the paused event");
	base_id = id;
	info.id = base_id;
	for (tries = 0; tries < 10000; tries++) {
		if (ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info))
			die("INFO of the paused event");
		if (info.count >= 100)
			break;
		usleep(1000);
	}
	if (!info.count)
		die("the paused event recorded nothing");
	if (ioctl(ctl, PERF_PERSISTENT_IOC_PAUSE, (unsigned long)base_id))
		die("pausing");
}

static void base_teardown(void)
{
	if (destroy(ctl, base_id))
		die("destroying the paused event");
	close(ctl);
	ctl = -1;
}

int main(int argc, char **argv)
{
	unsigned int i;
	int k;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((k = getopt(argc, argv, "1es:")) != -1) {
		if (k == '1')
			once = 1;
		else if (k == 'e')
			end_loaded = 1;
		else if (k == 's')
			stride = strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind >= argc || !stride) {
		fprintf(stderr, "usage: pp-failnth [-1] [-e] [-s STRIDE] OP... [load=PARAMS]\n");
		return 2;
	}
	failnth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (failnth < 0)
		die("opening /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)");
	makeitfail = open("/proc/thread-self/make-it-fail", O_RDWR | O_CLOEXEC);
	if (makeitfail < 0)
		die("opening /proc/thread-self/make-it-fail");

	for (k = optind; k < argc; k++) {
		if (!strncmp(argv[k], "load=", 5)) {
			if (ctl >= 0)
				base_teardown();
			walk_load(argv[k] + 5);
			continue;
		}
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (!strcmp(argv[k], ops[i].name))
				break;
		if (i == sizeof(ops) / sizeof(ops[0])) {
			fprintf(stderr, "pp-failnth: unknown operation %s\n", argv[k]);
			return 2;
		}
		if (ctl < 0)
			base_setup();
		walk(&ops[i]);
	}
	if (ctl >= 0)
		base_teardown();
	return nfailed != 0;
}
