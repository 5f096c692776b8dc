// SPDX-License-Identifier: GPL-2.0
/*
 * pp-ctl - drive /dev/perf_persistent from guest tests
 *
 * Runs its arguments as a sequence of commands on one open control file and
 * prints one line per command: "<command>: OK ..." or "<command>: <ERRNO>".
 * Exits 0 unless a command was malformed (exit 2) or drain failed (exit 1).
 *
 *   create NAME SOURCE [OPTION...]    SOURCE: tp=SYS:NAME | sw=N | hw=N |
 *                                     bp=ADDR[:LEN[:r|w|rw|x]] | raw=TYPE:CONFIG
 *       options: buffer=BYTES detached period=N (default 1; 1 ms for the
 *                clock events) freq=N sample=0xBITS max-stack=N
 *                (sample_max_stack) regs-user=MASK stack-user=N
 *                flags=0xN size=N (struct size) tail (non-zero byte past the
 *                struct) attr-size=N reserved tail-attr (its last byte non-zero)
 *                attr-reserved use-clockid comm (with sample_id_all)
 *                comm-no-id (without) exclude-kernel
 *                bad-attr bad-struct cmd-size=N (the command's size bits, as
 *                a program built with a struct of N bytes computes it)
 *                scopes: pid=N (TASK) cgroup=PATH (CGROUP by path, from
 *                the cgroup2 root) cgroup-fd=DIR (CGROUP, an fd of DIR)
 *                scope=N target=N (raw) cgroup-path=bad (pointer nowhere)
 *                inherit inherit-thread remove-on-exec enable-on-exec
 *                sigtrap=DATA (sig_data) wakeup=N (wakeup_events)
 *   destroy|detach|attach|pause|resume|watch X     X: an id or a name
 *   watch-overflow X  WATCH_OVERFLOW of X
 *   watch-raw N       WATCH with the argument N as given
 *   watch-overflow-raw N  WATCH_OVERFLOW with the argument N as given
 *   info X            prints key=value lines (scope, target, cgroup_id and
 *                     count among them)
 *   list              prints the ids
 *   maps [len=N] [flags=N] [size=N] [buf=bad]   MAPS: the figures and the
 *                     records by type (len=0: the figures alone)
 *   info-raw X size=N|reserved|bad-stats|cmd-size=N  INFO, doctored
 *   list-raw size=N|no-ids|cmd-size=N                LIST, doctored
 *   trigger X TARGETS [OPTION...]    TRIGGER: X freezes TARGETS (ids or
 *                     names, comma-separated; "-" none); options: count=N
 *                     after=M flags=0xN nr=N (nr_targets as given) size=N
 *                     bad-ptr (targets points nowhere) remove
 *                     op=OP:SIZE:OFFSET:VALUE[:FLAGS] (a filter op; OP a
 *                     number, repeatable) nr-filter=N (nr_filter as given)
 *                     filter-ptr=bad text=STRING text-long reserved
 *   ioctl NUM         an arbitrary ioctl number with a zero argument
 *   sleep SECONDS | hold (until a signal) | drop-caps | setuid UID | close
 *   drop-cap N        drop capability N only
 *   with-pidfd PID FD CMD...  open a pidfd of PID as fd FD and exec CMD
 *                     (the rest of the arguments) with it
 *   load PARAMS       load perf_persistent.ko (the running kernel's
 *                     extra/ module) with finit_module() and the module
 *                     parameters PARAMS ("" for none)
 *   drain             prints its line, then waits until the terminal on
 *                     standard output has sent everything written to it
 *                     (a guest about to panic: its console's last lines)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <termios.h>
#include <unistd.h>

#include "pp-errname.h"

static int ctl = -1;

/* @cmd with its size bits saying @size, as a header with that struct size
 * would compute it. */
static unsigned long sized(unsigned long cmd, unsigned long size)
{
	return (cmd & ~(unsigned long)IOCSIZE_MASK) | (size << _IOC_SIZESHIFT);
}

static void usage(const char *why)
{
	fprintf(stderr, "pp-ctl: %s\n", why);
	exit(2);
}

static int control(void)
{
	if (ctl < 0)
		ctl = open(PERF_PERSISTENT_DEVICE, O_RDWR | O_CLOEXEC);
	return ctl;
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end)
		usage("bad number");
	return v;
}

