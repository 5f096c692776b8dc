// SPDX-License-Identifier: GPL-2.0
/*
 * pp-notify - wait for incidents through /dev/perf_persistent (notify.c)
 *
 *   pp-notify ID            watch event ID (0: every event), become the
 *                           leader of a new process group, ask SIGIO for
 *                           the group (F_SETOWN with its negative id),
 *                           fork a child that keeps the file, print
 *                           "armed"; then each process waits for SIGIO and
 *                           prints "<parent|child>: SIGIO"; the parent
 *                           polls, reads and prints each notice
 *                           ("notice id=N what=W"), and a non-blocking
 *                           read after them prints "again: EAGAIN"
 *   pp-notify ID overflow   the same, watching with
 *                           PERF_PERSISTENT_IOC_WATCH_OVERFLOW: notices of
 *                           records stored too (bin/pp-notify32 is this
 *                           program built for i386: the compat ioctl)
 *   pp-notify ID loop N     a daemon that watches the overflows of event
 *                           ID with SIGIO sent to itself and blocked, and
 *                           reads each notice in a poll loop: after N
 *                           overflow notices (or 10 s without one) prints
 *                           "notices=K min_gap_ns=G", G the smallest time
 *                           between two of them
 *   pp-notify ID still      watches the overflows of event ID with SIGIO
 *                           to itself, takes the first SIGIO and reads
 *                           nothing for a second; then reads once and
 *                           prints "queued=K lost=L again=A": the overflow
 *                           notices and the count of lost ones the file
 *                           held, and the overflow notices a second read
 *                           finds (the one merged into the held one)
 *   pp-notify ID small      read into an 8-byte buffer (prints its errno)
 *   pp-notify 0 unwatched   read a file that watches nothing (errno)
 *   pp-notify ID refused    WATCH_OVERFLOW of ID, which does not exist
 *                           (errno), then read the file (errno)
 *   pp-notify ID empty      non-blocking read with no notice (errno)
 *
 * A process that gets no SIGIO in 120 s says so and fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_persistent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pp-errname.h"

/* Wait for SIGIO (blocked), at most 120 s (PP_NOTIFY_WAIT s). */
static int wait_sigio(const char *who)
{
	struct timespec ts = { .tv_sec = 120 };
	const char *wait = getenv("PP_NOTIFY_WAIT");

	if (wait)
		ts.tv_sec = atoi(wait);
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	if (sigtimedwait(&set, NULL, &ts) != SIGIO) {
		printf("%s: no SIGIO (%s)\n", who, errname(errno));
		return 1;
	}
	printf("%s: SIGIO\n", who);
	return 0;
}

/*
 * Watch the overflows of @id on @fd, SIGIO to this process, blocked.
 * O_ASYNC first: a notice posted before it would send no SIGIO, and while
 * it is unread no other overflow notice of the event comes.
 */
static int watch_self(int fd, unsigned int id)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (fcntl(fd, F_SETOWN, getpid()) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC)) {
		printf("async: %s\n", errname(errno));
		return 1;
	}
	if (ioctl(fd, PERF_PERSISTENT_IOC_WATCH_OVERFLOW, id)) {
		printf("watch: %s\n", errname(errno));
		return 1;
	}
	printf("armed\n");
	return 0;
}

/*
 * The daemon of "loop": each notice it reads lets the next one be posted,
 * and each SIGIO posted is a record of an event on signal:signal_generate.
 */
static int overflow_loop(int fd, unsigned int id, unsigned int want)
{
	unsigned long long last = 0, gap, min_gap = ~0ULL;
	struct perf_persistent_notice n[8];
	unsigned int got = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t len, i;

	if (watch_self(fd, id))
		return 1;
	while (got < want && poll(&p, 1, 10000) == 1) {
		len = read(fd, n, sizeof(n));
		if (len < 0) {
			printf("read: %s\n", errname(errno));
			return 1;
		}
		for (i = 0; i < len / (ssize_t)sizeof(n[0]) && got < want; i++) {
			if (n[i].what != PERF_PERSISTENT_NOTICE_OVERFLOW)
				continue;
			if (got++) {
				gap = n[i].time - last;
				if (gap < min_gap)
					min_gap = gap;
			}
			last = n[i].time;
		}
	}
	printf("notices=%u min_gap_ns=%llu\n", got, min_gap);
	return 0;
}

