/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operations on persistent events: the commands the control device
 * and the module's load-time configuration issue, each under the
 * registry lock.  Process context throughout.
 */
#ifndef _PERF_PERSISTENT_OPS_H
#define _PERF_PERSISTENT_OPS_H

#include <linux/perf_event.h>
#include <linux/types.h>

#include <uapi/linux/perf_persistent.h>

struct pp_event;
struct pp_event_spec;
struct pp_filter;

/**
 * struct pp_event_info - what INFO reports besides per-CPU statistics
 * @id: the event's id
 * @name: its name
 * @state: PERF_PERSISTENT_STATE_* as seen from the asking file
 * @nr_cpus: CPUs that have a buffer
 * @buffer_size: per-CPU buffer size in bytes
 * @attr: the source attr
 * @scope: PERF_PERSISTENT_SCOPE_*
 * @target: the target process's pid in the caller's pid namespace, or 0
 * @cgroup_id: the target cgroup's id, or 0
 * @count: the source's count, summed over CPUs or task counters
 */
struct pp_event_info {
	u32			id;
	char			name[PERF_PERSISTENT_NAME_MAX];
	u32			state;
	u32			nr_cpus;
	u64			buffer_size;
	struct perf_event_attr	attr;
	u32			scope;
	s32			target;
	u64			cgroup_id;
	u64			count;
};

extern unsigned long pp_default_buffer_size;

int pp_ops_create(const struct pp_event_spec *spec, u32 *id);
struct pp_found_event;
struct pp_buffer;
int pp_ops_create_previous(struct pp_found_event *fe,
			   void (*fill)(struct pp_event *ev, void *data),
			   void *data, u32 *id);
int pp_ops_show_here(const char *name, const char *system, const char *tp,
		     unsigned long size,
		     void (*fill)(struct pp_event *ev, void *data), void *data,
		     u32 *id);
struct pp_buffer *pp_ops_fill_begin(struct pp_event *ev);
void pp_ops_fill_end(struct pp_event *ev, struct pp_buffer *buf);
int pp_ops_id(const char *name, u32 *id);
int pp_ops_destroy(u32 id, const void *file);
int pp_ops_detach(u32 id, const void *file);
int pp_ops_attach(u32 id, const void *file);
int pp_ops_pause(u32 id, bool paused);
int pp_ops_thaw(u32 id, bool rearm);
int pp_ops_set_trigger(u32 source, const u32 *targets, unsigned int nr,
		       u64 count, u64 after, struct pp_filter *filter);
int pp_ops_info(u32 id, const char *name, const void *file,
		struct pp_event_info *info,
		struct perf_persistent_cpu_stats *stats, unsigned int nr);
int pp_ops_list(u32 start, u32 *ids, unsigned int nr, u32 *total);
void pp_ops_release_file(const void *file);
void pp_ops_destroy_all(void);

#endif /* _PERF_PERSISTENT_OPS_H */