static int tracepoint_id(const char *spec)
{
	char path[256], sys[64];
	const char *colon = strchr(spec, ':');
	FILE *f;
	int id;

	if (!colon || colon - spec >= (int)sizeof(sys))
		usage("tp=SYS:NAME");
	memcpy(sys, spec, colon - spec);
	sys[colon - spec] = 0;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id", sys,
		 colon + 1);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &id) != 1)
		usage("no such tracepoint");
	fclose(f);
	return id;
}

/* Resolve an id or a name to an id via INFO; 0 if unknown. */
static unsigned int resolve(const char *x)
{
	struct perf_persistent_info info = { .size = sizeof(info) };

	if (x[0] >= '0' && x[0] <= '9')
		return num(x);
	snprintf(info.name, sizeof(info.name), "%s", x);
	if (control() < 0 || ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info))
		return 0;
	return info.id;
}

/* The type of the PMU @name, from sysfs. */
static unsigned int pmu_type(const char *name)
{
	char path[128];
	unsigned int type;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%u", &type) != 1)
		usage("no such PMU");
	fclose(f);
	return type;
}

static void source(struct perf_event_attr *attr, const char *s)
{
	if (!strncmp(s, "tp=", 3)) {
		attr->type = PERF_TYPE_TRACEPOINT;
		attr->config = tracepoint_id(s + 3);
	} else if (!strncmp(s, "sw=", 3)) {
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = num(s + 3);
	} else if (!strncmp(s, "hw=", 3)) {
		attr->type = PERF_TYPE_HARDWARE;
		attr->config = num(s + 3);
	} else if (!strncmp(s, "bp=", 3)) {
		char *spec = strdup(s + 3), *len, *rw;

		attr->type = PERF_TYPE_BREAKPOINT;
		len = strchr(spec, ':');
		if (len)
			*len++ = 0;
		rw = len ? strchr(len, ':') : NULL;
		if (rw)
			*rw++ = 0;
		attr->bp_addr = num(spec);
		attr->bp_len = len ? num(len) : HW_BREAKPOINT_LEN_4;
		attr->bp_type = !rw || !strcmp(rw, "rw") ? HW_BREAKPOINT_RW :
				!strcmp(rw, "w") ? HW_BREAKPOINT_W :
				!strcmp(rw, "x") ? HW_BREAKPOINT_X : HW_BREAKPOINT_R;
		if (attr->bp_type == HW_BREAKPOINT_X)
			attr->bp_len = sizeof(long);
		free(spec);
	} else if (!strncmp(s, "kprobe=", 7)) {
		/* The kprobe PMU: config1 points at the function's name. */
		attr->type = pmu_type("kprobe");
		attr->config1 = (unsigned long)strdup(s + 7);
	} else if (!strncmp(s, "uprobe=", 7)) {
		/* The uprobe PMU: config1 points at the path, config2 the offset. */
		char *path = strdup(s + 7), *off = strrchr(path, ':');

		if (!off)
			usage("uprobe=PATH:OFFSET");
		*off++ = 0;
		attr->type = pmu_type("uprobe");
		attr->config1 = (unsigned long)path;
		attr->config2 = num(off);
	} else if (!strncmp(s, "raw=", 4)) {
		char *colon;

		attr->type = strtoul(s + 4, &colon, 0);
		if (*colon != ':')
			usage("raw=TYPE:CONFIG");
		attr->config = num(colon + 1);
	} else {
		usage("unknown source");
	}
}

