// SPDX-License-Identifier: GPL-2.0
/*
 * libpp-prof.so: the library pp-prof dlopen()s, spins in and dlclose()s,
 * built with frame pointers.
 */
#include <time.h>

extern volatile unsigned long pp_lib_sink;
volatile unsigned long pp_lib_sink;

__attribute__((noinline)) static double lib_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void pp_lib_spin(double until)
{
	unsigned long i, x = 3;

	while (lib_now_ms() < until)
		for (i = 0; i < 1000000; i++)
			x = x * 2862933555777941757UL + 3037000493UL;
	pp_lib_sink = x;
}
