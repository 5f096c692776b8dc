// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent create", a persistent event on
 * every CPU, of a process tree or of a cgroup; detached, held in the
 * foreground, or recording a command it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asm/perf_regs.h>

#include "builtin.h"

#define DEFAULT_FIELDS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |	\
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME |		\
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* What the command line asks for. */
struct create_args {
	const char		*name;
	const char		*spec;
	const char		*cgroup;
	char			**cmd;
	unsigned long long	fields;
	unsigned long long	period;
	unsigned long long	freq;
	unsigned long long	size;
	unsigned long long	max_stack;
	int			pid;
	int			pidfd;
	bool			have_pid;
	bool			have_pidfd;
	bool			have_period;
	bool			have_freq;
	bool			detached;
	bool			comm;
	bool			inherit;
	bool			crash_dump;
	bool			perf_path;
	bool			keep;
	bool			callchain;
	bool			have_max_stack;
	unsigned int		dwarf;
};

/* The user registers perf's DWARF unwinding needs (perf's PERF_REGS_MASK). */
#if defined(__x86_64__)
#define DWARF_REGS	(((1ULL << PERF_REG_X86_64_MAX) - 1) &		\
			 ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) | \
			   (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS)))
#elif defined(__aarch64__)
#define DWARF_REGS	((1ULL << PERF_REG_ARM64_MAX) - 1)
#else
#define DWARF_REGS	0
#endif
/* perf record's default stack copy for --call-graph dwarf. */
#define DWARF_STACK	8192

static int opt_period(const char *arg, void *value)
{
	return parse_count(arg, "period", true, value);
}

static int opt_freq(const char *arg, void *value)
{
	return parse_count(arg, "frequency", false, value);
}

/*
 * --call-graph fp|dwarf[,SIZE]: the module's frame-pointer walk, or the
 * user registers and SIZE bytes of stack (default 8192, at most 65528)
 * for perf to unwind with the binaries' DWARF, as perf record.
 */
static int opt_call_graph(const char *arg, void *value)
{
	struct create_args *a = value;
	unsigned long long size = DWARF_STACK;
	char *end;

	a->callchain = true;
	if (!strcmp(arg, "fp"))
		return 0;
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
		return usage_error("bad --call-graph '%s': fp or dwarf[,SIZE]", arg);
	if (!DWARF_REGS)
		return usage_error("--call-graph dwarf: not on this architecture");
	if (arg[5]) {
		errno = 0;
		size = strtoull(arg + 6, &end, 0);
		if (errno || end == arg + 6 || *end || !size || size > 65528)
			return usage_error("bad --call-graph dwarf size '%s': 8 to 65528",
					   arg + 6);
	}
	a->dwarf = (size + 7) & ~7ULL;
	return 0;
}

static int opt_max_stack(const char *arg, void *value)
{
	return parse_count(arg, "max-stack", false, value);
}

static bool name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (!len || len >= PERF_PERSISTENT_NAME_MAX ||
	    !(name[0] >= 'a' && name[0] <= 'z'))
		return false;
	for (i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return true;
}

/*
 * Start @cmd stopped at a pipe: it runs (execs) when start_go() writes a
 * byte, and exits 127 if the pipe closes first.  Returns its pid, or -1.
 */
