/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct path: a persistent event on one of the tracepoints the module
 * has an encoder for registers its own probe on the tracepoint and writes
 * each hit's record straight into its buffer, in the layout perf's path
 * gives (PERF_RECORD_SAMPLE, the RAW payload byte for byte), without perf's
 * tracepoint glue, kernel counter or scratch copy.  The encoders are
 * generated from the kernel's own TRACE_EVENT() definitions
 * (module/direct_stages.h, module/direct_events.c).
 *
 * Contexts: the probes run wherever the tracepoint fires, in any context
 * up to NMI.  They record with preemption disabled: up to 6.x the
 * tracepoint disables it around its probes; from 7.0 (and for the syscall
 * tracepoints from 6.13) it calls them preemptible, under SRCU, and the
 * probe disables preemption itself for the whole record
 * (pp_direct_desc.preemptible).
 * They take no lock, allocate nothing and do bounded work.  Registration
 * runs in process context and may take cpus_read_lock(), so it never runs
 * from a CPU-hotplug callback.
 */
#ifndef _PERF_PERSISTENT_DIRECT_H
#define _PERF_PERSISTENT_DIRECT_H

#include <linux/cgroup.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/trace_events.h>
#include <linux/types.h>

#include "compat.h"
#include "record.h"

struct tracepoint;

/**
 * struct pp_direct_field - one field of a generated payload struct
 * @name: its name, as the event's format names it
 * @offset: its offset in the payload
 * @size: its size; for a dynamic field, the size of its u32 location
 */
struct pp_direct_field {
	const char	*name;
	unsigned int	offset;
	unsigned int	size;
};

/**
 * struct pp_direct_desc - an encoder, generated for one tracepoint
 * @system: the tracepoint's trace system, e.g. "sched"
 * @name: its name, e.g. "sched_switch"
 * @probe: the probe to register on it for an event without a scope; its
 *	data is the event
 * @hub_probe: the probe to register on it for the cgroup-scoped events;
 *	its data is their hub (struct pp_direct_hub)
 * @one: writes one record into an event as its probe would, for a call
 *	that the tracepoint did not make: (void *event, unsigned long ip,
 *	int origin, the tracepoint's arguments).  A negative @origin
 *	(PERF_PERSISTENT_ORIGIN_*) replaces the payload's common_pid.  Any
 *	context, preemption disabled; only a task for a @single encoder
 * @single: the tracepoint fires only in a task (the syscall ones), so an
 *	event's writers on a CPU never nest and its records take the
 *	single-writer reservation (pp_buffer_reserve_single())
 * @fields: returns the payload's fields as generated, and their number in
 *	*@nr
 * @raw_size: size of the fixed part of its payload (struct trace_entry
 *	and the fields, before any dynamic data)
 * @preemptible: the tracepoint calls its probes with preemption enabled
 *	(every one from 7.0; a syscall one, which may fault, from 6.13):
 *	the probes disable it for the record
 */
struct pp_direct_state;

struct pp_direct_desc {
	const char	*system;
	const char	*name;
	void		*probe;
	void		*hub_probe;
	void		*one;
	const struct pp_direct_field *(*fields)(unsigned int *nr);
	unsigned int	raw_size;
	bool		preemptible;
	bool		single;
	struct pp_direct_state *state;
};

/* The generated encoders and the lookup among them (direct_events.c). */
extern const struct pp_direct_desc *const pp_direct_descs[];
extern const unsigned int pp_direct_nr_descs;
const struct pp_direct_desc *pp_direct_find(const char *system,
					    const char *name);

int pp_direct_init(void);
void pp_direct_exit(void);
int pp_direct_layout_check(const struct pp_direct_desc *d,
			   const struct trace_event_fields *kernel,
			   char *why, size_t len);
bool pp_direct_attr_ok(const struct perf_event_attr *attr);

/**
 * struct pp_direct_ev - an event's part of the direct path, embedded in
 *	struct pp_event (event.h) as @dx; direct.c reads nothing else of it
 * @desc: its encoder
 * @data: the probe's data, the event itself (opaque here)
 * @cgrp: the cgroup of a cgroup-scoped event, which records through its
 *	tracepoint's hub; NULL for one that has its own probe
 * @tp_name: the tracepoint's name, for the log
 * @tp: the tracepoint its probe is registered on, or NULL.  INFO's
 *	statistics read it without a lock
 * @hub_node: a cgroup-scoped event's place in its tracepoint's hub
 *
 * The event's layer fills @desc, @data, @cgrp and @tp_name before
 * pp_direct_register(); the rest is direct.c's.
 */
