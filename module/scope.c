// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: scopes (scope.h)
 *
 * TASK.  perf_event_create_kernel_counter(attr, -1, task, ...) gives a
 * task counter, and perf's fork path inherits it as it inherits a user's
 * event (following the attr's inherit, inherit_thread, remove_on_exec and
 * sigtrap).  The inherited copies call our overflow handler with our
 * context.  A pid names one thread, so each thread of the process gets its
 * own counter, as "perf record -p" opens one per thread.  As there, threads
 * created meanwhile by a thread not yet covered are missed.  perf tells a
 * kernel counter's owner nothing when its task exits, and a counter may
 * move to a child's context, because perf swaps equivalent contexts at
 * context switch.  So whether the target exited is asked of its struct pid.
 *
 * Permissions.  CREATE needs CAP_PERFMON, which passes perf's own test for
 * a task target (perf_check_permission(): CAP_PERFMON, or ptrace access);
 * ptrace access alone is not enough, because a persistent event outlives
 * the creator whose relation to the target it would rest on.  sigtrap adds
 * perf's CAP_KILL over the target's user namespace.  The checks perf makes
 * of a user's attr in perf_copy_attr() are not made for kernel counters:
 * pp_scope_attr_check() makes them.
 *
 * CGROUP.  perf has no exported way to give a kernel counter a cgroup, so
 * the CPU counters count every task and the record path keeps the records
 * of tasks in the cgroup (pp_scope_admits()).
 *
 * Contexts: pp_scope_admits() runs in any context, everything else in
 * process context.  pp_scope_resolve() runs in the CREATE ioctl, so pids,
 * fds and paths are the caller's.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "scope.h"

/* Resolve a TASK target: @nr is a pid in the caller's pid namespace. */
static int scope_task(struct pp_scope *s, s32 nr)
{
	struct task_struct *task;
	struct pid *pid;

	if (nr <= 0)
		return -EINVAL;
	pid = find_get_pid(nr);
	if (!pid)
		return -ESRCH;
	task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!task)
		return -ESRCH;
	/* The process, whichever of its threads @nr named. */
	s->pid = get_task_pid(task, PIDTYPE_TGID);
	put_task_struct(task);
	return s->pid ? 0 : -ESRCH;
}

/* Resolve a CGROUP target: a directory fd, or -1 and a path. */
static int scope_cgroup(struct pp_scope *s, s32 fd, u64 upath)
{
	struct cgroup *cgrp;
	char *path;

	if (!IS_ENABLED(CONFIG_CGROUPS))
		return -EOPNOTSUPP;
	if (fd >= 0 && !upath) {
		/* -EBADF for what is not a cgroup v2 directory. */
		cgrp = cgroup_get_from_fd(fd);
	} else if (fd == -1 && upath) {
		path = strndup_user(u64_to_user_ptr(upath), PATH_MAX);
		if (IS_ERR(path))
			return PTR_ERR(path);
		/* From the root of the caller's cgroup namespace. */
		cgrp = cgroup_get_from_path(path);
		kfree(path);
	} else {
		return -EINVAL;
	}
	if (IS_ERR(cgrp))
		return PTR_ERR(cgrp);
	s->cgrp = cgrp;
	return 0;
}

/**
 * pp_scope_resolve - take the target of a scope
 * @s: out, zeroed by the caller
 * @kind: PERF_PERSISTENT_SCOPE_*
 * @target: the pid, the cgroup directory's fd, or -1 (see the UAPI header)
 * @path: user pointer to a cgroup's path, or 0
 *
 * Process context, in the CREATE ioctl: the pid, fd and path are resolved
 * in the caller's namespaces and file table.
 *
 * Return: 0; -EINVAL (unknown @kind, or @target and @path not as @kind
 * requires), -ESRCH (no such process), -EBADF (not a cgroup v2 directory),
 * -ENOENT or -ENOTDIR (no such cgroup path), -EFAULT.
 */
int pp_scope_resolve(struct pp_scope *s, u32 kind, s32 target, u64 path)
{
	s->kind = kind;
	switch (kind) {
	case PERF_PERSISTENT_SCOPE_CPUS:
		return target || path ? -EINVAL : 0;
	case PERF_PERSISTENT_SCOPE_TASK:
		return path ? -EINVAL : scope_task(s, target);
	case PERF_PERSISTENT_SCOPE_CGROUP:
		return scope_cgroup(s, target, path);
	}
	return -EINVAL;
}

/**
 * pp_scope_attr_check - may @attr be recorded in scope @s?
 * @s: the scope
 * @attr: the source attr
 *
 * perf_copy_attr()'s rules of the attr bits a task scope honours, which
 * perf_event_create_kernel_counter() does not check, and what only a task
 * counter can do.  Process context.
 *
 * Return: 0 or -EINVAL.
 */
