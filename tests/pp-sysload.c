// SPDX-License-Identifier: GPL-2.0
/*
 * pp-sysload - a syscall-heavy load on every CPU, for the direct path's
 * preemptible probes (tests/guest/93-preemptible.sh).
 *
 *   pp-sysload PROCS CALLS      PROCS processes, each making CALLS system
 *                               calls (getppid(), and a sched_yield()
 *                               every 16th, so that tasks switch and move
 *                               between CPUs mid-stream); exits 0 once all
 *                               have finished
 *
 * The processes are not pinned: the scheduler spreads them over the
 * online CPUs and moves them as CPUs go offline and online.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long procs, calls, i, p;
	int status, bad = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: pp-sysload PROCS CALLS\n");
		return 2;
	}
	procs = strtol(argv[1], NULL, 0);
	calls = strtol(argv[2], NULL, 0);
	if (procs < 1 || calls < 1) {
		fprintf(stderr, "pp-sysload: PROCS and CALLS must be positive\n");
		return 2;
	}
	for (p = 0; p < procs; p++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			for (i = 0; i < calls; i++) {
				if (getppid() <= 0)
					_exit(1);
				if (!(i & 15))
					sched_yield();
			}
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	printf("sysload: %ld processes, %ld calls each: %s\n", procs, calls,
	       bad ? "FAILED" : "done");
	return bad;
}
