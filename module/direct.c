// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the direct path's runtime (direct.h)
 *
 * This file decides which sources may take the direct path and whether an
 * encoder matches the running kernel.  It registers and unregisters an
 * event's probe on its tracepoint, and owns the scratch areas that a
 * record wrapping round the end of its buffer is assembled in.  The
 * encoders and the table to find them in belong to direct_events.c; this
 * file does not know them.
 *
 * A persistent event on a covered tracepoint registers its own probe, with
 * the event as the probe's data, so each event encodes its hits into its
 * own buffer.  The cgroup-scoped events of a tracepoint share one probe,
 * whose data is their hub: it finds the events whose cgroup holds the
 * running task by hashing that cgroup and its ancestors, so that a
 * thousand containers, each with its own recorder on a tracepoint, cost a
 * hit what one does.  None of the tracepoints is exported, so they are
 * found by name with for_each_kernel_tracepoint().  All the covered ones
 * are built into the kernel, so none goes away while a probe is
 * registered.
 *
 * Contexts: the probes (generated, direct_events.c) run in any context up
 * to NMI; the rest is process context.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "direct.h"

DEFINE_PER_CPU(void *, pp_direct_scratch[PP_DIRECT_LEVELS]);

/*
 * The hubs made (struct pp_direct_state.hub), freed at the module's exit.
 * The lock serialises the changes of every hub, with the registration and
 * unregistration of its probe; it nests inside an event's sync_lock and
 * outside the tracepoints' mutex (the lock order at the top of event.c).
 */
static LIST_HEAD(pp_direct_hub_list);
static DEFINE_MUTEX(pp_direct_hub_lock);

/* Depth of a cgroup in a hub's levels. */
static unsigned int pp_direct_hub_level(const struct cgroup *cgrp)
{
	return min(cgrp->level, PP_DIRECT_HUB_LEVELS - 1);
}

/**
 * pp_direct_hub_insert - add a cgroup-scoped event to a hub's table
 * @hub: the hub
 * @dx: the event's part of the direct path, its @cgrp set
 *
 * Probes may be reading the table.  Process context, under
 * pp_direct_hub_lock (or, in a test, with no probe).
 */
void pp_direct_hub_insert(struct pp_direct_hub *hub, struct pp_direct_ev *dx)
{
	unsigned int level = pp_direct_hub_level(dx->cgrp);

	hub->nr++;
	hub->per_level[level]++;
	WRITE_ONCE(hub->levels, hub->levels | BIT(level));
	hlist_add_head_rcu(&dx->hub_node, pp_direct_hub_slot(hub, dx->cgrp));
}

/**
 * pp_direct_hub_remove - take a cgroup-scoped event out of a hub's table
 * @hub: the hub
 * @dx: the event's part of the direct path
 *
 * Probes may still be looking at the event until pp_direct_sync() returns.
 * Process context, under pp_direct_hub_lock (or, in a test, with no probe).
 */
void pp_direct_hub_remove(struct pp_direct_hub *hub, struct pp_direct_ev *dx)
{
	unsigned int level = pp_direct_hub_level(dx->cgrp);

	hlist_del_rcu(&dx->hub_node);
	hub->nr--;
	if (!--hub->per_level[level])
		WRITE_ONCE(hub->levels, hub->levels & ~BIT(level));
}

/*
 * Put a cgroup-scoped event into its encoder's hub, and register the
 * hub's probe on @tp if it is the hub's first event.  Process context.
 */
static int pp_direct_hub_add(struct pp_direct_ev *dx, struct tracepoint *tp)
{
	struct pp_direct_state *state = dx->desc->state;
	struct pp_direct_hub *hub;
	int ret = 0;

	mutex_lock(&pp_direct_hub_lock);
	hub = state->hub;
	if (!hub) {
		hub = kzalloc(sizeof(*hub), GFP_KERNEL);
		if (!hub) {
			ret = -ENOMEM;
			goto unlock;
		}
		hub->state = state;
		list_add(&hub->node, &pp_direct_hub_list);
		state->hub = hub;
	}
	if (!hub->nr) {
		ret = tracepoint_probe_register(tp, dx->desc->hub_probe, hub);
		if (ret)
			goto unlock;
	}
	pp_direct_hub_insert(hub, dx);
unlock:
	mutex_unlock(&pp_direct_hub_lock);
	return ret;
}

