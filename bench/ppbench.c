// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench - what recording a tracepoint costs: persistent events side by
 * side with perf's own ring buffer and ftrace, in one boot (Documentation/
 * benchmark.rst).
 *
 *   ppbench run [-r REPS] [-n CALLS] [-t SECONDS] [-b KIB] [-c CONFIG,...]
 *   ppbench insns [-n CALLS] [-b KIB] [-c CONFIG,...]
 *   ppbench lifecycle [-b KIB]
 *   ppbench loop CALLS
 *   ppbench spin|mmap|exec N
 *   ppbench burn N
 *
 * "run" times "loop" (close(-1) CALLS times on CPU 0, as seed 001 did) under
 * every configuration, interleaved, REPS times (the profiles' configurations
 * time "spin", "mmap" or "exec" instead); then the side measurements
 * (history replay, mmap reading, memory, create/destroy).  It prints a
 * table, the results as JSON and gnuplot data between marker lines, and
 * the six RATIO lines last.
 *
 * "insns" runs each configuration's loop once, for the instruction-counting
 * QEMU plugin (bench/insns.c): the loop marks its start and end with NOPs
 * the plugin recognises, one line per loop names its configuration, and
 * the kernel's text symbols follow.
 *
 * "lifecycle" creates 1000 events on one tracepoint and destroys them, as
 * "run" does last, and prints the CREATE-1000 and DESTROY-1000 lines only.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "perf_persistent/decode.h"

#define MAX_REPS	64
#define MAX_CPUS	64
#define MAX_OTHERS	1000
#define TRACEFS		"/sys/kernel/tracing"
#define PMU_DIR		"/sys/bus/event_source/devices/" PERF_PERSISTENT_PMU_NAME
#define FTRACE_INST	TRACEFS "/instances/ppbench"

/* The fields every recorder stores: the tool's defaults for a tracepoint. */
#define FIELDS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		 PERF_SAMPLE_RAW)

static unsigned int reps = 5;
static unsigned long calls;
/* The profiles' loops: calls of spin_8(), mmaps, execs. */
static unsigned long spin_n, mmap_n, exec_n;
static double target_s = 0.4;
static unsigned long buffer_size = 64 * 1024;
static int ncpus;
static int ctl = -1;
static const char *self;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ppbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity: %s", strerror(errno));
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static long long read_num(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		die("%s: %s", path, strerror(errno));
	close(fd);
	return atoll(buf);
}

/* A line "key: value" of a file such as /proc/meminfo, or -1. */
static long long read_key(const char *path, const char *key)
{
	char line[256];
	long long v = -1;
	size_t len = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			v = atoll(line + len + 1);
			break;
		}
	fclose(f);
	return v;
}

static int tp_id(const char *tp)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/events/%s/id", tp);
	return read_num(path);
}

static int perf_open(struct perf_event_attr *attr, int cpu)
{
	return syscall(SYS_perf_event_open, attr, -1, cpu, -1, 0);
}

/* ------------------------------------------------------------------------
 * The timed loop.
 */

/*
 * Markers for bench/insns.c: a 9-byte NOP, nopw DISP(%rax,%rax,1), whose
 * displacement reads "PPM0" (a loop starts) or "PPM1" (it ended).  Plain
 * NOPs anywhere else.
 */
#define MARK_BEGIN() asm volatile(".byte 0x66,0x0f,0x1f,0x84,0x00,'P','P','M','0'")
#define MARK_END() asm volatile(".byte 0x66,0x0f,0x1f,0x84,0x00,'P','P','M','1'")

static int loop_main(unsigned long n)
{
	double t0, t1;
	unsigned long i;

	pin(0);
	t0 = now();
	MARK_BEGIN();
	for (i = 0; i < n; i++)
		close(-1);
	MARK_END();
	t1 = now();
	printf("%.0f\n", (t1 - t0) * 1e9);
	return 0;
}

/*
 * The profiles' loops (Documentation/benchmark.rst, "Profiles").  "spin"
 * is user work under a call stack eight frames deep (ppbench is built
 * with frame pointers, so a sampler's -g walks all of it); N calls of
 * spin_8(), each SPIN_INNER iterations at the bottom.
 */
#define SPIN_INNER	20000

static volatile unsigned long spin_sink;

static __attribute__((noinline)) void spin_0(void)
{
	unsigned long i, x = spin_sink;

	for (i = 0; i < SPIN_INNER; i++)
		x = x * 33 + i;
	spin_sink = x;
}

#define SPIN_LEVEL(n, m) \
static __attribute__((noinline)) void spin_##n(void) \
{ \
	spin_##m(); \
	asm volatile("" ::: "memory"); \
}
SPIN_LEVEL(1, 0)
SPIN_LEVEL(2, 1)
SPIN_LEVEL(3, 2)
SPIN_LEVEL(4, 3)
SPIN_LEVEL(5, 4)
SPIN_LEVEL(6, 5)
SPIN_LEVEL(7, 6)
SPIN_LEVEL(8, 7)

static void spin(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		spin_8();
}

/* "burn N": an exec'd process's work, then exit. */
static int burn_main(unsigned long n)
{
	spin(n);
	return 0;
}

/*
 * "mmap": N times, map one of MMAP_FILES small files of code
 * (PROT_EXEC, a loop of MMAP_SPIN iterations and a return) at an address
 * not used before in the run, call it, unmap it: new code mapped and run
 * all the time, the worst case for the profiles' table of mappings (each
 * sample in code it does not know asks for a read).
 */
#define MMAP_FILES	64
#define MMAP_SPIN	200000
#define MMAP_BASE	0x200000000000UL
#define MMAP_STRIDE	0x200000UL

static void mmap_files(int *fds)
{
	/* mov $MMAP_SPIN, %ecx; 1: dec %ecx; jnz 1b; ret */
	unsigned char code[16] = {
		0xb9, MMAP_SPIN & 0xff, (MMAP_SPIN >> 8) & 0xff,
		(MMAP_SPIN >> 16) & 0xff, MMAP_SPIN >> 24,
		0xff, 0xc9, 0x75, 0xfc, 0xc3,
	};
	char path[64];
	int i;

	for (i = 0; i < MMAP_FILES; i++) {
		snprintf(path, sizeof(path), "/tmp/ppbench-code-%d", i);
		fds[i] = open(path, O_RDWR | O_CREAT | O_TRUNC, 0700);
		/* Each file its own: a byte after the code tells them apart. */
		code[15] = i;
		if (fds[i] < 0 || write(fds[i], code, sizeof(code)) != sizeof(code) ||
		    ftruncate(fds[i], 4096))
			die("%s: %s", path, strerror(errno));
	}
}

static void mmap_loop(unsigned long n, const int *fds)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		void *want = (void *)(MMAP_BASE + (i % 4096) * MMAP_STRIDE);
		void *m = mmap(want, 4096, PROT_READ | PROT_EXEC,
			       MAP_PRIVATE | MAP_FIXED_NOREPLACE,
			       fds[i % MMAP_FILES], 0);

		if (m == MAP_FAILED)
			die("mmap code: %s", strerror(errno));
		((void (*)(void))m)();
		munmap(m, 4096);
	}
}

/* "exec": N times, fork and exec "ppbench burn 4" and wait for it. */
static void exec_loop(unsigned long n)
{
	unsigned long i;
	int status;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			execl(self, self, "burn", "4", NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("burn failed");
	}
}

/* The profiles' loops, timed and marked as loop_main(). */
static int prof_main(const char *loop, unsigned long n)
{
	int fds[MMAP_FILES];
	double t0, t1;

	pin(0);
	if (!strcmp(loop, "mmap"))
		mmap_files(fds);
	t0 = now();
	MARK_BEGIN();
	if (!strcmp(loop, "spin"))
		spin(n);
	else if (!strcmp(loop, "mmap"))
		mmap_loop(n, fds);
	else
		exec_loop(n);
	MARK_END();
	t1 = now();
	printf("%.0f\n", (t1 - t0) * 1e9);
	return 0;
}

/*
 * Run "ppbench @loop @n" (under @prefix, a command such as perf record, if
 * given) and return its time in seconds.  @err, if given, receives the
 * prefix command's stderr.
 */
