/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: what the module does when the kernel panics or oopses
 * (panic.c)
 */
#ifndef _PERF_PERSISTENT_PANIC_H
#define _PERF_PERSISTENT_PANIC_H

int pp_panic_init(void);
void pp_panic_exit(void);

#endif /* _PERF_PERSISTENT_PANIC_H */
