/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perf_persistent.h - userspace interface of the perf-persistent module
 *
 * Persistent events record into kernel-owned per-CPU buffers with no process
 * holding a file descriptor.  Readers connect to them through the "persistent"
 * perf PMU, whose dynamic type is published in
 * /sys/bus/event_source/devices/persistent/type.
 */
#ifndef _UAPI_LINUX_PERF_PERSISTENT_H
#define _UAPI_LINUX_PERF_PERSISTENT_H

#include <linux/types.h>

/* Name of the PMU under /sys/bus/event_source/devices/. */
#define PERF_PERSISTENT_PMU_NAME	"persistent"

/*
 * A reader selects the persistent event it connects to by the event's id in
 * bits 0-31 of perf_event_attr::config (the "id" format term).  All other
 * bits of config, config1 and config2 that no format term names must be zero.
 */
#define PERF_PERSISTENT_CONFIG_ID_MASK	0xffffffffULL

#endif /* _UAPI_LINUX_PERF_PERSISTENT_H */
