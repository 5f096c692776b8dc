// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent VERB ...".
 *
 * Installed as perf-persistent in perf's exec directory, so that perf runs
 * it for "perf persistent"; runs on its own as well.  Errors are one line
 * on stderr; the exit status is 0 on success, 1 on failure and 129 for a
 * bad command line, as perf's own commands do.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf-persistent.h"
#include "perf_persistent/version.h"

#define DEFAULT_FIELDS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |	\
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME |		\
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

struct verb {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*usage;
	const char	*help;
};

static const struct verb *current;

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perf persistent%s%s: ", current ? " " : "",
		current ? current->name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (current)
		fprintf(stderr, " (see: perf persistent help %s)", current->name);
	fputc('\n', stderr);
	return PP_EXIT_USAGE;
}

/*
 * getopt_long over a verb's arguments; reports unknown options and missing
 * arguments in one line.  Returns the option, -1 at the end, '?' on error.
 */
static int next_opt(int argc, char **argv, const char *shortopts,
		    const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?') {
		if (optopt)
			usage_error("option '-%c' %s", optopt,
				    strchr(shortopts, optopt) ?
				    "needs an argument" : "is unknown");
		else
			usage_error("unknown option or missing argument: '%s'",
				    argv[optind - 1]);
	}
	return c;
}

static int no_options(int argc, char **argv)
{
	static const struct option opts[] = { { NULL, 0, NULL, 0 } };

	return next_opt(argc, argv, "", opts) == -1 ? 0 : PP_EXIT_USAGE;
}

static int want_args(int argc, char **argv, int min, int max)
{
	int n = argc - optind;

	if (n < min)
		return usage_error("missing %s", min == 1 && max == 1 ?
				   "the event name" : "arguments");
	if (max >= 0 && n > max)
		return usage_error("unexpected argument '%s'",
				   argv[optind + max]);
	return 0;
}

static const char *state_str(unsigned int state)
{
	static char buf[48];

	snprintf(buf, sizeof(buf), "%s%s%s",
		 state & PERF_PERSISTENT_STATE_ATTACHED ? "attached" : "detached",
		 state & PERF_PERSISTENT_STATE_PAUSED ? ",paused" : "",
		 state & PERF_PERSISTENT_STATE_FROZEN ? ",frozen" : "");
	return buf;
}

static void instance_attr(const char *name, const char *attr, char *buf,
			  size_t len);

/*
 * Whose activity @desc's event records, as its sysfs "scope" says it (the
 * cgroup's path is the reader's view): "cpus", "task PID[ exited]",
 * "cgroup PATH".
 */
static void scope_str(const struct pp_event_desc *desc, char *buf, size_t len)
{
	instance_attr(desc->info.name, "scope", buf, len);
	if (!buf[0])
		snprintf(buf, len, "cpus");
}

/* A line of the event's sysfs directory, without its newline; "" if none. */
static void instance_attr(const char *name, const char *attr, char *buf,
			  size_t len)
{
	char path[256];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path),
		 "/sys/bus/event_source/devices/persistent/instances/%s/%s",
		 name, attr);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The names of the ids in "targets=ID,ID" of a trigger line, into @out. */
static void target_names(int fd, const char *ids, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	while (*ids && used < len) {
		unsigned int id = strtoul(ids, (char **)&ids, 10);
		struct pp_event_desc d;
		int n;

		if (!ctl_describe(fd, id, NULL, &d)) {
			n = snprintf(out + used, len - used, "%s%s",
				     used ? "," : "", d.info.name);
			ctl_desc_free(&d);
		} else {
			n = snprintf(out + used, len - used, "%s#%u",
				     used ? "," : "", id);
		}
		used += n > 0 ? (size_t)n : 0;
		if (*ids == ',')
			ids++;
		else
			break;
	}
}

struct totals {
	unsigned long long written, overwritten, dropped, bytes, count;
};

static void sum(const struct pp_event_desc *desc, struct totals *t)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < desc->nr_cpus; i++) {
		t->written += desc->cpus[i].written;
		t->overwritten += desc->cpus[i].overwritten;
		t->dropped += desc->cpus[i].dropped;
		t->bytes += desc->cpus[i].bytes;
		t->count += desc->cpus[i].count;
	}
}

/*
 * A command holding an event in the foreground (create without --detached,
 * attach) leaves its pid in RUN_DIR/NAME.pid, so that "perf persistent
 * detach NAME" from another shell can ask it, with SIGUSR1, to detach the
 * event and exit.
 */
#define RUN_DIR		"/run/perf-persistent"

static void pidfile_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.pid", RUN_DIR, name);
}

/*
 * Block the signals hold() waits for, into @set.  Called before the ioctl
 * that makes the control file the event's owner: a signal between that
 * ioctl and hold() would otherwise kill the process by its default action,
 * and the kernel would destroy the event with its history.
 */
static void hold_signals(sigset_t *set)
{
	/*
	 * An ignored signal never becomes pending, so sigwait() would not see
	 * it: a shell starts background commands with SIGINT ignored, nohup
	 * ignores SIGHUP.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGUSR1);
	sigprocmask(SIG_BLOCK, set, NULL);
}

/*
 * Hold event @id, attached to @fd, until a signal (blocked since before
 * the attaching ioctl: hold_signals()).  SIGUSR1 ("perf persistent detach
 * NAME") and SIGHUP (the terminal or the ssh session went away) detach it:
 * it goes on recording and its history is kept.  SIGINT and SIGTERM
 * destroy it if @destroy, else detach it too.  Only a death that leaves no
 * say (SIGKILL) ends the event with the process: the kernel destroys what
 * a closed file owned.
 */
static int hold(int fd, const char *name, unsigned int id, bool destroy)
{
	char path[PATH_MAX];
	sigset_t set;
	FILE *f;
	int sig;

	hold_signals(&set);
	pidfile_path(name, path, sizeof(path));
	mkdir(RUN_DIR, 0700);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	fflush(stdout);
	sigwait(&set, &sig);
	unlink(path);
	if (destroy && (sig == SIGINT || sig == SIGTERM)) {
		printf("destroyed %s\n", name);
		close(fd);
		return 0;
	}
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_DETACH, id)) {
		pp_error("%s: detaching: %s", name, strerror(errno));
		close(fd);
		return 1;
	}
	printf("detached %s: it goes on recording (perf persistent destroy %s removes it)\n",
	       name, name);
	close(fd);
	return 0;
}

