// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: persistent events
 *
 * A persistent event is a source perf_event_attr with one kernel counter
 * per online CPU (perf_event_create_kernel_counter() with our overflow
 * handler) and one buffer per CPU.  No process or file descriptor keeps it
 * alive; the registry does, or the control file that owns it (registry.h).
 * A scope (scope.h) narrows whose activity it records to a process tree,
 * which uses task counters instead of CPU counters, or to a cgroup, which
 * filters the records.
 *
 * This file is the event itself: the object and its allocation, its
 * counters and buffers, CPU hotplug, the glue of the record path, stop
 * and free.  The commands that create, destroy and change events are
 * ops.c's, which calls down into this file and tells sysfs, the crash
 * dump and the PMU what they need; this file calls none of those.  What
 * an event has to tell the files that watch it goes through its notices
 * (notices.h), which hand it up without this file knowing who listens.
 *
 * CPU hotplug.  Creating or releasing a counter may take cpus_read_lock()
 * (static keys of software events and tracepoints), which deadlocks inside a
 * hotplug callback.  So the callbacks only record that the CPU came or went
 * and queue the event's sync work; pp_event_sync() then creates and
 * releases counters, outside the hotplug lock, to match (as the hard-lockup
 * detector defers its releases).  A CPU records from shortly after it comes
 * online; its buffer, and the count of its released counter, are kept while
 * it is offline.
 *
 * Contexts:
 *   pp_event_overflow()          the source's overflow handler: any context
 *                                including NMI, on the counter's CPU
 *   pp_event_task_overflow()     a task scope's: any context including NMI,
 *                                on the CPU its task runs on
 *   pp_cpu_online/offline()      CPU-hotplug callbacks, hotplug lock held;
 *                                they take none of our locks and leave the
 *                                counters to the sync work
 *   everything else              process context
 *
 * Lock order (Documentation/persistent-events.rst shows this block as is):
 *   pp_registry.lock -> ev->sync_lock -> cpu_hotplug_lock -> perf's context locks
 *     perf takes cpu_hotplug_lock itself while it creates or releases a counter.
 *   ev->sync_lock -> the target's signal->exec_update_lock -> perf's locks
 *     scope.c creates a task scope's counters under exec_update_lock; perf's
 *     locks nest inside it as they do in perf_event_open().
 *   pp_registry.lock -> kernfs active references
 *     Removing sysfs files waits for the show() calls in progress, so no show()
 *     takes pp_registry.lock or sync_lock.
 *   ev->sync_lock -> pp_direct_hub_lock -> tracepoints_mutex -> cpu_hotplug_lock
 *     direct.c registers and unregisters a hub's probe under its hub lock.
 *
 * Lifetime.  ops.c unlists an event and removes its sysfs files under the
 * registry lock, then calls pp_event_destroy() without it.  That removes
 * the hotplug instance, waits for the sync work, releases the counters,
 * waits for the handlers still running and drops the owner reference.  An
 * RCU grace period covers the handlers, which run in NMI or with preemption
 * disabled; pp_events_stop_put() waits one grace period for all the events
 * that a closing file or the module unload destroys.  DESTROY halts its
 * event and leaves the wait and the put to a work shared by all the events
 * destroyed meanwhile (pp_event_destroy()); a creation short of memory
 * waits for that work (pp_events_reap()).  The buffers are freed with the
 * last reference.
 *
 * Triggers (trigger.h).  ops.c publishes an event's trigger with RCU under
 * the registry lock, and the event's overflow handler reads it.  A trigger
 * holds a reference to each of its targets.  It is freed after the grace
 * period that follows its source's halt, and before the owner references
 * are dropped, because a trigger may hold the last reference to another
 * event.  The handler freezes targets with atomics only; THAW and REARM
 * thaw them under the registry lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "buffer.h"
#include "compat.h"
#include "direct.h"
#include "event.h"
#include "filter.h"
#include "maps.h"
#include "notices.h"
#include "previous.h"
#include "reader.h"
#include "scope.h"

struct pp_registry pp_registry;

static enum cpuhp_state pp_cpuhp_state;

/**
 * pp_buffer_size_check - may @size be a per-CPU buffer size?
 * @size: bytes
 *
 * Return: 0, -EINVAL unless a power-of-two number of pages, -E2BIG above
 * PERF_PERSISTENT_BUFFER_MAX.
 */
int pp_buffer_size_check(u64 size)
{
	if (size > PERF_PERSISTENT_BUFFER_MAX)
		return -E2BIG;
	if (size < PAGE_SIZE || !is_power_of_2(size))
		return -EINVAL;
	return 0;
}

/*
 * Does a record count towards @trig?  Any context.  A filter reads the RAW
 * payload @raw of @size bytes in place.  A field beyond its end compares
 * false, and a record without a payload to read never matches.
 */
static bool pp_trigger_counts(const struct pp_trigger *trig, const void *raw,
			      u32 size)
{
	if (!trig->filter)
		return true;
	return raw && pp_filter_match(trig->filter, raw, size);
}

/**
 * pp_event_trigger_hit - the source's trigger saw a record
 * @ev: the source
 * @raw: the record's RAW payload, or NULL
 * @size: its size
 *
 * Any context.
 */
void pp_event_trigger_hit(struct pp_event *ev, const void *raw, u32 size)
{
	struct pp_trigger *trig;

	rcu_read_lock();
	trig = rcu_dereference(ev->trigger);
	if (trig && pp_trigger_counts(trig, raw, size)) {
		u64 now = local_clock();

		if (pp_trigger_hit(trig, now))
			pp_notices_queue(&ev->notices,
					 PERF_PERSISTENT_NOTICE_FIRED, now);
	}
	rcu_read_unlock();
}