/*
 * Take a cgroup-scoped event out of its hub, and unregister the hub's
 * probe if it was the last.  The probe may still be looking at the event
 * until pp_direct_sync() returns.  Process context.
 */
static void pp_direct_hub_del(struct pp_direct_ev *dx)
{
	struct pp_direct_hub *hub;

	mutex_lock(&pp_direct_hub_lock);
	hub = dx->desc->state->hub;
	pp_direct_hub_remove(hub, dx);
	if (!hub->nr)
		WARN_ON_ONCE(tracepoint_probe_unregister(dx->tp,
							 dx->desc->hub_probe,
							 hub));
	mutex_unlock(&pp_direct_hub_lock);
}

/**
 * pp_direct_layout_check - is an encoder's payload the kernel's?
 * @d: the encoder
 * @kernel: the event's fields as the running kernel defines them
 *	(trace_event_class::fields_array)
 * @why: out: what differs, for the log
 * @len: size of @why
 *
 * The encoders are generated from the headers the module was built
 * against; the running kernel lays out each event from its own
 * definition, field after field, each at its alignment after the header
 * (event_define_fields()).  Both must agree on every field's name, offset
 * and size before the direct path records the event.
 *
 * Return: 0, or -EPROTO when they differ.
 */
int pp_direct_layout_check(const struct pp_direct_desc *d,
			   const struct trace_event_fields *kernel,
			   char *why, size_t len)
{
	unsigned int offset = sizeof(struct trace_entry), nr, i = 0;
	const struct pp_direct_field *f = d->fields(&nr);

	for (; kernel && kernel->type; kernel++, i++) {
		if (kernel->type == TRACE_FUNCTION_TYPE) {
			snprintf(why, len, "fields defined by code");
			return -EPROTO;
		}
		offset = ALIGN(offset, kernel->align);
		if (i >= nr || strcmp(f[i].name, kernel->name) ||
		    f[i].offset != offset || f[i].size != kernel->size) {
			snprintf(why, len,
				 "field %u: the kernel's %s at %u, %d bytes; the encoder's %s at %u, %u bytes",
				 i, kernel->name, offset, kernel->size,
				 i < nr ? f[i].name : "(none)",
				 i < nr ? f[i].offset : 0, i < nr ? f[i].size : 0);
			return -EPROTO;
		}
		offset += kernel->size;
	}
	if (i != nr || !kernel) {
		snprintf(why, len, "the encoder has %u fields, the kernel %u", nr,
			 i);
		return -EPROTO;
	}
	return 0;
}

/**
 * pp_direct_attr_ok - would perf record every hit of this source?
 * @attr: a tracepoint source's attr
 *
 * The direct path records every hit, as perf does for a tracepoint counter
 * with a period of 1, or with PERIOD in its sample_type and no frequency
 * (perf_swevent_event()).  A source that samples every Nth hit, or that
 * excludes the kernel (which for a tracepoint excludes every hit,
 * perf_tp_event_match()), keeps perf's path, and so does one whose
 * records carry call chains (the probe's writer has none).
 */
bool pp_direct_attr_ok(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_TRACEPOINT && !attr->freq &&
	       !(attr->sample_type & (PERF_SAMPLE_CALLCHAIN |
				      PERF_SAMPLE_REGS_USER |
				      PERF_SAMPLE_STACK_USER)) &&
	       attr->sample_period &&
	       (attr->sample_period == 1 ||
		(attr->sample_type & PERF_SAMPLE_PERIOD)) &&
	       !attr->exclude_kernel;
}

struct pp_tp_lookup {
	const char		*name;
	struct tracepoint	*tp;
};

static void pp_tp_match(struct tracepoint *tp, void *priv)
{
	struct pp_tp_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->tp = tp;
}