/*
 * Detach @desc's event, which another process holds: ask it, if it is this
 * command holding it in the foreground, and wait until it has.
 */
static int detach_held(int fd, const struct pp_event_desc *desc)
{
	const char *name = desc->info.name;
	char path[PATH_MAX];
	int pid = 0, i;
	FILE *f;

	pidfile_path(name, path, sizeof(path));
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	if (pid <= 0 || kill(pid, SIGUSR1))
		return pp_error("%s: attached to another process, which is not a perf persistent command: it ends with that process",
				name);
	for (i = 0; i < 200; i++) {
		struct pp_event_desc now;

		if (ctl_describe(fd, desc->info.id, NULL, &now))
			return pp_error("%s: destroyed while being detached", name);
		ctl_desc_free(&now);
		if (!(now.info.state & PERF_PERSISTENT_STATE_ATTACHED))
			return 0;
		usleep(50000);
	}
	return pp_error("%s: its holder (pid %d) did not detach it", name, pid);
}

/*
 * Split "ARGS... -- CMD...": @argc ends at the "--", *@cmd is CMD (NULL
 * without one).  Non-zero (reported) for a "--" with no command after it.
 */
static int split_command(int *argc, char **argv, char ***cmd)
{
	int k;

	*cmd = NULL;
	for (k = 1; k < *argc; k++)
		if (!strcmp(argv[k], "--")) {
			*cmd = argv + k + 1;
			*argc = k;
			break;
		}
	if (*cmd && !**cmd)
		return usage_error("no command after --");
	return 0;
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

/* A pid (@min 1) or an fd (@min 0): a decimal number. */
static int parse_id(const char *s, long min, const char *what, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > INT_MAX)
		return usage_error("bad %s '%s'", what, s);
	*out = v;
	return 0;
}

static int cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name",	 required_argument, NULL, 'n' },
		{ "buffer-size", required_argument, NULL, 'm' },
		{ "fields",	 required_argument, NULL, 's' },
		{ "count",	 required_argument, NULL, 'c' },
		{ "freq",	 required_argument, NULL, 'F' },
		{ "detached",	 no_argument,	    NULL, 'd' },
		{ "no-comm",	 no_argument,	    NULL, 'C' },
		{ "crash-dump",	 no_argument,	    NULL, 'D' },
		{ "perf-path",	 no_argument,	    NULL, 'P' },
		{ "pid",	 required_argument, NULL, 'p' },
		{ "cgroup",	 required_argument, NULL, 'G' },
		{ "no-inherit",	 no_argument,	    NULL, 'I' },
		{ "pidfd",	 required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	struct perf_persistent_create cr = { .size = sizeof(cr) };
	const char *cgroup = NULL;
	char **cmd = NULL;
	bool inherit = true;
	pid_t cmd_pid = -1;
	int pid = 0, go = -1, pidfd = -1, targets = 0;
	bool crash_dump = false, perf_path = false;
	unsigned long long fields = 0, period = 0, freq = 0, size = 0;
	const char *name = NULL;
	struct perf_event_attr attr;
	char defname[PERF_PERSISTENT_NAME_MAX], *end;
	bool detached = false, have_period = false, have_freq = false;
	bool comm = true;
	sigset_t held;
	int c, fd;

	/* EVENT [-- CMD]: the command is not ours to parse. */
	if (split_command(&argc, argv, &cmd))
		return PP_EXIT_USAGE;
	while ((c = next_opt(argc, argv, "n:m:s:c:F:dp:G:", opts)) != -1) {
		switch (c) {
		case 'n':
			name = optarg;
			break;
		case 'p':
			if (parse_id(optarg, 1, "pid", &pid))
				return PP_EXIT_USAGE;
			targets++;
			break;
		case 'G':
			cgroup = optarg;
			targets++;
			break;
		case 'f':
			if (parse_id(optarg, 0, "pidfd", &pidfd))
				return PP_EXIT_USAGE;
			pid = pidfd_pid(pidfd);
			if (pid < 0)
				return 1;
			targets++;
			break;
		case 'I':
			inherit = false;
			break;
		case 'D':
			crash_dump = true;
			break;
		case 'P':
			perf_path = true;
			break;
		case 'm':
			if (parse_size(optarg, &size))
				return 1;
			break;
		case 's':
			if (parse_fields(optarg, &fields))
				return 1;
			break;
		case 'c':
			errno = 0;
			period = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || optarg[0] == '-')
				return usage_error("bad period '%s'", optarg);
			have_period = true;
			break;
		case 'F':
			errno = 0;
			freq = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || !freq ||
			    optarg[0] == '-')
				return usage_error("bad frequency '%s'", optarg);
			have_freq = true;
			break;
		case 'd':
			detached = true;
			break;
		case 'C':
			comm = false;
			break;
		default:
			return PP_EXIT_USAGE;
		}
	}
	if (want_args(argc, argv, 1, 1))
		return PP_EXIT_USAGE;
	if (have_period && have_freq)
		return usage_error("-c and -F exclude each other");
	if (targets + !!cmd > 1)
		return usage_error("--pid, --pidfd, --cgroup and -- CMD exclude each other");
	if (!inherit && !pid && !cmd)
		return usage_error("--no-inherit needs --pid or -- CMD");
	if (name && !name_ok(name)) {
		pp_error("bad event name '%s': 1 to 31 of a-z, 0-9 and _, starting with a letter",
			 name);
		return 1;
	}
	if (parse_event(argv[optind], &attr, defname))
		return 1;
	if (!name)
		name = defname;

	if (!fields) {
		fields = DEFAULT_FIELDS;
		if (attr.type == PERF_TYPE_TRACEPOINT)
			fields |= PERF_SAMPLE_RAW;
		if (attr.type == PERF_TYPE_BREAKPOINT)
			fields |= PERF_SAMPLE_ADDR;
	}
	if (have_freq) {
		attr.freq = 1;
		attr.sample_freq = freq;
	} else if (have_period) {
		attr.sample_period = period;
	} else {
		default_sampling(&attr);
	}
	attr.sample_type = attr.sample_period ? fields : 0;
	/* The tasks' names as they were when recorded: COMM records. */
	if (comm && (attr.sample_type & PERF_SAMPLE_TID)) {
		attr.comm = 1;
		attr.sample_id_all = 1;
	}
	if (attr.type == PERF_TYPE_BREAKPOINT)
		attr.exclude_hv = 1;

	fd = ctl_open(true);
	if (fd < 0)
		return 1;
	if (cmd) {
		/* CMD's tree from its exec on; the event outlives this command. */
		cmd_pid = start_stopped(cmd, &go);
		if (cmd_pid < 0) {
			close(fd);
			return 1;
		}
		pid = cmd_pid;
		attr.enable_on_exec = 1;
		detached = true;
	}
	if (pid) {
		cr.scope = PERF_PERSISTENT_SCOPE_TASK;
		cr.target = pid;
		attr.inherit = inherit;
	} else if (cgroup) {
		/* A directory (of the cgroup2 mount), or a path from its root. */
		cr.scope = PERF_PERSISTENT_SCOPE_CGROUP;
		cr.target = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cr.target < 0)
			cr.cgroup_path = (unsigned long)cgroup;
	}
	cr.flags = detached ? PERF_PERSISTENT_CREATE_DETACHED : 0;
	if (crash_dump)
		cr.flags |= PERF_PERSISTENT_CREATE_CRASH_DUMP;
	if (perf_path)
		cr.flags |= PERF_PERSISTENT_CREATE_PERF_PATH;
	cr.attr = (unsigned long)&attr;
	cr.buffer_size = size;
	snprintf(cr.name, sizeof(cr.name), "%s", name);
	/* Held in the foreground: its signals wait from before it is ours. */
	if (!detached && !cmd)
		hold_signals(&held);
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_CREATE, (unsigned long)&cr)) {
		if (errno == EEXIST)
			pp_error("an event named '%s' exists already (choose another with --name)",
				 name);
		else if (errno == EOPNOTSUPP)
			pp_error("creating '%s': %s: the module cannot record these sample fields of %s",
				 name, strerror(errno), argv[optind]);
		else if (errno == EINVAL && !cr.name[0])
			pp_error("bad event name '%s'", name);
		else if (errno == ESRCH && pid)
			pp_error("creating '%s': no process %d", name, pid);
		else if (cgroup && (errno == EBADF || errno == ENOENT ||
				    errno == ENOTDIR))
			pp_error("creating '%s': '%s' is not a cgroup v2 directory, nor a path from the cgroup2 root",
				 name, cgroup);
		else
			pp_error("creating '%s' from %s: %s", name, argv[optind],
				 strerror(errno));
		close(fd);
		if (cmd)
			start_go(cmd[0], cmd_pid, go, false);
		return 1;
	}
	/*
	 * The pid was read from the pidfd before CREATE: if the process is
	 * alive now, the pid was still its own then.
	 */
	if (pidfd >= 0 && pidfd_exited(pidfd)) {
		ctl_ioctl(fd, PERF_PERSISTENT_IOC_DESTROY, cr.id);
		close(fd);
		return pp_error("creating '%s': the process of pidfd %d has exited",
				name, pidfd);
	}
	if (cmd) {
		printf("created %s (id %u): recording %s and what it starts\n",
		       name, cr.id, cmd[0]);
		fflush(stdout);
		close(fd);
		return start_go(cmd[0], cmd_pid, go, true);
	}
	if (detached) {
		printf("created %s (id %u)\n", name, cr.id);
		close(fd);
		return 0;
	}
	printf("created %s (id %u): recording; Ctrl-C destroys it, a hangup detaches it\n",
	       name, cr.id);
	return hold(fd, name, cr.id, true);
}

