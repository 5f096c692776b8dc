/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scopes: whose activity a persistent event records (the UAPI header's
 * PERF_PERSISTENT_SCOPE_*).  Every CPU's tasks; one process and what it
 * starts, through task counters perf's inheritance carries into its
 * threads and children; or the tasks of a cgroup v2, through the CPU
 * counters and a filter on the running task.
 */
#ifndef _PERF_PERSISTENT_SCOPE_H
#define _PERF_PERSISTENT_SCOPE_H

#include <linux/cgroup.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <uapi/linux/perf_persistent.h>

struct pid;

/*
 * Intel's AnyThread bit of a raw event's config (ARCH_PERFMON_EVENTSEL_ANY
 * in arch/x86's perf_event.h, which other architectures lack).
 */
#define PP_X86_ANY_THREAD	BIT_ULL(21)

/**
 * struct pp_scope - whose activity an event records
 * @kind: PERF_PERSISTENT_SCOPE_*
 * @pid: TASK: the target process (the struct pid of its thread group)
 * @cgrp: CGROUP: the cgroup; its tasks and its descendants' are recorded
 * @counters: TASK: one task counter per thread the process had when the
 *	event started (perf carries them into threads and children created
 *	later, as the source attr says)
 * @nr_counters: how many
 * @count_base: TASK: the counts of released counters
 *
 * Set up in the CREATE ioctl, in the creator's namespaces; @counters and
 * @count_base change under the event's sync_lock.  @cgrp is read by the
 * record path, any context.
 */
struct pp_scope {
	u32			kind;
	struct pid		*pid;
	struct cgroup		*cgrp;
	struct perf_event	**counters;
	unsigned int		nr_counters;
	u64			count_base;
};

int pp_scope_resolve(struct pp_scope *s, u32 kind, s32 target, u64 path);
int pp_scope_attr_check(const struct pp_scope *s,
			const struct perf_event_attr *attr);
void pp_scope_put(struct pp_scope *s);
int pp_scope_task_start(struct pp_scope *s, struct perf_event_attr *attr,
			perf_overflow_handler_t handler, void *context);
void pp_scope_task_stop(struct pp_scope *s);
u64 pp_scope_task_count(struct pp_scope *s);
bool pp_scope_exited(const struct pp_scope *s);
pid_t pp_scope_target_vnr(const struct pp_scope *s);
u64 pp_scope_cgroup_id(const struct pp_scope *s);
int pp_scope_show(const struct pp_scope *s, char *buf, size_t len);

/*
 * Does the scope keep the record of the task running here?  Only a cgroup
 * scope filters.  Any context, NMI included, with preemption off (a
 * tracepoint's probe or an overflow handler).  The running task's css_set
 * is published with RCU and freed after a grace period.  Since the RCU
 * flavours were consolidated, a grace period also waits for sections with
 * preemption off, so no rcu_read_lock() is needed; task_css_set()'s check
 * accepts rcu_read_lock_sched_held().  The ancestry test is a load and a
 * compare (cgroup_is_descendant()), and the scope holds @cgrp.
 */
static __always_inline bool pp_scope_admits(const struct pp_scope *s)
{
#ifdef CONFIG_CGROUPS
	struct cgroup *cgrp = s->cgrp;

	if (likely(!cgrp))
		return true;
	return task_under_cgroup_hierarchy(current, cgrp);
#else
	return true;
#endif
}

#endif /* _PERF_PERSISTENT_SCOPE_H */