/* "still": a subscriber that takes its SIGIO but reads no notice. */
static int overflow_still(int fd, unsigned int id)
{
	struct perf_persistent_notice n[64];
	struct timespec ts = { .tv_sec = 120 };
	unsigned long long lost = 0;
	unsigned int queued = 0, again = 0;
	sigset_t set;
	ssize_t len, i;

	if (watch_self(fd, id))
		return 1;
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	if (sigtimedwait(&set, NULL, &ts) != SIGIO) {
		printf("no SIGIO (%s)\n", errname(errno));
		return 1;
	}
	printf("SIGIO\n");
	sleep(1);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	len = read(fd, n, sizeof(n));
	for (i = 0; i < len / (ssize_t)sizeof(n[0]); i++) {
		if (n[i].what == PERF_PERSISTENT_NOTICE_OVERFLOW)
			queued++;
		else if (n[i].what == PERF_PERSISTENT_NOTICE_LOST)
			lost += n[i].time;
	}
	len = read(fd, n, sizeof(n));
	for (i = 0; i < len / (ssize_t)sizeof(n[0]); i++)
		if (n[i].what == PERF_PERSISTENT_NOTICE_OVERFLOW)
			again++;
	printf("queued=%u lost=%llu again=%u\n", queued, lost, again);
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_persistent_notice n[8];
	struct pollfd p;
	unsigned int id;
	sigset_t set;
	pid_t child;
	int fd, status, ret = 0;
	ssize_t len, i;
	char small[8];

	if (argc < 2) {
		fprintf(stderr, "usage: pp-notify ID [overflow|loop N|still|small|unwatched|empty]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	id = strtoul(argv[1], NULL, 0);
	fd = open("/dev/perf_persistent", O_RDONLY);
	if (fd < 0) {
		printf("open: %s\n", errname(errno));
		return 1;
	}
	if (argc > 3 && !strcmp(argv[2], "loop"))
		return overflow_loop(fd, id, strtoul(argv[3], NULL, 0));
	if (argc > 2 && !strcmp(argv[2], "still"))
		return overflow_still(fd, id);
	if (argc > 2 && !strcmp(argv[2], "refused")) {
		printf("watch: %s\n", ioctl(fd, PERF_PERSISTENT_IOC_WATCH_OVERFLOW, id) ?
		       errname(errno) : "OK");
		argv[2] = "unwatched";
	}
	if (argc > 2 && !strcmp(argv[2], "unwatched")) {
		/* A file that watches would say EAGAIN, not block. */
		fcntl(fd, F_SETFL, O_NONBLOCK);
		printf("read: %s\n", read(fd, n, sizeof(n)) < 0 ? errname(errno) : "OK");
		return 0;
	}
	if (ioctl(fd, argc > 2 && !strcmp(argv[2], "overflow") ?
		  PERF_PERSISTENT_IOC_WATCH_OVERFLOW : PERF_PERSISTENT_IOC_WATCH,
		  id)) {
		printf("watch: %s\n", errname(errno));
		return 1;
	}
	if (argc > 2 && !strcmp(argv[2], "small")) {
		printf("read: %s\n", read(fd, small, sizeof(small)) < 0 ? errname(errno) : "OK");
		return 0;
	}
	if (argc > 2 && !strcmp(argv[2], "empty")) {
		fcntl(fd, F_SETFL, O_NONBLOCK);
		printf("read: %s\n", read(fd, n, sizeof(n)) < 0 ? errname(errno) : "OK");
		return 0;
	}

	/* SIGIO stays blocked: sigtimedwait() takes it. */
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setpgid(0, 0);
	if (fcntl(fd, F_SETOWN, -getpgrp()) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC)) {
		printf("async: %s\n", errname(errno));
		return 1;
	}
	child = fork();
	if (child < 0)
		return 1;
	if (!child)
		return wait_sigio("child");
	printf("armed\n");
	ret |= wait_sigio("parent");
	/* Without a SIGIO, no read may block: say what the file holds. */
	if (ret)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	printf("poll: %s\n", poll(&p, 1, 0) == 1 && (p.revents & POLLIN) ? "readable" : "not readable");
	len = read(fd, n, sizeof(n));
	if (len < 0) {
		printf("read: %s\n", errname(errno));
		ret = 1;
	}
	for (i = 0; i < len / (ssize_t)sizeof(n[0]); i++)
		printf("notice id=%u what=%u time=%llu\n", n[i].id, n[i].what,
		       (unsigned long long)n[i].time);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	printf("again: %s\n", read(fd, n, sizeof(n)) < 0 ? errname(errno) : "OK");
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ret = 1;
	return ret;
}