static int cmd_list(int argc, char **argv)
{
	unsigned int *ids = NULL;
	int fd, n, i;

	if (no_options(argc, argv) || want_args(argc, argv, 0, 0))
		return PP_EXIT_USAGE;
	fd = ctl_open(false);
	if (fd < 0)
		return 1;
	n = ctl_list(fd, &ids);
	if (n < 0) {
		close(fd);
		return 1;
	}
	printf("%4s  %-20s %-26s %-16s %7s %10s %12s %10s  %s\n", "ID", "NAME",
	       "SOURCE", "STATE", "BUFFER", "RECORDS", "OVERWRITTEN", "DROPPED",
	       "SCOPE");
	for (i = 0; i < n; i++) {
		struct pp_event_desc desc;
		char src[256], size[32], scope[PATH_MAX];
		struct totals t;

		/* Destroyed since listed: not there any more. */
		if (ctl_describe(fd, ids[i], NULL, &desc))
			continue;
		sum(&desc, &t);
		format_source(&desc.attr, src, sizeof(src));
		format_size(desc.info.buffer_size, size, sizeof(size));
		scope_str(&desc, scope, sizeof(scope));
		printf("%4u  %-20s %-26s %-16s %7s %10llu %12llu %10llu  %s\n",
		       desc.info.id, desc.info.name, src,
		       state_str(desc.info.state), size, t.written,
		       t.overwritten, t.dropped, scope);
		ctl_desc_free(&desc);
	}
	free(ids);
	close(fd);
	return 0;
}

/*
 * Open the control device and describe the event named by the one
 * argument.  Returns the fd, or minus the exit status (1, or
 * PP_EXIT_USAGE) with the reason on stderr.
 */
