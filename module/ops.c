// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the operations on persistent events
 *
 * The commands users issue, from the control device and from the module's
 * load-time configuration: create, destroy, attach and detach, pause and
 * resume, thaw and re-arm, set a trigger, describe one event, list them,
 * and destroy what a closing file or the unload leaves.  Each runs in
 * process context and takes the registry lock (event.h) for as long as it
 * looks at or changes the registry.
 *
 * This file sits between the users and the event layer.  It calls down
 * into event.c (the event object, its counters and buffers, its stop and
 * free), registry.c (ids, names, owners) and trigger.c, and it tells the
 * presentation layers what they show: it alone adds and removes an
 * event's sysfs files, has the crash dump's format text made, and asks the
 * PMU for its type.  None of those calls back into this file, and
 * event.c calls none of them.
 *
 * Lifetime.  Destroy unlists the event and removes its sysfs files under
 * the registry lock, then (unlocked) has event.c halt it; the wait for its
 * handlers and the drop of the owner reference follow in a work shared by
 * the events destroyed meanwhile (pp_event_destroy()).  A closing file and
 * the unload stop many events at once, with one grace period for all of
 * them (pp_events_stop_put()).
 *
 * The lock order is written once, at the top of event.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/trace_events.h>
#include <linux/xarray.h>

#include "buffer.h"
#include "direct.h"
#include "perf_persistent/dump.h"
#include "event.h"
#include "ops.h"
#include "pmu.h"
#include "previous.h"
#include "sysfs.h"

/* Per-CPU buffer size used when a creator asks for 0 (module parameter). */
unsigned long pp_default_buffer_size = 64 * 1024;

/*
 * The last source probed that the direct path took, so that a burst of
 * creations on it probes once.  Releasing the probe's counter ends perf's
 * use of a tracepoint nothing else of perf uses, and perf then waits for
 * its probes (tracepoint_synchronize_unregister(): two grace periods,
 * about 20 ms under TCG) before it returns.  What the probe decides
 * depends only on the attr and on the creator's credentials, which perf
 * checks the tracepoint's permission against, so the verdict is reused for
 * the same attr and the same struct cred (held here, so that its address
 * is not reused).  The direct path's tracepoints are built in: the
 * tracepoint cannot have gone away meanwhile.  Process context.
 */
static struct {
	struct mutex			lock;	/* serialises the memo's use */
	struct perf_event_attr		attr;
	const struct cred		*cred;
	const struct pp_direct_desc	*direct;
	char				tp_name[64];
	char				*format;
} pp_probe_memo = {
	.lock = __MUTEX_INITIALIZER(pp_probe_memo.lock),
};

/* The memo's verdict for @ev, if it has one: true when @ev took it. */
static bool pp_probe_memo_use(struct pp_event *ev)
{
	bool hit;

	mutex_lock(&pp_probe_memo.lock);
	hit = pp_probe_memo.cred == current_cred() &&
	      !memcmp(&pp_probe_memo.attr, &ev->attr, sizeof(ev->attr));
	if (hit) {
		ev->format = kstrdup(pp_probe_memo.format, GFP_KERNEL);
		hit = ev->format || !pp_probe_memo.format;
	}
	if (hit) {
		memcpy(ev->tp_name, pp_probe_memo.tp_name, sizeof(ev->tp_name));
		ev->direct = pp_probe_memo.direct;
	}
	mutex_unlock(&pp_probe_memo.lock);
	return hit;
}

/* Remember @ev's verdict: its source took the direct path. */
static void pp_probe_memo_keep(const struct pp_event *ev)
{
	char *format = ev->format ? kstrdup(ev->format, GFP_KERNEL) : NULL;

	if (ev->format && !format)
		return;
	mutex_lock(&pp_probe_memo.lock);
	if (pp_probe_memo.cred)
		put_cred(pp_probe_memo.cred);
	kfree(pp_probe_memo.format);
	pp_probe_memo.attr = ev->attr;
	pp_probe_memo.cred = get_cred(current_cred());
	pp_probe_memo.direct = ev->direct;
	memcpy(pp_probe_memo.tp_name, ev->tp_name, sizeof(ev->tp_name));
	pp_probe_memo.format = format;
	mutex_unlock(&pp_probe_memo.lock);
}