static double run_kind(const char *loop, unsigned long n,
		       const char *const *prefix, char *err, size_t errlen)
{
	char arg[32], out[64] = "";
	int po[2], pe[2], status;
	ssize_t len, got = 0;
	pid_t pid;

	snprintf(arg, sizeof(arg), "%lu", n);
	if (pipe(po) || pipe(pe))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		const char *argv[32];
		int i = 0;

		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		for (; prefix && prefix[i]; i++)
			argv[i] = prefix[i];
		argv[i++] = self;
		argv[i++] = loop;
		argv[i++] = arg;
		argv[i] = NULL;
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	while ((len = read(po[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += len;
	out[got] = 0;
	got = 0;
	while (err && (len = read(pe[0], err + got, errlen - 1 - got)) > 0)
		got += len;
	if (err)
		err[got] = 0;
	close(po[0]);
	close(pe[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || !out[0])
		die("the loop under %s failed", prefix ? prefix[0] : "nothing");
	return atof(out) / 1e9;
}

static double run_loop(unsigned long n, const char *const *prefix,
		       char *err, size_t errlen)
{
	return run_kind("loop", n, prefix, err, errlen);
}

/* ------------------------------------------------------------------------
 * Persistent events.
 */

/* The fields persistent events record; the ablation configurations drop some. */
static unsigned long long pp_fields = FIELDS;
/* PERF_PERSISTENT_CREATE_* of the events created (persistent-perf: PERF_PATH). */
static unsigned int pp_flags;
/* The events get COMM records, as "perf persistent create" makes them. */
static int pp_comm;

/*
 * The cgroup configurations: ppbench and its loops run in BENCH_CGROUP;
 * the recorded events are scoped to it (every record kept: the filter's
 * cost on top of the record's) or to OTHER_CGROUP, which has no task
 * (every record filtered out: what a hit costs another container).
 */
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define BENCH_CGROUP	"/ppbench"
#define OTHER_CGROUP	"/ppbench-other"
static const char *pp_cgroup;
/* The process the created events are scoped to (TASK, inherited), or 0. */
static pid_t pp_task;

static void cgroup_join(void)
{
	FILE *f;

	mkdir(CGROUP_ROOT, 0755);
	if (mount("none", CGROUP_ROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		die("mount cgroup2: %s", strerror(errno));
	mkdir(CGROUP_ROOT BENCH_CGROUP, 0755);
	mkdir(CGROUP_ROOT OTHER_CGROUP, 0755);
	f = fopen(CGROUP_ROOT BENCH_CGROUP "/cgroup.procs", "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
		die("joining " BENCH_CGROUP ": %s", strerror(errno));
}

static int pp_create(const char *name, const char *tp, int paused)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_TRACEPOINT,
		.config = tp_id(tp),
		.sample_period = 1,
		.sample_type = pp_fields,
	};
	struct perf_persistent_create c = {
		.size = sizeof(c),
		.flags = pp_flags,
		.attr = (unsigned long)&attr,
		.buffer_size = buffer_size,
	};

	snprintf(c.name, sizeof(c.name), "%s", name);
	if (pp_comm) {
		attr.comm = 1;
		attr.sample_id_all = 1;
	}
	if (pp_task) {
		attr.inherit = 1;
		c.scope = PERF_PERSISTENT_SCOPE_TASK;
		c.target = pp_task;
	} else if (pp_cgroup) {
		c.scope = PERF_PERSISTENT_SCOPE_CGROUP;
		c.target = -1;
		c.cgroup_path = (unsigned long)pp_cgroup;
	}
	if (ioctl(ctl, PERF_PERSISTENT_IOC_CREATE, &c))
		die("create %s on %s: %s", name, tp, strerror(errno));
	if (paused && ioctl(ctl, PERF_PERSISTENT_IOC_PAUSE, c.id))
		die("pause %s: %s", name, strerror(errno));
	return c.id;
}

static void pp_destroy(int id)
{
	if (ioctl(ctl, PERF_PERSISTENT_IOC_DESTROY, id))
		die("destroy %d: %s", id, strerror(errno));
}

/* Per-CPU statistics of event @id summed (or of @cpu alone, if >= 0). */
static void pp_stats(int id, int cpu, struct perf_persistent_cpu_stats *sum)
{
	struct perf_persistent_cpu_stats st[MAX_CPUS];
	struct perf_persistent_info info = {
		.size = sizeof(info),
		.id = id,
		.nr_cpus = MAX_CPUS,
		.cpu_stats = (unsigned long)st,
	};
	unsigned int i;

	if (ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info))
		die("info %d: %s", id, strerror(errno));
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < info.nr_cpus && i < MAX_CPUS; i++) {
		if (cpu >= 0 && st[i].cpu != (unsigned int)cpu)
			continue;
		sum->written += st[i].written;
		sum->overwritten += st[i].overwritten;
		sum->dropped += st[i].dropped;
		sum->bytes += st[i].bytes;
		sum->head = st[i].head;
		sum->tail = st[i].tail;
	}
}

/* ------------------------------------------------------------------------
 * Configurations.  setup() makes the recorder exist, teardown() removes it
 * and returns how many records it took (-1 if it cannot tell).
 */

/* What a configuration's cost is divided by. */
enum unit {
	PER_EVENT,	/* the loop's tracepoint hits, 2 N */
	PER_SAMPLE,	/* the samples the recorder took during the loop */
	PER_OP,		/* the loop's iterations (an mmap, an exec) */
};

struct config {
	const char	*name;
	const char	*what;
	void		(*setup)(struct config *c);
	long long	(*teardown)(struct config *c);
	int		arg;		/* events, readers or fields, by setup */
	const char *const *prefix;	/* the loop runs under this command */
	const char	*loop;		/* ppbench's loop: loop, spin, mmap, exec */
	const char	*base;		/* the configuration subtracted */
	enum unit	unit;
	long long	(*count)(void);	/* the recorder's samples so far */
	long long	before;		/* count() just before the loop */
	double		t[MAX_REPS];
	long long	recorded[MAX_REPS];
	double		ovh[MAX_REPS];	/* ns per event, against the same rep's base */
	double		med, lo, hi, tmed;
	int		skip;
};

static int rec_ids[2];
static int other_ids[MAX_OTHERS];
static int nr_others;
static pid_t readers[8];
static int nr_readers;
static int native_fds[2 * MAX_CPUS];
static void *native_maps[2 * MAX_CPUS];
static int nr_native;
static char perf_err[8192];

static void base_setup(struct config *c)
{
	(void)c;
}

static long long base_teardown(struct config *c)
{
	(void)c;
	return 0;
}

static const char *const recorded_tps[2] = {
	"raw_syscalls/sys_enter", "raw_syscalls/sys_exit"
};

static long long pp_recorded(int paused)
{
	struct perf_persistent_cpu_stats a, b;

	pp_stats(rec_ids[0], -1, &a);
	pp_stats(rec_ids[1], -1, &b);
	return paused ? a.dropped + b.dropped : a.written + b.written;
}

/* Readers receiving records from persistent event @name, over all CPUs. */
static long long event_readers(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path),
		 "/sys/bus/event_source/devices/persistent/instances/%s/readers",
		 name);
	return read_num(path);
}

/*
 * Start @n "perf record -a" readers of @events, which name the persistent
 * events @names (NULL-terminated); wait until all are in: each perf opens
 * a reader per event and CPU, then synthesizes the system's tasks, then
 * enables them, and only an enabled reader is counted in "readers".  A
 * reader still synthesizing would be counted in the loop's window.
 */
static void readers_start(int n, const char *events, const char *const *names)
{
	double t0 = now();
	int i, in;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			int fd = open("/dev/null", O_RDWR);

			dup2(fd, 1);
			dup2(fd, 2);
			execlp("perf", "perf", "record", "-q", "-a", "-e", events,
			       "-o", "/dev/null", NULL);
			_exit(127);
		}
		readers[nr_readers++] = pid;
	}
	do {
		if (now() - t0 > 120)
			die("perf readers did not start");
		usleep(20000);
		for (in = 1, i = 0; names[i]; i++)
			if (event_readers(names[i]) < (long long)n * ncpus)
				in = 0;
	} while (!in);
}

static void readers_stop(void)
{
	int i;

	for (i = 0; i < nr_readers; i++)
		kill(readers[i], SIGINT);
	for (i = 0; i < nr_readers; i++)
		waitpid(readers[i], NULL, 0);
	nr_readers = 0;
}

static void others_create(int n)
{
	char name[PERF_PERSISTENT_NAME_MAX];

	for (nr_others = 0; nr_others < n; nr_others++) {
		snprintf(name, sizeof(name), "bench_other_%d", nr_others);
		other_ids[nr_others] = pp_create(name, "mce/mce_record", 0);
	}
}

static void others_destroy(void)
{
	while (nr_others)
		pp_destroy(other_ids[--nr_others]);
}

/* The two recorded events. */
static void recorded_create(int paused)
{
	rec_ids[0] = pp_create("bench_sys_enter", recorded_tps[0], paused);
	rec_ids[1] = pp_create("bench_sys_exit", recorded_tps[1], paused);
}

/* Destroy the two recorded events; return what they recorded (or dropped). */
static long long recorded_destroy(int paused)
{
	long long n = pp_recorded(paused);

	pp_destroy(rec_ids[0]);
	pp_destroy(rec_ids[1]);
	return n;
}

/* c->arg other events, then the two recorded ones. */
static void pp_setup(struct config *c)
{
	others_create(c->arg);
	recorded_create(0);
}

static long long pp_teardown(struct config *c)
{
	long long n = recorded_destroy(0);

	(void)c;
	others_destroy();
	return n;
}

/* The recorded events as the tool creates them by default: COMM records on. */
static void comm_setup(struct config *c)
{
	(void)c;
	pp_comm = 1;
	recorded_create(0);
	pp_comm = 0;
}