static int open_event(int argc, char **argv, struct pp_event_desc *desc,
		      bool write)
{
	int fd;

	if (want_args(argc, argv, 1, 1))
		return -PP_EXIT_USAGE;
	fd = ctl_open(write);
	if (fd < 0)
		return -1;
	if (ctl_lookup(fd, argv[optind], desc)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The scope line of info, with how a task scope is inherited. */
static void print_scope(const struct pp_event_desc *desc)
{
	char scope[PATH_MAX], *exited;

	scope_str(desc, scope, sizeof(scope));
	if (desc->info.scope != PERF_PERSISTENT_SCOPE_TASK) {
		printf("scope:         %s\n", scope);
		return;
	}
	exited = strstr(scope, " exited");
	if (exited)
		*exited = '\0';
	printf("scope:         %s%s, %s\n", scope, exited ? " (exited)" : "",
	       !desc->attr.inherit ? "its threads at creation" :
	       desc->attr.inherit_thread ? "inherited by threads" :
	       "inherited by threads and children");
	if (desc->attr.sigtrap)
		printf("sigtrap:       SIGTRAP to the thread, si_perf_data 0x%llx\n",
		       (unsigned long long)desc->attr.sig_data);
}

static int cmd_info(int argc, char **argv)
{
	struct pp_event_desc desc;
	char src[256], size[32], fields[128];
	struct totals t;
	unsigned int i;
	int fd;

	if (no_options(argc, argv))
		return PP_EXIT_USAGE;
	fd = open_event(argc, argv, &desc, false);
	if (fd < 0)
		return -fd;
	sum(&desc, &t);
	format_source(&desc.attr, src, sizeof(src));
	format_size(desc.info.buffer_size, size, sizeof(size));
	format_fields(desc.attr.sample_type, fields, sizeof(fields));
	printf("name:          %s\n", desc.info.name);
	printf("id:            %u\n", desc.info.id);
	printf("source:        %s (type %u, config 0x%llx)\n", src,
	       desc.attr.type, (unsigned long long)desc.attr.config);
	printf("state:         %s\n", state_str(desc.info.state));
	print_scope(&desc);
	if (desc.attr.freq)
		printf("sample freq:   %llu Hz\n",
		       (unsigned long long)desc.attr.sample_freq);
	else if (desc.attr.sample_period)
		printf("sample period: %llu\n",
		       (unsigned long long)desc.attr.sample_period);
	else
		printf("sample period: none (counting)\n");
	printf("sample fields: %s\n", fields[0] ? fields : "none");
	printf("comm records:  %s\n", desc.attr.comm ? "yes" : "no");
	printf("crash dump:    %s\n",
	       desc.info.state & PERF_PERSISTENT_STATE_CRASH_DUMP ? "yes" : "no");
	printf("record path:   %s\n",
	       desc.info.state & PERF_PERSISTENT_STATE_DIRECT ?
	       "direct (the module's probe on the tracepoint)" :
	       "perf (a kernel counter per CPU)");
	printf("buffer:        %s per CPU, %u CPUs\n", size, desc.nr_cpus);
	printf("records:       %llu written, %llu held, %llu overwritten, %llu dropped, %llu bytes\n",
	       t.written, t.written - t.overwritten, t.overwritten, t.dropped,
	       t.bytes);
	printf("count:         %llu\n",
	       desc.info.scope ? (unsigned long long)desc.info.count : t.count);
	if (desc.info.state & PERF_PERSISTENT_STATE_TRIGGER) {
		char line[1024], names[400];
		unsigned long long count = 0, after = 0;
		int fired = 0;
		char *p, *filter;

		instance_attr(desc.info.name, "trigger", line, sizeof(line));
		/* The filter runs to the end of the line. */
		filter = strstr(line, " filter=");
		if (filter) {
			*filter = '\0';
			filter += strlen(" filter=");
		}
		p = strchr(line, ' ');
		if (!strncmp(line, "targets=", 8) && p &&
		    sscanf(p, " count=%llu after=%llu fired=%d", &count, &after,
			   &fired) == 3) {
			*p = '\0';
			target_names(fd, line + 8, names, sizeof(names));
			printf("trigger:       freezes %s on record %llu, after %llu more records each; %s\n",
			       names, count, after, fired ? "fired" : "armed");
			if (filter)
				printf("filter:        %s\n", filter);
		}
	}
	if (desc.info.state & PERF_PERSISTENT_STATE_FROZEN) {
		char times[32], at[32];

		instance_attr(desc.info.name, "freezes", times, sizeof(times));
		instance_attr(desc.info.name, "frozen_at", at, sizeof(at));
		printf("frozen:        at %llu.%06llu (frozen %s times)\n",
		       strtoull(at, NULL, 10) / 1000000000ULL,
		       strtoull(at, NULL, 10) % 1000000000ULL / 1000, times);
	}
	/*
	 * Positions count down from 0 as records are written: shown signed,
	 * they say how many bytes the CPU has written in all (-HEAD) and
	 * holds (TAIL - HEAD).
	 */
	printf("%5s %7s %10s %10s %12s %10s %12s %12s %12s %12s\n", "CPU",
	       "ONLINE", "WRITTEN", "HELD", "OVERWRITTEN", "DROPPED", "BYTES",
	       "COUNT", "HEAD", "HELD-BYTES");
	for (i = 0; i < desc.nr_cpus; i++) {
		const struct perf_persistent_cpu_stats *cs = &desc.cpus[i];

		printf("%5u %7s %10llu %10llu %12llu %10llu %12llu %12llu %12lld %12llu\n",
		       cs->cpu, cs->online ? "yes" : "no",
		       (unsigned long long)cs->written,
		       (unsigned long long)(cs->written - cs->overwritten),
		       (unsigned long long)cs->overwritten,
		       (unsigned long long)cs->dropped,
		       (unsigned long long)cs->bytes,
		       (unsigned long long)cs->count,
		       (long long)cs->head,
		       (unsigned long long)(cs->tail - cs->head));
	}
	ctl_desc_free(&desc);
	close(fd);
	return 0;
}

static int thaw(int fd, const struct pp_event_desc *desc);

/* pause, resume, detach, destroy: one ioctl per named event. */
static int id_verb(int argc, char **argv, unsigned long cmd, const char *done)
{
	int fd, i, ret = 0;

	if (no_options(argc, argv))
		return PP_EXIT_USAGE;
	if (want_args(argc, argv, 1, -1))
		return PP_EXIT_USAGE;
	fd = ctl_open(true);
	if (fd < 0)
		return 1;
	for (i = optind; i < argc; i++) {
		struct pp_event_desc desc;

		if (ctl_lookup(fd, argv[i], &desc)) {
			ret = 1;
			continue;
		}
		if (ctl_ioctl(fd, cmd, desc.info.id)) {
			if (errno == EBUSY && cmd == PERF_PERSISTENT_IOC_DETACH) {
				if (detach_held(fd, &desc))
					ret = 1;
				else
					printf("%s %s\n", done, desc.info.name);
			} else if (errno == EBUSY)
				pp_error("%s: attached to another process (it ends with that process)",
					 argv[i]);
			else if (errno == EALREADY)
				pp_error("%s: already detached", argv[i]);
			else if (errno == ENOENT)
				pp_error("no persistent event '%s' (see: perf persistent list)",
					 argv[i]);
			else
				pp_error("%s: %s", argv[i], strerror(errno));
			ret = 1;
		} else if (cmd == PERF_PERSISTENT_IOC_RESUME && thaw(fd, &desc)) {
			pp_error("%s: thawing it: %s", argv[i], strerror(errno));
			ret = 1;
		} else {
			printf("%s %s\n", done, desc.info.name);
		}
		ctl_desc_free(&desc);
	}
	close(fd);
	return ret;
}

static int cmd_pause(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_PAUSE, "paused");
}

static int cmd_resume(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_RESUME, "resumed");
}