static pid_t start_stopped(char **cmd, int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return pp_error("cannot run %s: %s", cmd[0], strerror(errno)), -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		pp_error("cannot run %s: %s", cmd[0], strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		close(p[0]);
		execvp(cmd[0], cmd);
		pp_error("cannot run %s: %s", cmd[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* Let the command start_stopped() started run, or (@run false) end it. */
static int start_go(const char *what, pid_t pid, int go, bool run)
{
	int status;

	if (run && write(go, "g", 1) != 1)
		pp_error("starting %s: %s", what, strerror(errno));
	close(go);
	if (waitpid(pid, &status, 0) < 0)
		return pp_error("waiting for %s: %s", what, strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * The pid pidfd @fd refers to, from /proc/self/fdinfo (no exported kernel
 * helper takes a pidfd): > 0, or -1 with the reason reported.
 */
static int pidfd_pid(int fd)
{
	char path[64], line[128];
	int pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return pp_error("--pidfd %d: %s", fd, strerror(errno)), -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	if (pid == -1)
		return pp_error("--pidfd %d: the process has exited", fd), -1;
	if (pid <= 0)
		return pp_error("--pidfd %d: not a pidfd of a process in this pid namespace",
				fd), -1;
	return pid;
}

/* Has the process of pidfd @fd exited?  (It is readable then.) */
static bool pidfd_exited(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLHUP));
}

/* The options and the one operand into @a; 0, or the exit status. */
static int parse_create(int argc, char **argv, struct create_args *a)
{
	const struct pp_opt opts[] = {
		OPT_STRING('n', "name", &a->name),
		OPT_CALL('m', "buffer-size", &a->size, opt_size),
		OPT_CALL('s', "fields", &a->fields, opt_fields),
		OPT_CALL_SEEN('c', "count", &a->period, opt_period, &a->have_period),
		OPT_CALL_SEEN('F', "freq", &a->freq, opt_freq, &a->have_freq),
		OPT_SET('g', "callchain", &a->callchain),
		OPT_CALL(0, "call-graph", a, opt_call_graph),
		OPT_CALL_SEEN(0, "max-stack", &a->max_stack, opt_max_stack,
			      &a->have_max_stack),
		OPT_SET('d', "detached", &a->detached),
		OPT_CLEAR(0, "no-comm", &a->comm),
		OPT_SET(0, "crash-dump", &a->crash_dump),
		OPT_SET(0, "perf-path", &a->perf_path),
		OPT_SET(0, "keep-across-reboot", &a->keep),
		OPT_CALL_SEEN('p', "pid", &a->pid, opt_pid, &a->have_pid),
		OPT_STRING('G', "cgroup", &a->cgroup),
		OPT_CLEAR(0, "no-inherit", &a->inherit),
		OPT_CALL_SEEN(0, "pidfd", &a->pidfd, opt_fd, &a->have_pidfd),
		OPT_END
	};
	int ret;

	/* EVENT [-- CMD]: the command is not ours to parse. */
	if (split_command(&argc, argv, &a->cmd))
		return PP_EXIT_USAGE;
	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 1, 1))
		return PP_EXIT_USAGE;
	a->spec = argv[optind];
	if (a->have_period && a->have_freq)
		return usage_error("-c and -F exclude each other");
	if (a->have_max_stack && !a->callchain)
		return usage_error("--max-stack needs -g");
	if (a->max_stack > 65535)
		return usage_error("bad max-stack '%llu'", a->max_stack);
	if (a->have_pid + a->have_pidfd + !!a->cgroup + !!a->cmd > 1)
		return usage_error("--pid, --pidfd, --cgroup and -- CMD exclude each other");
	if (!a->inherit && !a->have_pid && !a->have_pidfd && !a->cmd)
		return usage_error("--no-inherit needs --pid or -- CMD");
	if (a->name && !name_ok(a->name))
		return pp_error("bad event name '%s': 1 to 31 of a-z, 0-9 and _, starting with a letter",
				a->name), 1;
	if (a->have_pidfd) {
		a->pid = pidfd_pid(a->pidfd);
		if (a->pid < 0)
			return 1;
	}
	return 0;
}

/* The source's attr, from the event spec and the options. */
static int build_attr(struct create_args *a, struct perf_event_attr *attr,
		      char *defname)
{
	if (parse_event(a->spec, attr, defname))
		return 1;
	if (!a->name)
		a->name = defname;
	if (!a->fields) {
		a->fields = DEFAULT_FIELDS;
		if (attr->type == PERF_TYPE_TRACEPOINT)
			a->fields |= PERF_SAMPLE_RAW;
		if (attr->type == PERF_TYPE_BREAKPOINT)
			a->fields |= PERF_SAMPLE_ADDR;
	}
	if (a->have_freq) {
		attr->freq = 1;
		attr->sample_freq = a->freq;
	} else if (a->have_period) {
		attr->sample_period = a->period;
	} else {
		default_sampling(attr);
	}
	if (a->callchain) {
		a->fields |= PERF_SAMPLE_CALLCHAIN;
		attr->sample_max_stack = a->max_stack;
	}
	if (a->dwarf) {
		/* The kernel's frames walked, the user's unwound by perf. */
		a->fields |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		attr->exclude_callchain_user = 1;
		attr->sample_regs_user = DWARF_REGS;
		attr->sample_stack_user = a->dwarf;
	}
	attr->sample_type = attr->sample_period ? a->fields : 0;
	/* The tasks' names as they were when recorded: COMM records. */
	if (a->comm && (attr->sample_type & PERF_SAMPLE_TID)) {
		attr->comm = 1;
		attr->sample_id_all = 1;
	}
	if (attr->type == PERF_TYPE_BREAKPOINT)
		attr->exclude_hv = 1;
	return 0;
}

/* CREATE's argument: the scope, the flags, the name and the attr. */
static void build_create(const struct create_args *a,
			 struct perf_event_attr *attr,
			 struct perf_persistent_create *cr)
{
	if (a->pid) {
		cr->scope = PERF_PERSISTENT_SCOPE_TASK;
		cr->target = a->pid;
		attr->inherit = a->inherit;
	} else if (a->cgroup) {
		/* A directory (of the cgroup2 mount), or a path from its root. */
		cr->scope = PERF_PERSISTENT_SCOPE_CGROUP;
		cr->target = open(a->cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cr->target < 0)
			cr->cgroup_path = (unsigned long)a->cgroup;
	}
	cr->flags = a->detached ? PERF_PERSISTENT_CREATE_DETACHED : 0;
	if (a->crash_dump)
		cr->flags |= PERF_PERSISTENT_CREATE_CRASH_DUMP;
	if (a->perf_path)
		cr->flags |= PERF_PERSISTENT_CREATE_PERF_PATH;
	if (a->keep)
		cr->flags |= PERF_PERSISTENT_CREATE_KEEP;
	cr->attr = (unsigned long)attr;
	cr->buffer_size = a->size;
	snprintf(cr->name, sizeof(cr->name), "%s", a->name);
}

/* Why CREATE failed, with errno @err, in the user's terms. */
static void create_failed(const struct create_args *a,
			  const struct perf_persistent_create *cr, int err)
{
	char pid[16];
	unsigned int when = 0;
	const char *arg = a->spec;

	if (!cr->name[0])
		when |= PP_WHEN_NONAME;
	if (a->pid && err == ESRCH) {
		when |= PP_WHEN_PID;
		snprintf(pid, sizeof(pid), "%d", a->pid);
		arg = pid;
	}
	if (a->keep && (err == ENXIO || err == ENOSPC))
		when |= PP_WHEN_KEEP;
	if (a->keep && err == ENXIO && capture_kernel())
		when |= PP_WHEN_CAPTURE;
	if (((const struct perf_event_attr *)(unsigned long)cr->attr)->type ==
	    PERF_TYPE_BREAKPOINT)
		when |= PP_WHEN_BREAKPOINT;
	if (a->cgroup && (err == EBADF || err == ENOENT || err == ENOTDIR)) {
		when |= PP_WHEN_CGROUP;
		arg = a->cgroup;
	}
	pp_report(PP_OP_CREATE, err, when, a->name, arg);
}

/*
 * The event @cr has been created; finish as the options ask.  Run the
 * command it records, leave it detached, or hold it in the foreground.
 */
static int created(int fd, const struct create_args *a,
		   const struct perf_persistent_create *cr, pid_t cmd_pid,
		   int go)
{
	/*
	 * The pid was read from the pidfd before CREATE: if the process is
	 * alive now, the pid was still its own then.
	 */
	if (a->have_pidfd && pidfd_exited(a->pidfd)) {
		ctl_ioctl(fd, PERF_PERSISTENT_IOC_DESTROY, cr->id);
		close(fd);
		return pp_error("creating '%s': the process of pidfd %d has exited",
				a->name, a->pidfd), 1;
	}
	if (a->cmd) {
		printf("created %s (id %u): recording %s and what it starts\n",
		       a->name, cr->id, a->cmd[0]);
		fflush(stdout);
		close(fd);
		return start_go(a->cmd[0], cmd_pid, go, true);
	}
	if (a->detached) {
		printf("created %s (id %u)\n", a->name, cr->id);
		close(fd);
		return 0;
	}
	printf("created %s (id %u): recording; Ctrl-C destroys it, a hangup detaches it\n",
	       a->name, cr->id);
	return hold(fd, a->name, cr->id, true);
}

static int cmd_create(int argc, char **argv)
{
	struct create_args a = { .comm = true, .inherit = true, .pidfd = -1 };
	struct perf_persistent_create cr = { .size = sizeof(cr) };
	char defname[PERF_PERSISTENT_NAME_MAX];
	struct perf_event_attr attr;
	pid_t cmd_pid = -1;
	int fd, go = -1, ret;
	sigset_t held;

	ret = parse_create(argc, argv, &a);
	if (ret)
		return ret;
	if (build_attr(&a, &attr, defname))
		return 1;
	fd = ctl_open(true);
	if (fd < 0)
		return 1;
	if (a.cmd) {
		/* Record CMD's tree from its exec on; the event outlives us. */
		cmd_pid = start_stopped(a.cmd, &go);
		if (cmd_pid < 0) {
			close(fd);
			return 1;
		}
		a.pid = cmd_pid;
		attr.enable_on_exec = 1;
		a.detached = true;
	}
	build_create(&a, &attr, &cr);
	/* To hold it, block the signals before the event is ours. */
	if (!a.detached)
		hold_signals(&held);
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_CREATE, (unsigned long)&cr)) {
		create_failed(&a, &cr, errno);
		close(fd);
		if (a.cmd)
			start_go(a.cmd[0], cmd_pid, go, false);
		return 1;
	}
	return created(fd, &a, &cr, cmd_pid, go);
}