struct pp_direct_ev {
	const struct pp_direct_desc	*desc;
	void				*data;
	struct cgroup			*cgrp;
	const char			*tp_name;
	struct tracepoint		*tp;
	struct hlist_node		hub_node;
};

int pp_direct_register(struct pp_direct_ev *dx);
void pp_direct_unregister(struct pp_direct_ev *dx);
void pp_direct_sync(void);
struct pp_direct_hub;
void pp_direct_hub_insert(struct pp_direct_hub *hub, struct pp_direct_ev *dx);
void pp_direct_hub_remove(struct pp_direct_hub *hub, struct pp_direct_ev *dx);

/*
 * Buckets of a hub's table.  An event goes in the bucket of its cgroup's
 * id modulo their number: ids are handed out in order as cgroups are
 * made, so a thousand containers made one after another have a bucket
 * each.
 */
#define PP_DIRECT_HUB_BITS	10
/* Depths of cgroups the hub tells apart; deeper ones share the last. */
#define PP_DIRECT_HUB_LEVELS	BITS_PER_LONG

/**
 * struct pp_direct_hub - the cgroup-scoped events of one tracepoint
 * @levels: bit L is set while an event is scoped to a cgroup at depth L
 *	(the last bit: at that depth or deeper); read by the probe
 * @per_level: how many events are scoped at each depth
 * @nr: how many events are in @scoped
 * @scoped: the events, in the bucket of their cgroup's id
 *	(pp_direct_hub_slot(); struct pp_direct_ev.hub_node)
 *
 * One probe for all of them: on each hit it looks up the running task's
 * cgroup and those of its ancestors at the depths in @levels, so a hit
 * costs the same with one scoped event or a thousand.  Changed under
 * pp_direct_hub_lock (direct.c); the probe reads it under the
 * tracepoint's RCU.  A hub lives until the module's exit, its probe
 * registered while it has events.
 */
struct pp_direct_hub {
	unsigned long		levels;
	unsigned int		per_level[PP_DIRECT_HUB_LEVELS];
	unsigned int		nr;
	struct hlist_head	scoped[1 << PP_DIRECT_HUB_BITS];
	struct list_head	node;
	struct pp_direct_state	*state;
};

/**
 * struct pp_direct_state - what direct.c keeps of an encoder, which the
 *	generated code gives each one (direct_stages.h)
 * @tp: its tracepoint, once found: the walk of every tracepoint by name is
 *	done once, not per event.  Built in, it never goes away; racing
 *	creations write the same value
 * @hub: its hub of cgroup-scoped events, made at its first such event and
 *	kept until the module's exit, under pp_direct_hub_lock
 */
struct pp_direct_state {
	struct tracepoint	*tp;
	struct pp_direct_hub	*hub;
};

/* The bucket of @hub for the events scoped to @cgrp. */
static __always_inline struct hlist_head *
pp_direct_hub_slot(struct pp_direct_hub *hub, const struct cgroup *cgrp)
{
	return &hub->scoped[cgroup_id(cgrp) & ((1 << PP_DIRECT_HUB_BITS) - 1)];
}

/*
 * The per-CPU scratch areas of the generated probes (direct_rec.h).
 *
 * A payload larger than this is dropped, as perf drops one larger than
 * PERF_MAX_TRACE_SIZE.  A record that wraps round the end of its buffer,
 * or that keeps no RAW field, is assembled whole in a per-CPU scratch
 * area (one per context level: task, softirq, hardirq, NMI) and copied in
 * at the end; PP_DIRECT_SCRATCH is its size.
 */
#define PP_DIRECT_PAYLOAD_MAX	PERF_MAX_TRACE_SIZE
#define PP_DIRECT_SCRATCH	ALIGN(PP_RECORD_FIXED_MAX + sizeof(u32) + \
				      PP_DIRECT_PAYLOAD_MAX, L1_CACHE_BYTES)
#define PP_DIRECT_LEVELS	4

DECLARE_PER_CPU(void *, pp_direct_scratch[PP_DIRECT_LEVELS]);

/* The fields the tool records by default: their record is straight-line code. */
#define PP_DIRECT_FIELDS						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	\
	 PERF_SAMPLE_RAW)

/* The header and the fixed fields of PP_DIRECT_FIELDS: all but RAW. */
#define PP_DIRECT_FIXED_SIZE	(sizeof(struct perf_event_header) + 6 * sizeof(u64))

#endif /* _PERF_PERSISTENT_DIRECT_H */
