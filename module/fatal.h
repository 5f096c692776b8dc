/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: the records of a fatal machine check, written at the
 * panic (fatal.c)
 */
#ifndef _PERF_PERSISTENT_FATAL_H
#define _PERF_PERSISTENT_FATAL_H

#ifdef CONFIG_X86_MCE
void pp_fatal_init(void);
void pp_fatal_exit(void);
void pp_fatal_panic(void);
#else
static inline void pp_fatal_init(void) { }
static inline void pp_fatal_exit(void) { }
static inline void pp_fatal_panic(void) { }
#endif

#endif /* _PERF_PERSISTENT_FATAL_H */