/* Module exit: forget the memo. */
static void pp_probe_memo_drop(void)
{
	if (pp_probe_memo.cred)
		put_cred(pp_probe_memo.cred);
	pp_probe_memo.cred = NULL;
	kfree(pp_probe_memo.format);
	pp_probe_memo.format = NULL;
}

/*
 * Probe the source (pp_event_probe_counter()).  For a tracepoint, keep
 * what perf found: its name, its tracefs format text (for crash dumps and
 * sysfs) and whether the direct path has an encoder for it.  Only a
 * tracepoint or a PMU of a dynamic type (kprobe, uprobe, a hybrid CPU's)
 * needs the probe, and a breakpoint where it is refused after perf's own
 * checks (pp_source_cannot_step()).  The PMUs of the fixed types read
 * neither the creator's memory nor its privileges, for the attrs that
 * pp_scope_attr_check() lets through.  Process context.
 *
 * Return: 0 or the errno the probe failed with.
 */
static int pp_event_probe_source(struct pp_event *ev, bool perf_path)
{
	struct trace_event_call *call;
	struct perf_event *counter;
	const char *name;

	if (ev->attr.type != PERF_TYPE_TRACEPOINT &&
	    ev->attr.type < PERF_TYPE_MAX && !pp_source_cannot_step(&ev->attr))
		return 0;
	/* The direct path's probe sees every task, so a task scope can't use it. */
	if (ev->scope.kind == PERF_PERSISTENT_SCOPE_TASK)
		perf_path = true;
	if (ev->attr.type == PERF_TYPE_TRACEPOINT && !perf_path &&
	    pp_probe_memo_use(ev))
		return 0;
	counter = pp_event_probe_counter(ev);
	if (IS_ERR(counter))
		return PTR_ERR(counter);
	if (!IS_ENABLED(CONFIG_EVENT_TRACING) ||
	    ev->attr.type != PERF_TYPE_TRACEPOINT) {
		perf_event_release_kernel(counter);
		return 0;
	}

	call = counter->tp_event;
	name = trace_event_name(call);
	ev->format = pp_dump_format(call);
	snprintf(ev->tp_name, sizeof(ev->tp_name), "%s:%s",
		 call->class->system, name);
	if (!perf_path && pp_direct_attr_ok(&ev->attr))
		ev->direct = pp_direct_find(call->class->system, name);
	if (ev->direct) {
		char why[160];

		/* Built against other headers than the running kernel's? */
		if (pp_direct_layout_check(ev->direct, call->class->fields_array,
					   why, sizeof(why))) {
			pr_warn_once("%s: perf's path, the encoder differs from the kernel: %s\n",
				     ev->tp_name, why);
			ev->direct = NULL;
		}
	}
	perf_event_release_kernel(counter);
	if (ev->direct)
		pp_probe_memo_keep(ev);
	return 0;
}

