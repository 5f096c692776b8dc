/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: the commands.
 *
 * main.c dispatches "perf persistent VERB" to the command VERB.  Each
 * command lives in its own builtin-VERB.c, which declares its options as
 * a table (struct pp_opt), parses them with pp_parse() and then does its
 * work.  What several commands share is here: the option parser
 * (options.c), the messages for errnos of the control device (errmsg.c)
 * and the helpers of util.c (opening an event by name, holding an event in
 * the foreground, one ioctl for each of several events).
 */
#ifndef PERF_PERSISTENT_BUILTIN_H
#define PERF_PERSISTENT_BUILTIN_H

#include <signal.h>
#include <stdbool.h>
#include <unistd.h>	/* optind */

#include "perf-persistent.h"

/**
 * struct pp_cmd - one command of "perf persistent"
 * @name: the verb
 * @fn: runs it; argv[0] is the verb.  Returns the exit status
 * @usage: its arguments, one line
 * @help: what it does and its options, for "perf persistent help VERB"
 */
struct pp_cmd {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*usage;
	const char	*help;
};

extern const struct pp_cmd pp_cmd_create, pp_cmd_list, pp_cmd_info,
	pp_cmd_pause, pp_cmd_resume, pp_cmd_wait, pp_cmd_trigger,
	pp_cmd_detach, pp_cmd_attach, pp_cmd_destroy, pp_cmd_stat,
	pp_cmd_script, pp_cmd_record, pp_cmd_convert, pp_cmd_archive;

/* ---- options.c: the command line --------------------------------------- */

/**
 * enum pp_opt_kind - what an option does with its value
 * @PP_OPT_SET: no argument; sets the bool @value
 * @PP_OPT_CLEAR: no argument; clears the bool @value
 * @PP_OPT_STR: stores its argument in the const char * @value
 * @PP_OPT_FN: hands its argument and @value to @parse
 */
enum pp_opt_kind {
	PP_OPT_SET,
	PP_OPT_CLEAR,
	PP_OPT_STR,
	PP_OPT_FN,
};

/**
 * struct pp_opt - one option of a command
 * @short_name: its letter, or 0 for a long option only
 * @long_name: its long name
 * @kind: what it does
 * @value: where it goes
 * @parse: for PP_OPT_FN: 0, or the exit status, with the reason on stderr
 * @seen: if not NULL, set when the option is given
 *
 * A command's options are an array of OPT_*() entries that ends with
 * OPT_END.
 */
struct pp_opt {
	int		short_name;
	const char	*long_name;
	enum pp_opt_kind kind;
	void		*value;
	int		(*parse)(const char *arg, void *value);
	bool		*seen;
};

/* A table's entries. */
#define OPT_SET(s, l, v)	{ .short_name = (s), .long_name = (l), \
				  .kind = PP_OPT_SET, .value = (v) }
#define OPT_CLEAR(s, l, v)	{ .short_name = (s), .long_name = (l), \
				  .kind = PP_OPT_CLEAR, .value = (v) }
#define OPT_STRING(s, l, v)	{ .short_name = (s), .long_name = (l), \
				  .kind = PP_OPT_STR, .value = (v) }
#define OPT_CALL(s, l, v, fn)	{ .short_name = (s), .long_name = (l), \
				  .kind = PP_OPT_FN, .value = (v), .parse = (fn) }
/* ... and note in the bool *@seen_ that the option was given. */
#define OPT_CALL_SEEN(s, l, v, fn, seen_) \
				{ .short_name = (s), .long_name = (l), \
				  .kind = PP_OPT_FN, .value = (v), .parse = (fn), \
				  .seen = (seen_) }
#define OPT_END			{ .long_name = NULL }

/* The command running, named in usage errors. */
void pp_set_command(const struct pp_cmd *cmd);
/*
 * "perf persistent VERB: <message> (see: perf persistent help VERB)" on
 * stderr; returns PP_EXIT_USAGE.
 */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Parse the options in @opts out of @argv (options and operands may
 * mix); optind is then the first operand.  Returns 0, or the exit status
 * with the reason on stderr.
 */
int pp_parse(int argc, char **argv, const struct pp_opt *opts);
/* Want @min to @max operands (@max -1 for no limit); else a usage error. */
int want_args(int argc, char **argv, int min, int max);
/*
 * Split "ARGS... -- CMD...": @argc ends at the "--", *@cmd is CMD (NULL
 * without one).  A usage error for a "--" with no command after it.
 */
int split_command(int *argc, char **argv, char ***cmd);

/*
 * A count of things (0 only if @zero_ok): decimal, 0x hex or 0 octal, no
 * sign.  A usage error "bad @what '@arg'" otherwise.
 */
int parse_count(const char *arg, const char *what, bool zero_ok,
		unsigned long long *value);

/* PP_OPT_FN parsers of numbers; their usage errors name the option. */
int opt_pid(const char *arg, void *value);		/* int, >= 1 */
int opt_fd(const char *arg, void *value);		/* int, >= 0 */
int opt_size(const char *arg, void *value);		/* unsigned long long */
int opt_fields(const char *arg, void *value);		/* unsigned long long */

/* ---- errmsg.c: what the control device's errnos mean ------------------ */

/* The operations whose errnos have messages of their own. */
enum pp_op {
	PP_OP_CREATE,
	PP_OP_ID_VERB,
	PP_OP_ATTACH,
	PP_OP_TRIGGER,
};

