/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs attributes of the persistent PMU device,
 * /sys/bus/event_source/devices/persistent/.
 */
#ifndef _PERF_PERSISTENT_SYSFS_H
#define _PERF_PERSISTENT_SYSFS_H

struct attribute_group;

/* NULL-terminated; handed to struct pmu::attr_groups. */
extern const struct attribute_group *pp_sysfs_groups[];

int pp_sysfs_init(void);

#endif /* _PERF_PERSISTENT_SYSFS_H */