/*
 * Ablation: the same recording the fields c->arg names only: without the
 * time (local_clock()), without the payload, or what ftrace keeps.
 */
static void fields_setup(struct config *c)
{
	pp_fields = c->arg;
	recorded_create(0);
	pp_fields = FIELDS;
}

/*
 * The same events created with the flags c->arg: on perf's path (perf's
 * tracepoint glue, our handler), or kept in the reserved region.
 */
static void perf_path_setup(struct config *c)
{
	pp_flags = c->arg;
	recorded_create(0);
	pp_flags = 0;
}

/*
 * The recorded events scoped to the loop's cgroup (kept) or another
 * (other), beside the same two events scoped to each of c->arg - 1 more
 * cgroups, siblings without a task, with the smallest buffers (they record
 * nothing): a host with c->arg containers, each with its own recorder on
 * the same tracepoints.
 */
static int scoped_ids[2 * MAX_OTHERS];
static int nr_scoped;

/*
 * The two recorded events, with the smallest buffers (they record
 * nothing), scoped as pp_cgroup or pp_task say, named bench_KINDi_t.
 */
static void scoped_pair(char kind, int i)
{
	char name[PERF_PERSISTENT_NAME_MAX];
	unsigned long size = buffer_size;
	int t;

	buffer_size = 4096;
	for (t = 0; t < 2; t++) {
		snprintf(name, sizeof(name), "bench_%c%d_%d", kind, i, t);
		scoped_ids[nr_scoped++] = pp_create(name, recorded_tps[t], 0);
	}
	buffer_size = size;
}

static void scoped_create(int n)
{
	char path[64];
	int i;

	for (i = 1; i < n; i++) {
		snprintf(path, sizeof(path), "%s%s-%d", CGROUP_ROOT,
			 OTHER_CGROUP, i);
		mkdir(path, 0755);
		pp_cgroup = path + strlen(CGROUP_ROOT);
		scoped_pair('c', i);
	}
}

static void scoped_destroy(void)
{
	while (nr_scoped)
		pp_destroy(scoped_ids[--nr_scoped]);
}

/*
 * The task configurations: the recorded events scoped to ppbench, which
 * the loop inherits as perf record -p would have it (TASK, attr.inherit),
 * beside the same two events scoped to each of c->arg - 1 sleeping
 * processes: a host with c->arg process trees, each with its own
 * recorder on the same tracepoints.  TASK scopes take perf's path, so
 * persistent-perf is their reference.
 */
static pid_t sleepers[MAX_OTHERS];
static int nr_sleepers;

static void task_setup(struct config *c)
{
	int i;

	for (i = 1; i < c->arg; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			for (;;)
				pause();
		}
		sleepers[nr_sleepers++] = pid;
		pp_task = pid;
		scoped_pair('t', i);
	}
	/* After the sleepers: they must not inherit ppbench's events. */
	pp_task = getpid();
	recorded_create(0);
	pp_task = 0;
}

static long long task_teardown(struct config *c)
{
	long long n = recorded_destroy(0);

	(void)c;
	scoped_destroy();
	while (nr_sleepers) {
		pid_t pid = sleepers[--nr_sleepers];

		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return n;
}

static void cgroup_setup(struct config *c)
{
	scoped_create(c->arg);
	pp_cgroup = strncmp(c->name, "cgroup-other", 12) ? BENCH_CGROUP :
							    OTHER_CGROUP;
	recorded_create(0);
	pp_cgroup = NULL;
}

static long long cgroup_teardown(struct config *c)
{
	long long n = recorded_destroy(0);

	(void)c;
	scoped_destroy();
	return n;
}

static void floor_setup(struct config *c)
{
	(void)c;
	recorded_create(1);
}

/* Records dropped while paused: what the handler saw. */
static long long floor_teardown(struct config *c)
{
	(void)c;
	return recorded_destroy(1);
}

/* c->arg perf readers of the recorded events. */
static void live_setup(struct config *c)
{
	recorded_create(0);
	static const char *const names[] = {
		"bench_sys_enter", "bench_sys_exit", NULL
	};

	readers_start(c->arg, "persistent/bench_sys_enter,nohistory/,"
			      "persistent/bench_sys_exit,nohistory/", names);
}

/* c->arg perf readers of mce_record, which does not fire. */
static void idle_setup(struct config *c)
{
	recorded_create(0);
	static const char *const names[] = { "mce_record", NULL };

	readers_start(c->arg, "persistent/mce_record/", names);
}

static long long readers_teardown(struct config *c)
{
	(void)c;
	readers_stop();
	return recorded_destroy(0);
}

static void native_setup(struct config *c)
{
	size_t len = 4096 + buffer_size;
	int cpu, t;

	(void)c;
	for (cpu = 0; cpu < ncpus; cpu++)
		for (t = 0; t < 2; t++) {
			struct perf_event_attr attr = {
				.size = sizeof(attr),
				.type = PERF_TYPE_TRACEPOINT,
				.config = tp_id(recorded_tps[t]),
				.sample_period = 1,
				.sample_type = FIELDS,
				.write_backward = 1,
			};
			int fd = perf_open(&attr, cpu);
			void *m;

			if (fd < 0)
				die("perf_event_open %s: %s", recorded_tps[t],
				    strerror(errno));
			/* Read-only: the kernel overwrites, as a flight recorder. */
			m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
			if (m == MAP_FAILED)
				die("mmap perf buffer: %s", strerror(errno));
			native_fds[nr_native] = fd;
			native_maps[nr_native++] = m;
		}
}

static long long native_teardown(struct config *c)
{
	long long n = 0;

	(void)c;
	while (nr_native) {
		unsigned long long count = 0;

		nr_native--;
		if (read(native_fds[nr_native], &count, sizeof(count)) == sizeof(count))
			n += count;
		munmap(native_maps[nr_native], 4096 + buffer_size);
		close(native_fds[nr_native]);
	}
	return n;
}

static void ftrace_setup(struct config *c)
{
	char kb[32];
	int t;

	(void)c;
	rmdir(FTRACE_INST);
	if (mkdir(FTRACE_INST, 0755))
		die("mkdir " FTRACE_INST ": %s", strerror(errno));
	snprintf(kb, sizeof(kb), "%lu", buffer_size / 1024);
	if (write_file(FTRACE_INST "/buffer_size_kb", kb) ||
	    write_file(FTRACE_INST "/options/overwrite", "1"))
		die("configuring the ftrace instance failed");
	for (t = 0; t < 2; t++) {
		char path[256];

		snprintf(path, sizeof(path), FTRACE_INST "/events/%s/enable",
			 recorded_tps[t]);
		if (write_file(path, "1"))
			die("%s: %s", path, strerror(errno));
	}
	if (write_file(FTRACE_INST "/tracing_on", "1"))
		die("tracing_on: %s", strerror(errno));
}

static long long ftrace_teardown(struct config *c)
{
	long long n = 0;
	int cpu, t;

	(void)c;
	write_file(FTRACE_INST "/tracing_on", "0");
	for (cpu = 0; cpu < ncpus; cpu++) {
		char path[256];

		snprintf(path, sizeof(path), FTRACE_INST "/per_cpu/cpu%d/stats", cpu);
		n += read_key(path, "entries") + read_key(path, "overrun");
	}
	for (t = 0; t < 2; t++) {
		char path[256];

		snprintf(path, sizeof(path), FTRACE_INST "/events/%s/enable",
			 recorded_tps[t]);
		write_file(path, "0");
	}
	if (rmdir(FTRACE_INST))
		die("rmdir " FTRACE_INST ": %s", strerror(errno));
	return n;
}

/*
 * LTTng's kernel tracer (scripts/lab-lttng stages it in the guest): a
 * session of its own per configuration, 64 KiB per CPU (4 sub-buffers of
 * 16 KiB), on close(2)'s entry and exit.  LTTng instruments system calls
 * with events of its own, one per call and direction, so close's entry
 * and exit are the hits of sys_enter and sys_exit that the loop makes;
 * their payloads are close's (the fd; the return value), smaller than
 * raw_syscalls' six arguments.  "lttng" is a snapshot session in overwrite
 * mode, LTTng's flight recorder; "lttng-discard" a normal session whose
 * consumer daemon writes the trace to /tmp (tmpfs) and whose buffers drop
 * new events when full.
 */
#define LTTNG		"/usr/bin/lttng"
#define LTTNG_OUT	"/tmp/ppbench-lttng"

static int lttng_ready;

/* Run "lttng ARGS" quietly; die if it fails. */
static void lttng(const char *args)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), LTTNG " %s >/dev/null 2>&1", args);
	if (system(cmd))
		die("%s failed", cmd);
}

/* Start LTTng's session daemon once, if a configuration needs it. */
static void lttng_start_daemon(void)
{
	if (lttng_ready)
		return;
	mkdir("/var", 0755);
	mkdir("/var/run", 0755);
	if (mount("none", "/var/run", "tmpfs", 0, NULL) && errno != EBUSY)
		die("mount /var/run: %s", strerror(errno));
	/* --daemonize returns once the daemon is ready for clients. */
	if (system("/usr/bin/lttng-sessiond --daemonize >/dev/null 2>&1"))
		die("lttng-sessiond did not start");
	lttng_ready = 1;
}