int pp_scope_attr_check(const struct pp_scope *s,
			const struct perf_event_attr *attr)
{
	bool task = s->kind == PERF_PERSISTENT_SCOPE_TASK;

	if (attr->inherit_thread && !attr->inherit)
		return -EINVAL;
	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;
	/* A SIGTRAP after exec would kill an image that has no handler. */
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;
	/* Only a task counter can signal a thread or follow its execs. */
	if (!task && (attr->sigtrap || attr->remove_on_exec ||
		      attr->enable_on_exec))
		return -EINVAL;
	/*
	 * perf inherits a watchpoint in the forking task, which then needs
	 * CAP_SYS_ADMIN for a kernel address: its fork() would fail.
	 */
	if (task && attr->inherit && attr->type == PERF_TYPE_BREAKPOINT &&
	    (attr->bp_addr >= TASK_SIZE_MAX ||
	     attr->bp_len > TASK_SIZE_MAX - attr->bp_addr))
		return -EINVAL;
	/*
	 * Intel's event_init asks perf_allow_cpu() of the current task for
	 * the AnyThread bit, and for an inherited copy that is the forking
	 * task.  A hybrid PMU named by its own type is refused when the
	 * source is probed (pp_event_probe_counter()).
	 */
	if (task && attr->inherit && IS_ENABLED(CONFIG_X86) &&
	    attr->type == PERF_TYPE_RAW && (attr->config & PP_X86_ANY_THREAD))
		return -EINVAL;
	return 0;
}

/* Release what the scope holds; its counters are released already. */
void pp_scope_put(struct pp_scope *s)
{
	put_pid(s->pid);
	s->pid = NULL;
#ifdef CONFIG_CGROUPS
	if (s->cgrp)
		cgroup_put(s->cgrp);
#endif
	s->cgrp = NULL;
	kvfree(s->counters);
	s->counters = NULL;
}

/*
 * Put the threads of the process @s targets into @tasks, which has room
 * for @max, with a reference on each.  Return: how many threads it has,
 * which may be more than @max (call again with more room then), or -ESRCH
 * if it has exited.
 */
static int scope_threads(struct pp_scope *s, struct task_struct **tasks,
			 unsigned int max)
{
	struct task_struct *leader, *t;
	unsigned int n = 0;

	rcu_read_lock();
	leader = pid_task(s->pid, PIDTYPE_TGID);
	if (!leader) {
		rcu_read_unlock();
		return -ESRCH;
	}
	for_each_thread(leader, t) {
		/* It may be exiting on another CPU, which writes both. */
		if (READ_ONCE(t->exit_state) ||
		    (READ_ONCE(t->flags) & PF_EXITING))
			continue;
		if (n < max)
			tasks[n] = get_task_struct(t);
		n++;
	}
	rcu_read_unlock();
	if (n > max)
		while (max)
			put_task_struct(tasks[--max]);
	return n ? n : -ESRCH;
}

/**
 * pp_scope_task_start - give each thread of the target process a counter
 * @s: a TASK scope
 * @attr: the counters' attr
 * @handler: their overflow handler
 * @context: its context (inherited counters call it with the same)
 *
 * Holds the target's exec_update_lock, as perf_event_open() does, so that
 * the sigtrap permission holds for the image the counters are installed
 * in.  A thread that exits meanwhile is skipped.  The event's sync_lock
 * is held.  Process context.
 *
 * Return: 0; -ESRCH (the process has exited), -EPERM (sigtrap without
 * CAP_KILL over the target), -EINTR, -ENOMEM, or the errno perf refused a
 * counter with; no counter is left on failure.
 */