/* One try of pp_ops_create(). */
static int pp_ops_create_once(const struct pp_event_spec *spec, u32 *id)
{
	u64 size = spec->buffer_size ?: pp_default_buffer_size;
	struct pp_event *ev;
	int ret;

	ret = pp_buffer_size_check(size);
	if (ret)
		return ret;
	ret = pp_event_attr_check(&spec->attr);
	if (ret)
		return ret;
	/* The source may not be the PMU whose events read persistent events. */
	if (spec->attr.type == pp_pmu_type())
		return -EINVAL;

	ev = pp_event_alloc(spec, size);
	if (IS_ERR(ev))
		return PTR_ERR(ev);

	/* Reserve the id and name; buffers and counters come without the lock. */
	mutex_lock(&pp_registry.lock);
	ret = pp_registry_reserve(&pp_registry, &ev->entry, spec->owner_file);
	mutex_unlock(&pp_registry.lock);
	if (ret)
		goto err_free;

	ret = pp_event_probe_source(ev, spec->perf_path);
	if (!ret)
		ret = pp_event_start(ev);
	mutex_lock(&pp_registry.lock);
	if (ret)
		goto err_cancel;

	ret = pp_sysfs_event_add(ev);
	if (ret)
		goto err_remove;

	pp_registry_publish(&pp_registry, &ev->entry);
	*id = ev->entry.id;
	mutex_unlock(&pp_registry.lock);
	pr_debug("%s: created as id %u\n", ev->entry.name, ev->entry.id);
	return 0;

err_remove:
	pp_event_stop(ev);
err_cancel:
	pp_registry_cancel(&pp_registry, &ev->entry);
	mutex_unlock(&pp_registry.lock);
err_free:
	pp_event_free(ev);
	return ret;
}

/**
 * pp_ops_create - create a persistent event and start it on every CPU
 * @spec: what to create
 * @id: out: its id
 *
 * Process context; the caller has checked the privilege.  The registry
 * lock is held to reserve the id and name and to publish the event, but
 * not while the buffers are allocated and the counters created, so that
 * LIST, INFO and DESTROY can go on meanwhile.  The buffers are charged to
 * the caller's memory cgroup.  Short of memory or of the region's room, it
 * waits for the events destroyed before to be freed, and tries again.
 *
 * Return: 0; -EINVAL (bad name, bad buffer size, bad attr), -E2BIG (buffer
 * too large), -EOPNOTSUPP (sample fields), -EEXIST (name taken), -ENOSPC
 * (ids exhausted, or the buffers would pass memory_limit_mb), -ENOMEM (no
 * memory, or the memory cgroup's limit), or the errno the kernel refused
 * the source's counter with.  Nothing is left behind on failure.
 */
int pp_ops_create(const struct pp_event_spec *spec, u32 *id)
{
	int ret = pp_ops_create_once(spec, id);

	/*
	 * Destroyed events may still hold memory or the region's room, or
	 * may have given it back while this try was failing: wait for them
	 * and try once more.
	 */
	if (ret == -ENOSPC || ret == -ENOMEM) {
		pp_events_reap();
		ret = pp_ops_create_once(spec, id);
	}
	return ret;
}

/*
 * The id the records of the next read-only event of this boot's carry:
 * counted down from U32_MAX, so that no two of them share one, nor one
 * with an event of the previous boot shown beside them (a registry hands
 * ids out upward from 1 and never again).  A file of several events
 * (perf.data) tells them apart by it.
 */
static atomic_t pp_here_ids = ATOMIC_INIT(0);

/*
 * A read-only event of this boot's, to be shown with the previous boot's
 * events, without its records (pp_ops_show_here()); NULL if the
 * tracepoint is not there or memory is short.
 */
static struct pp_found_event *pp_ops_found_here(const char *name,
						const char *system,
						const char *tp,
						unsigned long size)
{
	struct pp_found_event *fe;
	struct pp_buffer *buf;

	fe = kzalloc(struct_size(fe, cpus, 1), GFP_KERNEL);
	if (!fe)
		return NULL;
	if (pp_tracepoint_lookup(system, tp, &fe->attr.config, &fe->format) ||
	    !fe->format)
		goto err_free;

	strscpy(fe->name, name, sizeof(fe->name));
	snprintf(fe->tp_name, sizeof(fe->tp_name), "%s:%s", system, tp);
	fe->attr.type = PERF_TYPE_TRACEPOINT;
	fe->attr.size = sizeof(fe->attr);
	fe->attr.sample_period = 1;
	fe->attr.sample_type = PP_DIRECT_FIELDS;
	fe->buffer_size = size;
	fe->id = U32_MAX - (u32)atomic_inc_return(&pp_here_ids) + 1;

	buf = pp_buffer_alloc(fe->buffer_size);
	if (IS_ERR(buf))
		goto err_free;
	/* Any CPU: pp_ops_fill_begin() moves it to the one it runs on. */
	fe->nr = 1;
	fe->cpus[0].cpu = raw_smp_processor_id();
	fe->cpus[0].stop = PP_FOUND_WHOLE;
	fe->cpus[0].buf = buf;
	buf->ext->sample_type = fe->attr.sample_type;
	buf->ext->id = fe->id;
	buf->ext->cpu = fe->cpus[0].cpu;
	return fe;

err_free:
	pp_found_event_free(fe);
	return NULL;
}