const struct pp_cmd pp_cmd_create = {
	.name = "create",
	.fn = cmd_create,
	.usage = "[-n NAME] [-m SIZE] [-s FIELDS] [-c PERIOD] [-g] [-d] [--pid PID | --cgroup PATH] EVENT [-- CMD...]",
	.help = "create a persistent event recording EVENT on every CPU, or of a\n"
		"    process tree or a cgroup\n"
		"    EVENT           system:name (tracepoint), a software or hardware event\n"
		"                    (cpu-clock, context-switches, cycles, ...),\n"
		"                    mem:ADDR[/LEN][:rwx] (breakpoint) or rNNN (raw)\n"
		"    -n, --name NAME         the event's name (default: from EVENT)\n"
		"    -m, --buffer-size SIZE  per-CPU buffer: 4K to 64M, a power of two\n"
		"                            (default: the module's buffer_kb)\n"
		"    -s, --fields FIELDS     sample fields: identifier,ip,tid,time,addr,\n"
		"                            id,cpu,period,callchain,raw (default:\n"
		"                            identifier,ip,tid,time,cpu,period and raw\n"
		"                            for a tracepoint)\n"
		"    -g, --call-graph fp     call chains (kernel and user frames, the user's\n"
		"                            by frame pointers): the callchain field\n"
		"    --call-graph dwarf[,SIZE]  the kernel's frames, and the user registers\n"
		"                            and SIZE bytes of stack (default 8192) for\n"
		"                            perf to unwind with the binaries' DWARF\n"
		"    --max-stack N           with -g: at most N entries (default: the\n"
		"                            module's max_stack, 127)\n"
		"    -c, --count PERIOD      record every PERIOD events; 0 counts only\n"
		"                            (default: 1; 1 ms for cpu-clock, task-clock;\n"
		"                            hardware and raw events: -F 1000)\n"
		"    -F, --freq HZ           record HZ samples a second\n"
		"    -d, --detached          outlive this command (not perf record's -d);\n"
		"                            without it the command holds the event: Ctrl-C\n"
		"                            destroys it, a hangup (ssh gone) detaches it\n"
		"    --no-comm               no COMM records: tasks are named as they are\n"
		"                            when read, not as they were when recorded\n"
		"    --crash-dump            on panic and oops, write the newest records\n"
		"                            to the kernel log (script --from-log)\n"
		"    --keep-across-reboot    buffers in the memory reserved at boot\n"
		"                            (module parameter region=): after a warm\n"
		"                            reset, a panic or kexec the next boot reads\n"
		"                            them (script --previous NAME)\n"
		"    --perf-path             record through perf's kernel counters, not\n"
		"                            the module's own probe (the direct path, the\n"
		"                            default for the tracepoints it covers)\n"
		"    -p, --pid PID           only process PID, its threads, and the\n"
		"                            threads and children they start\n"
		"    --pidfd FD              as --pid, for the process of pidfd FD\n"
		"    --no-inherit            with --pid or CMD: only the threads the\n"
		"                            process has when the event is created\n"
		"    -G, --cgroup PATH       only the tasks of a cgroup v2 and its\n"
		"                            descendants: its directory, or its path from\n"
		"                            the cgroup2 root (/system.slice/x.service)\n"
		"    -- CMD...               run CMD recorded from its exec on, with\n"
		"                            what it starts; exit with its status and\n"
		"                            leave the event detached",
};
