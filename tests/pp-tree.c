// SPDX-License-Identifier: GPL-2.0
/*
 * pp-tree - a process tree for task-scoped persistent events
 *
 * Each mode prints "ready pid=PID ..." once it has the threads it has
 * before the event exists, then waits for SIGUSR1 (the test creates the
 * event in between), runs, and exits 0 if it ran as planned.
 *
 *   pp-tree tree N    a thread it has from the start, then after the
 *                     signal: a new thread, a child with a thread of its
 *                     own, and a child with a grandchild; every task
 *                     renames itself N times (prctl(PR_SET_NAME): the
 *                     task:task_rename tracepoint, which every kernel
 *                     has) and prints "task tid=TID ROLE" first.  "done"
 *                     once all have exited.
 *   pp-tree calls N [CGROUP]
 *                     renames itself N times after the signal; with
 *                     CGROUP (a cgroup2 directory) it moves there first
 *   pp-tree watch     a watchpoint test: prints "addr=ADDR" (a long it
 *                     writes) in its ready line; after the signal its
 *                     first thread, a new thread and a child each write it
 *                     and print "write tid=TID ROLE", then what SIGTRAP
 *                     brought them: "sigtrap tid=TID code=C data=0xD
 *                     addr=0xA type=T" or "nosig tid=TID ROLE" (a
 *                     SIGTRAP still pending is delivered at the latest on
 *                     return from the next system call, which it makes
 *                     first); then "exec tid=TID" and an exec of itself
 *                     as "pp-tree after-exec", which writes again after
 *                     remove_on_exec and reports the same way.
 *   pp-tree zombie    forks a child that exits at once, prints
 *                     "zombie pid=PID" and never reaps it (until killed)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int calls;
static volatile long watched;

/*
 * What the SIGTRAP handler saw, per thread.  glibc's siginfo_t lacks the
 * TRAP_PERF fields: the kernel's layout (asm-generic/siginfo.h) puts
 * si_addr at byte 16, si_perf_data at 24 and si_perf_type at 32 on
 * 64-bit.
 */
static __thread volatile int trapped, trap_code;
static __thread volatile unsigned long trap_data, trap_addr;
static __thread volatile unsigned int trap_type;

static pid_t tid(void)
{
	return syscall(SYS_gettid);
}

static void on_sigtrap(int sig, siginfo_t *info, void *uc)
{
	const char *p = (const char *)info;

	(void)sig;
	(void)uc;
	trap_code = info->si_code;
	memcpy((void *)&trap_addr, p + 16, sizeof(trap_addr));
	memcpy((void *)&trap_data, p + 24, sizeof(trap_data));
	memcpy((void *)&trap_type, p + 32, sizeof(trap_type));
	trapped = 1;
}

static void make_calls(const char *role)
{
	int i;

	printf("task tid=%d %s\n", tid(), role);
	for (i = 0; i < calls; i++)
		prctl(PR_SET_NAME, "pp-tree-call");
}

static void *thread_calls(void *role)
{
	make_calls(role);
	return NULL;
}

/* Write the watched long, then say what came of it. */
static void write_watched(const char *role)
{
	printf("write tid=%d %s\n", tid(), role);
	watched = tid();
	/* A SIGTRAP pending now is delivered on the way back from this. */
	syscall(SYS_getppid);
	if (trapped)
		printf("sigtrap tid=%d code=%d data=0x%lx addr=0x%lx type=%u\n",
		       tid(), trap_code, trap_data, trap_addr, trap_type);
	else
		printf("nosig tid=%d %s\n", tid(), role);
}

static void *thread_writes(void *role)
{
	write_watched(role);
	return NULL;
}

/* Wait for SIGUSR1, blocked in every thread (set before any exists). */
static void wait_go(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigwait(&set, &sig);
}

static void block_go(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static int wait_children(void)
{
	int status, ret = 0;

	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = 1;
	return ret;
}

/* The thread it has before the event exists: waits for the go too. */
static void *first_thread(void *arg)
{
	pthread_barrier_t *go = arg;

	pthread_barrier_wait(go);
	if (calls)
		make_calls("first-thread");
	else
		write_watched("first-thread");
	return NULL;
}

static int tree(void)
{
	pthread_barrier_t go;
	pthread_t first, t;
	pid_t child;

	pthread_barrier_init(&go, NULL, 2);
	pthread_create(&first, NULL, first_thread, &go);
	printf("ready pid=%d\n", getpid());
	wait_go();
	make_calls("main");
	pthread_barrier_wait(&go);
	pthread_join(first, NULL);
	pthread_create(&t, NULL, thread_calls, "new-thread");
	pthread_join(t, NULL);
	child = fork();
	if (!child) {
		make_calls("child");
		pthread_create(&t, NULL, thread_calls, "child-thread");
		pthread_join(t, NULL);
		exit(0);
	}
	child = fork();
	if (!child) {
		if (!fork()) {
			make_calls("grandchild");
			exit(0);
		}
		exit(wait_children());
	}
	if (wait_children())
		return 1;
	printf("done\n");
	return 0;
}

static void trap_handler(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigtrap,
				.sa_flags = SA_SIGINFO };

	sigaction(SIGTRAP, &sa, NULL);
}

static int watch(const char *self)
{
	pthread_barrier_t go;
	pthread_t first, t;
	pid_t child;

	trap_handler();
	pthread_barrier_init(&go, NULL, 2);
	pthread_create(&first, NULL, first_thread, &go);
	printf("ready pid=%d addr=%p\n", getpid(), (void *)&watched);
	wait_go();
	pthread_barrier_wait(&go);
	pthread_join(first, NULL);
	pthread_create(&t, NULL, thread_writes, "new-thread");
	pthread_join(t, NULL);
	child = fork();
	if (!child) {
		write_watched("child");
		exit(0);
	}
	if (wait_children())
		return 1;
	write_watched("main");
	printf("exec tid=%d\n", tid());
	fflush(stdout);
	execl("/proc/self/exe", self, "after-exec", (char *)NULL);
	perror("exec");
	return 1;
}

static int join_cgroup(const char *dir)
{
	char path[512];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	ret = fprintf(f, "%d\n", getpid()) < 0;
	ret |= fclose(f) != 0;
	if (ret)
		perror(path);
	return ret;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	block_go();
	if (argc == 3 && !strcmp(argv[1], "tree")) {
		calls = atoi(argv[2]);
		return tree();
	}
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "calls")) {
		calls = atoi(argv[2]);
		if (argc == 4 && join_cgroup(argv[3]))
			return 1;
		printf("ready pid=%d\n", getpid());
		wait_go();
		make_calls("main");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "zombie")) {
		pid_t child = fork();

		if (!child)
			_exit(0);
		printf("zombie pid=%d\n", child);
		/* Never reaped: the child stays a zombie until this ends. */
		for (;;)
			pause();
	}
	if (argc == 2 && !strcmp(argv[1], "watch"))
		return watch(argv[0]);
	if (argc == 2 && !strcmp(argv[1], "after-exec")) {
		/* The same address in the new image: the counter is gone. */
		trap_handler();
		write_watched("after-exec");
		return 0;
	}
	fprintf(stderr, "usage: pp-tree tree N | calls N [CGROUP] | watch | zombie\n");
	return 2;
}