int pp_scope_task_start(struct pp_scope *s, struct perf_event_attr *attr,
			perf_overflow_handler_t handler, void *context)
{
	struct task_struct **tasks = NULL, *leader;
	unsigned int max = 0, i;
	int n, ret;

	leader = get_pid_task(s->pid, PIDTYPE_TGID);
	if (!leader)
		return -ESRCH;
	ret = down_read_interruptible(&leader->signal->exec_update_lock);
	if (ret)
		goto put_leader;
	if (attr->sigtrap) {
		bool ok;

		rcu_read_lock();
		ok = ns_capable(__task_cred(leader)->user_ns, CAP_KILL);
		rcu_read_unlock();
		if (!ok) {
			ret = -EPERM;
			goto unlock;
		}
	}
	for (;;) {
		n = scope_threads(s, tasks, max);
		if (n < 0 || n <= max)
			break;
		kvfree(tasks);
		max = n + 16;
		tasks = kvcalloc(max, sizeof(*tasks), GFP_KERNEL);
		if (!tasks) {
			ret = -ENOMEM;
			goto unlock;
		}
	}
	if (n < 0) {
		ret = n;
		goto unlock;
	}
	s->counters = kvcalloc(n, sizeof(*s->counters), GFP_KERNEL);
	if (!s->counters) {
		ret = -ENOMEM;
		goto put_tasks;
	}
	ret = -ESRCH;	/* until a thread gets its counter */
	for (i = 0; i < n; i++) {
		struct perf_event *counter;

		counter = perf_event_create_kernel_counter(attr, -1, tasks[i],
							   handler, context);
		if (IS_ERR(counter)) {
			/* The thread exited after the walk: nothing to cover. */
			if (PTR_ERR(counter) == -ESRCH)
				continue;
			ret = PTR_ERR(counter);
			pp_scope_task_stop(s);
			break;
		}
		s->counters[s->nr_counters++] = counter;
		ret = 0;
	}
put_tasks:
	for (i = 0; i < n; i++)
		put_task_struct(tasks[i]);
unlock:
	up_read(&leader->signal->exec_update_lock);
put_leader:
	put_task_struct(leader);
	kvfree(tasks);
	return ret;
}

/*
 * Release the task counters, keeping their counts (inherited children's
 * included).  Process context.  The caller holds its event's sync_lock;
 * event.c takes it around the call, because this file does not know the
 * event.
 * Overflow handlers of the counters and their children may still be
 * running on other CPUs until a grace period has passed.
 */
void pp_scope_task_stop(struct pp_scope *s)
{
	u64 enabled, running;

	while (s->nr_counters) {
		struct perf_event *counter = s->counters[--s->nr_counters];

		s->count_base += perf_event_read_value(counter, &enabled,
						       &running);
		perf_event_release_kernel(counter);
	}
}

/*
 * The task counters' count, children's included.  The caller holds its
 * event's sync_lock (event.c takes it around the call).
 */
u64 pp_scope_task_count(struct pp_scope *s)
{
	u64 sum = s->count_base, enabled, running;
	unsigned int i;

	for (i = 0; i < s->nr_counters; i++)
		sum += perf_event_read_value(s->counters[i], &enabled,
					     &running);
	return sum;
}

/*
 * Has the target process exited, that is, are its threads all gone and
 * its leader a zombie or reaped?  Any process context.
 */
bool pp_scope_exited(const struct pp_scope *s)
{
	struct task_struct *leader;
	bool exited;

	if (s->kind != PERF_PERSISTENT_SCOPE_TASK)
		return false;
	rcu_read_lock();
	leader = pid_task(s->pid, PIDTYPE_TGID);
	exited = !leader ||
		 (READ_ONCE(leader->exit_state) && thread_group_empty(leader));
	rcu_read_unlock();
	return exited;
}

/* The target's pid in the caller's pid namespace, or 0 if it has none. */
pid_t pp_scope_target_vnr(const struct pp_scope *s)
{
	return s->pid ? pid_vnr(s->pid) : 0;
}

/* The target cgroup's id (its directory's inode number), or 0. */
u64 pp_scope_cgroup_id(const struct pp_scope *s)
{
#ifdef CONFIG_CGROUPS
	if (s->cgrp)
		return cgroup_id(s->cgrp);
#endif
	return 0;
}

/**
 * pp_scope_show - the scope as sysfs shows it, one line
 * @s: the scope
 * @buf: out
 * @len: its size
 *
 * "cpus", "task PID" (" exited" when it has), "cgroup PATH" (its path in
 * the reader's cgroup namespace).  Process context, as the reader.
 *
 * Return: the length written.
 */
int pp_scope_show(const struct pp_scope *s, char *buf, size_t len)
{
	switch (s->kind) {
	case PERF_PERSISTENT_SCOPE_TASK:
		return scnprintf(buf, len, "task %d%s\n", pp_scope_target_vnr(s),
				 pp_scope_exited(s) ? " exited" : "");
#ifdef CONFIG_CGROUPS
	case PERF_PERSISTENT_SCOPE_CGROUP: {
		int n = scnprintf(buf, len, "cgroup ");

		if (!current->nsproxy ||
		    cgroup_path_ns(s->cgrp, buf + n, len - n - 1,
				   current->nsproxy->cgroup_ns) < 0)
			n += scnprintf(buf + n, len - n, "id:%llu",
				       pp_scope_cgroup_id(s));
		else
			n += strlen(buf + n);
		return n + scnprintf(buf + n, len - n, "\n");
	}
#endif
	}
	return scnprintf(buf, len, "cpus\n");
}