/* Conditions a message may need (@when of pp_report()). */
#define PP_WHEN_PID	0x1	/* a process was named */
#define PP_WHEN_CGROUP	0x2	/* a cgroup was named */
#define PP_WHEN_NONAME	0x4	/* the name did not reach the kernel */
#define PP_WHEN_KEEP	0x8	/* --keep-across-reboot was given */
#define PP_WHEN_BREAKPOINT 0x10	/* the source is a breakpoint */
#define PP_WHEN_CAPTURE	0x20	/* this is a kdump capture kernel */

/*
 * Report errno @err of operation @op on the event @name, from the table
 * in errmsg.c: the first row of @op for @err (or for any errno) whose
 * conditions all hold in @when.  @arg is what the row's message may name
 * besides the event (the event spec, the pid, the cgroup).  Returns -1.
 */
int pp_report(enum pp_op op, int err, unsigned int when, const char *name,
	      const char *arg);

/* ---- util.c: what several commands do ----------------------------------- */

/* "attached", "detached", with ",paused" and ",frozen". */
const char *state_str(unsigned int state);
/*
 * With @previous, make the one operand NAME "previous.NAME": the previous
 * boot's event of that name (ctl_lookup()).
 */
void previous_arg(int argc, char **argv, bool previous);
/* A line of the event's sysfs directory, without its newline; "" if none. */
void instance_attr(const char *name, const char *attr, char *buf,
		   size_t len);
/* Whose activity the event records: "cpus", "task PID[ exited]", "cgroup PATH". */
void scope_str(const struct pp_event_desc *desc, char *buf, size_t len);

/* The records and counts of all CPUs of an event. */
struct totals {
	unsigned long long written, overwritten, dropped, bytes, count;
};

void sum(const struct pp_event_desc *desc, struct totals *t);

/*
 * Parse the options in @opts (none if NULL, when parsed already), open the
 * control device and describe the event named by the one operand.
 * Returns the fd, or minus the exit status with the reason on stderr.
 */
int open_event(int argc, char **argv, const struct pp_opt *opts,
	       struct pp_event_desc *desc, bool write);

/* RUN_DIR/NAME.pid: the command holding event NAME in the foreground. */
void pidfile_path(const char *name, char *buf, size_t len);
/* Block the signals hold() waits for, before the ioctl that attaches. */
void hold_signals(sigset_t *set);
/* Hold event @id, attached to @fd, until a signal; see util.c. */
int hold(int fd, const char *name, unsigned int id, bool destroy);

/*
 * pause, resume, detach, destroy: ioctl @cmd for each event named by the
 * operands; @after (may be NULL) runs after a successful ioctl, @busy
 * (may be NULL) when it failed with EBUSY.  Prints "@done NAME" for each
 * event done.  The exit status.
 */
int id_verb(int argc, char **argv, unsigned long cmd, const char *done,
	    int (*after)(int fd, const struct pp_event_desc *desc),
	    int (*busy)(int fd, const struct pp_event_desc *desc));

/* Run @cmd and wait for it; its exit status (128 + signal if killed). */
int run_command(char **cmd);

/*
 * script and record: describe event @name (through the control device
 * @fd), snapshot its buffers and make a printer that knows its tasks'
 * names.  0, or 1 with the reason on stderr.
 */
int read_named_event(int fd, const char *name, struct pp_event_desc *desc,
		     struct pp_snapshot *snap, struct pp_printer **p,
		     bool wall_clock);
/* The same for the event named by the one operand; 0 or the exit status. */
int read_event(int argc, char **argv, struct pp_event_desc *desc,
	       struct pp_snapshot *snap, struct pp_printer **p,
	       bool wall_clock);

/* The events a perf.data export is made of: record and convert. */
struct exports {
	struct pp_export	*ev;
	struct pp_event_desc	*desc;
	struct pp_snapshot	*snap;
	size_t			nr;	/* made so far: what exports_free() frees */
};

/* Room for @nr events; 0, or 1 (reported). */
int exports_alloc(struct exports *x, size_t nr);
/*
 * The events named by the @nr @names (every event when @nr is 0) of the
 * kernel whose crash dump is @path (an ELF core such as /proc/vmcore, or
 * makedumpfile's kdump-compressed file, flattened or not), read by the
 * module's anchor, as @x, allocated here (vmcoredata.c).  0, or 1 with
 * the reason on stderr; exports_free() frees @x either way.
 */
int exports_from_vmcore(struct exports *x, const char *path, char **names,
			size_t nr, bool wall_clock);
/*
 * Read event @name (through the control device @fd) as @x's next export:
 * its description, snapshot and printer (read_named_event()), and the id
 * its records carry.  0, or 1 with the reason on stderr.
 */
int exports_add(struct exports *x, int fd, const char *name, bool wall_clock);

/*
 * Is this a kdump capture kernel, whose module reads the region without
 * taking it (is_kdump_kernel()): /proc/vmcore, or elfcorehdr= given?
 */
bool capture_kernel(void);
void exports_free(struct exports *x);
/* The files an export writes. */
enum pp_format {
	PP_FORMAT_PERF_DATA,	/* perf's perf.data */
	PP_FORMAT_TRACE_DAT,	/* trace-cmd's trace.dat, version 6 */
};

/* "perf.data" or "trace.dat" into @format; 0, or PP_EXIT_USAGE (reported). */
int parse_format(const char *s, enum pp_format *format);
/*
 * Write the events to @path as one file of @format ("perf persistent VERB"
 * and @argv the command line a perf.data records) and say what was
 * written; 0, or 1 (reported).
 */
int exports_write(const struct exports *x, const char *verb,
		  enum pp_format format, const char *path, int argc, char **argv);

#endif /* PERF_PERSISTENT_BUILTIN_H */