static void lttng_setup(struct config *c)
{
	char args[256];

	lttng_start_daemon();
	snprintf(args, sizeof(args), "create ppbench %s -o " LTTNG_OUT,
		 c->arg ? "" : "--snapshot");
	lttng(args);
	snprintf(args, sizeof(args),
		 "enable-channel -k %s --subbuf-size=%luK --num-subbuf=4 c",
		 c->arg ? "--discard" : "--overwrite", buffer_size / 4 / 1024);
	lttng(args);
	lttng("enable-event -k -c c --syscall close");
	lttng("start");
}

static long long lttng_teardown(struct config *c)
{
	(void)c;
	lttng("stop");
	lttng("destroy ppbench");
	if (system("rm -rf " LTTNG_OUT))
		die("rm " LTTNG_OUT);
	return -1;
}

/* ------------------------------------------------------------------------
 * BPF flight recorders (bench/ppbpf.bpf.c): c->name less "bpf-" is the
 * kind ppbpf loads, pins and leaves running with no process holding it
 * (but bpf-perfbuf's buffers, which a process must keep mapped).
 */
#define PPBPF		"/usr/bin/ppbpf"

static const char *bpf_kind(const struct config *c)
{
	return c->name + strlen("bpf-");
}

/*
 * The JIT-compiled programs' addresses while loaded, for the instruction
 * count to name (print_text_symbols()): "[bpf]" lines of /proc/kallsyms.
 * All are named bpf_jit_code: a window runs one configuration's programs,
 * and a later configuration's may reuse an earlier one's addresses.
 */
static char bpf_ksyms[64][32];
static unsigned int nr_bpf_ksyms;
/* ppbench insns: the instruction count's report names the addresses. */
static int counting;

static void bpf_ksyms_save(void)
{
	char line[512], addr[32];
	FILE *f;

	if (!counting)
		return;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		die("/proc/kallsyms: %s", strerror(errno));
	while (fgets(line, sizeof(line), f) && nr_bpf_ksyms < 64)
		if (strstr(line, " bpf_prog_") && strstr(line, "[bpf]") &&
		    sscanf(line, "%31s", addr) == 1)
			snprintf(bpf_ksyms[nr_bpf_ksyms++], sizeof(bpf_ksyms[0]),
				 "%s", addr);
	fclose(f);
}

static void bpf_setup(struct config *c)
{
	char cmd[128];
	unsigned long bytes = 0;

	/*
	 * bpf-ring never fills: room for the loop's records (88 and 48
	 * bytes with their headers) and a quarter more, and 1 MiB for the
	 * rest of the system's.  bpf-ring-ovw gets what persistent's events
	 * have together: two buffers per CPU.
	 */
	if (!strcmp(c->name, "bpf-ring"))
		for (bytes = 4096; bytes < calls * 136 * 5 / 4 + (1 << 20);)
			bytes *= 2;
	if (!strcmp(c->name, "bpf-ring-ovw"))
		bytes = 2 * buffer_size * ncpus;
	snprintf(cmd, sizeof(cmd), PPBPF " load %s %lu", bpf_kind(c), bytes);
	if (system(cmd))
		die("%s failed", cmd);
	bpf_ksyms_save();
}

/* "recorded N dropped D" from ppbpf unload; bpf-ring must drop nothing. */
static long long bpf_teardown(struct config *c)
{
	long long recorded = -1, dropped = -1;
	char cmd[128];
	FILE *f;

	snprintf(cmd, sizeof(cmd), PPBPF " unload %s", bpf_kind(c));
	f = popen(cmd, "r");
	if (!f || fscanf(f, "recorded %lld dropped %lld", &recorded,
			 &dropped) != 2 || pclose(f))
		die("%s failed", cmd);
	if (!strcmp(c->name, "bpf-ring") && dropped)
		die("bpf-ring dropped %lld records: its ring was too small",
		    dropped);
	/* The full ring's records are its drops. */
	return strcmp(c->name, "bpf-ring-full") ? recorded : dropped;
}

static const char *const perf_record_cmd[] = {
	"/usr/bin/perf", "record", "-o", "/dev/null", "-e", "raw_syscalls:*",
	"--", NULL
};

static void perf_record_setup(struct config *c)
{
	(void)c;
}

/* "[ perf record: Captured and wrote ... (N samples) ]" */
static long long perf_record_teardown(struct config *c)
{
	const char *p = strstr(perf_err, " samples)");

	(void)c;
	if (!p)
		return -1;
	while (p > perf_err && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return atoll(p);
}

/* ------------------------------------------------------------------------
 * Profiles: a cpu-clock sampler at PROF_HZ on every CPU, with call chains
 * (-g, frame pointers) or without, over user work on CPU 0 (the other
 * CPUs idle, sampled too), as "perf persistent create -g -F 999
 * cpu-clock" and "perf record -g -F 999 -a" make them.  The cost is per
 * sample the recorder took during the loop.
 */
#define PROF_HZ		999
#define PROF_FIELDS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define PROF_BUFFER	(1024 * 1024)

static int prof_id;

static void prof_attr(struct perf_event_attr *attr, int chain)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->freq = 1;
	attr->sample_freq = PROF_HZ;
	attr->sample_type = PROF_FIELDS | (chain ? PERF_SAMPLE_CALLCHAIN : 0);
}

/* A persistent sampler; c->arg: with call chains. */
static void prof_setup(struct config *c)
{
	struct perf_event_attr attr;
	struct perf_persistent_create pc = {
		.size = sizeof(pc),
		.attr = (unsigned long)&attr,
		.buffer_size = PROF_BUFFER,
	};

	prof_attr(&attr, c->arg);
	snprintf(pc.name, sizeof(pc.name), "bench_prof");
	if (ioctl(ctl, PERF_PERSISTENT_IOC_CREATE, &pc))
		die("create bench_prof: %s", strerror(errno));
	prof_id = pc.id;
}

static long long prof_written(void)
{
	struct perf_persistent_cpu_stats st;

	pp_stats(prof_id, -1, &st);
	return st.written;
}

static long long prof_teardown(struct config *c)
{
	long long n = prof_written() - c->before;

	pp_destroy(prof_id);
	return n;
}

/*
 * perf's own sampler: perf_event_open() of the same attributes on every
 * CPU, write_backward, mapped read-only, no reader (perf's kernel path
 * without perf record's side-band and its reading).
 */
static void prof_native_setup(struct config *c)
{
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct perf_event_attr attr;
		void *m;
		int fd;

		prof_attr(&attr, c->arg);
		attr.write_backward = 1;
		fd = perf_open(&attr, cpu);
		if (fd < 0)
			die("perf_event_open cpu-clock: %s", strerror(errno));
		m = mmap(NULL, 4096 + PROF_BUFFER, PROT_READ, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			die("mmap perf buffer: %s", strerror(errno));
		native_fds[nr_native] = fd;
		native_maps[nr_native++] = m;
	}
}

/*
 * The samples in the backward-written buffers: from the head (which
 * counts down from 0) to where writing began, or one lap.
 */
static long long prof_native_samples(void)
{
	long long n = 0;
	int i;

	for (i = 0; i < nr_native; i++) {
		struct perf_event_mmap_page *pg = native_maps[i];
		const char *data = (const char *)native_maps[i] + 4096;
		unsigned long long head = __atomic_load_n(&pg->data_head,
							   __ATOMIC_ACQUIRE);
		unsigned long long pos = head;

		while (pos != 0 && pos - head < PROF_BUFFER) {
			const struct perf_event_header *h =
				(const void *)(data + (pos & (PROF_BUFFER - 1)));

			if (!h->size)
				break;
			n += h->type == PERF_RECORD_SAMPLE;
			pos += h->size;
		}
	}
	return n;
}

static long long prof_native_teardown(struct config *c)
{
	long long n = prof_native_samples() - c->before;

	while (nr_native) {
		nr_native--;
		munmap(native_maps[nr_native], 4096 + PROF_BUFFER);
		close(native_fds[nr_native]);
	}
	return n;
}

/*
 * perf record as users run it: into a file (tmpfs), which also makes it
 * count the samples it wrote, after the loop (into /dev/null it does not).
 */
#define PROF_DATA	"/tmp/ppbench-prof.data"

/*
 * The sampling alone: the same cpu-clock counters with no buffer, so that
 * each overflow's output finds none and stops (the timer, the interrupt,
 * perf's overflow; no call chain, nothing written).  What every sampler
 * pays before its own path.
 */
static void prof_floor_setup(struct config *c)
{
	int cpu;

	(void)c;
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct perf_event_attr attr;
		int fd;

		prof_attr(&attr, 0);
		attr.sample_type = PERF_SAMPLE_IP;
		fd = perf_open(&attr, cpu);
		if (fd < 0)
			die("perf_event_open cpu-clock: %s", strerror(errno));
		native_fds[nr_native++] = fd;
	}
}

