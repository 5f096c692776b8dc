/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control device /dev/perf_persistent.
 */
#ifndef _PERF_PERSISTENT_CONTROL_H
#define _PERF_PERSISTENT_CONTROL_H

int pp_control_init(void);
void pp_control_exit(void);

#endif /* _PERF_PERSISTENT_CONTROL_H */