/*
 * Record a sample of @ev on this CPU, whose state is @pc.  Any context,
 * NMI included.  A frozen event drops the record and counts the drop.  A
 * record that is stored counts down a freeze in progress, goes to the
 * readers and may fire the event's trigger.  A tracepoint hands over its
 * payload as one fragment, which a trigger's filter reads in place.
 */
static __always_inline void pp_event_record(struct pp_event *ev,
					    struct pp_cpu *pc,
					    struct perf_sample_data *data,
					    struct pt_regs *regs)
{
	const struct perf_raw_frag *frag = NULL;

	if (unlikely(!pp_freeze_stores(&ev->freeze))) {
		local64_inc(&pc->buf->dropped);
		return;
	}
	if (pp_record_sample(pc->buf, &ev->fmt, data, regs))
		return;
	/* Only a trigger's filter reads the payload. */
	if (unlikely(rcu_access_pointer(ev->trigger)) &&
	    (data->sample_flags & PERF_SAMPLE_RAW) && data->raw &&
	    !data->raw->frag.copy)
		frag = &data->raw->frag;
	pp_event_after_store(ev, pc, frag ? frag->data : NULL,
			     frag ? frag->size : 0);
}

/*
 * The overflow handler of the CPU counters: any context, NMI included,
 * on the counter's CPU.  A cgroup scope keeps its tasks' records only.
 */
static void pp_event_overflow(struct perf_event *counter,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	struct pp_cpu *pc = counter->overflow_handler_context;
	struct pp_event *ev = pc->ev;

	if (!pp_scope_admits(&ev->scope))
		return;
	pp_event_record(ev, pc, data, regs);
}

/*
 * The overflow handler of the task counters and of the counters perf
 * inherited from them into threads and children.  @counter may be any of
 * these, so it is never compared.  Any context, NMI included, on the CPU
 * the task runs on, with preemption off.  A CPU that came online so
 * recently that the sync work has not given it a buffer yet drops the
 * record and counts the drop.
 */
static void pp_event_task_overflow(struct perf_event *counter,
				   struct perf_sample_data *data,
				   struct pt_regs *regs)
{
	struct pp_event *ev = counter->overflow_handler_context;
	struct pp_cpu *pc = this_cpu_ptr(ev->cpus);

	if (unlikely(!pp_cpu_buf(pc))) {
		atomic_long_inc(&ev->no_buffer);
		return;
	}
	pp_event_record(ev, pc, data, regs);
}

/*
 * The attr that @ev's counters are created with.  The module writes the
 * COMM records itself (pp_record_sample()), so a counter does not ask for
 * perf's comm side-band, which it cannot receive.  It walks the call
 * chains itself too (callchain.c): perf would allocate its callchain
 * buffers for a counter that asked, and never fill them for our handler.
 */
static void pp_event_counter_attr(const struct pp_event *ev,
				  struct perf_event_attr *attr)
{
	*attr = ev->attr;
	attr->comm = 0;
	attr->comm_exec = 0;
	attr->sample_type &= ~(u64)(PERF_SAMPLE_CALLCHAIN |
				    PERF_SAMPLE_REGS_USER |
				    PERF_SAMPLE_STACK_USER);
	attr->sample_max_stack = 0;
	attr->sample_regs_user = 0;
	attr->sample_stack_user = 0;
	attr->exclude_callchain_kernel = 0;
	attr->exclude_callchain_user = 0;
}

/* Does @ev count on each CPU with a CPU counter of its own? */
static bool pp_event_cpu_counters(const struct pp_event *ev)
{
	return !ev->direct && ev->scope.kind != PERF_PERSISTENT_SCOPE_TASK;
}

/**
 * pp_event_overflow_notice - the event stored a record, and a file
 *	watches its overflows
 * @ev: the event
 * @pc: @ev on this CPU
 *
 * Every wakeup_events-th record that a CPU stores asks for a notice; every
 * record does if wakeup_events is 0 or the attr sets a watermark.  Each CPU
 * counts its own records, as each CPU's buffer does in perf.  notices.c
 * paces the notices.  Any context, NMI included, on @pc's CPU;
 * local_inc_return() is safe against an NMI writer nested in another.
 */
void pp_event_overflow_notice(struct pp_event *ev, struct pp_cpu *pc)
{
	unsigned long every = 1;

	if (!ev->attr.watermark && ev->attr.wakeup_events)
		every = ev->attr.wakeup_events;
	if (local_inc_return(&pc->stored) % every == 0)
		pp_notices_overflow(&ev->notices);
}

/*
 * Does @counter's PMU read its attr's config1 as a pointer into the
 * creator's memory?  The kprobe and uprobe PMUs do (the function or the
 * path to probe), and check the creator's CAP_PERFMON.  A persistent
 * event creates its counters again when a CPU comes back online, from a
 * worker; its readers' permission probe runs as each reader; and perf
 * creates the copies a task scope inherits as the forking task, in its
 * memory.  None of them may read the creator's memory, so such a source
 * cannot be persistent, in any scope.  (Their tracepoints, kprobes:NAME
 * and uprobes:NAME defined through tracefs, can.)
 */
static bool pp_source_reads_user(const struct perf_event *counter)
{
	const char *name = counter->pmu->name;

	return name && (!strcmp(name, "kprobe") || !strcmp(name, "uprobe"));
}

/*
 * Does a task scope's inherited copy of @counter fail the PMU's checks of
 * the forking task?  Intel's event_init asks perf_allow_cpu() of the
 * current task for a raw event with the AnyThread bit: every fork of an
 * unprivileged target would fail.  pp_scope_attr_check() refuses the
 * PERF_TYPE_RAW spelling before any counter exists; this catches a hybrid
 * CPU's PMU (cpu_core, cpu_atom) named by its own type.
 */