/**
 * pp_ops_fill_begin - write the records of an event pp_ops_found_here()
 *	made, from its fill
 * @ev: the event
 *
 * Disables preemption, as the encoders need, and moves the event's one
 * buffer to the CPU this runs on: the encoders write into the running
 * CPU's.
 *
 * Return: the buffer, for pp_ops_fill_end().
 */
struct pp_buffer *pp_ops_fill_begin(struct pp_event *ev)
{
	struct pp_found_cpu *fc = &ev->prev->cpus[0];
	struct pp_buffer *buf = per_cpu_ptr(ev->cpus, fc->cpu)->buf;
	unsigned int cpu = get_cpu();

	if (cpu != fc->cpu) {
		per_cpu_ptr(ev->cpus, fc->cpu)->buf = NULL;
		per_cpu_ptr(ev->cpus, cpu)->buf = buf;
		fc->cpu = cpu;
		buf->ext->cpu = cpu;
	}
	return buf;
}

/**
 * pp_ops_fill_end - the records written: pause the buffer for good
 * @ev: the event
 * @buf: what pp_ops_fill_begin() gave
 *
 * The records' times turn into wall-clock times with this boot's clock,
 * which the event keeps.  Enables preemption again.
 */
void pp_ops_fill_end(struct pp_event *ev, struct pp_buffer *buf)
{
	ev->prev->clock.local = local_clock();
	ev->prev->clock.real = ktime_get_real_ns();
	put_cpu();
	/* Nothing records into it any more; it is read as it is. */
	pp_buffer_set_paused(buf, true);
}

/**
 * pp_ops_create_previous - show a previous boot's event
 * @fe: what was found of it; the new event takes it, or it is freed
 * @fill: called with the event before anyone can see it, to write its
 *	records (boot_errors), or NULL
 * @data: @fill's
 * @id: out: the event's id in this boot
 *
 * The event is listed, detached, with instances/previous.<name>/ in
 * sysfs, until it is destroyed.  Module init, process context.
 *
 * Return: 0, or the registry's or sysfs's errno.
 */
int pp_ops_create_previous(struct pp_found_event *fe,
			   void (*fill)(struct pp_event *ev, void *data),
			   void *data, u32 *id)
{
	struct pp_event *ev;
	int ret;

	ev = pp_event_alloc_previous(fe);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	if (fill)
		fill(ev, data);
	mutex_lock(&pp_registry.lock);
	ret = pp_registry_reserve(&pp_registry, &ev->entry, NULL);
	if (ret)
		goto err_unlock;
	ret = pp_sysfs_event_add(ev);
	if (ret)
		goto err_cancel;
	pp_registry_publish(&pp_registry, &ev->entry);
	*id = ev->entry.id;
	mutex_unlock(&pp_registry.lock);
	return 0;

err_cancel:
	pp_registry_cancel(&pp_registry, &ev->entry);
err_unlock:
	mutex_unlock(&pp_registry.lock);
	pp_event_free(ev);
	return ret;
}