/*
 * After RESUME: thaw a frozen event, re-arm an event's trigger (which
 * thaws its targets).  PAUSE and RESUME alone leave freezing alone, so
 * that reading a frozen event (which pauses it) does not thaw it.
 */
static int thaw(int fd, const struct pp_event_desc *desc)
{
	struct perf_persistent_trigger t = { .size = sizeof(t),
					     .source = desc->info.id };

	if (desc->info.state & PERF_PERSISTENT_STATE_FROZEN) {
		t.flags = PERF_PERSISTENT_TRIGGER_THAW;
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, (unsigned long)&t))
			return -1;
	}
	if (desc->info.state & PERF_PERSISTENT_STATE_TRIGGER) {
		t.flags = PERF_PERSISTENT_TRIGGER_REARM;
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, (unsigned long)&t))
			return -1;
	}
	return 0;
}

static int cmd_detach(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_DETACH, "detached");
}

static int cmd_destroy(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_DESTROY, "destroyed");
}

/* The ids of the comma-separated names in @list; -1 with a message. */
static int lookup_ids(int fd, char *list, unsigned int *ids, unsigned int max)
{
	unsigned int n = 0;
	char *name, *save = NULL;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		struct pp_event_desc d;

		if (n == max) {
			pp_error("at most %u events to freeze", max);
			return -1;
		}
		if (ctl_lookup(fd, name, &d))
			return -1;
		ids[n++] = d.info.id;
		ctl_desc_free(&d);
	}
	if (!n)
		pp_error("no event to freeze");
	return n ? (int)n : -1;
}

static int cmd_trigger(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "freeze",	required_argument, NULL, 'f' },
		{ "freeze-all",	no_argument,	   NULL, 'A' },
		{ "count",	required_argument, NULL, 'c' },
		{ "after",	required_argument, NULL, 'a' },
		{ "remove",	no_argument,	   NULL, 'r' },
		{ "filter",	required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	struct perf_persistent_trigger t = { .size = sizeof(t) };
	struct perf_persistent_filter_op ops[PERF_PERSISTENT_FILTER_MAX];
	unsigned int ids[PERF_PERSISTENT_TRIGGER_MAX], *all = NULL;
	unsigned long long *num;
	char *freeze = NULL, *filter = NULL, *end;
	bool freeze_all = false, remove = false;
	struct pp_event_desc src;
	int c, fd, n = 0, i, ret = 1;

	while ((c = next_opt(argc, argv, "", opts)) != -1) {
		switch (c) {
		case 'f':
			freeze = optarg;
			break;
		case 'A':
			freeze_all = true;
			break;
		case 'r':
			remove = true;
			break;
		case 'F':
			/* Shown as one line: no tab or newline in it. */
			for (filter = optarg; *optarg; optarg++)
				if (isspace((unsigned char)*optarg))
					*optarg = ' ';
			break;
		case 'c':
		case 'a':
			num = (unsigned long long *)(c == 'c' ? &t.count : &t.after);
			errno = 0;
			*num = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || optarg[0] == '-' ||
			    (c == 'c' && !*num))
				return usage_error("bad %s '%s'",
						   c == 'c' ? "count" : "number of records",
						   optarg);
			break;
		default:
			return PP_EXIT_USAGE;
		}
	}
	if (want_args(argc, argv, 1, 1))
		return PP_EXIT_USAGE;
	if (remove + !!freeze + freeze_all != 1)
		return usage_error("give one of --freeze, --freeze-all and --remove");
	if (remove && (t.count || t.after || filter))
		return usage_error("--remove takes no --count, --after or --filter");
	fd = ctl_open(true);
	if (fd < 0)
		return 1;
	if (ctl_lookup(fd, argv[optind], &src))
		goto out;
	t.source = src.info.id;
	if (filter) {
		int nr = filter_compile(&src.attr, filter, ops,
					PERF_PERSISTENT_FILTER_MAX);

		if (nr < 0)
			goto out_src;
		t.filter = (unsigned long)ops;
		t.nr_filter = nr;
		t.filter_text = (unsigned long)filter;
	}
	if (remove) {
		t.flags = PERF_PERSISTENT_TRIGGER_REMOVE;
	} else if (freeze) {
		n = lookup_ids(fd, freeze, ids, PERF_PERSISTENT_TRIGGER_MAX);
		if (n < 0)
			goto out_src;
	} else {
		/* Every other event there is now. */
		int nr = ctl_list(fd, &all);

		if (nr < 0)
			goto out_src;
		for (i = 0; i < nr; i++)
			if (all[i] != src.info.id && n < PERF_PERSISTENT_TRIGGER_MAX)
				ids[n++] = all[i];
		if (!n) {
			pp_error("%s: no other event to freeze", src.info.name);
			goto out_src;
		}
	}
	t.nr_targets = n;
	t.targets = n ? (unsigned long)ids : 0;
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, (unsigned long)&t)) {
		if (errno == ENOENT)
			pp_error("%s: an event is gone (see: perf persistent list)",
				 src.info.name);
		else
			pp_error("%s: setting the trigger: %s", src.info.name,
				 strerror(errno));
		goto out_src;
	}
	if (remove)
		printf("%s: no trigger\n", src.info.name);
	else
		printf("%s: freezes %d event%s on its %srecord %llu, after %llu more records each\n",
		       src.info.name, n, n == 1 ? "" : "s",
		       filter ? "matching " : "",
		       t.count ? (unsigned long long)t.count : 1ULL,
		       (unsigned long long)t.after);
	ret = 0;