/* The counters' time. */
static unsigned long long prof_floor_ns(void)
{
	unsigned long long sum = 0, v;
	int i;

	for (i = 0; i < nr_native; i++)
		if (read(native_fds[i], &v, sizeof(v)) == sizeof(v))
			sum += v;
	return sum;
}

/* Its overflows: the counters' time at PROF_HZ, as the samplers' are. */
static long long prof_floor_samples(void)
{
	return prof_floor_ns() * PROF_HZ / 1000000000ULL;
}

static long long prof_floor_teardown(struct config *c)
{
	long long n = prof_floor_samples() - c->before;

	while (nr_native)
		close(native_fds[--nr_native]);
	return n;
}

static const char *const prof_record_g_cmd[] = {
	"/usr/bin/perf", "record", "-o", PROF_DATA, "-a", "-g", "-F", "999",
	"-e", "cpu-clock", "--", NULL
};

static const char *const prof_record_cmd[] = {
	"/usr/bin/perf", "record", "-o", PROF_DATA, "-a", "-F", "999",
	"-e", "cpu-clock", "--", NULL
};

static long long prof_record_teardown(struct config *c)
{
	long long n = perf_record_teardown(c);

	unlink(PROF_DATA);
	if (n < 0)
		die("%s: no sample count from perf record: %s", c->name, perf_err);
	return n;
}

#define CONFIG(n, w, s, t, a, p) \
	{ .name = n, .what = w, .setup = s, .teardown = t, .arg = a, .prefix = p, \
	  .loop = "loop", .base = "base", .unit = PER_EVENT }
/* A profile's configuration: loop @l, against @b, per @u. */
#define PROFILE(n, w, s, t, cnt, a, p, l, b, u) \
	{ .name = n, .what = w, .setup = s, .teardown = t, .count = cnt, \
	  .arg = a, .prefix = p, .loop = l, .base = b, .unit = u }

static struct config configs[] = {
	CONFIG("base", "nothing recording", base_setup, base_teardown, 0, NULL),
	CONFIG("perf-native", "perf_event_open, write_backward, read-only mmap",
	       native_setup, native_teardown, 0, NULL),
	CONFIG("perf-record", "perf record -o /dev/null -e raw_syscalls:*",
	       perf_record_setup, perf_record_teardown, 0, perf_record_cmd),
	CONFIG("ftrace", "tracefs instance, overwrite", ftrace_setup,
	       ftrace_teardown, 0, NULL),
	CONFIG("lttng", "LTTng, snapshot session, overwrite", lttng_setup,
	       lttng_teardown, 0, NULL),
	CONFIG("lttng-discard", "LTTng, normal session, discard", lttng_setup,
	       lttng_teardown, 1, NULL),
	CONFIG("persistent", "persistent events", pp_setup, pp_teardown, 0, NULL),
	CONFIG("persistent-comm", "persistent events with COMM records, the tool's default",
	       comm_setup, pp_teardown, 0, NULL),
	CONFIG("bpf-floor", "BPF: empty tp_btf programs", bpf_setup,
	       bpf_teardown, 0, NULL),
	CONFIG("bpf-array", "BPF: per-CPU ring in an mmapable array, overwrite",
	       bpf_setup, bpf_teardown, 0, NULL),
	CONFIG("bpf-ring", "BPF ring buffer, never full", bpf_setup,
	       bpf_teardown, 0, NULL),
	CONFIG("bpf-ring-full", "BPF ring buffer, full: every record dropped",
	       bpf_setup, bpf_teardown, 0, NULL),
	CONFIG("bpf-ring-ovw", "BPF ring buffer, overwrite mode (6.19)",
	       bpf_setup, bpf_teardown, 0, NULL),
	CONFIG("bpf-perfbuf", "BPF: bpf_perf_event_output, backward perf buffers",
	       bpf_setup, bpf_teardown, 0, NULL),
	CONFIG("bpf-tp", "BPF: classic tracepoint programs, array ring",
	       bpf_setup, bpf_teardown, 0, NULL),
	CONFIG("persistent-perf", "persistent events on perf's path",
	       perf_path_setup, pp_teardown, PERF_PERSISTENT_CREATE_PERF_PATH,
	       NULL),
	CONFIG("kept", "persistent events kept in the reserved region",
	       perf_path_setup, pp_teardown, PERF_PERSISTENT_CREATE_KEEP, NULL),
	CONFIG("floor", "persistent events, paused", floor_setup, floor_teardown,
	       0, NULL),
	CONFIG("cgroup-1", "persistent, scoped to the loop's cgroup",
	       cgroup_setup, cgroup_teardown, 1, NULL),
	CONFIG("cgroup-10", "cgroup-1 + the same in 9 other cgroups",
	       cgroup_setup, cgroup_teardown, 10, NULL),
	CONFIG("cgroup-100", "cgroup-1 + the same in 99 other cgroups",
	       cgroup_setup, cgroup_teardown, 100, NULL),
	CONFIG("cgroup-1000", "cgroup-1 + the same in 999 other cgroups",
	       cgroup_setup, cgroup_teardown, 1000, NULL),
	CONFIG("cgroup-other-1", "persistent, scoped to another cgroup",
	       cgroup_setup, cgroup_teardown, 1, NULL),
	CONFIG("cgroup-other-1000", "cgroup-other-1 + 999 more cgroups",
	       cgroup_setup, cgroup_teardown, 1000, NULL),
	CONFIG("task-1", "persistent, scoped to the loop's process tree",
	       task_setup, task_teardown, 1, NULL),
	CONFIG("task-10", "task-1 + the same for 9 other processes",
	       task_setup, task_teardown, 10, NULL),
	CONFIG("task-100", "task-1 + the same for 99 other processes",
	       task_setup, task_teardown, 100, NULL),
	CONFIG("task-1000", "task-1 + the same for 999 other processes",
	       task_setup, task_teardown, 1000, NULL),
	CONFIG("no-time", "persistent without the time field", fields_setup,
	       pp_teardown, FIELDS & ~PERF_SAMPLE_TIME, NULL),
	CONFIG("no-raw", "persistent without the raw payload", fields_setup,
	       pp_teardown, FIELDS & ~PERF_SAMPLE_RAW, NULL),
	CONFIG("time-raw", "persistent with TIME|RAW only, what ftrace keeps",
	       fields_setup, pp_teardown, PERF_SAMPLE_TIME | PERF_SAMPLE_RAW, NULL),
	CONFIG("others-1", "persistent + 1 other event", pp_setup, pp_teardown,
	       1, NULL),
	CONFIG("others-10", "persistent + 10 other events", pp_setup,
	       pp_teardown, 10, NULL),
	CONFIG("others-100", "persistent + 100 other events", pp_setup,
	       pp_teardown, 100, NULL),
	CONFIG("others-1000", "persistent + 1000 other events", pp_setup,
	       pp_teardown, 1000, NULL),
	CONFIG("idle-readers-1", "persistent + 1 perf reader of mce_record",
	       idle_setup, readers_teardown, 1, NULL),
	CONFIG("idle-readers-4", "persistent + 4 perf readers of mce_record",
	       idle_setup, readers_teardown, 4, NULL),
	CONFIG("live-readers-1", "persistent + 1 perf reader of the recorded events",
	       live_setup, readers_teardown, 1, NULL),
	CONFIG("live-readers-4", "persistent + 4 perf readers of the recorded events",
	       live_setup, readers_teardown, 4, NULL),
	PROFILE("prof-base", "user work, nothing sampling", base_setup,
		base_teardown, NULL, 0, NULL, "spin", "prof-base", PER_SAMPLE),
	PROFILE("prof-floor", "perf_event_open cpu-clock 999 Hz, no buffer",
		prof_floor_setup, prof_floor_teardown, prof_floor_samples, 0, NULL,
		"spin", "prof-base", PER_SAMPLE),
	PROFILE("prof", "persistent cpu-clock sampler, 999 Hz", prof_setup,
		prof_teardown, prof_written, 0, NULL, "spin", "prof-base",
		PER_SAMPLE),
	PROFILE("prof-g", "persistent cpu-clock sampler, 999 Hz, -g",
		prof_setup, prof_teardown, prof_written, 1, NULL, "spin",
		"prof-base", PER_SAMPLE),
	PROFILE("prof-native-g", "perf_event_open cpu-clock 999 Hz, callchain",
		prof_native_setup, prof_native_teardown, prof_native_samples, 1,
		NULL, "spin", "prof-base", PER_SAMPLE),
	PROFILE("prof-record", "perf record -a -F 999 -e cpu-clock",
		perf_record_setup, prof_record_teardown, NULL, 0,
		prof_record_cmd, "spin", "prof-base", PER_SAMPLE),
	PROFILE("prof-record-g", "perf record -a -g -F 999 -e cpu-clock",
		perf_record_setup, prof_record_teardown, NULL, 0,
		prof_record_g_cmd, "spin", "prof-base", PER_SAMPLE),
	PROFILE("mmap-base", "mmap, run, munmap new code; nothing sampling",
		base_setup, base_teardown, NULL, 0, NULL, "mmap", "mmap-base",
		PER_OP),
	PROFILE("mmap-g", "the same, persistent sampler -g", prof_setup,
		prof_teardown, prof_written, 1, NULL, "mmap", "mmap-base", PER_OP),
	PROFILE("mmap-record-g", "the same, perf record -a -g", perf_record_setup,
		prof_record_teardown, NULL, 0, prof_record_g_cmd, "mmap",
		"mmap-base", PER_OP),
	PROFILE("exec-base", "fork, exec, 1 ms of work, exit; nothing sampling",
		base_setup, base_teardown, NULL, 0, NULL, "exec", "exec-base",
		PER_OP),
	PROFILE("exec-g", "the same, persistent sampler -g", prof_setup,
		prof_teardown, prof_written, 1, NULL, "exec", "exec-base", PER_OP),
	PROFILE("exec-record-g", "the same, perf record -a -g", perf_record_setup,
		prof_record_teardown, NULL, 0, prof_record_g_cmd, "exec",
		"exec-base", PER_OP),
};