/**
 * pp_ops_show_here - show a read-only event of this boot's with the
 *	previous boot's events
 * @name: its name
 * @system: its tracepoint's trace system
 * @tp: its tracepoint, whose format its records have
 * @size: its one buffer's size
 * @fill: writes its records, between pp_ops_fill_begin() and
 *	pp_ops_fill_end()
 * @data: @fill's
 * @id: out: the event's id
 *
 * For the errors from before the load that the module collects itself
 * (boot_errors.c, fw_errors.c).  Module init, process context.
 *
 * Return: 0, -ENOMEM if the event could not be made (or the tracepoint
 * is not there), or pp_ops_create_previous()'s errno.
 */
int pp_ops_show_here(const char *name, const char *system, const char *tp,
		     unsigned long size,
		     void (*fill)(struct pp_event *ev, void *data), void *data,
		     u32 *id)
{
	struct pp_found_event *fe;

	fe = pp_ops_found_here(name, system, tp, size);
	if (!fe)
		return -ENOMEM;
	/* The event takes @fe, or frees it. */
	return pp_ops_create_previous(fe, fill, data, id);
}

/* Look up a listed event by id, or by @name when @id is 0; registry locked. */
static struct pp_event *find_event(u32 id, const char *name)
{
	struct pp_entry *entry;

	lockdep_assert_held(&pp_registry.lock);
	entry = pp_registry_find(&pp_registry, id, name);

	return entry ? container_of(entry, struct pp_event, entry) : NULL;
}

/**
 * pp_ops_id - the id of the event named @name
 * @name: its name
 * @id: out
 *
 * Process context.
 *
 * Return: 0, -ENOENT (no such event).
 */
int pp_ops_id(const char *name, u32 *id)
{
	struct pp_event *ev;

	mutex_lock(&pp_registry.lock);
	ev = find_event(0, name);
	if (ev)
		*id = ev->entry.id;
	mutex_unlock(&pp_registry.lock);
	return ev ? 0 : -ENOENT;
}

/**
 * pp_ops_destroy - destroy a persistent event
 * @id: its id
 * @file: the asking file
 *
 * The event leaves every listing and stops recording at once; it is freed
 * when the handlers still running have finished and its last reader is
 * gone.  Process context.
 *
 * Return: 0, -ENOENT (no such event), -EBUSY (another file owns it).
 */
int pp_ops_destroy(u32 id, const void *file)
{
	struct pp_event *ev;
	int ret = -ENOENT;

	mutex_lock(&pp_registry.lock);
	ev = id ? find_event(id, NULL) : NULL;
	if (ev) {
		ret = pp_entry_unlist(&pp_registry, &ev->entry, file);
		if (!ret)
			pp_sysfs_event_del(ev);
	}
	mutex_unlock(&pp_registry.lock);
	if (!ret)
		pp_event_destroy(ev);
	return ret;
}

/* Apply an ownership change of registry.h to the event @id. */
static int change_owner(u32 id, const void *file,
			int (*change)(struct pp_registry *, struct pp_entry *,
				      const void *))
{
	struct pp_event *ev;
	int ret = -ENOENT;

	mutex_lock(&pp_registry.lock);
	ev = id ? find_event(id, NULL) : NULL;
	if (ev && ev->prev)
		ret = -EROFS;
	else if (ev)
		ret = change(&pp_registry, &ev->entry, file);
	mutex_unlock(&pp_registry.lock);
	return ret;
}

/* Detach (make persistent) the event @file owns.  Process context. */
int pp_ops_detach(u32 id, const void *file)
{
	return change_owner(id, file, pp_entry_detach);
}

/* Attach a persistent event to @file.  Process context. */
int pp_ops_attach(u32 id, const void *file)
{
	return change_owner(id, file, pp_entry_attach);
}

/**
 * pp_ops_pause - stop or restart recording into an event's buffers
 * @id: its id
 * @paused: true to pause
 *
 * On return from a pause no record is being written any more, so the
 * buffers are still until the event is resumed.  Process context.
 *
 * Return: 0, -ENOENT, or -EROFS for a previous boot's event.
 */