static bool pp_source_inherit_checks_task(const struct perf_event_attr *attr,
					  const struct pmu *pmu)
{
	return IS_ENABLED(CONFIG_X86) && attr->inherit &&
	       attr->type == pmu->type &&
	       str_has_prefix(pmu->name ?: "", "cpu") &&
	       (attr->config & PP_X86_ANY_THREAD);
}

/* Give @cpu a buffer (once) and a counter; sync_lock held. */
static int pp_cpu_start(struct pp_event *ev, struct pp_cpu *pc,
			unsigned int cpu, unsigned int gen)
{
	struct perf_event_attr attr;
	struct perf_event *counter;

	lockdep_assert_held(&ev->sync_lock);

	if (!pc->buf) {
		struct pp_buffer *buf = ev->kept ?
			pp_region_keep_buffer(&pp_region, &ev->keep, cpu) :
			pp_buffer_alloc(ev->buffer_size);

		if (IS_ERR(buf))
			return PTR_ERR(buf);
		pp_buffer_set_paused(buf, ev->paused);
		buf->ext->sample_type = ev->fmt.sample_type;
		buf->ext->id = ev->entry.id;
		buf->ext->cpu = cpu;
		/*
		 * Publish the buffer with release before the counter exists.
		 * The mmap, reader and statistics paths load it with acquire
		 * (pp_cpu_buf()) without sync_lock, and must see it set up.
		 * The overflow handler needs no barrier, because the counter
		 * that calls it is created after this store.
		 */
		smp_store_release(&pc->buf, buf);
		pp_anchor_set_buffer(&ev->anchor, cpu, buf);
	}
	/*
	 * The direct path needs only the buffer, because its probe belongs
	 * to the event and not to a CPU.  So does a task scope, whose
	 * counters follow the tasks.
	 */
	if (!pp_event_cpu_counters(ev))
		return 0;

	pp_event_counter_attr(ev, &attr);
	counter = perf_event_create_kernel_counter(&attr, cpu, NULL,
						   pp_event_overflow, pc);
	if (IS_ERR(counter))
		return PTR_ERR(counter);
	pc->counter = counter;
	pc->counter_gen = gen;
	return 0;
}

/* Release @pc's counter, keeping its count; sync_lock held. */
static void pp_cpu_stop(struct pp_cpu *pc)
{
	u64 enabled, running;

	lockdep_assert_held(&pc->ev->sync_lock);

	pc->count_base += perf_event_read_value(pc->counter, &enabled, &running);
	perf_event_release_kernel(pc->counter);
	pc->counter = NULL;
}

/*
 * Create and release counters to match the CPUs the hotplug callbacks say
 * are online.  Process context, sync_lock held, hotplug lock not held.
 * With @strict (creation) the first failure is returned; otherwise
 * failures are logged and the CPU stays without a counter.
 */
static int pp_event_sync(struct pp_event *ev, bool strict)
{
	unsigned int cpu;
	int ret;

	lockdep_assert_held(&ev->sync_lock);
	for_each_possible_cpu(cpu) {
		struct pp_cpu *pc = per_cpu_ptr(ev->cpus, cpu);
		bool online = READ_ONCE(pc->online);
		unsigned int gen = READ_ONCE(pc->gen);

		if (pc->counter && (!online || pc->counter_gen != gen))
			pp_cpu_stop(pc);
		if (!online || pc->counter ||
		    (!pp_event_cpu_counters(ev) && pc->buf))
			continue;
		ret = pp_cpu_start(ev, pc, cpu, gen);
		/* The CPU went offline; its callback has queued another sync. */
		if (ret == -ENODEV)
			continue;
		if (ret && strict)
			return ret;
		if (ret)
			pr_warn("%s: not recording on CPU %u: %d\n",
				ev->entry.name, cpu, ret);
	}
	return 0;
}

static void pp_event_sync_work(struct work_struct *work)
{
	struct pp_event *ev = container_of(work, struct pp_event, sync_work);

	mutex_lock(&ev->sync_lock);
	pp_event_sync(ev, false);
	mutex_unlock(&ev->sync_lock);
}

/* The hotplug callbacks note the change and leave the counters to the work. */
static int pp_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct pp_event *ev = hlist_entry(node, struct pp_event, node);
	struct pp_cpu *pc = per_cpu_ptr(ev->cpus, cpu);

	WRITE_ONCE(pc->gen, pc->gen + 1);
	WRITE_ONCE(pc->online, true);
	queue_work(pp_system_dfl_wq, &ev->sync_work);
	return 0;
}

static int pp_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct pp_event *ev = hlist_entry(node, struct pp_event, node);

	WRITE_ONCE(per_cpu_ptr(ev->cpus, cpu)->online, false);
	queue_work(pp_system_dfl_wq, &ev->sync_work);
	return 0;
}

/*
 * Release every counter of an event no callback can reach any more.  Its
 * overflow handler may still run on other CPUs until a grace period has
 * passed: the caller waits for one before the buffers may go.
 */
static void pp_event_release_counters(struct pp_event *ev)
{
	unsigned int cpu;

	cancel_work_sync(&ev->sync_work);
	mutex_lock(&ev->sync_lock);
	for_each_possible_cpu(cpu) {
		struct pp_cpu *pc = per_cpu_ptr(ev->cpus, cpu);

		if (pc->counter)
			pp_cpu_stop(pc);
	}
	pp_scope_task_stop(&ev->scope);
	mutex_unlock(&ev->sync_lock);
}

/* The freeze's irq_work: hardirq context (a thread on RT). */
static void pp_event_froze_notify(struct irq_work *work)
{
	struct pp_event *ev = container_of(work, struct pp_event, froze_work);

	pp_notices_queue(&ev->notices, PERF_PERSISTENT_NOTICE_FROZE,
			 READ_ONCE(ev->freeze.time));
}

