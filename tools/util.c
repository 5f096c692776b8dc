// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: what several commands do.  An event's state and
 * scope as words, its totals, opening it by name, holding it in the
 * foreground until a signal, one ioctl for each of several events, running
 * a command.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"

/*
 * A command holding an event in the foreground (create without --detached,
 * attach) leaves its pid in RUN_DIR/NAME.pid, so that "perf persistent
 * detach NAME" from another shell can ask it, with SIGUSR1, to detach the
 * event and exit.
 */
#define RUN_DIR		"/run/perf-persistent"

const char *state_str(unsigned int state)
{
	static char buf[48];

	/* A previous boot's event is always detached and paused. */
	if (state & PERF_PERSISTENT_STATE_PREVIOUS)
		return "previous";
	snprintf(buf, sizeof(buf), "%s%s%s%s",
		 state & PERF_PERSISTENT_STATE_ATTACHED ? "attached" : "detached",
		 state & PERF_PERSISTENT_STATE_PAUSED ? ",paused" : "",
		 state & PERF_PERSISTENT_STATE_FROZEN ? ",frozen" : "",
		 state & PERF_PERSISTENT_STATE_KEPT ? ",kept" : "");
	return buf;
}

/* A line of the event's sysfs directory, without its newline; "" if none. */
void instance_attr(const char *name, const char *attr, char *buf,
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

/*
 * Whose activity @desc's event records, as its sysfs "scope" says it (the
 * cgroup's path is the reader's view): "cpus", "task PID[ exited]",
 * "cgroup PATH".
 */
void scope_str(const struct pp_event_desc *desc, char *buf, size_t len)
{
	instance_attr(desc->info.name, "scope", buf, len);
	if (!buf[0])
		snprintf(buf, len, "cpus");
}

void sum(const struct pp_event_desc *desc, struct totals *t)
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
 * Open the control device and describe the event named by the one
 * argument.  Returns the fd, or minus the exit status (1, or
 * PP_EXIT_USAGE) with the reason on stderr.
 */
int open_event(int argc, char **argv, const struct pp_opt *opts,
	       struct pp_event_desc *desc, bool write)
{
	int fd, ret;

	ret = opts ? pp_parse(argc, argv, opts) : 0;
	if (ret)
		return -ret;
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

void pidfile_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.pid", RUN_DIR, name);
}

/*
 * Block the signals hold() waits for, into @set.  Called before the ioctl
 * that makes the control file the event's owner: a signal between that
 * ioctl and hold() would otherwise kill the process by its default action,
 * and the kernel would destroy the event with its history.
 */
void hold_signals(sigset_t *set)
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
 * destroy it if @destroy, else detach it too.  Only a death the process
 * has no say in (SIGKILL) ends the event with the process, because the
 * kernel destroys what a closed file owned.
 */
int hold(int fd, const char *name, unsigned int id, bool destroy)
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

/* Run @cmd, wait for it; its exit status (128 + signal if killed). */
int run_command(char **cmd)
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

int id_verb(int argc, char **argv, unsigned long cmd, const char *done,
	    int (*after)(int fd, const struct pp_event_desc *desc),
	    int (*busy)(int fd, const struct pp_event_desc *desc))
{
	static const struct pp_opt opts[] = { OPT_END };
	int fd, i, ret;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 1, -1))
		return PP_EXIT_USAGE;
	fd = ctl_open(true);
	if (fd < 0)
		return 1;
	for (i = optind; i < argc; i++) {
		struct pp_event_desc desc;
		bool ok;

		if (ctl_lookup(fd, argv[i], &desc)) {
			ret = 1;
			continue;
		}
		if (!ctl_ioctl(fd, cmd, desc.info.id)) {
			ok = !after || !after(fd, &desc);
		} else if (errno == EBUSY && busy) {
			ok = !busy(fd, &desc);
		} else {
			pp_report(PP_OP_ID_VERB, errno, 0, argv[i], NULL);
			ok = false;
		}
		if (ok)
			printf("%s %s\n", done, desc.info.name);
		else
			ret = 1;
		ctl_desc_free(&desc);
	}
	close(fd);
	return ret;
}