out_src:
	ctl_desc_free(&src);
out:
	free(all);
	close(fd);
	return ret;
}

/* wait's exit status when the timeout passed first, as timeout(1)'s. */
#define PP_EXIT_TIMEOUT	124

/* Print one notice of the watched events @ids, named @names. */
static void print_notice(const struct perf_persistent_notice *n,
			 const unsigned int *ids, char names[][PERF_PERSISTENT_NAME_MAX],
			 int nr)
{
	const char *name = "?";
	int i;

	for (i = 0; i < nr; i++)
		if (ids[i] == n->id)
			name = names[i];
	if (n->what == PERF_PERSISTENT_NOTICE_LOST) {
		printf("%llu notices lost\n", (unsigned long long)n->time);
		return;
	}
	printf("%s %s at %llu.%06llu\n", name,
	       n->what == PERF_PERSISTENT_NOTICE_FIRED ? "fired its trigger" : "froze",
	       (unsigned long long)(n->time / 1000000000ULL),
	       (unsigned long long)(n->time % 1000000000ULL / 1000));
}

/* Run @cmd, wait for it; its exit status (128 + signal if killed). */
static int run_command(char **cmd)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return pp_error("cannot run %s: %s", cmd[0], strerror(errno));
	if (!pid) {
		execvp(cmd[0], cmd);
		pp_error("cannot run %s: %s", cmd[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return pp_error("waiting for %s: %s", cmd[0], strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int cmd_wait(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	char names[PERF_PERSISTENT_TRIGGER_MAX][PERF_PERSISTENT_NAME_MAX];
	unsigned int ids[PERF_PERSISTENT_TRIGGER_MAX];
	struct perf_persistent_notice notices[16];
	int c, fd, i, nr = 0, timeout_ms = -1, ready = 0;
	char **cmd = NULL, *end;
	double secs;
	ssize_t len;

	/* NAME... [-- CMD]: the command is not ours to parse. */
	if (split_command(&argc, argv, &cmd))
		return PP_EXIT_USAGE;
	while ((c = next_opt(argc, argv, "", opts)) != -1) {
		if (c != 't')
			return PP_EXIT_USAGE;
		errno = 0;
		secs = strtod(optarg, &end);
		if (errno || end == optarg || *end || secs < 0 || secs > INT_MAX / 1000)
			return usage_error("bad timeout '%s' (seconds)", optarg);
		timeout_ms = (int)(secs * 1000);
	}
	if (want_args(argc, argv, 1, PERF_PERSISTENT_TRIGGER_MAX))
		return PP_EXIT_USAGE;
	fd = ctl_open(false);
	if (fd < 0)
		return 1;
	/* Watch first, then look: a freeze in between is not missed. */
	for (i = optind; i < argc; i++, nr++) {
		struct pp_event_desc d;

		if (ctl_lookup(fd, argv[i], &d))
			goto fail;
		ids[nr] = d.info.id;
		snprintf(names[nr], sizeof(names[nr]), "%s", d.info.name);
		ctl_desc_free(&d);
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_WATCH, ids[nr])) {
			pp_error("%s: watching it: %s", argv[i], strerror(errno));
			goto fail;
		}
	}
	for (i = 0; i < nr; i++) {
		struct pp_event_desc d;

		if (!ctl_describe(fd, ids[i], NULL, &d)) {
			if (d.info.state & PERF_PERSISTENT_STATE_FROZEN) {
				printf("%s is frozen\n", names[i]);
				ready = 1;
			}
			ctl_desc_free(&d);
		}
	}
	if (!ready) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		printf("waiting for %s%s\n", names[0], nr > 1 ? " and more" : "");
		fflush(stdout);
		do {
			c = poll(&p, 1, timeout_ms);
		} while (c < 0 && errno == EINTR);
		if (c < 0) {
			pp_error("waiting: %s", strerror(errno));
			goto fail;
		}
		if (!c) {
			printf("timed out\n");
			close(fd);
			return PP_EXIT_TIMEOUT;
		}
		len = read(fd, notices, sizeof(notices));
		if (len < 0) {
			pp_error("reading the notices: %s", strerror(errno));
			goto fail;
		}
		for (i = 0; i < (int)(len / sizeof(notices[0])); i++)
			print_notice(&notices[i], ids, names, nr);
	}
	close(fd);
	return cmd ? run_command(cmd) : 0;
fail:
	close(fd);
	return 1;
}

static int cmd_attach(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "destroy-on-exit", no_argument, NULL, 'x' },
		{ NULL, 0, NULL, 0 }
	};
	struct pp_event_desc desc;
	bool destroy = false;
	sigset_t held;
	int c, fd;

	while ((c = next_opt(argc, argv, "", opts)) != -1) {
		if (c != 'x')
			return PP_EXIT_USAGE;
		destroy = true;
	}
	fd = open_event(argc, argv, &desc, true);
	if (fd < 0)
		return -fd;
	hold_signals(&held);
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_ATTACH, desc.info.id)) {
		if (errno == EBUSY)
			pp_error("%s: attached to another process already",
				 desc.info.name);
		else
			pp_error("%s: %s", desc.info.name, strerror(errno));
		ctl_desc_free(&desc);
		close(fd);
		return 1;
	}
	printf(destroy ?
	       "attached %s (id %u): Ctrl-C destroys it, a hangup detaches it\n" :
	       "attached %s (id %u): detached again when this command ends\n",
	       desc.info.name, desc.info.id);
	ctl_desc_free(&desc);
	return hold(fd, desc.info.name, desc.info.id, destroy);
}