/*
 * Free an event nothing records into or reads any more: the release of
 * its last reference, or a creation that failed (ops.c).  Process context.
 */
void pp_event_free(struct pp_event *ev)
{
	unsigned int cpu;

	/*
	 * Nothing can freeze the event or fire its trigger any more: its
	 * handlers are gone, and so are the triggers that held it.  Wait for
	 * a notice that is still being posted.
	 */
	irq_work_sync(&ev->froze_work);
	pp_notices_sync(&ev->notices);

	/*
	 * Out of the anchor and the region's directory before its buffers'
	 * pages go.
	 */
	pp_anchor_del(&ev->anchor);
	pp_region_keep_end(&pp_region, &ev->keep);
	for_each_possible_cpu(cpu) {
		struct pp_cpu *pc = per_cpu_ptr(ev->cpus, cpu);

		/* No reader is left; a delivery may still be running. */
		pp_reader_cpu_sync(&pc->rd);
		if (pc->buf && pc->buf->phys)
			pp_region_buffer_free(&pp_region, pc->buf);
		else
			pp_buffer_free(pc->buf);
	}
	free_percpu(ev->cpus);
	pp_found_event_free(ev->prev);
	pp_scope_put(&ev->scope);
	if (ev->maps)
		pp_maps_put(ev->kept);
	kfree(ev->format);
	mutex_destroy(&ev->sync_lock);
	kfree_rcu(ev, rcu);
}

/* The last reference is gone: process context. */
static void pp_event_release(struct pp_entry *entry)
{
	pp_event_free(container_of(entry, struct pp_event, entry));
}

/*
 * Stop following CPU hotplug and release the counters; handlers may still
 * be running until a grace period has passed.
 */
static void pp_event_halt(struct pp_event *ev)
{
	/* A previous boot's event never started. */
	if (ev->prev)
		return;
	cpuhp_state_remove_instance_nocalls(pp_cpuhp_state, &ev->node);
	if (ev->direct)
		pp_direct_unregister(&ev->dx);
	pp_event_release_counters(ev);
}

/*
 * Wait for the record paths of halted or paused events that are still
 * running.  Overflow handlers run with preemption or interrupts off, which
 * an RCU grace period covers.  The direct path's probes also run under
 * their tracepoint's SRCU, which pp_direct_sync() waits for.  Process
 * context.  Out of line: a guest test counts its calls with a kprobe.
 */
noinline void pp_events_wait_writers(bool direct)
{
	if (direct)
		pp_direct_sync();
	else
		synchronize_rcu();
}

/*
 * Free a trigger no handler can reach any more, and drop its references
 * to its targets.  Process context.
 */
void pp_event_trigger_free(struct pp_trigger *trig)
{
	unsigned int i;

	if (!trig)
		return;
	for (i = 0; i < trig->nr; i++)
		pp_entry_put(&((struct pp_event *)trig->targets[i].owner)->entry);
	kfree(trig->filter);
	kfree(trig);
}

/*
 * Drop the trigger of a halted, unlisted event, after the grace period
 * that followed the halt.  No handler reads it then, and nobody can set
 * another.
 */
static void pp_event_drop_trigger(struct pp_event *ev)
{
	pp_event_trigger_free(rcu_replace_pointer(ev->trigger, NULL, true));
}

/*
 * Halt the event and wait for its handlers still running, then drop its
 * trigger.  Process context; ops.c calls it with the registry lock held
 * when a creation fails after the counters started.
 */
void pp_event_stop(struct pp_event *ev)
{
	pp_event_halt(ev);
	pp_events_wait_writers(ev->direct);
	pp_event_drop_trigger(ev);
}

/*
 * Give the target process's threads their task counters; sync_lock held.
 * enable_on_exec starts them disabled, for perf to enable at exec.
 */
static int pp_event_task_start(struct pp_event *ev)
{
	struct perf_event_attr attr;

	lockdep_assert_held(&ev->sync_lock);

	pp_event_counter_attr(ev, &attr);
	attr.disabled = attr.enable_on_exec;
	return pp_scope_task_start(&ev->scope, &attr, pp_event_task_overflow,
				   ev);
}

/*
 * Register @ev's probe on the direct path: what direct.c needs of the
 * event, in its @dx.  Process context, under sync_lock.
 */
static int pp_event_direct_register(struct pp_event *ev)
{
	ev->dx.desc = ev->direct;
	ev->dx.data = ev;
	ev->dx.cgrp = ev->scope.kind == PERF_PERSISTENT_SCOPE_CGROUP ?
		      ev->scope.cgrp : NULL;
	ev->dx.tp_name = ev->tp_name;
	return pp_direct_register(&ev->dx);
}

/*
 * Start following CPU hotplug, then start the counters.  Only creation
 * calls this, once ops.c has reserved the event's id.  It allocates the
 * buffers and creates the counters, so it is never called under the
 * registry lock, which LIST, INFO and DESTROY may take in the meantime.
 * On failure the event is stopped.
 */
