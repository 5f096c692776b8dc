/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: the machine checks from before the load, in the
 * read-only event boot_errors (boot_errors.c)
 */
#ifndef _PERF_PERSISTENT_BOOT_ERRORS_H
#define _PERF_PERSISTENT_BOOT_ERRORS_H

#define PP_BOOT_ERRORS_NAME	"boot_errors"

#ifdef CONFIG_X86_MCE
void pp_boot_errors_publish(void);
#else
static inline void pp_boot_errors_publish(void) { }
#endif

#endif /* _PERF_PERSISTENT_BOOT_ERRORS_H */