#define NR_CONFIGS	(sizeof(configs) / sizeof(configs[0]))

static struct config *config(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_CONFIGS; i++)
		if (!strcmp(configs[i].name, name))
			return &configs[i];
	die("no configuration %s", name);
	return NULL;
}

/*
 * What one live reader adds to each record, over recording alone, in units
 * of what perf spends recording the tracepoint itself.
 */
static double live_extra_ratio(void)
{
	return (config("live-readers-1")->med - config("persistent")->med) /
	       config("perf-native")->med;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, unsigned int n, double *lo, double *hi)
{
	double s[MAX_REPS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	if (lo)
		*lo = s[0];
	if (hi)
		*hi = s[n - 1];
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Jiffies of the CPUs, summed: all, and idle. */
static void cpus_time(unsigned long long *all, unsigned long long *idle)
{
	unsigned long long v[8];
	char line[512];
	unsigned int cpu, i;
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		die("/proc/stat: %s", strerror(errno));
	*all = *idle = 0;
	while (fgets(line, sizeof(line), f)) {
		/* "cpuN ...", not the sum of them all ("cpu  ..."). */
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9' ||
		    sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu",
			   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) != 9)
			continue;
		for (i = 0; i < 8; i++)
			*all += v[i];
		*idle += v[3] + v[4];
	}
	fclose(f);
}

/*
 * After a setup, wait until the CPUs have gone quiet: what a setup leaves
 * to kworkers and RCU callbacks (a thousand cgroups coming online, perf's
 * readers starting) must not run beside the loop.  Under TCG the vCPUs
 * take turns on one host thread, so another CPU's work costs the loop
 * time, and the instruction count counts every CPU's.  Quiet: 95 % idle
 * over 100 ms (ppbench sleeps meanwhile); at most 5 s.
 */
static void settle(void)
{
	unsigned long long a0, i0, a1, i1;
	int n;

	for (n = 0; n < 50; n++) {
		cpus_time(&a0, &i0);
		usleep(100000);
		cpus_time(&a1, &i1);
		if (a1 > a0 && (i1 - i0) * 100 >= (a1 - a0) * 95)
			return;
	}
}

/* The iterations of @c's loop. */
static unsigned long loop_count(const struct config *c)
{
	if (!strcmp(c->loop, "spin"))
		return spin_n;
	if (!strcmp(c->loop, "mmap"))
		return mmap_n;
	if (!strcmp(c->loop, "exec"))
		return exec_n;
	return calls;
}

/* What round @r of @c divides its cost by. */
static double units(const struct config *c, unsigned int r)
{
	switch (c->unit) {
	case PER_SAMPLE:
		return c->recorded[r] > 0 ? c->recorded[r] : 1;
	case PER_OP:
		return loop_count(c);
	default:
		return 2.0 * calls;
	}
}

/* Set @c up, run its loop, return the loop's time; teardown is the caller's. */
static double run_config(struct config *c)
{
	c->setup(c);
	settle();
	/* A sampler samples the idle CPUs while settle() waits: not counted. */
	if (c->count)
		c->before = c->count();
	return run_kind(c->loop, loop_count(c), c->prefix, perf_err,
			sizeof(perf_err));
}

static void run_configs(void)
{
	unsigned int r, i;

	for (r = 0; r < reps; r++) {
		/* Interleaved; each round starts one configuration later. */
		for (i = 0; i < NR_CONFIGS; i++) {
			struct config *c = &configs[(i + r) % NR_CONFIGS];

			if (c->skip)
				continue;
			c->t[r] = run_config(c);
			c->recorded[r] = c->teardown(c);
		}
		fprintf(stderr, "ppbench: round %u of %u done\n", r + 1, reps);
	}
	for (i = 0; i < NR_CONFIGS; i++) {
		struct config *c = &configs[i];
		struct config *b = config(c->base);

		if (c->skip)
			continue;
		for (r = 0; r < reps; r++)
			c->ovh[r] = (c->t[r] - b->t[r]) * 1e9 / units(c, r);
		c->med = median(c->ovh, reps, &c->lo, &c->hi);
		c->tmed = median(c->t, reps, NULL, NULL);
	}
}

/* ------------------------------------------------------------------------
 * Side measurements.
 */

struct replay {
	unsigned long	buffer_size;	/* of the persistent event */
	long long	history, delivered, lost;
	double		seconds;
};

static struct {
	struct replay replay[2];
	double mmap_mb_s, mmap_rec_s;
	long long mmap_records;
	double mem_per_event, buffers_per_event;
	double create_ms, destroy_ms;
} side;

/* Fill CPU 0's buffer of @id by running the loop; then pause it. */
static void fill(int id, unsigned long size)
{
	/* Records of sys_enter take over 64 bytes: at least two laps. */
	run_loop(2 * size / 64, NULL, NULL, 0);
	if (ioctl(ctl, PERF_PERSISTENT_IOC_PAUSE, id))
		die("pause: %s", strerror(errno));
}

static int pmu_type(void)
{
	return read_num(PMU_DIR "/type");
}

/*
 * History replay: a reader with perf record's default ring (512 KiB),
 * consumed as perf consumes it, from a CPU other than the one delivering,
 * opened on a buffer of @rp->buffer_size full of records: how fast every
 * held record arrives, and how many are lost.
 */
static void measure_replay(struct replay *rp)
{
	struct perf_persistent_cpu_stats st;
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = pmu_type(),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
		.disabled = 1,
	};
	size_t ring = 512 * 1024, len = 4096 + ring;
	unsigned long saved = buffer_size;
	struct perf_event_mmap_page *pg;
	unsigned long long pos = 0, count = 0;
	int done = 0;
	char *data;
	double t0, t1;
	int id, fd;

	buffer_size = rp->buffer_size;
	id = pp_create("bench_replay", recorded_tps[0], 0);
	buffer_size = saved;
	fill(id, rp->buffer_size);
	pp_stats(id, 0, &st);
	rp->history = st.written - st.overwritten;

	attr.config = id;
	fd = perf_open(&attr, 0);
	if (fd < 0)
		die("reader open: %s", strerror(errno));
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED)
		die("reader mmap: %s", strerror(errno));
	data = (char *)pg + 4096;
	rp->delivered = rp->lost = 0;
	pin(ncpus > 1 ? 1 : 0);
	t0 = now();
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		die("reader enable: %s", strerror(errno));
	for (;;) {
		unsigned long long head = __atomic_load_n(&pg->data_head,
							  __ATOMIC_ACQUIRE);

		while (pos < head) {
			struct perf_event_header *h = (void *)(data + pos % ring);

			if (h->type == PERF_RECORD_SAMPLE)
				rp->delivered++;
			pos += h->size;
		}
		__atomic_store_n(&pg->data_tail, pos, __ATOMIC_RELEASE);
		t1 = now();
		if (done || t1 - t0 > 60)
			break;
		/* The reader counts the records it was given; lost or not. */
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			die("reader read: %s", strerror(errno));
		done = count >= (unsigned long long)rp->history;
		if (!done)
			sched_yield();
	}
	/* perf reports a loss only with the next sample written; count it. */
	rp->lost = count - rp->delivered;
	rp->seconds = t1 - t0;
	munmap(pg, len);
	close(fd);
	pp_destroy(id);
}

/*
 * The mmap reader: map CPU 0's buffer read-only, copy it out and walk it
 * from the head (newest) to the tail, decoding every record.
 */
