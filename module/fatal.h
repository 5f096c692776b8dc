/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: the records of a fatal machine check, written at the
 * panic (fatal.c)
 */
#ifndef _PERF_PERSISTENT_FATAL_H
#define _PERF_PERSISTENT_FATAL_H

#ifdef CONFIG_X86_MCE
#include <asm/mce.h>

#include "pp_features.h"

struct pp_hwerr;

/* mce_record's argument: struct mce_hw_err from 6.14 (7.x), else struct mce. */
#if PP_HAVE_MCE_HW_ERR
#define pp_mce_arg	mce_hw_err
#else
#define pp_mce_arg	mce
#endif

/* struct pp_direct_desc's @one, for mce_record. */
typedef void (*pp_mce_one_t)(void *ev, unsigned long ip, int origin,
			     struct pp_mce_arg *arg);

void pp_fatal_init(void);
void pp_fatal_exit(void);
void pp_fatal_panic(void);
void pp_mce_fill(struct pp_mce_arg *arg, const struct pp_hwerr *r);
#else
static inline void pp_fatal_init(void) { }
static inline void pp_fatal_exit(void) { }
static inline void pp_fatal_panic(void) { }
#endif

#endif /* _PERF_PERSISTENT_FATAL_H */