int pp_event_start(struct pp_event *ev)
{
	unsigned int cpu;
	int ret;

	lockdep_assert_not_held(&pp_registry.lock);
	/* The records and the notices carry the id. */
	ev->notices.id = ev->entry.id;
	pp_record_fmt_init(&ev->fmt, ev->attr.sample_type, ev->entry.id);
	pp_record_fmt_profile(&ev->fmt, &ev->attr);
	if (ev->attr.comm)
		pp_record_fmt_want_comm(&ev->fmt);
	/* A profile's samples are named by the mappings table (maps.c). */
	if (ev->fmt.want_maps && !ev->maps) {
		pp_maps_get(ev->kept);
		ev->maps = true;
	}

	/* Its descriptor in the region, before any of its buffers. */
	if (ev->kept) {
		/* Formatted at the end of the load (pp_region_commit()). */
		if (!smp_load_acquire(&pp_region.hdr))
			return -ENXIO;
		ret = pp_region_keep_begin(&pp_region, &ev->keep, ev->entry.id,
					   ev->entry.name, ev->tp_name,
					   &ev->attr, ev->buffer_size,
					   ev->format);
		if (ret)
			return ret;
	}
	/* Where a crash dump's reader finds it, before any of its buffers. */
	ev->anchor = (struct pp_anchor_entry){
		.id = ev->entry.id,
		.name = ev->entry.name,
		.tp_name = ev->tp_name,
		.attr = &ev->attr,
		.format = ev->format,
		.buffer_size = ev->buffer_size,
		.kept = ev->kept,
	};
	ret = pp_anchor_add(&ev->anchor);
	if (ret)
		return ret;
	ret = cpuhp_state_add_instance_nocalls(pp_cpuhp_state, &ev->node);
	if (ret)
		return ret;
	/*
	 * From here the callbacks keep @online up to date.  Under the read
	 * lock no hotplug operation is half done, so cpu_online() is the state
	 * the callbacks last reported.
	 */
	cpus_read_lock();
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(ev->cpus, cpu)->online, cpu_online(cpu));
	cpus_read_unlock();

	mutex_lock(&ev->sync_lock);
	ret = pp_event_sync(ev, true);
	if (!ret && ev->direct && pp_event_direct_register(ev)) {
		/* The probe could not be registered: use perf's counters. */
		ev->direct = NULL;
		ret = pp_event_sync(ev, true);
	}
	/* Buffers come first, because a task counter may fire at once. */
	if (!ret && ev->scope.kind == PERF_PERSISTENT_SCOPE_TASK)
		ret = pp_event_task_start(ev);
	mutex_unlock(&ev->sync_lock);
	if (ret)
		pp_event_stop(ev);
	return ret;
}

/*
 * What the source attr must be.  perf_event_create_kernel_counter() skips
 * the checks perf_event_open() makes of a user's attr (perf_copy_attr()
 * and the syscall itself), so the ones that apply are made here.  The
 * sample_freq limit is not checked, because its sysctl is not exported to
 * modules.  The caller (ops.c) also refuses the persistent PMU's own type.
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP, or -EOVERFLOW (a call chain deeper
 * than the module's max_stack, as perf refuses one deeper than
 * kernel.perf_event_max_stack).
 */
int pp_event_attr_check(const struct perf_event_attr *attr)
{
	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;
	if (!attr->freq && (attr->sample_period & BIT_ULL(63)))
		return -EINVAL;
	/* Records are stamped with local_clock(), perf's default clock. */
	if (attr->use_clockid)
		return -EOPNOTSUPP;
	if (!pp_record_sample_type_ok(attr->sample_type))
		return -EOPNOTSUPP;
	if ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    attr->sample_max_stack > pp_chain_max_stack)
		return -EOVERFLOW;
	/* As perf_copy_attr() checks them for perf's own user registers. */
	if ((attr->sample_type & PERF_SAMPLE_REGS_USER) &&
	    !pp_uregs_mask_ok(attr->sample_regs_user))
		return -EINVAL;
	if ((attr->sample_type & PERF_SAMPLE_STACK_USER) &&
	    (attr->sample_stack_user >= U16_MAX ||
	     !IS_ALIGNED(attr->sample_stack_user, sizeof(u64))))
		return -EINVAL;
	/*
	 * comm asks for COMM records of the tasks that the samples are of.
	 * Readers learn whose name a COMM record gives, and when, from its
	 * sample_id fields, so it needs TID and sample_id_all.
	 */
	if (attr->comm && (!(attr->sample_type & PERF_SAMPLE_TID) ||
			   !attr->sample_id_all))
		return -EINVAL;
	return 0;
}

/**
 * pp_source_cannot_step - whether the kernel cannot step over @attr's hits
 * @attr: a source's attr
 *
 * arm64 and arm step over the instruction that hit a breakpoint or
 * watchpoint only for a counter with perf's own overflow handler
 * (uses_default_overflow_handler()).  The module's handler records
 * instead, so the watchpoint would fire again on the same access, forever,
 * with the CPU in the exception.  Asked of the disabled probe counter, so
 * that perf's own checks of the breakpoint come first.
 *
 * Return: true for a breakpoint on arm64 and arm.
 */
bool pp_source_cannot_step(const struct perf_event_attr *attr)
{
	return (IS_ENABLED(CONFIG_ARM64) || IS_ENABLED(CONFIG_ARM)) &&
	       attr->type == PERF_TYPE_BREAKPOINT;
}

/**
 * pp_event_probe_attr - the attr of a disabled CPU counter of @ev's source
 * @ev: the event
 * @attr: out
 *
 * For asking perf about the source on one CPU (its checks, its
 * tracepoint, a reader's permission), whatever the scope: without what
 * only a task counter may have (pp_scope_attr_check()) and without the
 * comm side-band, whose records are the module's.
 */
void pp_event_probe_attr(const struct pp_event *ev,
			 struct perf_event_attr *attr)
{
	pp_event_counter_attr(ev, attr);
	attr->disabled = 1;
	attr->inherit = 0;
	attr->inherit_thread = 0;
	attr->remove_on_exec = 0;
	attr->enable_on_exec = 0;
	attr->sigtrap = 0;
}