/* create NAME SOURCE [OPTION...]; returns the number of words used. */
static int cmd_create(char **argv, int argc)
{
	unsigned char buf[512] = { 0 };
	struct perf_persistent_create *c = (void *)buf;
	unsigned char attr_buf[512] = { 0 };
	struct perf_event_attr *attr = (void *)attr_buf;
	int i, used = 2, bad_attr = 0, bad_struct = 0, tail_attr = 0;
	unsigned long req = PERF_PERSISTENT_IOC_CREATE;

	if (argc < 2)
		usage("create NAME SOURCE");
	c->size = sizeof(*c);
	snprintf(c->name, sizeof(c->name), "%s", argv[0]);
	if (strlen(argv[0]) >= sizeof(c->name))
		memset(c->name, 'a', sizeof(c->name));
	attr->size = sizeof(*attr);
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	source(attr, argv[1]);
	/*
	 * Clock events (cpu-clock, task-clock) count nanoseconds: a period of
	 * 1 would fire the hrtimer every 10 us, an interrupt storm under TCG.
	 * Default to 1 ms; period= overrides.
	 */
	if (attr->type == PERF_TYPE_SOFTWARE &&
	    (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
	     attr->config == PERF_COUNT_SW_TASK_CLOCK))
		attr->sample_period = 1000000;
	if (attr->type == PERF_TYPE_TRACEPOINT)
		attr->sample_type |= PERF_SAMPLE_RAW;

	for (i = 2; i < argc && strchr("bdpfstarcueiwm", argv[i][0]); i++) {
		const char *o = argv[i], *v = strchr(o, '=');

		v = v ? v + 1 : "";
		if (!strncmp(o, "buffer=", 7))
			c->buffer_size = num(v);
		else if (!strcmp(o, "detached"))
			c->flags |= PERF_PERSISTENT_CREATE_DETACHED;
		else if (!strncmp(o, "period=", 7))
			attr->sample_period = num(v);
		else if (!strncmp(o, "freq=", 5))
			attr->freq = 1, attr->sample_freq = num(v);
		else if (!strncmp(o, "sample=", 7))
			attr->sample_type = num(v);
		else if (!strncmp(o, "max-stack=", 10))
			attr->sample_max_stack = num(v);
		else if (!strncmp(o, "regs-user=", 10))
			attr->sample_regs_user = num(v);
		else if (!strncmp(o, "stack-user=", 11))
			attr->sample_stack_user = num(v);
		else if (!strncmp(o, "flags=", 6))
			c->flags = num(v);
		else if (!strncmp(o, "size=", 5))
			c->size = num(v);
		else if (!strcmp(o, "tail"))
			buf[sizeof(*c) + 3] = 1;
		else if (!strncmp(o, "attr-size=", 10))
			attr->size = num(v);
		else if (!strcmp(o, "reserved"))
			c->__reserved = 1;
		else if (!strcmp(o, "tail-attr"))
			tail_attr = 1;
		else if (!strcmp(o, "bad-attr"))
			bad_attr = 1;
		else if (!strcmp(o, "bad-struct"))
			bad_struct = 1;
		else if (!strcmp(o, "attr-reserved"))
			attr->__reserved_2 = 1;
		else if (!strcmp(o, "comm"))
			attr->comm = 1, attr->sample_id_all = 1;
		else if (!strcmp(o, "comm-no-id"))
			attr->comm = 1;
		else if (!strcmp(o, "exclude-kernel"))
			attr->exclude_kernel = 1;
		else if (!strcmp(o, "use-clockid"))
			attr->use_clockid = 1, attr->clockid = 1;	/* MONOTONIC */
		else if (!strncmp(o, "cmd-size=", 9))
			req = sized(req, num(v));
		else if (!strncmp(o, "pid=", 4))
			c->scope = PERF_PERSISTENT_SCOPE_TASK, c->target = num(v);
		else if (!strncmp(o, "cgroup=", 7)) {
			c->scope = PERF_PERSISTENT_SCOPE_CGROUP;
			c->target = -1;
			c->cgroup_path = (unsigned long)v;
		} else if (!strncmp(o, "cgroup-fd=", 10)) {
			c->scope = PERF_PERSISTENT_SCOPE_CGROUP;
			c->target = open(v, O_RDONLY | O_CLOEXEC);
			if (c->target < 0)
				usage("cgroup-fd: cannot open");
		} else if (!strcmp(o, "cgroup-path=bad"))
			c->cgroup_path = 16;
		else if (!strncmp(o, "scope=", 6))
			c->scope = num(v);
		else if (!strncmp(o, "target=", 7))
			c->target = strtol(v, NULL, 0);
		else if (!strcmp(o, "inherit"))
			attr->inherit = 1;
		else if (!strcmp(o, "inherit-thread"))
			attr->inherit_thread = 1;
		else if (!strcmp(o, "remove-on-exec"))
			attr->remove_on_exec = 1;
		else if (!strcmp(o, "enable-on-exec"))
			attr->enable_on_exec = 1;
		else if (!strncmp(o, "sigtrap=", 8))
			attr->sigtrap = 1, attr->sig_data = num(v);
		else if (!strncmp(o, "wakeup=", 7))
			attr->wakeup_events = num(v);
		else
			break;
		used++;
	}
	/*
	 * The last byte of the attr as passed: past the end of any kernel's
	 * struct perf_event_attr shorter than attr-size, whatever this
	 * program's header says its size is.
	 */
	if (tail_attr && attr->size > 0 && attr->size <= sizeof(attr_buf))
		attr_buf[attr->size - 1] = 1;
	c->attr = bad_attr ? 16 : (unsigned long)attr;

	printf("create %s: ", argv[0]);
	if (control() < 0 ||
	    ioctl(ctl, req, bad_struct ? (void *)16 : (void *)c))
		printf("%s\n", errname(errno));
	else
		printf("OK id=%u\n", c->id);
	return used;
}