void previous_arg(int argc, char **argv, bool previous)
{
	static char name[PERF_PERSISTENT_NAME_MAX + sizeof(PP_PREVIOUS_PREFIX)];

	if (!previous || optind >= argc ||
	    !strncmp(argv[optind], PP_PREVIOUS_PREFIX, strlen(PP_PREVIOUS_PREFIX)))
		return;
	snprintf(name, sizeof(name), "%s%.*s", PP_PREVIOUS_PREFIX,
		 PERF_PERSISTENT_NAME_MAX, argv[optind]);
	argv[optind] = name;
}

/*
 * The printer of a previous boot's event: its records decode with the
 * format that boot kept in the region, not with this boot's tracefs, and
 * its times turn into wall-clock times with that boot's clock pair.
 */
static struct pp_printer *previous_printer(const struct pp_event_desc *desc,
					   bool wall_clock)
{
	char rel[128], *tp, *fmt, *clock;
	struct pp_clock c = { 0 };
	struct pp_printer *p;

	if (desc->attr.type != PERF_TYPE_TRACEPOINT) {
		p = printer_new(&desc->attr);
	} else {
		snprintf(rel, sizeof(rel), "instances/%s%s/tracepoint",
			 PP_PREVIOUS_PREFIX, desc->info.name);
		tp = pmu_file(rel);
		snprintf(rel, sizeof(rel), "instances/%s%s/format",
			 PP_PREVIOUS_PREFIX, desc->info.name);
		fmt = pmu_file(rel);
		if (!tp || !fmt || !*fmt) {
			pp_error("%s%s: the previous boot kept no format for its tracepoint",
				 PP_PREVIOUS_PREFIX, desc->info.name);
			p = NULL;
		} else {
			tp[strcspn(tp, "\n")] = '\0';
			p = printer_new_format(&desc->attr, tp, fmt);
		}
		free(tp);
		free(fmt);
	}
	/*
	 * The event's own clock pair (boot_errors' is this boot's), else the
	 * previous boot's (a module before the event had one).
	 */
	snprintf(rel, sizeof(rel), "instances/%s%s/clock", PP_PREVIOUS_PREFIX,
		 desc->info.name);
	clock = pmu_file(rel);
	if (!clock)
		clock = pmu_file("previous_boot/clock");
	if (p && clock &&
	    sscanf(clock, "%llu %llu", &c.clock_ns, &c.realtime_ns) == 2)
		printer_set_clock(p, &c, wall_clock);
	free(clock);
	return p;
}

/*
 * Describe event @name through the control device @fd, snapshot its
 * records and get a printer with comms: script and record.  0, or 1 with
 * the reason on stderr and nothing left to free.
 */
int read_named_event(int fd, const char *name, struct pp_event_desc *desc,
		     struct pp_snapshot *snap, struct pp_printer **p,
		     bool wall_clock)
{
	*p = NULL;
	if (ctl_lookup(fd, name, desc))
		return 1;
	if (desc->info.state & PERF_PERSISTENT_STATE_PREVIOUS) {
		*p = previous_printer(desc, wall_clock);
		if (!*p)
			goto err;
	} else {
		*p = printer_new(&desc->attr);
		if (!*p)
			goto err;
		if (desc->info.size >= PERF_PERSISTENT_INFO_SIZE_VER1)
			printer_set_clock(*p, &(struct pp_clock){
						.clock_ns = desc->info.clock_ns,
						.realtime_ns = desc->info.realtime_ns,
					  }, wall_clock);
	}
	if (snapshot_take(fd, desc, snap))
		goto err;
	/*
	 * This boot's /proc says nothing of the previous boot's tasks: only
	 * their COMM records name them, and the idle task has none.
	 */
	if (desc->info.state & PERF_PERSISTENT_STATE_PREVIOUS)
		printer_add_comm(*p, 0, "swapper");
	else
		printer_learn_comms(*p, snap);
	return 0;
err:
	printer_free(*p);
	*p = NULL;
	ctl_desc_free(desc);
	return 1;
}

/* The same for the one operand: script. */
int read_event(int argc, char **argv, struct pp_event_desc *desc,
	       struct pp_snapshot *snap, struct pp_printer **p,
	       bool wall_clock)
{
	int fd, ret;

	if (want_args(argc, argv, 1, 1))
		return PP_EXIT_USAGE;
	fd = ctl_open(false);
	if (fd < 0)
		return 1;
	ret = read_named_event(fd, argv[optind], desc, snap, p, wall_clock);
	close(fd);
	return ret;
}

