// SPDX-License-Identifier: GPL-2.0
/*
 * pp-pingpong - a deterministic scheduling workload for the analysis tests
 *
 *   pp-pingpong CPU ROUNDS
 *
 * Two child processes pinned to CPU, named "ppwork" and "ppecho", pass a
 * byte back and forth through two pipes ROUNDS times: each round, ppwork
 * wakes ppecho and blocks, and ppecho wakes ppwork and blocks.  Both take
 * their names before the first round and keep them, so every switch
 * between them and every wakeup of one by the other happens under those
 * names.  Both run SCHED_FIFO, so neither is preempted by the other or by
 * this process, and each switches out only when it blocks or exits.
 * Prints "pingpong ROUNDS rounds, ppwork PID, ppecho PID" at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "pp-pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void pin_named(int cpu, const char *name)
{
	struct sched_param fifo = { .sched_priority = 1 };

	pin(cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		die("sched_setscheduler");
	if (prctl(PR_SET_NAME, name))
		die("PR_SET_NAME");
}

static void reap(pid_t pid, const char *name)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die(name);
}

int main(int argc, char **argv)
{
	int there[2], back[2], cpu, rounds, i;
	pid_t echo, work;
	char c = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: pp-pingpong CPU ROUNDS\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	rounds = atoi(argv[2]);
	if (pipe(there) || pipe(back))
		die("pipe");
	/*
	 * Both are children: under "perf record -- pp-pingpong", perf's
	 * child (this process) existed before perf enabled its events, and
	 * ran meanwhile; the two are made after.
	 */
	echo = fork();
	if (echo < 0)
		die("fork");
	if (!echo) {
		pin_named(cpu, "ppecho");
		for (i = 0; i < rounds; i++)
			if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
				die("echo");
		_exit(0);
	}
	work = fork();
	if (work < 0)
		die("fork");
	if (!work) {
		pin_named(cpu, "ppwork");
		for (i = 0; i < rounds; i++)
			if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
				die("work");
		_exit(0);
	}
	/*
	 * waitpid() returns once a child is a zombie, before its last
	 * switch out of the CPU: this process could then exit, and perf
	 * record stop, before that switch is recorded.  On the children's
	 * CPU, below their SCHED_FIFO, this process runs again only after
	 * both have switched out for the last time.
	 */
	pin(cpu);
	reap(work, "ppwork");
	reap(echo, "ppecho");
	printf("pingpong %d rounds, ppwork %d, ppecho %d\n", rounds, work, echo);
	return 0;
}
