// SPDX-License-Identifier: GPL-2.0
/*
 * ppbpf - load, pin and count the BPF flight recorders of make bench
 * (bench/ppbpf.bpf.c, built into this program; Documentation/benchmark.rst).
 *
 *   ppbpf load KIND [BYTES]   load KIND's two programs, check that the
 *                             kernel JIT-compiled them, attach them, pin
 *                             their links and maps under PIN_DIR, exit
 *   ppbpf unload KIND         print "recorded N dropped D", unpin (which
 *                             detaches the programs and frees the maps)
 *   ppbpf probe KIND          exit 0 if the kernel has what KIND needs
 *
 * KIND: floor, array, ring, ring-full, ring-ovw, perfbuf or tp.  BYTES
 * sizes the BPF ring buffer of ring and ring-ovw (a power of two, at least
 * a page).  Nothing of this process stays once load returns, but for
 * perfbuf: a perf buffer lives while it is mapped, so a child of load
 * keeps them mapped until unload stops it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/magic.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define PIN_DIR		"/sys/fs/bpf/ppbench"
#define PERFBUF_PID	"/tmp/ppbpf-perfbuf.pid"
#define PERFBUF_BYTES	"/tmp/ppbpf-perfbuf.bytes"
/* Not in 6.1's UAPI headers: the ring buffer's overwrite mode (6.19). */
#define RB_OVERWRITE	(1U << 19)
/* Sizes of a sys_enter and a sys_exit record in perfbuf's buffers. */
#define PERFBUF_PAIR	(96 + 56)
#define PERFBUF_PAGES	16

/* The programs, compiled by clang (bench/Makefile), embedded here. */
extern const char ppbpf_obj[], ppbpf_obj_end[];
asm(".section .rodata\n"
    ".balign 8\n"
    ".global ppbpf_obj\n"
    "ppbpf_obj:\n"
    ".incbin \"" PPBPF_OBJ "\"\n"
    ".global ppbpf_obj_end\n"
    "ppbpf_obj_end:\n"
    ".previous\n");

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ppbpf: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* The programs' name prefix, and the map a kind records into. */
static const char *prog_prefix(const char *kind)
{
	if (!strcmp(kind, "floor") || !strcmp(kind, "array") ||
	    !strcmp(kind, "perfbuf") || !strcmp(kind, "tp"))
		return kind;
	if (!strcmp(kind, "ring") || !strcmp(kind, "ring-full") ||
	    !strcmp(kind, "ring-ovw"))
		return "ring";
	die("unknown kind %s", kind);
	return NULL;
}

static const char *kind_map(const char *kind)
{
	const char *p = prog_prefix(kind);

	if (!strcmp(p, "array") || !strcmp(p, "tp"))
		return "ring";
	if (!strcmp(p, "ring"))
		return "rb";
	if (!strcmp(p, "perfbuf"))
		return "perfbuf";
	return NULL;
}

static void pin_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, PIN_DIR "/%s", name);
}

static void bpffs_mount(void)
{
	struct statfs st;

	if (statfs("/sys/fs/bpf", &st) || st.f_type != BPF_FS_MAGIC)
		if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL))
			die("mount bpffs: %s", strerror(errno));
	if (mkdir(PIN_DIR, 0700) && errno != EEXIST)
		die(PIN_DIR ": %s", strerror(errno));
}

/*
 * perfbuf's buffers: one backward-written perf buffer per CPU, opened and
 * mapped by a child that keeps them until unload sends it SIGTERM (a
 * perf buffer's mapping is not inherited: perf_mmap() makes it
 * VM_DONTCOPY).  On SIGTERM the child writes the bytes its buffers took
 * to PERFBUF_BYTES.  Returns once the buffers are in @map.
 */