int exports_alloc(struct exports *x, size_t nr)
{
	memset(x, 0, sizeof(*x));
	x->ev = calloc(nr ? nr : 1, sizeof(*x->ev));
	x->desc = calloc(nr ? nr : 1, sizeof(*x->desc));
	x->snap = calloc(nr ? nr : 1, sizeof(*x->snap));
	if (x->ev && x->desc && x->snap)
		return 0;
	exports_free(x);
	return pp_error("out of memory");
}

void exports_free(struct exports *x)
{
	size_t i;

	for (i = 0; i < x->nr; i++) {
		snapshot_free(&x->snap[i]);
		printer_free(x->ev[i].p);
		ctl_desc_free(&x->desc[i]);
	}
	free(x->ev);
	free(x->desc);
	free(x->snap);
	memset(x, 0, sizeof(*x));
}

int exports_write(const struct exports *x, const char *verb,
		  enum pp_format format, const char *path, int argc, char **argv)
{
	char **cmdline = calloc(argc + 2, sizeof(*cmdline));
	size_t i, samples = 0;
	int ret;

	if (!cmdline)
		return pp_error("out of memory");
	cmdline[0] = "perf";
	cmdline[1] = "persistent";
	for (i = 0; i < (size_t)argc; i++)
		cmdline[i + 2] = argv[i];
	if (format == PP_FORMAT_TRACE_DAT)
		ret = tracedat_write(path, x->ev, x->nr, &samples) ? 1 : 0;
	else
		ret = perfdata_write(path, x->ev, x->nr, argc + 2, cmdline) ? 1 : 0;
	free(cmdline);
	if (ret)
		return ret;
	if (format == PP_FORMAT_PERF_DATA)
		for (i = 0; i < x->nr; i++)
			samples += snapshot_samples(&x->snap[i]);
	fprintf(stderr, "[ perf persistent %s: Wrote %zu records of ", verb, samples);
	for (i = 0; i < x->nr; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", x->ev[i].name);
	fprintf(stderr, " to %s ]\n", path);
	return 0;
}

int parse_format(const char *s, enum pp_format *format)
{
	if (!strcmp(s, "perf.data"))
		*format = PP_FORMAT_PERF_DATA;
	else if (!strcmp(s, "trace.dat"))
		*format = PP_FORMAT_TRACE_DAT;
	else
		return usage_error("--format takes perf.data or trace.dat, not '%s'", s);
	return 0;
}

/*
 * The id the records carry: a previous boot's event carries that boot's
 * (its sysfs previous_id), which perf matches with the attr's.
 */
static unsigned int export_id(const struct pp_event_desc *desc)
{
	char name[PERF_PERSISTENT_NAME_MAX + sizeof(PP_PREVIOUS_PREFIX)];
	char buf[32];
	unsigned int id;

	if (!(desc->info.state & PERF_PERSISTENT_STATE_PREVIOUS))
		return desc->info.id;
	snprintf(name, sizeof(name), "%s%s", PP_PREVIOUS_PREFIX, desc->info.name);
	instance_attr(name, "previous_id", buf, sizeof(buf));
	return sscanf(buf, "%u", &id) == 1 ? id : desc->info.id;
}

int exports_add(struct exports *x, int fd, const char *name, bool wall_clock)
{
	struct pp_event_desc *desc = &x->desc[x->nr];
	struct pp_export *ev = &x->ev[x->nr];
	int ret;

	ret = read_named_event(fd, name, desc, &x->snap[x->nr], &ev->p,
			       wall_clock);
	if (ret)
		return ret;
	ev->name = desc->info.name;
	ev->attr = desc->attr;
	ev->id = export_id(desc);
	ev->previous = desc->info.state & PERF_PERSISTENT_STATE_PREVIOUS;
	ev->snap = &x->snap[x->nr];
	x->nr++;
	return 0;
}

/*
 * Is this a kdump capture kernel (is_kdump_kernel() in the module)?  It
 * has /proc/vmcore, or at least was given elfcorehdr= (x86: the dump's
 * header may not have been usable).
 */
bool capture_kernel(void)
{
	char line[4096];
	bool found = false;
	FILE *f;

	if (!access("/proc/vmcore", F_OK))
		return true;
	f = fopen("/proc/cmdline", "re");
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f))
		found = !strncmp(line, "elfcorehdr=", 11) ||
			strstr(line, " elfcorehdr=");
	fclose(f);
	return found;
}