static void cmd_info(const char *x)
{
	struct perf_persistent_cpu_stats cs[64];
	struct perf_persistent_info info = { .size = sizeof(info) };
	struct perf_event_attr attr;
	unsigned long long w = 0, o = 0, d = 0, b = 0;
	unsigned int i;

	info.id = (x[0] >= '0' && x[0] <= '9') ? num(x) : 0;
	if (!info.id)
		snprintf(info.name, sizeof(info.name), "%s", x);
	info.attr = (unsigned long)&attr;
	info.attr_size = sizeof(attr);
	info.cpu_stats = (unsigned long)cs;
	info.nr_cpus = 64;
	if (control() < 0 || ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info)) {
		printf("info %s: %s\n", x, errname(errno));
		return;
	}
	printf("info %s: OK\n", x);
	printf("id=%u\nname=%s\nstate=0x%x\nbuffer_size=%llu\nnr_cpus=%u\n",
	       info.id, info.name, info.state,
	       (unsigned long long)info.buffer_size, info.nr_cpus);
	printf("type=%u\nconfig=%llu\nsample_type=0x%llx\n", attr.type,
	       (unsigned long long)attr.config,
	       (unsigned long long)attr.sample_type);
	printf("scope=%u\ntarget=%d\ncgroup_id=%llu\ncount=%llu\n", info.scope,
	       info.target, (unsigned long long)info.cgroup_id,
	       (unsigned long long)info.count);
	for (i = 0; i < info.nr_cpus && i < 64; i++) {
		printf("cpu%u online=%u written=%llu overwritten=%llu dropped=%llu bytes=%llu count=%llu head=%lld held=%llu\n",
		       cs[i].cpu, cs[i].online,
		       (unsigned long long)cs[i].written,
		       (unsigned long long)cs[i].overwritten,
		       (unsigned long long)cs[i].dropped,
		       (unsigned long long)cs[i].bytes,
		       (unsigned long long)cs[i].count,
		       (long long)cs[i].head,
		       (unsigned long long)(cs[i].tail - cs[i].head));
		w += cs[i].written;
		o += cs[i].overwritten;
		d += cs[i].dropped;
		b += cs[i].bytes;
	}
	printf("written=%llu\noverwritten=%llu\ndropped=%llu\nbytes=%llu\n",
	       w, o, d, b);
}

/* info-raw ID size=N|reserved|bad-stats: INFO with a doctored struct. */
static void cmd_info_raw(const char *id, const char *how)
{
	unsigned char buf[256] = { 0 };
	struct perf_persistent_info *info = (void *)buf;
	unsigned long req = PERF_PERSISTENT_IOC_INFO;

	info->size = sizeof(*info);
	info->id = num(id);
	if (!strncmp(how, "size=", 5))
		info->size = num(how + 5);
	else if (!strcmp(how, "reserved"))
		info->__reserved = 1;
	else if (!strcmp(how, "bad-stats"))
		info->cpu_stats = 16, info->nr_cpus = 4;
	else if (!strncmp(how, "cmd-size=", 9))
		req = sized(req, num(how + 9));
	printf("info-raw %s %s: %s\n", id, how,
	       control() < 0 || ioctl(ctl, req, info) ?
	       errname(errno) : "OK");
}