int pp_ops_pause(u32 id, bool paused)
{
	struct pp_event *ev;
	bool direct;

	mutex_lock(&pp_registry.lock);
	ev = id ? find_event(id, NULL) : NULL;
	if (!ev || ev->prev) {
		mutex_unlock(&pp_registry.lock);
		return ev ? -EROFS : -ENOENT;
	}
	pp_event_set_paused(ev, paused);
	direct = ev->direct;
	mutex_unlock(&pp_registry.lock);
	if (paused)
		pp_events_wait_writers(direct);
	return 0;
}

/* The control file @file is being released: destroy what it owns. */
void pp_ops_release_file(const void *file)
{
	struct pp_entry *entry;
	LIST_HEAD(owned);

	mutex_lock(&pp_registry.lock);
	pp_registry_take_file(&pp_registry, file, &owned);
	list_for_each_entry(entry, &owned, node)
		pp_sysfs_event_del(container_of(entry, struct pp_event, entry));
	mutex_unlock(&pp_registry.lock);
	pp_events_stop_put(&owned);
}

/**
 * pp_ops_thaw - thaw an event, or re-arm its trigger
 * @id: the event's id
 * @rearm: false to let the event store records again; true to arm its
 *	trigger again, with its count started anew, and thaw every target it
 *	froze
 *
 * Pausing is separate from freezing: a reader that pauses and resumes a
 * frozen event to read it does not thaw it.  Process context.
 *
 * Return: 0; -ENOENT (no such event, or @rearm and it has no trigger);
 * -EROFS (a previous boot's event).
 */
int pp_ops_thaw(u32 id, bool rearm)
{
	struct pp_trigger *trig;
	struct pp_event *ev;
	int ret = -ENOENT;

	mutex_lock(&pp_registry.lock);
	ev = id ? find_event(id, NULL) : NULL;
	if (ev && ev->prev) {
		ret = -EROFS;
	} else if (ev && !rearm) {
		pp_freeze_thaw(&ev->freeze);
		ret = 0;
	} else if (ev) {
		trig = rcu_dereference_protected(ev->trigger,
						 lockdep_is_held(&pp_registry.lock));
		if (trig) {
			pp_trigger_rearm(trig);
			ret = 0;
		}
	}
	mutex_unlock(&pp_registry.lock);
	return ret;
}

/**
 * pp_ops_set_trigger - set, replace or remove an event's trigger
 * @source: the id of the event whose records fire it
 * @targets: ids of the events it freezes
 * @nr: number of @targets; 0 removes the trigger
 * @count: fire on the @count-th record of @source after arming (0 means 1)
 * @after: each target stores this many more records, then freezes
 * @filter: only @source's records that match it count, or NULL; the
 *	trigger owns it from here on, whatever the result
 *
 * The trigger keeps a reference to each target.  It is freed when @source
 * stops (pp_event_stop()).  Process context.
 *
 * Return: 0; -ENOENT (@source or a target does not exist), -EINVAL
 * (@filter and @source's records carry no RAW payload, or @after above
 * PP_TRIGGER_AFTER_MAX), -EROFS (@source or a target is a previous boot's
 * event), -ENOMEM.
 */
