// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the command line.  A command declares its options
 * as a table of struct pp_opt; pp_parse() turns the table into
 * getopt_long()'s arguments and stores each option where the table says.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

/* Room for more options than any command has. */
#define PP_MAX_OPTS	32
/* What getopt_long() returns for option i when it has no letter. */
#define LONG_ONLY	256

static const struct pp_cmd *current;

void pp_set_command(const struct pp_cmd *cmd)
{
	current = cmd;
	pp_set_verb(cmd ? cmd->name : NULL);
}

int usage_error(const char *fmt, ...)
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

static bool takes_arg(const struct pp_opt *o)
{
	return o->kind == PP_OPT_STR || o->kind == PP_OPT_FN;
}

/* Build getopt_long()'s short options string and long options from @opts. */
static int build(const struct pp_opt *opts, char *shortopts,
		 struct option *longopts)
{
	int i, s = 0;

	for (i = 0; opts[i].long_name; i++) {
		if (i == PP_MAX_OPTS)
			return -1;
		longopts[i] = (struct option){
			.name = opts[i].long_name,
			.has_arg = takes_arg(&opts[i]) ? required_argument :
							 no_argument,
			.val = opts[i].short_name ?: LONG_ONLY + i,
		};
		if (opts[i].short_name) {
			shortopts[s++] = opts[i].short_name;
			if (takes_arg(&opts[i]))
				shortopts[s++] = ':';
		}
	}
	longopts[i] = (struct option){ 0 };
	shortopts[s] = '\0';
	return 0;
}

/* Report an unknown option, or one missing its argument, in one line. */
static int bad_option(int argc, char **argv, const struct option *longopts,
		      const char *shortopts)
{
	if (optopt >= LONG_ONLY)
		return usage_error("option '--%s' needs an argument",
				   longopts[optopt - LONG_ONLY].name);
	if (optopt)
		return usage_error("option '-%c' %s", optopt,
				   strchr(shortopts, optopt) ?
				   "needs an argument" : "is unknown");
	return usage_error("unknown option or missing argument: '%s'",
			   argv[optind - 1 < argc ? optind - 1 : argc - 1]);
}

/* Store option @o's argument @arg (NULL for none) where it goes. */
static int store(const struct pp_opt *o, const char *arg)
{
	if (o->seen)
		*o->seen = true;
	switch (o->kind) {
	case PP_OPT_SET:
		*(bool *)o->value = true;
		return 0;
	case PP_OPT_CLEAR:
		*(bool *)o->value = false;
		return 0;
	case PP_OPT_STR:
		*(const char **)o->value = arg;
		return 0;
	case PP_OPT_FN:
		return o->parse(arg, o->value);
	}
	return PP_EXIT_USAGE;
}

int pp_parse(int argc, char **argv, const struct pp_opt *opts)
{
	struct option longopts[PP_MAX_OPTS + 1];
	char shortopts[2 * PP_MAX_OPTS + 1];
	int c, i, ret;

	if (build(opts, shortopts, longopts))
		return pp_error("%s: too many options", current ? current->name : "?"), 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' || c == ':')
			return bad_option(argc, argv, longopts, shortopts);
		if (c >= LONG_ONLY) {
			i = c - LONG_ONLY;
		} else {
			for (i = 0; opts[i].short_name != c; i++)
				;
		}
		ret = store(&opts[i], optarg);
		if (ret)
			return ret;
	}
	return 0;
}

int want_args(int argc, char **argv, int min, int max)
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

int split_command(int *argc, char **argv, char ***cmd)
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

/* Parse a decimal number from @min to INT_MAX into the int @value. */
static int parse_int(const char *arg, long min, const char *what, int *value)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > INT_MAX)
		return usage_error("bad %s '%s'", what, arg);
	*value = v;
	return 0;
}

int parse_count(const char *arg, const char *what, bool zero_ok,
		unsigned long long *value)
{
	char *end;

	errno = 0;
	*value = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-' || (!zero_ok && !*value))
		return usage_error("bad %s '%s'", what, arg);
	return 0;
}

int opt_pid(const char *arg, void *value)
{
	return parse_int(arg, 1, "pid", value);
}

int opt_fd(const char *arg, void *value)
{
	return parse_int(arg, 0, "pidfd", value);
}

int opt_size(const char *arg, void *value)
{
	return parse_size(arg, value) ? 1 : 0;
}

int opt_fields(const char *arg, void *value)
{
	return parse_fields(arg, value) ? 1 : 0;
}