static void perfbuf_open(struct bpf_map *map, int ncpus)
{
	size_t len = (PERFBUF_PAGES + 1) * sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg[1024];
	long long bytes = 0;
	int cpu, sig, ready[2];
	sigset_t set;
	pid_t child;
	char c;
	FILE *f;

	if (ncpus > 1024)
		die("more than 1024 CPUs");
	if (pipe(ready))
		die("pipe: %s", strerror(errno));
	/* Blocked before the fork: the child takes SIGTERM with sigwait(). */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (child) {
		close(ready[1]);
		if (read(ready[0], &c, 1) != 1)
			die("perfbuf's child failed");
		f = fopen(PERFBUF_PID, "w");
		if (!f || fprintf(f, "%d\n", child) < 0 || fclose(f))
			die(PERFBUF_PID ": %s", strerror(errno));
		return;
	}
	close(ready[0]);
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_BPF_OUTPUT,
			.sample_period = 1,
			.sample_type = PERF_SAMPLE_RAW,
			.write_backward = 1,
		};
		int fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
				 PERF_FLAG_FD_CLOEXEC);

		if (fd < 0)
			die("perf_event_open on CPU %d: %s", cpu, strerror(errno));
		/* Read-only: the buffer overwrites its oldest records. */
		pg[cpu] = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (pg[cpu] == MAP_FAILED)
			die("mmap of CPU %d's perf buffer: %s", cpu, strerror(errno));
		if (bpf_map_update_elem(bpf_map__fd(map), &cpu, &fd, BPF_ANY))
			die("perfbuf[%d]: %s", cpu, strerror(errno));
	}
	setsid();
	if (!freopen("/dev/null", "w", stdout) || write(ready[1], "", 1) != 1)
		_exit(1);
	close(ready[1]);
	sigwait(&set, &sig);
	/* A backward buffer's head goes down from 0. */
	for (cpu = 0; cpu < ncpus; cpu++)
		bytes -= (long long)__atomic_load_n(&pg[cpu]->data_head,
						    __ATOMIC_ACQUIRE);
	/* Whole or not at all: unload waits for the name. */
	f = fopen(PERFBUF_BYTES ".tmp", "w");
	if (f && fprintf(f, "%lld\n", bytes) > 0 && !fclose(f))
		rename(PERFBUF_BYTES ".tmp", PERFBUF_BYTES);
	_exit(0);
}

static int load(const char *kind, unsigned long bytes)
{
	const char *prefix = prog_prefix(kind), *mname = kind_map(kind);
	int ncpus = libbpf_num_possible_cpus();
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bpf_map *map;
	char path[256];

	bpffs_mount();
	obj = bpf_object__open_mem(ppbpf_obj, ppbpf_obj_end - ppbpf_obj, NULL);
	if (!obj)
		die("open: %s", strerror(errno));
	bpf_object__for_each_program(prog, obj) {
		const char *name = bpf_program__name(prog);

		bpf_program__set_autoload(prog,
					  !strncmp(name, prefix, strlen(prefix)) &&
					  name[strlen(prefix)] == '_');
	}
	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);

		if (!mname || strcmp(name, mname)) {
			/* The .bss (rb_dropped) goes with the ring buffer. */
			if (!strstr(name, ".bss") || strcmp(prefix, "ring"))
				bpf_map__set_autocreate(map, false);
			continue;
		}
		if (!strcmp(name, "ring") || !strcmp(name, "perfbuf"))
			bpf_map__set_max_entries(map, ncpus);
		if (!strcmp(name, "rb")) {
			bpf_map__set_max_entries(map, bytes ? bytes : 4096);
			if (!strcmp(kind, "ring-ovw"))
				bpf_map__set_map_flags(map, RB_OVERWRITE);
		}
	}
	if (bpf_object__load(obj))
		die("load %s: %s", kind, strerror(errno));

	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		struct bpf_link *link;

		if (!bpf_program__autoload(prog))
			continue;
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			die("info of %s: %s", bpf_program__name(prog), strerror(errno));
		if (!info.jited_prog_len)
			die("%s was not JIT-compiled (net.core.bpf_jit_enable?)",
			    bpf_program__name(prog));
		link = bpf_program__attach(prog);
		if (!link)
			die("attach %s: %s", bpf_program__name(prog), strerror(errno));
		pin_path(path, sizeof(path), bpf_program__name(prog));
		if (bpf_link__pin(link, path))
			die("pin %s: %s", path, strerror(errno));
	}
	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);

		if (bpf_map__fd(map) < 0)
			continue;
		if (!strcmp(name, "perfbuf"))
			perfbuf_open(map, ncpus);
		pin_path(path, sizeof(path), strchr(name, '.') ? "bss" : name);
		if (bpf_map__pin(map, path))
			die("pin %s: %s", path, strerror(errno));
	}
	/*
	 * The full ring is filled now, by records of this process's own
	 * syscalls: the loop's records all take the drop path.
	 */
	if (!strcmp(kind, "ring-full"))
		for (int i = 0; i < 1000; i++)
			close(-1);
	bpf_object__close(obj);
	return 0;
}

/*
 * Records in the array ring of every CPU: the count after each element's
 * head, elements of the map's value size rounded to 8 bytes, one per CPU.
 */
static long long count_array(int fd)
{
	struct bpf_map_info info = {};
	__u32 ilen = sizeof(info);
	long page = sysconf(_SC_PAGESIZE);
	size_t elem, len;
	long long n = 0;
	char *p;
	__u32 cpu;

	if (bpf_obj_get_info_by_fd(fd, &info, &ilen))
		die("array info: %s", strerror(errno));
	elem = (info.value_size + 7) & ~7UL;
	len = (elem * info.max_entries + page - 1) & ~(page - 1);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap of the array: %s", strerror(errno));
	for (cpu = 0; cpu < info.max_entries; cpu++)
		n += ((unsigned long long *)(p + cpu * elem))[1];
	munmap(p, len);
	return n;
}