/* list-raw size=N|no-ids: LIST with a doctored struct. */
static void cmd_list_raw(const char *how)
{
	struct perf_persistent_list l = { .size = sizeof(l) };
	unsigned long req = PERF_PERSISTENT_IOC_LIST;

	if (!strncmp(how, "size=", 5))
		l.size = num(how + 5);
	else if (!strcmp(how, "no-ids"))
		l.nr = 4;
	else if (!strncmp(how, "cmd-size=", 9))
		req = sized(req, num(how + 9));
	printf("list-raw %s: %s\n", how,
	       control() < 0 || ioctl(ctl, req, &l) ?
	       errname(errno) : "OK");
}

/*
 * maps [len=N] [flags=N] [buf=bad] [size=N]: MAPS; prints the figures and
 * the records' count by type, or the errno.
 */
static int cmd_maps(char **argv, int argc)
{
	struct perf_persistent_maps m = { .size = sizeof(m) };
	static unsigned char buf[1 << 20];
	unsigned int comm = 0, mmap2 = 0;
	size_t off = 0;
	int i;

	m.buf = (unsigned long)buf;
	m.len = sizeof(buf);
	for (i = 0; i < argc && strchr(argv[i], '='); i++) {
		const char *v = strchr(argv[i], '=') + 1;

		if (!strncmp(argv[i], "len=", 4))
			m.len = num(v);
		else if (!strncmp(argv[i], "flags=", 6))
			m.flags = num(v);
		else if (!strncmp(argv[i], "size=", 5))
			m.size = num(v);
		else if (!strcmp(argv[i], "buf=bad"))
			m.buf = 16;
		else
			usage("maps: bad option");
	}
	if (!m.len)
		m.buf = 0;
	if (control() < 0 || ioctl(ctl, PERF_PERSISTENT_IOC_MAPS, &m)) {
		printf("maps: needed=%llu: %s\n", (unsigned long long)m.needed,
		       errname(errno));
		return i;
	}
	while (m.buf == (unsigned long)buf && off + 8 <= m.len) {
		const struct perf_event_header *h = (const void *)(buf + off);

		if (!h->size)
			break;
		comm += h->type == PERF_RECORD_COMM;
		mmap2 += h->type == PERF_RECORD_MMAP2;
		off += h->size;
	}
	printf("maps: OK len=%llu needed=%llu processes=%llu bytes=%llu budget=%llu dropped=%llu missed=%llu comm=%u mmap2=%u\n",
	       (unsigned long long)m.len, (unsigned long long)m.needed,
	       (unsigned long long)m.processes, (unsigned long long)m.bytes,
	       (unsigned long long)m.budget, (unsigned long long)m.dropped,
	       (unsigned long long)m.missed, comm, mmap2);
	return i;
}

static void cmd_list(void)
{
	struct perf_persistent_list l = { .size = sizeof(l) };
	__u32 ids[4];
	unsigned int i;

	printf("list:");
	do {
		l.nr = 4;
		l.ids = (unsigned long)ids;
		if (control() < 0 || ioctl(ctl, PERF_PERSISTENT_IOC_LIST, &l)) {
			printf(" %s\n", errname(errno));
			return;
		}
		for (i = 0; i < l.nr; i++)
			printf(" %u", ids[i]);
		if (l.nr)
			l.start = ids[l.nr - 1];
	} while (l.nr);
	printf(" total=%u\n", l.total);
}

static void id_cmd(const char *name, unsigned long req, const char *x)
{
	unsigned long id = resolve(x);

	if (x[0] >= '0' && x[0] <= '9')
		id = strtoull(x, NULL, 0);
	printf("%s %s: ", name, x);
	if (control() < 0 || ioctl(ctl, req, id))
		printf("%s\n", errname(errno));
	else
		printf("OK\n");
}

