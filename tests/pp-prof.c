// SPDX-License-Identifier: GPL-2.0
/*
 * pp-prof: a workload for the profiling tests, built with frame pointers
 * and dynamically linked, so that a frame-pointer walk of its stack finds
 * each of its functions' callers.
 *
 *   pp-prof [-w] MS [LIB]
 *
 * Spins MS milliseconds in pp_hot_inner(), called by pp_hot_outer(); with
 * LIB, then dlopen()s it, spins MS milliseconds in its pp_lib_spin(),
 * called by pp_lib_caller() here, and dlclose()s it, so that the library
 * is unmapped before the process exits.  Prints one line with its pid;
 * with -w, then waits for the end of its standard input before it exits.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * Not inlined: a sample in the clock's code (a system call where the
 * clocksource has no vDSO reader) then has pp_hot_inner() as its
 * caller's caller, as it has in the spinning loop.
 */
__attribute__((noinline)) static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

volatile unsigned long pp_sink;

__attribute__((noinline)) void pp_hot_inner(double until)
{
	unsigned long i, x = 1;

	/* The clock is read every million rounds: the loop is the hot spot. */
	while (now_ms() < until)
		for (i = 0; i < 1000000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	pp_sink = x;
}

__attribute__((noinline)) void pp_hot_outer(double until)
{
	pp_hot_inner(until);
	pp_sink++;
}

__attribute__((noinline)) void pp_lib_caller(void (*spin)(double), double until)
{
	spin(until);
	pp_sink++;
}

int main(int argc, char **argv)
{
	int wait_eof = argc > 1 && !strcmp(argv[1], "-w");
	void (*spin)(double);
	char c;
	double ms;
	void *lib;

	argc -= wait_eof;
	argv += wait_eof;
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: pp-prof [-w] MS [LIB]\n");
		return 2;
	}
	ms = atof(argv[1]);
	pp_hot_outer(now_ms() + ms);
	if (argc == 3) {
		lib = dlopen(argv[2], RTLD_NOW);
		if (!lib) {
			fprintf(stderr, "pp-prof: %s\n", dlerror());
			return 1;
		}
		*(void **)&spin = dlsym(lib, "pp_lib_spin");
		if (!spin) {
			fprintf(stderr, "pp-prof: %s\n", dlerror());
			return 1;
		}
		pp_lib_caller(spin, now_ms() + ms);
		dlclose(lib);
	}
	printf("pp-prof %d done\n", (int)getpid());
	fflush(stdout);
	while (wait_eof && read(0, &c, 1) > 0)
		;
	return 0;
}