static int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "per-cpu", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	struct pp_event_desc desc;
	bool per_cpu = false;
	char src[256];
	struct totals t;
	unsigned int i;
	int c, fd;

	while ((c = next_opt(argc, argv, "A", opts)) != -1) {
		if (c != 'A')
			return PP_EXIT_USAGE;
		per_cpu = true;
	}
	fd = open_event(argc, argv, &desc, false);
	if (fd < 0)
		return -fd;
	sum(&desc, &t);
	format_source(&desc.attr, src, sizeof(src));
	printf("\n Performance counter stats for persistent event '%s' (id %u):\n\n",
	       desc.info.name, desc.info.id);
	if (per_cpu)
		for (i = 0; i < desc.nr_cpus; i++)
			printf("CPU%-4u %18llu      %s\n", desc.cpus[i].cpu,
			       (unsigned long long)desc.cpus[i].count, src);
	else
		printf("%26llu      %s\n", t.count, src);
	printf("\n %llu records written, %llu held, %llu overwritten, %llu dropped\n\n",
	       t.written, t.written - t.overwritten, t.overwritten, t.dropped);
	ctl_desc_free(&desc);
	close(fd);
	return 0;
}

/* Describe, snapshot and get a printer with comms: script and record. */
static int read_event(int argc, char **argv, struct pp_event_desc *desc,
		      struct pp_snapshot *snap, struct pp_printer **p,
		      bool wall_clock)
{
	int fd = open_event(argc, argv, desc, false);

	if (fd < 0)
		return -fd;
	*p = printer_new(&desc->attr);
	if (!*p)
		goto err;
	if (desc->info.size >= PERF_PERSISTENT_INFO_SIZE_VER1)
		printer_set_clock(*p, &(struct pp_clock){
					.clock_ns = desc->info.clock_ns,
					.realtime_ns = desc->info.realtime_ns,
				  }, wall_clock);
	if (snapshot_take(fd, desc, snap))
		goto err;
	printer_learn_comms(*p, snap);
	close(fd);
	return 0;
err:
	printer_free(*p);
	ctl_desc_free(desc);
	close(fd);
	return 1;
}

/* script --from-log FILE [NAME]: the records of the last crash dump. */
static int script_from_log(const char *path, const char *name, bool newest,
			   bool json)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct pp_dump d;
	size_t i;
	int ret = 0, found = 0;

	if (!f) {
		pp_error("cannot read '%s': %s", path, strerror(errno));
		return 1;
	}
	ret = dump_read(f, &d);
	if (f != stdin)
		fclose(f);
	if (ret)
		return 1;
	if (!d.complete)
		pp_error("the dump is incomplete: the log ends before its last line");
	if (d.lost_lines || d.bad_lines)
		pp_error("%lu lines of the dump missing from the log, %lu damaged",
			 d.lost_lines, d.bad_lines);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < d.nr && !ret; i++) {
		if (name && strcmp(name, d.events[i].name))
			continue;
		found++;
		ret = dump_print_event(&d.events[i], stdout, newest, json) ? 1 : 0;
	}
	if (name && !found) {
		pp_error("no event '%s' in the dump", name);
		ret = 1;
	}
	if ((fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		pp_error("writing the records: %s", strerror(errno));
		ret = 1;
	}
	dump_free(&d);
	return ret;
}

static int cmd_script(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "newest-first", no_argument, NULL, 'N' },
		{ "json",	  no_argument, NULL, 'j' },
		{ "wall-clock",	  no_argument, NULL, 'w' },
		{ "from-log",	  required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	bool newest = false, json = false, wall_clock = false;
	const char *from_log = NULL;
	struct pp_event_desc desc;
	struct pp_snapshot snap;
	struct pp_printer *p = NULL;
	int c, ret;

	while ((c = next_opt(argc, argv, "", opts)) != -1) {
		if (c == 'N')
			newest = true;
		else if (c == 'j')
			json = true;
		else if (c == 'w')
			wall_clock = true;
		else if (c == 'L')
			from_log = optarg;
		else
			return PP_EXIT_USAGE;
	}
	if (from_log) {
		if (wall_clock)
			return usage_error("--wall-clock needs the live event, not --from-log");
		if (want_args(argc, argv, 0, 1))
			return PP_EXIT_USAGE;
		return script_from_log(from_log, optind < argc ? argv[optind] : NULL,
				       newest, json);
	}
	ret = read_event(argc, argv, &desc, &snap, &p, wall_clock);
	if (ret)
		return ret;
	/* A reader that stops early (| head) ends the output, not an error. */
	signal(SIGPIPE, SIG_IGN);
	print_records(p, stdout, &snap, newest, json);
	if ((fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		pp_error("writing the records: %s", strerror(errno));
		ret = 1;
	}
	snapshot_free(&snap);
	printer_free(p);
	ctl_desc_free(&desc);
	return ret;
}

static int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char *path = "perf.data";
	struct pp_event_desc desc;
	struct pp_snapshot snap;
	struct pp_printer *p = NULL;
	size_t i, samples = 0;
	int c, ret;

	while ((c = next_opt(argc, argv, "o:", opts)) != -1) {
		if (c != 'o')
			return PP_EXIT_USAGE;
		path = optarg;
	}
	ret = read_event(argc, argv, &desc, &snap, &p, false);
	if (ret)
		return ret;
	ret = perfdata_write(path, &desc.attr, desc.info.id, &snap, p) ? 1 : 0;
	for (i = 0; i < snap.nr; i++)
		samples += snap.recs[i].d.type == PERF_RECORD_SAMPLE;
	if (!ret)
		fprintf(stderr, "[ perf persistent record: Wrote %zu records of %s to %s ]\n",
			samples, desc.info.name, path);
	snapshot_free(&snap);
	printer_free(p);
	ctl_desc_free(&desc);
	return ret;
}

static int cmd_help(int argc, char **argv);