/*
 * Records in the BPF ring buffer, walked from the oldest held (its
 * overwrite position in overwrite mode) to the producer's position.  In
 * overwrite mode the records overwritten are estimated from the held ones'
 * mean size.
 */
static long long count_ring(int fd, int overwrite)
{
	struct bpf_map_info info = {};
	__u32 ilen = sizeof(info);
	long page = sysconf(_SC_PAGESIZE);
	unsigned long prod, pos, over = 0;
	long long n = 0;
	size_t len;
	char *p, *data;

	if (bpf_obj_get_info_by_fd(fd, &info, &ilen))
		die("ring info: %s", strerror(errno));
	len = page + 2 * (size_t)info.max_entries;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, page);
	if (p == MAP_FAILED)
		die("mmap of the ring: %s", strerror(errno));
	data = p + page;
	prod = __atomic_load_n((unsigned long *)p, __ATOMIC_ACQUIRE);
	if (overwrite)
		over = ((unsigned long *)p)[2];
	for (pos = over; pos < prod; n++) {
		__u32 l = *(__u32 *)(data + (pos & (info.max_entries - 1)));

		if (l & BPF_RINGBUF_BUSY_BIT)
			break;
		pos += ((l & ~BPF_RINGBUF_DISCARD_BIT) + BPF_RINGBUF_HDR_SZ + 7) & ~7U;
	}
	if (overwrite && prod > over && n)
		n += (long long)((double)over * n / (prod - over));
	munmap(p, len);
	return n;
}

static long long read_ll(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Stop perfbuf's child; the records it saw, from its buffers' heads, once
 * it has written them (a minute at most: it has only to read 2 words a
 * CPU).
 */
static long long perfbuf_stop(void)
{
	pid_t pid = read_ll(PERFBUF_PID);
	long long bytes;
	int i;

	unlink(PERFBUF_BYTES);
	if (pid <= 0 || kill(pid, SIGTERM))
		die("perfbuf's child: %s", strerror(errno));
	for (i = 0; i < 6000 && access(PERFBUF_BYTES, F_OK); i++)
		usleep(10000);
	unlink(PERFBUF_PID);
	bytes = read_ll(PERFBUF_BYTES);
	unlink(PERFBUF_BYTES);
	if (bytes < 0)
		die("perfbuf's child wrote no count");
	return bytes * 2 / PERFBUF_PAIR;
}

static int unload(const char *kind)
{
	const char *prefix = prog_prefix(kind), *mname = kind_map(kind);
	long long recorded = 0, dropped = 0;
	char path[256];
	int fd;

	if (mname) {
		pin_path(path, sizeof(path), mname);
		fd = bpf_obj_get(path);
		if (fd < 0)
			die("%s: %s", path, strerror(errno));
		if (!strcmp(mname, "ring"))
			recorded = count_array(fd);
		else if (!strcmp(mname, "rb"))
			recorded = count_ring(fd, !strcmp(kind, "ring-ovw"));
		else
			recorded = perfbuf_stop();
		close(fd);
		unlink(path);
	}
	if (!strcmp(prefix, "ring")) {
		__u32 key = 0;
		__u64 v = 0;

		pin_path(path, sizeof(path), "bss");
		fd = bpf_obj_get(path);
		if (fd < 0 || bpf_map_lookup_elem(fd, &key, &v))
			die("%s: %s", path, strerror(errno));
		dropped = v;
		close(fd);
		unlink(path);
	}
	snprintf(path, sizeof(path), PIN_DIR "/%s_enter", prefix);
	if (unlink(path))
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), PIN_DIR "/%s_exit", prefix);
	if (unlink(path))
		die("%s: %s", path, strerror(errno));
	printf("recorded %lld dropped %lld\n", recorded, dropped);
	return 0;
}

/* Does the kernel have KIND's map?  Only ring-ovw's may be missing. */
static int probe(const char *kind)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	int fd;

	if (strcmp(kind, "ring-ovw"))
		return 0;
	opts.map_flags = RB_OVERWRITE;
	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ppbpf_probe", 0, 0, 4096, &opts);
	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

static int print_nothing(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	if (level == LIBBPF_WARN)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

int main(int argc, char **argv)
{
	libbpf_set_print(print_nothing);
	if (argc >= 3 && !strcmp(argv[1], "load"))
		return load(argv[2], argc > 3 ? strtoul(argv[3], NULL, 0) : 0);
	if (argc == 3 && !strcmp(argv[1], "unload"))
		return unload(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "probe"))
		return probe(argv[2]);
	fputs("usage: ppbpf load|unload|probe KIND [BYTES]\n", stderr);
	return 129;
}
