// SPDX-License-Identifier: GPL-2.0
/*
 * pp-stray MS - spin for MS milliseconds with the frame pointer at a
 * made-up frame record whose return address nothing maps, as code built
 * without frame pointers may leave that register: a frame-pointer walk
 * from a sample finds the spinning code, then a caller in no mapping.
 * 94-profile counts the reads of the mappings such samples ask for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* A user address no mapping of this static program holds. */
#define STRAY	0x10000000UL

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	/* The record: no further frame, then the stray return address. */
	unsigned long frame[2] = { 0, STRAY };
	double end;

	if (argc != 2)
		return 2;
	end = now_ms() + atoi(argv[1]);
	while (now_ms() < end) {
#if defined(__x86_64__)
		asm volatile("push %%rbp\n\t"
			     "mov %0, %%rbp\n\t"
			     "mov $1000000, %%ecx\n"
			     "1:\tdec %%ecx\n\t"
			     "jnz 1b\n\t"
			     "pop %%rbp"
			     : : "r" (frame) : "rcx", "memory");
#elif defined(__aarch64__)
		asm volatile("stp x29, x30, [sp, #-16]!\n\t"
			     "mov x29, %0\n\t"
			     "mov x9, #0x4240\n\t"
			     "movk x9, #0xf, lsl #16\n"
			     "1:\tsubs x9, x9, #1\n\t"
			     "b.ne 1b\n\t"
			     "ldp x29, x30, [sp], #16"
			     : : "r" (frame) : "x9", "memory", "cc");
#endif
	}
	puts("pp-stray done");
	return 0;
}
