// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent wait", until an event freezes or
 * its trigger fires.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

/* wait's exit status when the timeout passed first, as timeout(1)'s. */
#define PP_EXIT_TIMEOUT	124

/* The events waited for: their ids and names. */
struct watched {
	unsigned int	ids[PERF_PERSISTENT_TRIGGER_MAX];
	char		names[PERF_PERSISTENT_TRIGGER_MAX][PERF_PERSISTENT_NAME_MAX];
	int		nr;
};

/* --timeout S: seconds, into milliseconds. */
static int opt_timeout(const char *arg, void *value)
{
	char *end;
	double secs;

	errno = 0;
	secs = strtod(arg, &end);
	if (errno || end == arg || *end || secs < 0 || secs > INT_MAX / 1000)
		return usage_error("bad timeout '%s' (seconds)", arg);
	*(int *)value = (int)(secs * 1000);
	return 0;
}

/* Print one notice of the watched events @ids, named @names. */
static void print_notice(const struct perf_persistent_notice *n,
			 const unsigned int *ids,
			 const char names[][PERF_PERSISTENT_NAME_MAX],
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

/* Watch each event the operands name, into @w.  0, or -1 (reported). */
static int watch_events(int fd, int argc, char **argv, struct watched *w)
{
	int i;

	for (i = optind; i < argc; i++, w->nr++) {
		struct pp_event_desc d;

		if (ctl_lookup(fd, argv[i], &d))
			return -1;
		w->ids[w->nr] = d.info.id;
		snprintf(w->names[w->nr], sizeof(w->names[w->nr]), "%s",
			 d.info.name);
		ctl_desc_free(&d);
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_WATCH, w->ids[w->nr]))
			return pp_error("%s: watching it: %s", argv[i],
					strerror(errno));
	}
	return 0;
}

/* Say which of the watched events are frozen already; true if one is. */
static bool any_frozen(int fd, const struct watched *w)
{
	bool frozen = false;
	int i;

	for (i = 0; i < w->nr; i++) {
		struct pp_event_desc d;

		if (ctl_describe(fd, w->ids[i], NULL, &d))
			continue;
		if (d.info.state & PERF_PERSISTENT_STATE_FROZEN) {
			printf("%s is frozen\n", w->names[i]);
			frozen = true;
		}
		ctl_desc_free(&d);
	}
	return frozen;
}

/*
 * Wait up to @timeout_ms (-1 for ever) for notices and print them.
 * Returns 0, PP_EXIT_TIMEOUT, or 1 after reporting the error.
 */
static int wait_notices(int fd, const struct watched *w, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct perf_persistent_notice notices[16];
	ssize_t len;
	int i, c;

	printf("waiting for %s%s\n", w->names[0], w->nr > 1 ? " and more" : "");
	fflush(stdout);
	do {
		c = poll(&p, 1, timeout_ms);
	} while (c < 0 && errno == EINTR);
	if (c < 0)
		return pp_error("waiting: %s", strerror(errno)), 1;
	if (!c) {
		printf("timed out\n");
		return PP_EXIT_TIMEOUT;
	}
	len = read(fd, notices, sizeof(notices));
	if (len < 0)
		return pp_error("reading the notices: %s", strerror(errno)), 1;
	for (i = 0; i < (int)(len / sizeof(notices[0])); i++)
		print_notice(&notices[i], w->ids, w->names, w->nr);
	return 0;
}

static int cmd_wait(int argc, char **argv)
{
	int timeout_ms = -1;
	const struct pp_opt opts[] = {
		OPT_CALL(0, "timeout", &timeout_ms, opt_timeout),
		OPT_END
	};
	struct watched w = { .nr = 0 };
	char **cmd = NULL;
	int fd, ret;

	/* NAME... [-- CMD]: the command is not ours to parse. */
	if (split_command(&argc, argv, &cmd))
		return PP_EXIT_USAGE;
	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 1, PERF_PERSISTENT_TRIGGER_MAX))
		return PP_EXIT_USAGE;
	fd = ctl_open(false);
	if (fd < 0)
		return 1;
	/* Watch first, then look, so that a freeze in between is not missed. */
	if (watch_events(fd, argc, argv, &w)) {
		close(fd);
		return 1;
	}
	ret = any_frozen(fd, &w) ? 0 : wait_notices(fd, &w, timeout_ms);
	close(fd);
	if (ret)
		return ret;
	return cmd ? run_command(cmd) : 0;
}

const struct pp_cmd pp_cmd_wait = {
	.name = "wait",
	.fn = cmd_wait,
	.usage = "[--timeout S] NAME... [-- CMD [ARG...]]",
	.help = "wait until one of the events freezes or its trigger fires (now, if\n"
		"    one is frozen), print what happened, then run CMD and exit with its\n"
		"    status, or exit 0; 124 when S seconds passed first",
};