static const struct verb verbs[] = {
	{ "create", cmd_create,
	  "[-n NAME] [-m SIZE] [-s FIELDS] [-c PERIOD] [-d] [--pid PID | --cgroup PATH] EVENT [-- CMD...]",
	  "create a persistent event recording EVENT on every CPU, or of a\n"
	  "    process tree or a cgroup\n"
	  "    EVENT           system:name (tracepoint), a software or hardware event\n"
	  "                    (cpu-clock, context-switches, cycles, ...),\n"
	  "                    mem:ADDR[/LEN][:rwx] (breakpoint) or rNNN (raw)\n"
	  "    -n, --name NAME         the event's name (default: from EVENT)\n"
	  "    -m, --buffer-size SIZE  per-CPU buffer: 4K to 64M, a power of two\n"
	  "                            (default: the module's buffer_kb)\n"
	  "    -s, --fields FIELDS     sample fields: identifier,ip,tid,time,addr,\n"
	  "                            id,cpu,period,raw (default: identifier,ip,\n"
	  "                            tid,time,cpu,period and raw for a tracepoint)\n"
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
	  "                            leave the event detached" },
	{ "list", cmd_list, "",
	  "one line per persistent event: id, name, source, state, per-CPU\n"
	  "    buffer size, records written, overwritten and dropped" },
	{ "info", cmd_info, "NAME",
	  "everything about one event, per CPU" },
	{ "pause", cmd_pause, "NAME...",
	  "stop storing records (new ones are dropped and counted); keep the\n"
	  "    buffers" },
	{ "resume", cmd_resume, "NAME...",
	  "store records again; thaw a frozen event; re-arm the event's\n"
	  "    trigger and thaw what it froze" },
	{ "wait", cmd_wait, "[--timeout S] NAME... [-- CMD [ARG...]]",
	  "wait until one of the events freezes or its trigger fires (now, if\n"
	  "    one is frozen), print what happened, then run CMD and exit with its\n"
	  "    status, or exit 0; 124 when S seconds passed first" },
	{ "trigger", cmd_trigger,
	  "NAME --freeze TARGET[,TARGET...]|--freeze-all [--count N] [--after M]\n"
	  "    [--filter EXPR] | NAME --remove",
	  "make NAME's records freeze other events, keeping the history that\n"
	  "    led up to them\n"
	  "    --freeze TARGETS   the events to freeze (NAME itself may be one)\n"
	  "    --freeze-all       every other event there is now\n"
	  "    --count N          fire on NAME's N-th record after arming (default 1)\n"
	  "    --after M          each target stores M more records, then\n"
	  "                       freezes (default 0)\n"
	  "    --filter EXPR      count only NAME's records whose fields match\n"
	  "                       EXPR, in perf's tracepoint filter syntax:\n"
	  "                       'bank == 4 && status & 0x8000000000000000'\n"
	  "    --remove           remove NAME's trigger" },
	{ "detach", cmd_detach, "NAME...",
	  "let an event held by a perf persistent command (create without -d,\n"
	  "    attach) outlive it: the holder detaches it and exits" },
	{ "attach", cmd_attach, "[--destroy-on-exit] NAME",
	  "make this command the event's owner until it ends, then detach it\n"
	  "    again (a SIGKILL destroys it: the kernel ends what a closed file owns)\n"
	  "    --destroy-on-exit   Ctrl-C or SIGTERM destroy the event" },
	{ "destroy", cmd_destroy, "NAME...", "destroy events" },
	{ "stat", cmd_stat, "[-A] NAME",
	  "the source's count, and the records\n"
	  "    -A, --per-cpu   one line per CPU" },
	{ "script", cmd_script,
	  "[--newest-first] [--json] [--wall-clock] NAME | --from-log FILE [NAME]",
	  "print the records held, decoded, oldest first\n"
	  "    --newest-first  newest first\n"
	  "    --json          one JSON object per line (with \"wallclock\", UTC)\n"
	  "    --wall-clock    times of day instead of seconds since boot\n"
	  "    --from-log FILE the records of the crash dump in a kernel log (a\n"
	  "                    dmesg, a pstore file, a console capture; - for\n"
	  "                    stdin), of every event in it or of NAME" },
	{ "record", cmd_record, "[-o FILE] NAME",
	  "write the records held to a perf.data file for perf script/report\n"
	  "    -o, --output FILE   (default: perf.data)" },
	{ "help", cmd_help, "[VERB]", "this help, or one verb's" },
};

#define NR_VERBS	(sizeof(verbs) / sizeof(verbs[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: perf persistent [--version] [--help] VERB [ARGS]\n\n");
	for (i = 0; i < NR_VERBS; i++)
		fprintf(out, "  %-8s %s\n", verbs[i].name, verbs[i].usage);
	fprintf(out, "\nNAME is an event's name or id.  'perf persistent help VERB' describes\n"
		     "a verb; 'man perf-persistent' has the manual.\n");
}

static const struct verb *find_verb(const char *name)
{
	size_t i;

	for (i = 0; i < NR_VERBS; i++)
		if (!strcmp(verbs[i].name, name))
			return &verbs[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	const struct verb *v;

	if (no_options(argc, argv) || want_args(argc, argv, 0, 1))
		return PP_EXIT_USAGE;
	if (optind == argc) {
		usage(stdout);
		return 0;
	}
	v = find_verb(argv[optind]);
	if (!v)
		return usage_error("unknown verb '%s'", argv[optind]);
	printf("usage: perf persistent %s %s\n\n    %s\n", v->name, v->usage,
	       v->help);
	return 0;
}

int main(int argc, char **argv)
{
	const struct verb *v;

	if (argc < 2) {
		usage(stderr);
		return PP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perf-persistent %s\n", PP_VERSION);
		return 0;
	}
	if (argv[1][0] == '-')
		return usage_error("unknown option '%s' (see: perf persistent --help)",
				   argv[1]);
	v = find_verb(argv[1]);
	if (!v) {
		pp_error("unknown verb '%s' (see: perf persistent help)", argv[1]);
		return PP_EXIT_USAGE;
	}
	current = v;
	/* Each verb parses its own arguments, argv[0] being the verb. */
	if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		printf("usage: perf persistent %s %s\n\n    %s\n", v->name,
		       v->usage, v->help);
		return 0;
	}
	optind = 1;
	return v->fn(argc - 1, argv + 1);
}
