// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent trigger", records of one event
 * that freeze others.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

static int opt_count(const char *arg, void *value)
{
	return parse_count(arg, "count", false, value);
}

static int opt_after(const char *arg, void *value)
{
	return parse_count(arg, "number of records", true, value);
}

/* The filter is shown as one line: no tab or newline in it. */
static int opt_filter(const char *arg, void *value)
{
	char *c;

	*(const char **)value = arg;
	/* The argument is this process's own argv string. */
	for (c = (char *)arg; *c; c++)
		if (isspace((unsigned char)*c))
			*c = ' ';
	return 0;
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

/*
 * Put the events to freeze into @ids: those --freeze names, or every other
 * event that exists now.  Returns their number, or -1 with the reason on
 * stderr.
 */
static int freeze_targets(int fd, const struct pp_event_desc *src,
			  char *freeze, unsigned int *ids)
{
	unsigned int *all = NULL;
	int nr, i, n = 0;

	if (freeze)
		return lookup_ids(fd, freeze, ids, PERF_PERSISTENT_TRIGGER_MAX);
	nr = ctl_list(fd, &all);
	if (nr < 0)
		return -1;
	for (i = 0; i < nr; i++)
		if (all[i] != src->info.id && n < PERF_PERSISTENT_TRIGGER_MAX)
			ids[n++] = all[i];
	free(all);
	if (!n)
		return pp_error("%s: no other event to freeze", src->info.name);
	return n;
}

/* Compile @filter for @src's fields into @ops, which @t then points to. */
static int compile_filter(const struct pp_event_desc *src, const char *filter,
			  struct perf_persistent_filter_op *ops,
			  struct perf_persistent_trigger *t)
{
	int nr = filter_compile(&src->attr, filter, ops,
				PERF_PERSISTENT_FILTER_MAX);

	if (nr < 0)
		return -1;
	t->filter = (unsigned long)ops;
	t->nr_filter = nr;
	t->filter_text = (unsigned long)filter;
	return 0;
}

/* Set (or remove) @src's trigger as @t says, and say what it does. */
static int set_trigger(int fd, const struct pp_event_desc *src,
		       struct perf_persistent_trigger *t, const char *filter)
{
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, (unsigned long)t)) {
		pp_report(PP_OP_TRIGGER, errno, 0, src->info.name, NULL);
		return 1;
	}
	if (t->flags & PERF_PERSISTENT_TRIGGER_REMOVE)
		printf("%s: no trigger\n", src->info.name);
	else
		printf("%s: freezes %u event%s on its %srecord %llu, after %llu more records each\n",
		       src->info.name, t->nr_targets, t->nr_targets == 1 ? "" : "s",
		       filter ? "matching " : "",
		       t->count ? (unsigned long long)t->count : 1ULL,
		       (unsigned long long)t->after);
	return 0;
}

static int cmd_trigger(int argc, char **argv)
{
	struct perf_persistent_trigger t = { .size = sizeof(t) };
	struct perf_persistent_filter_op ops[PERF_PERSISTENT_FILTER_MAX];
	unsigned int ids[PERF_PERSISTENT_TRIGGER_MAX];
	char *freeze = NULL;
	const char *filter = NULL;
	bool freeze_all = false, remove = false;
	const struct pp_opt opts[] = {
		OPT_STRING(0, "freeze", &freeze),
		OPT_SET(0, "freeze-all", &freeze_all),
		OPT_CALL(0, "count", &t.count, opt_count),
		OPT_CALL(0, "after", &t.after, opt_after),
		OPT_SET(0, "remove", &remove),
		OPT_CALL(0, "filter", &filter, opt_filter),
		OPT_END
	};
	struct pp_event_desc src;
	int fd, n = 0, ret;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 1, 1))
		return PP_EXIT_USAGE;
	if (remove + !!freeze + freeze_all != 1)
		return usage_error("give one of --freeze, --freeze-all and --remove");
	if (remove && (t.count || t.after || filter))
		return usage_error("--remove takes no --count, --after or --filter");
	fd = ctl_open(true);
	if (fd < 0)
		return 1;
	ret = 1;
	if (ctl_lookup(fd, argv[optind], &src))
		goto out;
	t.source = src.info.id;
	if (filter && compile_filter(&src, filter, ops, &t))
		goto out_src;
	if (remove) {
		t.flags = PERF_PERSISTENT_TRIGGER_REMOVE;
	} else {
		n = freeze_targets(fd, &src, freeze, ids);
		if (n < 0)
			goto out_src;
	}
	t.nr_targets = n;
	t.targets = n ? (unsigned long)ids : 0;
	ret = set_trigger(fd, &src, &t, filter);
out_src:
	ctl_desc_free(&src);
out:
	close(fd);
	return ret;
}

const struct pp_cmd pp_cmd_trigger = {
	.name = "trigger",
	.fn = cmd_trigger,
	.usage = "NAME --freeze TARGET[,TARGET...]|--freeze-all [--count N] [--after M]\n"
		"    [--filter EXPR] | NAME --remove",
	.help = "make NAME's records freeze other events, keeping the history that\n"
		"    led up to them\n"
		"    --freeze TARGETS   the events to freeze (NAME itself may be one)\n"
		"    --freeze-all       every other event there is now\n"
		"    --count N          fire on NAME's N-th record after arming (default 1)\n"
		"    --after M          each target stores M more records, then\n"
		"                       freezes (default 0)\n"
		"    --filter EXPR      count only NAME's records whose fields match\n"
		"                       EXPR, in perf's tracepoint filter syntax:\n"
		"                       'bank == 4 && status & 0x8000000000000000'\n"
		"    --remove           remove NAME's trigger",
};