/* trigger X TARGETS [OPTION...]; returns the arguments used. */
static int cmd_trigger(char **argv, int argc)
{
	struct perf_persistent_trigger t = { .size = sizeof(t) };
	struct perf_persistent_filter_op ops[PERF_PERSISTENT_FILTER_MAX + 8];
	unsigned int ids[PERF_PERSISTENT_TRIGGER_MAX + 8];
	char list[512], *name, *save = NULL;
	static char longtext[PERF_PERSISTENT_FILTER_TEXT_MAX + 1];
	int i, nr = 0, used = 2;
	unsigned int nops = 0;

	if (argc < 2)
		usage("trigger needs a source and targets");
	t.source = resolve(argv[0]);
	snprintf(list, sizeof(list), "%s", argv[1]);
	if (strcmp(list, "-"))
		for (name = strtok_r(list, ",", &save);
		     name && nr < (int)(sizeof(ids) / sizeof(ids[0]));
		     name = strtok_r(NULL, ",", &save))
			ids[nr++] = resolve(name);
	t.nr_targets = nr;
	t.targets = nr ? (unsigned long)ids : 0;
	for (i = 2; i < argc; i++) {
		const char *o = argv[i], *v = strchr(o, '=');

		v = v ? v + 1 : "";
		if (!strncmp(o, "count=", 6))
			t.count = num(v);
		else if (!strncmp(o, "after=", 6))
			t.after = num(v);
		else if (!strncmp(o, "flags=", 6))
			t.flags = num(v);
		else if (!strncmp(o, "nr=", 3))
			t.nr_targets = num(v);
		else if (!strncmp(o, "size=", 5))
			t.size = num(v);
		else if (!strcmp(o, "bad-ptr"))
			t.targets = 8;
		else if (!strcmp(o, "remove"))
			t.flags |= PERF_PERSISTENT_TRIGGER_REMOVE;
		else if (!strncmp(o, "op=", 3) &&
			 nops < sizeof(ops) / sizeof(ops[0])) {
			unsigned int op, size, flags = 0;
			unsigned long long value;

			memset(&ops[nops], 0, sizeof(ops[nops]));
			if (sscanf(v, "%u:%u:%u:%lli:%u", &op, &size,
				   &ops[nops].offset, &value, &flags) < 4)
				usage("op=OP:SIZE:OFFSET:VALUE[:FLAGS]");
			ops[nops].op = op;
			ops[nops].size = size;
			ops[nops].value = value;
			ops[nops].flags = flags;
			t.nr_filter = ++nops;
			t.filter = (unsigned long)ops;
		} else if (!strncmp(o, "nr-filter=", 10))
			t.nr_filter = num(v);
		else if (!strcmp(o, "filter-ptr=bad"))
			t.filter = 8;
		else if (!strncmp(o, "text=", 5))
			t.filter_text = (unsigned long)v;
		else if (!strcmp(o, "text-long")) {
			memset(longtext, 'x', sizeof(longtext) - 1);
			t.filter_text = (unsigned long)longtext;
		} else if (!strcmp(o, "reserved"))
			t.__reserved = 1;
		else
			break;
		used++;
	}
	printf("trigger %s: ", argv[0]);
	if (control() < 0 || ioctl(ctl, PERF_PERSISTENT_IOC_TRIGGER, &t))
		printf("%s\n", errname(errno));
	else
		printf("OK\n");
	return used;
}

static void drop_caps(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	printf("drop-caps: %s\n",
	       syscall(SYS_capset, &hdr, data) ? errname(errno) : "OK");
}

/* Drop capability @cap only, keeping the others. */
static void drop_cap(unsigned int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) == 0) {
		data[cap / 32].effective &= ~(1U << (cap % 32));
		data[cap / 32].permitted &= ~(1U << (cap % 32));
		data[cap / 32].inheritable &= ~(1U << (cap % 32));
	}
	printf("drop-cap %u: %s\n", cap,
	       syscall(SYS_capset, &hdr, data) ? errname(errno) : "OK");
}

static void on_signal(int sig)
{
	(void)sig;
}

/* "load PARAMS": the module's own errno, which modprobe would print as text. */
static void cmd_load(const char *params)
{
	struct utsname u;
	char path[256];
	int fd, ret;

	uname(&u);
	snprintf(path, sizeof(path), "/lib/modules/%s/extra/perf_persistent.ko",
		 u.release);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("load: open %s: %s\n", path, errname(errno));
		return;
	}
	ret = syscall(SYS_finit_module, fd, params, 0);
	printf("load %s: %s\n", params, ret ? errname(errno) : "OK");
	close(fd);
}