/*
 * Look at the source before its counters start: create its counter,
 * disabled, on one online CPU, so that perf checks the attr (the errno is
 * the one the counters would get) and tells which PMU takes it, whatever
 * the scope will be.  Process context.
 *
 * Return: the counter, or ERR_PTR() of the errno perf refused it with, or
 * -EOPNOTSUPP (a PMU that reads the creator's memory, a breakpoint on
 * arm64), or -EINVAL (a
 * source whose inherited copies would fail the forking task's checks).
 */
struct perf_event *pp_event_probe_counter(struct pp_event *ev)
{
	struct perf_event_attr attr;
	struct perf_event *counter;
	unsigned int cpu;
	int ret = 0;

	pp_event_probe_attr(ev, &attr);
	counter = ERR_PTR(-ENODEV);
	/*
	 * perf refuses with -ENODEV a counter on a CPU that went offline
	 * after the walk reached it.  The next online CPU is tried then.
	 */
	for_each_online_cpu(cpu) {
		counter = perf_event_create_kernel_counter(&attr, cpu, NULL,
							   NULL, NULL);
		if (!IS_ERR(counter) || PTR_ERR(counter) != -ENODEV)
			break;
	}
	if (IS_ERR(counter))
		return counter;
	if (pp_source_reads_user(counter) ||
	    pp_source_cannot_step(&counter->attr))
		ret = -EOPNOTSUPP;
	else if (ev->scope.kind == PERF_PERSISTENT_SCOPE_TASK &&
		 pp_source_inherit_checks_task(&ev->attr, counter->pmu))
		ret = -EINVAL;
	if (ret) {
		perf_event_release_kernel(counter);
		return ERR_PTR(ret);
	}
	return counter;
}

/* The parts of every event; process context. */
static struct pp_event *pp_event_new(const char *name,
				     const struct perf_event_attr *attr,
				     u64 size)
{
	struct pp_event *ev;
	unsigned int cpu;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return ERR_PTR(-ENOMEM);
	ev->cpus = alloc_percpu(struct pp_cpu);
	if (!ev->cpus) {
		kfree(ev);
		return ERR_PTR(-ENOMEM);
	}
	for_each_possible_cpu(cpu) {
		struct pp_cpu *pc = per_cpu_ptr(ev->cpus, cpu);

		pc->ev = ev;
		pc->cpu = cpu;
		pp_reader_cpu_init(&pc->rd, cpu);
	}
	mutex_init(&ev->sync_lock);
	INIT_WORK(&ev->sync_work, pp_event_sync_work);
	init_irq_work(&ev->froze_work, pp_event_froze_notify);
	pp_notices_init(&ev->notices, 0);
	ev->freeze.notify = &ev->froze_work;
	ev->entry.release = pp_event_release;
	ev->attr = *attr;
	ev->attr.size = sizeof(ev->attr);
	/* Persistent events are always enabled. */
	ev->attr.disabled = 0;
	ev->buffer_size = size;
	if (strscpy(ev->entry.name, name, sizeof(ev->entry.name)) < 0) {
		pp_event_free(ev);
		return ERR_PTR(-EINVAL);
	}
	return ev;
}

/**
 * pp_event_alloc - a new event, not started and without an id
 * @spec: what to create
 * @size: its per-CPU buffer size, checked (pp_buffer_size_check())
 *
 * Its scope is resolved and checked against the attr, which the caller
 * has checked (pp_event_attr_check()).  Process context.
 *
 * Return: the event, to be freed with pp_event_free(); ERR_PTR() of
 * -EINVAL (a name too long), -ENOMEM, or the scope's errno.
 */
struct pp_event *pp_event_alloc(const struct pp_event_spec *spec, u64 size)
{
	struct pp_event *ev;
	int ret;

	ev = pp_event_new(spec->name, &spec->attr, size);
	if (IS_ERR(ev))
		return ev;
	ev->crash_dump = spec->crash_dump;
	ev->kept = spec->keep;
	ret = pp_scope_resolve(&ev->scope, spec->scope, spec->target,
			       spec->cgroup_path);
	if (!ret)
		ret = pp_scope_attr_check(&ev->scope, &ev->attr);
	if (ret)
		goto err_free;
	return ev;

err_free:
	pp_event_free(ev);
	return ERR_PTR(ret);
}

/**
 * pp_event_alloc_previous - a previous boot's event, without an id
 * @fe: what was found of it (previous.c)
 *
 * The event takes @fe's buffers and format text, and @fe itself, which it
 * frees.  It has no counter, probe or hotplug instance: it is never
 * started, records nothing, and stays paused.  Process context.
 *
 * Return: the event, or ERR_PTR(-ENOMEM); @fe is freed then.
 */
struct pp_event *pp_event_alloc_previous(struct pp_found_event *fe)
{
	struct pp_event *ev;
	unsigned int i;

	ev = pp_event_new(fe->name, &fe->attr, fe->buffer_size);
	if (IS_ERR(ev)) {
		pp_found_event_free(fe);
		return ev;
	}
	ev->entry.previous = true;
	ev->prev = fe;
	ev->paused = true;
	ev->format = fe->format;
	fe->format = NULL;
	strscpy(ev->tp_name, fe->tp_name, sizeof(ev->tp_name));
	pp_record_fmt_init(&ev->fmt, ev->attr.sample_type, fe->id);
	for (i = 0; i < fe->nr; i++) {
		struct pp_found_cpu *fc = &fe->cpus[i];

		if (!fc->buf)
			continue;
		per_cpu_ptr(ev->cpus, fc->cpu)->buf = fc->buf;
		fc->buf = NULL;
	}
	return ev;
}

/* Call @fn for each listed event, or each flagged for crash dumps. */
static void pp_events_walk_rcu(pp_event_fn fn, bool crash_dump_only)
{
	struct pp_entry *entry;
	unsigned long id;

	rcu_read_lock();
	xa_for_each(&pp_registry.entries, id, entry) {
		struct pp_event *ev = container_of(entry, struct pp_event, entry);

		if (READ_ONCE(entry->listed) &&
		    (ev->crash_dump || !crash_dump_only))
			fn(ev);
	}
	rcu_read_unlock();
}