/**
 * pp_direct_register - start recording an event through its probe
 * @dx: the event's part of the direct path, @desc, @data, @cgrp and
 *	@tp_name set; the event's buffers allocated
 *
 * An event without a scope gets its own probe, whose data is @dx->data; a
 * cgroup-scoped one joins its tracepoint's hub.  Process context; takes
 * pp_direct_hub_lock, the tracepoints' mutex and cpus_read_lock().
 *
 * A tracepoint that may fault calls its probes preemptible: its encoder
 * must have been generated for that (from the same headers, it is), or
 * its records could be written from another CPU than their buffer's.
 *
 * Return: 0, -ENOENT if the kernel has no such tracepoint, -EPROTO if it
 * may fault and its encoder's probe does not disable preemption, -ENOMEM,
 * or the error of tracepoint_probe_register().
 */
int pp_direct_register(struct pp_direct_ev *dx)
{
	struct pp_tp_lookup l = { .name = dx->desc->name };
	struct pp_direct_state *state = dx->desc->state;
	int ret;

	l.tp = READ_ONCE(state->tp);
	if (!l.tp) {
		for_each_kernel_tracepoint(pp_tp_match, &l);
		if (!l.tp)
			return -ENOENT;
		WRITE_ONCE(state->tp, l.tp);
	}
	if (pp_tracepoint_faultable(l.tp) && !dx->desc->preemptible) {
		pr_warn_once("%s: perf's path, the tracepoint may fault and its encoder expects preemption off\n",
			     dx->tp_name);
		return -EPROTO;
	}
	if (dx->cgrp)
		ret = pp_direct_hub_add(dx, l.tp);
	else
		ret = tracepoint_probe_register(l.tp, dx->desc->probe,
						dx->data);
	if (ret)
		return ret;
	WRITE_ONCE(dx->tp, l.tp);
	return 0;
}

/**
 * pp_direct_unregister - stop recording an event through its probe
 * @dx: the event's part of the direct path
 *
 * Process context.  Probes may still be running on other CPUs until
 * pp_direct_sync() returns.
 */
void pp_direct_unregister(struct pp_direct_ev *dx)
{
	if (!dx->tp)
		return;
	if (dx->cgrp)
		pp_direct_hub_del(dx);
	else
		WARN_ON_ONCE(tracepoint_probe_unregister(dx->tp,
							 dx->desc->probe,
							 dx->data));
	/* INFO's statistics read it without the caller's locks. */
	WRITE_ONCE(dx->tp, NULL);
}

/* Wait for the probes unregistered so far to finish.  Process context. */
void pp_direct_sync(void)
{
	tracepoint_synchronize_unregister();
}

/*
 * Module init: allocate each CPU's scratch, one per context level, in one
 * area per CPU (a record and its payload take a little more than the 8 KiB
 * that kmalloc() serves from its caches).
 */
int pp_direct_init(void)
{
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		void *p = vmalloc_node(PP_DIRECT_LEVELS * PP_DIRECT_SCRATCH,
				       cpu_to_node(cpu));

		if (!p) {
			pp_direct_exit();
			return -ENOMEM;
		}
		for (i = 0; i < PP_DIRECT_LEVELS; i++)
			per_cpu(pp_direct_scratch[i], cpu) = p + i * PP_DIRECT_SCRATCH;
	}
	return 0;
}

/* Module exit, or init failing: no probe is registered. */
void pp_direct_exit(void)
{
	struct pp_direct_hub *hub, *next;
	unsigned int cpu, i;

	for_each_possible_cpu(cpu) {
		vfree(per_cpu(pp_direct_scratch[0], cpu));
		for (i = 0; i < PP_DIRECT_LEVELS; i++)
			per_cpu(pp_direct_scratch[i], cpu) = NULL;
	}
	/* No event is left, so no hub's probe is registered. */
	mutex_lock(&pp_direct_hub_lock);
	list_for_each_entry_safe(hub, next, &pp_direct_hub_list, node) {
		hub->state->hub = NULL;
		list_del(&hub->node);
		kfree(hub);
	}
	mutex_unlock(&pp_direct_hub_lock);
}