static void measure_mmap(void)
{
	unsigned long size = 4UL << 20;
	unsigned long saved = buffer_size;
	struct perf_persistent_page_ext *ext;
	struct perf_event_mmap_page *pg;
	unsigned long long head, tail, records = 0, bytes = 0;
	char *copy = malloc(size);
	double t0, t1;
	int id, pass, passes = 20;

	buffer_size = size;
	id = pp_create("bench_mmap", recorded_tps[0], 0);
	buffer_size = saved;
	fill(id, size);
	pg = mmap(NULL, 4096 + size, PROT_READ, MAP_SHARED, ctl,
		  PERF_PERSISTENT_MMAP_OFFSET(id, 0, getpagesize()));
	if (pg == MAP_FAILED || !copy)
		die("mmap buffer: %s", strerror(errno));
	ext = (void *)((char *)pg + PERF_PERSISTENT_PAGE_EXT_OFFSET);

	t0 = now();
	for (pass = 0; pass < passes; pass++) {
		unsigned long long pos;

		head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
		tail = __atomic_load_n(&ext->tail, __ATOMIC_ACQUIRE);
		memcpy(copy, (char *)pg + 4096, size);
		for (pos = head; pos != tail; ) {
			const struct perf_event_header *h =
				(void *)(copy + (pos & (size - 1)));
			struct pp_decoded d;
			char rec[1024];
			unsigned long off = pos & (size - 1);
			unsigned int first;

			if (h->size > sizeof(rec) || !h->size)
				die("mmap walk: bad record at %llu", pos);
			/* A record may wrap round the end of the area. */
			first = size - off < h->size ? size - off : h->size;
			memcpy(rec, copy + off, first);
			memcpy(rec + first, copy, h->size - first);
			if (pp_decode(rec, h->size, FIELDS, &d))
				die("mmap walk: undecodable record at %llu", pos);
			records++;
			bytes += h->size;
			pos += h->size;
		}
	}
	t1 = now();
	side.mmap_records = records / passes;
	side.mmap_mb_s = bytes / (t1 - t0) / 1e6;
	side.mmap_rec_s = records / (t1 - t0);
	munmap(pg, 4096 + size);
	free(copy);
	pp_destroy(id);
}

/* Memory per event and create/destroy time, with 1000 events. */
static void measure_lifecycle(void)
{
	long long before, after;
	double t0, t1, t2;

	sync();
	before = read_key("/proc/meminfo", "MemFree");
	t0 = now();
	others_create(MAX_OTHERS);
	t1 = now();
	after = read_key("/proc/meminfo", "MemFree");
	others_destroy();
	t2 = now();
	side.create_ms = (t1 - t0) * 1e3;
	side.destroy_ms = (t2 - t1) * 1e3;
	side.mem_per_event = (before - after) * 1024.0 / MAX_OTHERS;
	side.buffers_per_event = (double)ncpus * (4096 + buffer_size);
}

/* ------------------------------------------------------------------------
 * Output.
 */

static void print_table(void)
{
	unsigned int i;

	printf("\nppbench: %lu x close(-1) on CPU 0, %u interleaved rounds, %d CPUs, "
	       "%lu KiB per-CPU buffers\n", calls, reps, ncpus, buffer_size / 1024);
	printf("%-16s %10s %12s %12s %12s %14s  %s\n", "config", "time/s",
	       "ns/event", "min", "max", "recorded", "what");
	for (i = 0; i < NR_CONFIGS; i++) {
		struct config *c = &configs[i];

		if (c->skip || c->unit != PER_EVENT)
			continue;
		printf("%-16s %10.3f %12.1f %12.1f %12.1f %14lld  %s\n", c->name,
		       c->tmed, c->med, c->lo, c->hi, c->recorded[0], c->what);
	}
	printf("\nprofiles: cpu-clock at %d Hz on every CPU; the work on CPU 0: "
	       "spin %lu x 8 frames, mmap %lu, exec %lu\n", PROF_HZ, spin_n,
	       mmap_n, exec_n);
	printf("%-16s %10s %12s %12s %12s %14s  %s\n", "config", "time/s",
	       "ns/unit", "min", "max", "samples", "what (unit)");
	for (i = 0; i < NR_CONFIGS; i++) {
		struct config *c = &configs[i];

		if (c->skip || c->unit == PER_EVENT)
			continue;
		printf("%-16s %10.3f %12.1f %12.1f %12.1f %14lld  %s (per %s)\n",
		       c->name, c->tmed, c->med, c->lo, c->hi, c->recorded[0],
		       c->what, c->unit == PER_SAMPLE ? "sample" : c->loop);
	}
	for (i = 0; i < 2; i++) {
		struct replay *rp = &side.replay[i];

		printf("%shistory replay from a %lu KiB buffer: %lld records held, "
		       "%lld delivered, %lld lost, %.3f s, %.0f records/s\n",
		       i ? "" : "\n", rp->buffer_size / 1024, rp->history,
		       rp->delivered, rp->lost, rp->seconds,
		       rp->delivered / rp->seconds);
	}
	printf("mmap reader: %lld records per pass, %.0f records/s, %.1f MB/s\n",
	       side.mmap_records, side.mmap_rec_s, side.mmap_mb_s);
	printf("memory per event: %.0f bytes (%.0f of them buffers and control pages)\n",
	       side.mem_per_event, side.buffers_per_event);
	printf("1000 events: create %.0f ms, destroy %.0f ms\n",
	       side.create_ms, side.destroy_ms);
}

/*
 * The RATIO line of each pair of @pairs both of which ran; with @floor,
 * also the ratio of their own paths, over @floor.
 */
static void print_ratios(const char *const (*pairs)[2], unsigned int n,
			 const struct config *floor)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct config *a = config(pairs[i][0]), *b = config(pairs[i][1]);

		if (a->skip || b->skip)
			continue;
		printf("RATIO %s/%s=%.3f\n", a->name, b->name, a->med / b->med);
		if (floor && !floor->skip && b->med > floor->med)
			printf("RATIO %s-path/%s-path=%.3f\n", a->name, b->name,
			       (a->med - floor->med) / (b->med - floor->med));
	}
}

/*
 * The profiles' ratios, whole and each one's own path: over the sampling
 * alone (prof-floor).
 */
static void print_prof_ratios(void)
{
	static const char *const pairs[][2] = {
		{ "prof-g", "prof-record-g" }, { "prof-g", "prof-native-g" },
		{ "prof", "prof-record" },
	};

	print_ratios(pairs, sizeof(pairs) / sizeof(pairs[0]), config("prof-floor"));
}

/*
 * persistent and persistent-comm against the BPF recorders, ftrace and
 * LTTng (issue 44's goals, Documentation/benchmark.rst).
 */
static void print_bpf_ratios(void)
{
	static const char *const pairs[][2] = {
		{ "persistent", "bpf-array" }, { "persistent", "bpf-ring" },
		{ "persistent", "bpf-ring-ovw" },
		{ "persistent-comm", "bpf-array" },
		{ "persistent-comm", "bpf-ring-ovw" },
		{ "persistent-comm", "ftrace" }, { "persistent-comm", "lttng" },
		{ "persistent-comm", "persistent" },
	};

	print_ratios(pairs, sizeof(pairs) / sizeof(pairs[0]), NULL);
}

/* The goal's lines (Documentation/benchmark.rst): seconds for 1000 events. */
static void print_lifecycle(void)
{
	printf("CREATE-1000 %.3f\n", side.create_ms / 1e3);
	printf("DESTROY-1000 %.3f\n", side.destroy_ms / 1e3);
}

static void print_json(void)
{
	unsigned int i, r;

	printf("----- BEGIN results.json -----\n{\n");
	printf("  \"calls\": %lu,\n  \"reps\": %u,\n  \"cpus\": %d,\n"
	       "  \"buffer_size\": %lu,\n", calls, reps, ncpus, buffer_size);
	printf("  \"configs\": [\n");
	for (i = 0; i < NR_CONFIGS; i++) {
		struct config *c = &configs[i];

		if (c->skip)
			continue;
		printf("%s    { \"name\": \"%s\", \"what\": \"%s\",\n"
		       "      \"loop\": \"%s\", \"iterations\": %lu, "
		       "\"per\": \"%s\", \"base\": \"%s\",\n"
		       "      \"median_time_s\": %.6f, \"ns_per_event\": %.2f, "
		       "\"min\": %.2f, \"max\": %.2f,\n      \"time_s\": [",
		       i ? ",\n" : "", c->name, c->what, c->loop, loop_count(c),
		       c->unit == PER_EVENT ? "event" :
		       c->unit == PER_SAMPLE ? "sample" : "op", c->base,
		       c->tmed, c->med, c->lo, c->hi);
		for (r = 0; r < reps; r++)
			printf("%s%.6f", r ? ", " : "", c->t[r]);
		printf("],\n      \"recorded\": [");
		for (r = 0; r < reps; r++)
			printf("%s%lld", r ? ", " : "", c->recorded[r]);
		printf("] }");
	}
	printf("\n  ],\n");
	printf("  \"replay\": [\n");
	for (i = 0; i < 2; i++) {
		struct replay *rp = &side.replay[i];

		printf("    { \"buffer_size\": %lu, \"history\": %lld, \"delivered\": %lld, "
		       "\"lost\": %lld, \"seconds\": %.6f, \"records_per_s\": %.0f }%s\n",
		       rp->buffer_size, rp->history, rp->delivered, rp->lost,
		       rp->seconds, rp->delivered / rp->seconds, i ? "" : ",");
	}
	printf("  ],\n");
	printf("  \"mmap_reader\": { \"records_per_pass\": %lld, \"records_per_s\": %.0f, "
	       "\"mb_per_s\": %.2f },\n", side.mmap_records, side.mmap_rec_s,
	       side.mmap_mb_s);
	printf("  \"memory_per_event\": { \"bytes\": %.0f, \"buffers_bytes\": %.0f },\n",
	       side.mem_per_event, side.buffers_per_event);
	printf("  \"events_1000\": { \"create_ms\": %.1f, \"destroy_ms\": %.1f },\n",
	       side.create_ms, side.destroy_ms);
	printf("  \"ratios\": { \"persistent/perf-native\": %.3f, "
	       "\"persistent/ftrace\": %.3f, \"persistent/floor\": %.3f, "
	       "\"live-readers-1-extra/perf-native\": %.3f }\n}\n",
	       config("persistent")->med / config("perf-native")->med,
	       config("persistent")->med / config("ftrace")->med,
	       config("persistent")->med / config("floor")->med,
	       live_extra_ratio());
	printf("----- END results.json -----\n");
}

