/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs attributes of the persistent PMU device,
 * /sys/bus/event_source/devices/persistent/.
 */
#ifndef _PERF_PERSISTENT_SYSFS_H
#define _PERF_PERSISTENT_SYSFS_H

struct attribute_group;
struct pp_event;

/* NULL-terminated; handed to struct pmu::attr_groups. */
extern const struct attribute_group *pp_sysfs_groups[];

int pp_sysfs_init(void);
void pp_sysfs_exit(void);
int pp_sysfs_instances_init(void);
void pp_sysfs_instances_exit(void);
int pp_sysfs_event_add(struct pp_event *ev);
void pp_sysfs_event_del(struct pp_event *ev);

#endif /* _PERF_PERSISTENT_SYSFS_H */