int pp_ops_set_trigger(u32 source, const u32 *targets, unsigned int nr,
		       u64 count, u64 after, struct pp_filter *filter)
{
	struct pp_trigger *trig = NULL, *old = NULL;
	struct pp_event *ev, *t;
	unsigned int i;
	int ret = -ENOENT;

	if (after > PP_TRIGGER_AFTER_MAX) {
		kfree(filter);
		return -EINVAL;
	}
	if (nr) {
		trig = kzalloc(struct_size(trig, targets, nr), GFP_KERNEL);
		if (!trig) {
			kfree(filter);
			return -ENOMEM;
		}
		trig->count = count ?: 1;
		trig->after = after;
		trig->filter = filter;
	}
	mutex_lock(&pp_registry.lock);
	ev = source ? find_event(source, NULL) : NULL;
	if (!ev)
		goto unlock;
	ret = -EROFS;
	if (ev->prev)
		goto unlock;
	ret = -ENOENT;
	if (filter && !(ev->attr.sample_type & PERF_SAMPLE_RAW)) {
		ret = -EINVAL;
		goto unlock;
	}
	for (i = 0; i < nr; i++) {
		t = targets[i] ? find_event(targets[i], NULL) : NULL;
		if (!t)
			goto unlock;
		if (t->prev) {
			ret = -EROFS;
			goto unlock;
		}
		pp_entry_get(&t->entry);
		trig->targets[i].freeze = &t->freeze;
		trig->targets[i].owner = t;
		trig->nr++;
	}
	old = rcu_replace_pointer(ev->trigger, trig,
				  lockdep_is_held(&pp_registry.lock));
	trig = NULL;
	ret = 0;
unlock:
	mutex_unlock(&pp_registry.lock);
	/* The record path may still hold the old one. */
	if (old) {
		synchronize_rcu();
		pp_event_trigger_free(old);
	}
	pp_event_trigger_free(trig);
	return ret;
}

/**
 * pp_ops_info - describe one event
 * @id: its id, or 0 to find it by @name
 * @name: its name when @id is 0
 * @file: the asking file
 * @info: out
 * @stats: out: per-CPU statistics of the CPUs that have a buffer
 * @nr: capacity of @stats; info->nr_cpus says how many there are
 *
 * Process context.
 *
 * Return: 0 or -ENOENT.
 */
int pp_ops_info(u32 id, const char *name, const void *file,
		struct pp_event_info *info,
		struct perf_persistent_cpu_stats *stats, unsigned int nr)
{
	struct pp_event *ev;

	mutex_lock(&pp_registry.lock);
	ev = find_event(id, name);
	if (!ev) {
		mutex_unlock(&pp_registry.lock);
		return -ENOENT;
	}
	pp_entry_get(&ev->entry);
	info->id = ev->entry.id;
	strscpy(info->name, ev->entry.name, sizeof(info->name));
	info->state = pp_event_state(ev, file);
	info->buffer_size = ev->buffer_size;
	info->attr = ev->attr;
	info->scope = ev->scope.kind;
	info->target = pp_scope_target_vnr(&ev->scope);
	info->cgroup_id = pp_scope_cgroup_id(&ev->scope);
	mutex_unlock(&pp_registry.lock);

	info->nr_cpus = pp_event_cpu_stats(ev, stats, nr, &info->count);
	pp_entry_put(&ev->entry);
	return 0;
}

/**
 * pp_ops_list - ids of the listed events greater than @start
 * @start: 0 to start, else the last id of the previous call
 * @ids: out: ascending ids
 * @nr: capacity of @ids
 * @total: out: number of listed events
 *
 * Process context.
 *
 * Return: the number of ids written.
 */
int pp_ops_list(u32 start, u32 *ids, unsigned int nr, u32 *total)
{
	struct pp_entry *entry;
	unsigned long index;
	unsigned int n = 0;

	mutex_lock(&pp_registry.lock);
	xa_for_each_start(&pp_registry.entries, index, entry, (unsigned long)start + 1) {
		if (n == nr)
			break;
		ids[n++] = index;
	}
	*total = pp_registry.count;
	mutex_unlock(&pp_registry.lock);
	return n;
}

/*
 * Module exit, process context.  No control file is open, because each one
 * pins the module, so every event left is detached.  Destroy them all,
 * with their sysfs files.
 */
void pp_ops_destroy_all(void)
{
	struct pp_entry *entry;
	LIST_HEAD(all);

	mutex_lock(&pp_registry.lock);
	pp_registry_take_all(&pp_registry, &all);
	list_for_each_entry(entry, &all, node)
		pp_sysfs_event_del(container_of(entry, struct pp_event, entry));
	mutex_unlock(&pp_registry.lock);
	pp_events_stop_put(&all);
	/* And those destroyed before, still waiting for their writers. */
	pp_events_reap();
	pp_probe_memo_drop();
}