/**
 * pp_events_walk_crash_dump - call @fn for each listed event flagged
 *	for crash dumps
 * @fn: called with the event
 *
 * Any context, the crashing CPU included.  It takes no lock, only the
 * registry's RCU read side: the other CPUs may be stopped or still
 * running, and an event found is not freed before the grace period ends.
 */
void pp_events_walk_crash_dump(pp_event_fn fn)
{
	pp_events_walk_rcu(fn, true);
}

/**
 * pp_events_walk_listed - call @fn for each listed event
 * @fn: called with the event
 *
 * As pp_events_walk_crash_dump(), any context.
 */
void pp_events_walk_listed(pp_event_fn fn)
{
	pp_events_walk_rcu(fn, false);
}

/**
 * pp_event_get - a reference on listed event @id, for a reader
 * @id: the id
 *
 * Any context that may take an RCU read lock.
 *
 * Return: the event, or NULL if no listed event has that id.
 */
struct pp_event *pp_event_get(u32 id)
{
	struct pp_entry *entry = pp_registry_get(&pp_registry, id);

	return entry ? container_of(entry, struct pp_event, entry) : NULL;
}

/* Drop a reader's reference; process context. */
void pp_event_put(struct pp_event *ev)
{
	pp_entry_put(&ev->entry);
}

/*
 * Destroyed events whose writers may still be running, and the work that
 * waits for them once for all, then drops their triggers and owner
 * references.  A DESTROY returns when its event is halted; a thousand of
 * them wait for one or two grace periods in all, not a thousand.
 */
static LLIST_HEAD(pp_stopping);

static void pp_stopping_fn(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&pp_stopping);
	struct pp_event *ev, *tmp;
	bool direct = false;

	if (!list)
		return;
	llist_for_each_entry(ev, list, stopping)
		direct |= !!ev->direct;
	pp_events_wait_writers(direct);
	/* All triggers first: one may hold the last reference of another. */
	llist_for_each_entry(ev, list, stopping)
		pp_event_drop_trigger(ev);
	llist_for_each_entry_safe(ev, tmp, list, stopping)
		pp_entry_put(&ev->entry);
}

static DECLARE_WORK(pp_stopping_work, pp_stopping_fn);

/**
 * pp_event_destroy - stop an unlisted event, and drop its owner reference later
 * @ev: the event, unlisted, its sysfs files removed
 *
 * On return nothing records into @ev any more once the handlers already
 * running finish: its probe, its counters and its hotplug instance are
 * gone.  The wait for those handlers, and what follows it, is left to
 * pp_stopping_work, shared with the other events destroyed meanwhile.
 * Process context, registry lock not held.
 */
void pp_event_destroy(struct pp_event *ev)
{
	pp_event_halt(ev);
	llist_add(&ev->stopping, &pp_stopping);
	queue_work(pp_system_dfl_wq, &pp_stopping_work);
}

/**
 * pp_events_reap - finish the destroyed events still waiting for their writers
 *
 * Their buffers go back to the memory limit and the region.  A creation
 * that found no room calls this and tries again; the module's exit calls
 * it after destroying the events left.  Process context, registry lock
 * not held.
 */
void pp_events_reap(void)
{
	flush_work(&pp_stopping_work);
}

/*
 * Stop a list of unlisted events and drop their owner references, with
 * one grace period for all: a file owning a thousand events is closed in a
 * moment, not in a thousand grace periods.  Process context, registry lock
 * not held.
 */
void pp_events_stop_put(struct list_head *list)
{
	struct pp_entry *entry, *tmp;
	bool direct = false;

	if (list_empty(list))
		return;
	list_for_each_entry(entry, list, node) {
		struct pp_event *ev = container_of(entry, struct pp_event, entry);

		direct |= !!ev->direct;
		pp_event_halt(ev);
	}
	pp_events_wait_writers(direct);
	/* All triggers first: one may hold the last reference of another. */
	list_for_each_entry(entry, list, node)
		pp_event_drop_trigger(container_of(entry, struct pp_event, entry));
	list_for_each_entry_safe(entry, tmp, list, node) {
		list_del(&entry->node);
		pp_entry_put(entry);
	}
}

/* PERF_PERSISTENT_STATE_* of @ev as seen from @file, or from nobody if NULL. */
u32 pp_event_state(const struct pp_event *ev, const void *file)
{
	u32 state = 0;

	if (READ_ONCE(ev->entry.owner) == PP_OWNER_FILE) {
		state |= PERF_PERSISTENT_STATE_ATTACHED;
		if (file && READ_ONCE(ev->entry.owner_file) == file)
			state |= PERF_PERSISTENT_STATE_OWNED;
	}
	if (READ_ONCE(ev->paused))
		state |= PERF_PERSISTENT_STATE_PAUSED;
	if (!pp_freeze_stores(&ev->freeze))
		state |= PERF_PERSISTENT_STATE_FROZEN;
	if (rcu_access_pointer(ev->trigger))
		state |= PERF_PERSISTENT_STATE_TRIGGER;
	if (ev->crash_dump)
		state |= PERF_PERSISTENT_STATE_CRASH_DUMP;
	if (ev->direct)
		state |= PERF_PERSISTENT_STATE_DIRECT;
	if (pp_scope_exited(&ev->scope))
		state |= PERF_PERSISTENT_STATE_EXITED;
	if (ev->kept)
		state |= PERF_PERSISTENT_STATE_KEPT;
	if (ev->prev)
		state |= PERF_PERSISTENT_STATE_PREVIOUS;
	return state;
}