int main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		const char *c = argv[i], *x = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(c, "create")) {
			i += cmd_create(argv + i + 1, argc - i - 1);
			continue;
		}
		if (!strcmp(c, "list")) {
			cmd_list();
			continue;
		}
		if (!strcmp(c, "maps")) {
			i += cmd_maps(argv + i + 1, argc - i - 1);
			continue;
		}
		if (!strcmp(c, "trigger")) {
			i += cmd_trigger(argv + i + 1, argc - i - 1);
			continue;
		}
		if (!strcmp(c, "info-raw") && i + 2 < argc) {
			cmd_info_raw(argv[i + 1], argv[i + 2]);
			i += 2;
			continue;
		}
		if (!strcmp(c, "hold")) {
			sigset_t block, old;

			/*
			 * Block the signals before saying we hold, then wait
			 * with sigsuspend(): a signal that comes right after
			 * the line is printed is not lost (pause() would miss
			 * it and wait forever).
			 */
			signal(SIGTERM, on_signal);
			signal(SIGINT, on_signal);
			sigemptyset(&block);
			sigaddset(&block, SIGTERM);
			sigaddset(&block, SIGINT);
			sigprocmask(SIG_BLOCK, &block, &old);
			printf("hold: OK\n");
			sigsuspend(&old);
			sigprocmask(SIG_SETMASK, &old, NULL);
			continue;
		}
		if (!strcmp(c, "with-pidfd") && i + 3 < argc) {
			int fd = syscall(SYS_pidfd_open, (int)num(argv[i + 1]), 0);

			if (fd < 0 || dup2(fd, num(argv[i + 2])) < 0) {
				printf("with-pidfd: %s\n", errname(errno));
				return 1;
			}
			execvp(argv[i + 3], argv + i + 3);
			printf("with-pidfd: %s\n", errname(errno));
			return 1;
		}
		if (!strcmp(c, "drop-caps")) {
			drop_caps();
			continue;
		}
		if (!strcmp(c, "drain")) {
			printf("drain: OK\n");
			fflush(stdout);
			if (tcdrain(STDOUT_FILENO)) {
				fprintf(stderr, "drain: %s\n", errname(errno));
				return 1;
			}
			continue;
		}
		if (!strcmp(c, "close")) {
			printf("close: %s\n", close(ctl) ? errname(errno) : "OK");
			ctl = -1;
			continue;
		}
		if (!x)
			usage("missing argument");
		i++;
		if (!strcmp(c, "destroy"))
			id_cmd(c, PERF_PERSISTENT_IOC_DESTROY, x);
		else if (!strcmp(c, "detach"))
			id_cmd(c, PERF_PERSISTENT_IOC_DETACH, x);
		else if (!strcmp(c, "attach"))
			id_cmd(c, PERF_PERSISTENT_IOC_ATTACH, x);
		else if (!strcmp(c, "pause"))
			id_cmd(c, PERF_PERSISTENT_IOC_PAUSE, x);
		else if (!strcmp(c, "resume"))
			id_cmd(c, PERF_PERSISTENT_IOC_RESUME, x);
		else if (!strcmp(c, "watch"))
			id_cmd(c, PERF_PERSISTENT_IOC_WATCH, x);
		else if (!strcmp(c, "watch-overflow"))
			id_cmd(c, PERF_PERSISTENT_IOC_WATCH_OVERFLOW, x);
		else if (!strcmp(c, "watch-raw"))
			printf("watch-raw %s: %s\n", x,
			       control() < 0 ||
			       ioctl(ctl, PERF_PERSISTENT_IOC_WATCH, num(x)) ?
			       errname(errno) : "OK");
		else if (!strcmp(c, "watch-overflow-raw"))
			printf("watch-overflow-raw %s: %s\n", x,
			       control() < 0 ||
			       ioctl(ctl, PERF_PERSISTENT_IOC_WATCH_OVERFLOW,
				     num(x)) ? errname(errno) : "OK");
		else if (!strcmp(c, "info"))
			cmd_info(x);
		else if (!strcmp(c, "list-raw"))
			cmd_list_raw(x);
		else if (!strcmp(c, "ioctl"))
			printf("ioctl %s: %s\n", x,
			       control() < 0 || ioctl(ctl, num(x), 0) ?
			       errname(errno) : "OK");
		else if (!strcmp(c, "load"))
			cmd_load(x);
		else if (!strcmp(c, "drop-cap"))
			drop_cap(num(x));
		else if (!strcmp(c, "sleep"))
			sleep(num(x));
		else if (!strcmp(c, "setuid"))
			printf("setuid: %s\n", setuid(num(x)) ? errname(errno) : "OK");
		else
			usage("unknown command");
	}
	return 0;
}
