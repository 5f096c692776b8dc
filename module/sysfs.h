/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs attributes of the persistent PMU device,
 * /sys/bus/event_source/devices/persistent/.
 */
#ifndef _PERF_PERSISTENT_SYSFS_H
#define _PERF_PERSISTENT_SYSFS_H

#include <linux/perf_event.h>

struct attribute_group;
struct kobject;
struct pp_event;

/**
 * struct pp_sysfs_event - what sysfs shows of one persistent event
 * @alias: "id=<id>,period=1": the events/<name> alias
 * @alias_attr: the events/<name> sysfs attribute
 * @kobj: the instances/<name>/ directory
 *
 * Embedded in struct pp_event (event.h) as @sysfs; sysfs.c owns it.
 */
struct pp_sysfs_event {
	char				alias[48];
	struct perf_pmu_events_attr	alias_attr;
	struct kobject			*kobj;
};

/* NULL-terminated; handed to struct pmu::attr_groups. */
extern const struct attribute_group *pp_sysfs_groups[];

int pp_sysfs_init(void);
void pp_sysfs_exit(void);
int pp_sysfs_instances_init(void);
void pp_sysfs_instances_exit(void);
int pp_sysfs_event_add(struct pp_event *ev);
void pp_sysfs_event_del(struct pp_event *ev);

#endif /* _PERF_PERSISTENT_SYSFS_H */