/**
 * pp_event_set_paused - stop or restart recording into @ev's buffers
 * @ev: a listed event
 * @paused: true to pause
 *
 * Records being written may still complete: after a pause the caller
 * waits for them (pp_events_wait_writers()).  Process context, registry
 * lock held (ops.c), which keeps @ev listed.
 */
void pp_event_set_paused(struct pp_event *ev, bool paused)
{
	unsigned int cpu;

	lockdep_assert_held(&pp_registry.lock);
	/* The sync work may be giving a new CPU a buffer meanwhile. */
	mutex_lock(&ev->sync_lock);
	WRITE_ONCE(ev->paused, paused);
	for_each_possible_cpu(cpu) {
		struct pp_buffer *buf = per_cpu_ptr(ev->cpus, cpu)->buf;

		if (buf)
			pp_buffer_set_paused(buf, paused);
	}
	mutex_unlock(&ev->sync_lock);
}

/**
 * pp_event_cpu_stats - an event's count and its per-CPU statistics
 * @ev: the event, a reference held
 * @stats: out: statistics of the CPUs that have a buffer, in CPU order
 * @nr: capacity of @stats
 * @count: out: the source's count, summed over CPUs or task counters
 *
 * Process context; takes sync_lock, under which counters and buffers
 * change.
 *
 * Return: the number of CPUs that have a buffer, which may exceed @nr.
 */
unsigned int pp_event_cpu_stats(struct pp_event *ev,
				struct perf_persistent_cpu_stats *stats,
				unsigned int nr, u64 *count)
{
	unsigned int cpu, n = 0;
	u64 total = 0;

	mutex_lock(&ev->sync_lock);
	for_each_possible_cpu(cpu) {
		struct pp_cpu *pc = per_cpu_ptr(ev->cpus, cpu);
		struct perf_persistent_cpu_stats *cs;
		struct pp_buffer_stats st;
		u64 enabled, running, cpu_count;

		if (!pc->buf)
			continue;
		cpu_count = pc->count_base + local64_read(&pc->hits);
		if (pc->counter)
			cpu_count += perf_event_read_value(pc->counter, &enabled,
							   &running);
		total += cpu_count;
		if (n++ >= nr)
			continue;
		cs = &stats[n - 1];
		pp_buffer_stats(pc->buf, &st);
		cs->cpu = cpu;
		/* It records here through a counter, the probe or the tasks. */
		cs->online = READ_ONCE(pc->online) &&
			     (pc->counter || READ_ONCE(ev->dx.tp) ||
			      !pp_event_cpu_counters(ev));
		cs->written = st.written;
		cs->overwritten = st.overwritten;
		cs->dropped = st.dropped;
		cs->bytes = st.bytes;
		cs->head = st.head;
		cs->tail = st.tail;
		cs->count = cpu_count;
	}
	/* A task counter counts wherever its task runs, so in the total only. */
	if (ev->scope.kind == PERF_PERSISTENT_SCOPE_TASK)
		total = pp_scope_task_count(&ev->scope);
	mutex_unlock(&ev->sync_lock);
	*count = total;
	return n;
}

/* Statistics summed over the CPUs; any process context, no lock. */
void pp_event_sum_stats(struct pp_event *ev, struct pp_buffer_stats *sum)
{
	struct pp_buffer_stats st;
	unsigned int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct pp_buffer *buf = pp_cpu_buf(per_cpu_ptr(ev->cpus, cpu));

		if (!buf)
			continue;
		pp_buffer_stats(buf, &st);
		sum->written += st.written;
		sum->overwritten += st.overwritten;
		sum->dropped += st.dropped;
		sum->bytes += st.bytes;
	}
	/* A task's records on a CPU that had no buffer yet. */
	sum->dropped += atomic_long_read(&ev->no_buffer);
}

/* A per-CPU statistic summed over the CPUs; any context, a snapshot. */
static unsigned long sum_cpus(struct pp_event *ev,
			      unsigned long (*get)(struct pp_cpu *pc))
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += get(per_cpu_ptr(ev->cpus, cpu));
	return sum;
}

static unsigned long cpu_nr_readers(struct pp_cpu *pc)
{
	return READ_ONCE(pc->rd.nr_readers);
}

static unsigned long cpu_lost(struct pp_cpu *pc)
{
	return READ_ONCE(pc->rd.lost);
}

/*
 * Readers scheduled in now, summed over the CPUs (perf -a opens one per
 * CPU; one taken out by the perf core is not counted until it is back).
 * Any process context, no lock: a snapshot.
 */
unsigned int pp_event_nr_readers(struct pp_event *ev)
{
	return sum_cpus(ev, cpu_nr_readers);
}

static unsigned long cpu_backlog(struct pp_cpu *pc)
{
	return pp_reader_backlog(&pc->rd);
}

/* Bytes its readers lack, summed over the CPUs (pp_reader_backlog()). */
unsigned long pp_event_backlog(struct pp_event *ev)
{
	return sum_cpus(ev, cpu_backlog);
}

/* Bytes of records overwritten before its readers received them. */
unsigned long pp_event_reader_lost(struct pp_event *ev)
{
	return sum_cpus(ev, cpu_lost);
}

/* Module init, process context. */
int pp_events_init(void)
{
	int ret;

	pp_registry_init(&pp_registry);
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/persistent:online",
				      pp_cpu_online, pp_cpu_offline);
	if (ret < 0) {
		pp_registry_destroy(&pp_registry);
		return ret;
	}
	pp_cpuhp_state = ret;
	return 0;
}

/* Module exit, after pp_ops_destroy_all() and the PMU's unregistration. */
void pp_events_exit(void)
{
	cpuhp_remove_multi_state(pp_cpuhp_state);
	pp_registry_destroy(&pp_registry);
}