/*
 * One loop per configuration, in table order: loop W (counting from 0) is
 * the configuration the W-th INSNS line names.
 */
static void run_insns(void)
{
	unsigned int i, w = 0;

	for (i = 0; i < NR_CONFIGS; i++) {
		struct config *c = &configs[i];
		long long recorded;

		if (c->skip)
			continue;
		double t = run_config(c);

		recorded = c->teardown(c);
		c->recorded[0] = recorded;
		printf("INSNS window=%u config=%s events=%.0f recorded=%lld "
		       "base=%s ns=%.0f\n", w++, c->name, units(c, 0), recorded,
		       c->base, t * 1e9);
	}
}

/*
 * The kernel's and modules' text symbols, "KSYM ADDR TYPE NAME", for
 * bench/insns-report to name the plugin's addresses with (Debian's
 * System.map is a placeholder; this also has KASLR's offset).
 */
static void print_text_symbols(void)
{
	char line[512], addr[32], type[4], name[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned int i;

	if (!f)
		die("/proc/kallsyms: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strstr(line, "[bpf]") && sscanf(line, "%31s %3s %255s", addr, type, name) == 3 &&
		    strchr("tTwW", type[0]) && !type[1])
			printf("KSYM %s %s %s\n", addr, type, name);
	fclose(f);
	for (i = 0; i < nr_bpf_ksyms; i++)
		printf("KSYM %s t bpf_jit_code\n", bpf_ksyms[i]);
}

static void usage(void)
{
	fputs("usage: ppbench run [-r REPS] [-n CALLS] [-t SECONDS] [-b KIB] [-c CONFIG,...]\n"
	      "       ppbench insns [-n CALLS] [-b KIB] [-c CONFIG,...]\n"
	      "       ppbench loop CALLS\n"
	      "       ppbench spin|mmap|exec N\n", stderr);
	exit(129);
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	unsigned int i;
	int opt, insns;

	self = "/proc/self/exe";
	if (argc == 3 && !strcmp(argv[1], "loop"))
		return loop_main(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "burn"))
		return burn_main(strtoul(argv[2], NULL, 0));
	if (argc == 3 && (!strcmp(argv[1], "spin") || !strcmp(argv[1], "mmap") ||
			  !strcmp(argv[1], "exec")))
		return prof_main(argv[1], strtoul(argv[2], NULL, 0));
	if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "insns") &&
			 strcmp(argv[1], "lifecycle")))
		usage();
	insns = !strcmp(argv[1], "insns");
	optind = 2;
	while ((opt = getopt(argc, argv, "r:n:t:b:c:")) != -1) {
		switch (opt) {
		case 'c':
			only = optarg;
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'n':
			calls = strtoul(optarg, NULL, 0);
			break;
		case 't':
			target_s = atof(optarg);
			break;
		case 'b':
			buffer_size = strtoul(optarg, NULL, 0) * 1024;
			break;
		default:
			usage();
		}
	}
	/* -c a,b: those configurations and base only (for development). */
	for (i = 1; only && i < NR_CONFIGS; i++) {
		size_t len = strlen(configs[i].name);
		const char *p;

		configs[i].skip = 1;
		for (p = only; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
			if (!strncmp(p, configs[i].name, len) &&
			    (!p[len] || p[len] == ','))
				configs[i].skip = 0;
	}
	/* What a configuration is measured against runs with it. */
	for (i = 1; only && i < NR_CONFIGS; i++)
		if (!configs[i].skip)
			config(configs[i].base)->skip = 0;
	/* Without LTTng in the guest (scripts/lab-lttng), its configurations go. */
	if (access(LTTNG, X_OK))
		for (i = 1; i < NR_CONFIGS; i++)
			if (!strncmp(configs[i].name, "lttng", 5))
				configs[i].skip = 1;
	/*
	 * Without ppbpf (make -C bench bpf), the BPF configurations go;
	 * without the overwriting ring buffer (before 6.19), bpf-ring-ovw.
	 */
	for (i = 1; i < NR_CONFIGS; i++)
		if (!strncmp(configs[i].name, "bpf-", 4) &&
		    (access(PPBPF, X_OK) ||
		     (!strcmp(configs[i].name, "bpf-ring-ovw") &&
		      system(PPBPF " probe ring-ovw"))))
			configs[i].skip = 1;
	if (reps < 1 || reps > MAX_REPS)
		die("-r: 1 to %d rounds", MAX_REPS);
	self = realpath("/proc/self/exe", NULL);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus > MAX_CPUS)
		die("more than %d CPUs", MAX_CPUS);
	ctl = open(PERF_PERSISTENT_DEVICE, O_RDWR);
	if (ctl < 0)
		die(PERF_PERSISTENT_DEVICE ": %s", strerror(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);
	cgroup_join();

	if (!strcmp(argv[1], "lifecycle")) {
		measure_lifecycle();
		print_lifecycle();
		return 0;
	}
	if (insns) {
		counting = 1;
		if (!calls)
			calls = 10000;
		/*
		 * Fixed: a calibration's loop would open a window of its own.
		 * Each about a second under the plugin, 1000 samples or more.
		 */
		spin_n = 6000;
		mmap_n = 600;
		exec_n = 150;
		run_insns();
		print_text_symbols();
		return 0;
	}
	if (!calls) {
		/* Calibrate: the bare loop should take target_s. */
		double t = run_loop(100000, NULL, NULL, 0);

		calls = 100000 * target_s / t;
	}
	/* The profiles' loops take 2.5 target_s bare: 2000 samples or more. */
	spin_n = 2.5 * target_s * 20 / run_kind("spin", 20, NULL, NULL, 0);
	mmap_n = 2.5 * target_s * 100 / run_kind("mmap", 100, NULL, NULL, 0);
	exec_n = 2.5 * target_s * 20 / run_kind("exec", 20, NULL, NULL, 0);
	fprintf(stderr, "ppbench: %lu calls per run; profiles: spin %lu, mmap %lu, "
		"exec %lu\n", calls, spin_n, mmap_n, exec_n);

	run_configs();
	side.replay[0].buffer_size = buffer_size;
	side.replay[1].buffer_size = 16 * buffer_size;
	measure_replay(&side.replay[0]);
	measure_replay(&side.replay[1]);
	measure_mmap();
	measure_lifecycle();

	print_table();
	print_json();
	printf("RATIO persistent/perf-native=%.3f\n",
	       config("persistent")->med / config("perf-native")->med);
	printf("RATIO persistent/ftrace=%.3f\n",
	       config("persistent")->med / config("ftrace")->med);
	printf("RATIO persistent/floor=%.3f\n",
	       config("persistent")->med / config("floor")->med);
	if (!config("lttng")->skip)
		printf("RATIO persistent/lttng=%.3f\n",
		       config("persistent")->med / config("lttng")->med);
	printf("RATIO live-readers-1-extra/perf-native=%.3f\n", live_extra_ratio());
	printf("RATIO cgroup-1/persistent=%.3f\n",
	       config("cgroup-1")->med / config("persistent")->med);
	printf("RATIO cgroup-1000/cgroup-1=%.3f\n",
	       config("cgroup-1000")->med / config("cgroup-1")->med);
	printf("RATIO cgroup-other-1000/cgroup-other-1=%.3f\n",
	       config("cgroup-other-1000")->med / config("cgroup-other-1")->med);
	printf("RATIO task-1/persistent-perf=%.3f\n",
	       config("task-1")->med / config("persistent-perf")->med);
	printf("RATIO task-1000/task-1=%.3f\n",
	       config("task-1000")->med / config("task-1")->med);
	printf("RATIO kept/persistent=%.3f\n",
	       config("kept")->med / config("persistent")->med);
	print_prof_ratios();
	print_bpf_ratios();
	print_lifecycle();
	return 0;
}
