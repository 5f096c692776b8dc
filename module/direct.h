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
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/trace_events.h>
#include <linux/types.h>

#include "buffer.h"
#include "compat.h"
#include "event.h"
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
int pp_direct_register(struct pp_event *ev);
void pp_direct_unregister(struct pp_event *ev);
void pp_direct_sync(void);
struct pp_direct_hub;
void pp_direct_hub_insert(struct pp_direct_hub *hub, struct pp_event *ev);
void pp_direct_hub_remove(struct pp_direct_hub *hub, struct pp_event *ev);

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
 *	(pp_direct_hub_slot(); struct pp_event.hub_node)
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
 * The rest is for the generated probes only.
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

/**
 * struct pp_direct_rec - one record under construction
 * @ev: the persistent event
 * @pc: the event on this CPU
 * @buf: its buffer
 * @start: where the record is assembled: in the buffer, or in scratch
 * @pos: the record's logical position
 * @size: the record's size
 * @wrapped: @start is scratch, copied into the buffer at the end
 * @single: the event's writers never nest (pp_buffer_reserve_single())
 * @entry: the payload, in the record (or after it, without RAW)
 * @entry_size: the payload's size (after its u32 size field)
 *
 * Only the generated probe and the inline helpers below take its address,
 * so its fields live in registers.
 */
struct pp_direct_rec {
	struct pp_event		*ev;
	struct pp_cpu		*pc;
	struct pp_buffer	*buf;
	void			*start;
	unsigned long		pos;
	unsigned int		size;
	bool			wrapped;
	bool			single;
	void			*entry;
	u32			entry_size;
};

/*
 * Fill struct trace_entry as tracing_generic_entry_update(tracing_gen_ctx())
 * fills it for perf's path (perf_trace_buf_update()).  Neither is exported,
 * so this repeats the computation, from the same headers.  Any context.
 */
static __always_inline void pp_direct_trace_entry(struct trace_entry *ent,
						  unsigned short type)
{
	unsigned int pc, sc, flags = 0, migr = 0;
	unsigned long irqflags;
	bool preempt_resched;

	pc = preempt_count();
	preempt_resched = test_preempt_need_resched();
#ifdef CONFIG_PREEMPT_RT
	sc = softirq_count();
#else
	sc = pc & SOFTIRQ_MASK;
#endif
	local_save_flags(irqflags);
	if (irqs_disabled_flags(irqflags))
		flags |= TRACE_FLAG_IRQS_OFF;
	/* In a task, bottom halves on: the counts add no flag. */
	if (unlikely((pc & (NMI_MASK | HARDIRQ_MASK)) | sc)) {
		if (pc & NMI_MASK)
			flags |= TRACE_FLAG_NMI;
		if (pc & HARDIRQ_MASK)
			flags |= TRACE_FLAG_HARDIRQ;
		/* in_serving_softirq() */
		if (sc & SOFTIRQ_OFFSET)
			flags |= TRACE_FLAG_SOFTIRQ;
		if (sc >> (SOFTIRQ_SHIFT + 1))
			flags |= TRACE_FLAG_BH_OFF;
	}
	if (tif_need_resched())
		flags |= TRACE_FLAG_NEED_RESCHED;
#ifdef CONFIG_ARCH_HAS_PREEMPT_LAZY
	/* PREEMPT_RT 6.12 records the lazy request too (0x02 there). */
	if (tif_test_bit(TIF_NEED_RESCHED_LAZY))
		flags |= TRACE_FLAG_NEED_RESCHED_LAZY;
#endif
	if (preempt_resched)
		flags |= TRACE_FLAG_PREEMPT_RESCHED;
#ifdef CONFIG_SMP
	migr = current->migration_disabled;
#endif
	ent->type = type;
	ent->flags = flags;
	ent->preempt_count = min(pc & 0xff, 0xfU) | min(migr, 0xfU) << 4;
	ent->pid = current->pid;
}

/* The fields the tool records by default: their record is straight-line code. */
#define PP_DIRECT_FIELDS						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	\
	 PERF_SAMPLE_RAW)

/* The header and the fixed fields of PP_DIRECT_FIELDS: all but RAW. */
#define PP_DIRECT_FIXED_SIZE	(sizeof(struct perf_event_header) + 6 * sizeof(u64))

/*
 * pp_direct_begin() once the hit is to be recorded, for records of
 * @type, whose header and fixed fields take @fixed bytes.  A constant
 * @type makes the record's layout, and often its size, constants.
 */
static __always_inline void *pp_direct_begin_as(struct pp_event *ev,
						struct pp_cpu *pc,
						struct pp_buffer *buf,
						struct pp_direct_rec *rec,
						u32 entry_size,
						unsigned int raw_size,
						unsigned int data_off,
						bool holes,
						unsigned long ip,
						bool single,
						u64 type,
						unsigned int fixed)
{
	void *dst, *entry;
	u64 time;

	rec->ev = ev;
	rec->pc = pc;
	rec->buf = buf;
	rec->single = single;
	rec->size = fixed;
	if (type & PERF_SAMPLE_RAW)
		rec->size += sizeof(u32) + entry_size;
	rec->entry_size = entry_size;
	if (single ? pp_buffer_reserve_single(buf, rec->size, &rec->pos) :
		     pp_buffer_reserve(buf, rec->size, &rec->pos))
		return NULL;
	/*
	 * Read after the reservation, so records are in time order from the
	 * head, but for an interrupt's record reserved between the two: it
	 * holds the newer place and the older time (as in perf's buffer,
	 * whose writers read the clock before they reserve).
	 */
	time = type & PERF_SAMPLE_TIME ? local_clock() : 0;

	dst = pp_buffer_ptr(buf, rec->pos, rec->size);
	rec->wrapped = !dst || !(type & PERF_SAMPLE_RAW);
	if (unlikely(rec->wrapped))
		dst = this_cpu_read(pp_direct_scratch[interrupt_context_level()]);
	rec->start = dst;
	pp_record_fill_fixed(dst, type, ev->fmt.id, rec->size,
			     PERF_RECORD_MISC_KERNEL, ip, time, 0, 1);
	dst += fixed;
	*(u32 *)dst = entry_size;
	entry = dst + sizeof(u32);
	rec->entry = entry;

	/* The tail padding first: dynamic data may end in those 8 bytes. */
	memset(entry + entry_size - sizeof(u64), 0, sizeof(u64));
	if (holes)
		memset(entry, 0, data_off);
	if (raw_size > data_off)
		memset(entry + data_off, 0, raw_size - data_off);
	pp_direct_trace_entry(entry, ev->attr.config);
	return entry;
}

/**
 * pp_direct_begin - reserve a record for a hit and return its payload
 * @data: the persistent event (the probe's data)
 * @rec: out: the record under construction
 * @entry_size: the payload's size, as perf_trace_<class>() rounds it
 * @raw_size: sizeof the payload's struct (its fixed part, then padding up
 *	to the dynamic data)
 * @data_off: where in it the fields end
 * @holes: whether padding lies between its fields
 * @ip: the IP field
 * @single: the tracepoint fires only in a task, so the event's writers on
 *	a CPU never nest: the record takes pp_buffer_reserve_single()
 *
 * Any context, preemption disabled (a task with @single).  The payload's
 * header is filled, and every byte that no field will write is zeroed.
 * (perf's path zeroes only the last 8 bytes and leaves holes and padding
 * as its scratch buffer had them.)  The zeroing is decided at compile time
 * for each payload struct.
 * The fields the tool records by default get their own copy of the code,
 * with the layout known at compile time.
 *
 * A cgroup scope is not checked here: the hub's probe calls this only
 * for the events whose cgroup holds the running task, and the other
 * events on this path have no scope that filters.
 *
 * Return: where the caller writes the payload, or NULL if the hit is not
 * recorded: counted as dropped, no buffer yet on this CPU, a frozen or
 * paused event, or no room.
 */
static __always_inline void *pp_direct_begin(void *data,
					     struct pp_direct_rec *rec,
					     u32 entry_size,
					     unsigned int raw_size,
					     unsigned int data_off,
					     bool holes,
					     unsigned long ip,
					     bool single)
{
	struct pp_event *ev = data;
	struct pp_cpu *pc = this_cpu_ptr(ev->cpus);
	struct pp_buffer *buf = READ_ONCE(pc->buf);
	u64 type = ev->fmt.sample_type;

	BUILD_BUG_ON(sizeof(struct perf_event_header) +
		     sizeof(u64) * hweight64((u64)(PP_DIRECT_FIELDS &
						   ~PERF_SAMPLE_RAW)) !=
		     PP_DIRECT_FIXED_SIZE);
	local64_inc(&pc->hits);
	/*
	 * The probe sees the hits of a CPU that the sync work has not given
	 * a buffer yet, or could not.  Each is a loss that readers see
	 * counted.
	 */
	if (unlikely(!buf)) {
		atomic_long_inc(&ev->no_buffer);
		return NULL;
	}
	if (unlikely(!pp_freeze_stores(&ev->freeze) ||
		     entry_size > PP_DIRECT_PAYLOAD_MAX)) {
		local64_inc(&buf->dropped);
		return NULL;
	}
	/* The reservation refuses a paused buffer. */
	if (unlikely(ev->fmt.comm_size) && !pp_record_comm_first(buf, &ev->fmt))
		return NULL;

	if (likely(type == PP_DIRECT_FIELDS))
		return pp_direct_begin_as(ev, pc, buf, rec, entry_size, raw_size,
					  data_off, holes, ip, single,
					  PP_DIRECT_FIELDS, PP_DIRECT_FIXED_SIZE);
	return pp_direct_begin_as(ev, pc, buf, rec, entry_size, raw_size,
				  data_off, holes, ip, single, type,
				  ev->fmt.fixed_size);
}

/* The payload set a PERIOD other than 1 (__perf_count()): the last fixed field. */
static inline void pp_direct_period(struct pp_direct_rec *rec, u64 count)
{
	const struct pp_record_fmt *fmt = &rec->ev->fmt;

	if (fmt->sample_type & PERF_SAMPLE_PERIOD)
		*(u64 *)(rec->start + fmt->fixed_size - sizeof(u64)) = count;
}

/*
 * pp_direct_end - finish the record pp_direct_begin() reserved
 * @rec: the record
 *
 * Copies it in if it was assembled in scratch, publishes it, then does
 * what follows a stored record (event.h).
 */
static __always_inline void pp_direct_end(struct pp_direct_rec *rec)
{
	if (unlikely(rec->wrapped))
		pp_buffer_write(rec->buf, rec->pos, rec->start, rec->size);
	if (rec->single)
		pp_buffer_commit_single(rec->buf, rec->pos, rec->size);
	else
		pp_buffer_commit_one(rec->buf, rec->pos, rec->size);
	pp_event_after_store(rec->ev, rec->pc, rec->entry, rec->entry_size);
}

/**
 * struct pp_direct_hub_iter - a hub's events whose cgroup holds the running task
 * @hub: the hub
 * @cgrp: the running task's cgroup
 * @levels: the depths still to look at, of those where the hub has events
 * @level: the depth being looked at
 */
struct pp_direct_hub_iter {
	struct pp_direct_hub	*hub;
	struct cgroup		*cgrp;
	unsigned long		levels;
	int			level;
};

/*
 * The next event from @n on, in the bucket of the depth being looked at
 * and then in those of the next depths, whose cgroup is the running task's
 * or one of its ancestors.  Any context, under the tracepoint's RCU.
 */
static __always_inline struct pp_event *
pp_direct_hub_scan(struct pp_direct_hub_iter *it, struct hlist_node *n)
{
	const int last = PP_DIRECT_HUB_LEVELS - 1;
	struct cgroup *anc;

	for (;;) {
		for (; n; n = rcu_dereference_raw(hlist_next_rcu(n))) {
			struct pp_event *ev = hlist_entry(n, struct pp_event,
							  hub_node);

			if (ev->scope.cgrp == it->cgrp->ancestors[it->level])
				return ev;
		}
		/* The last bit stands for every depth from it down. */
		if (it->level >= last && it->level < it->cgrp->level) {
			it->level++;
		} else if (it->levels) {
			it->level = __ffs(it->levels);
			it->levels &= it->levels - 1;
		} else {
			return NULL;
		}
		anc = it->cgrp->ancestors[it->level];
		n = rcu_dereference_raw(hlist_first_rcu(pp_direct_hub_slot(it->hub,
									   anc)));
	}
}

/*
 * The first event of @hub whose cgroup is @cgrp or one of its ancestors,
 * or NULL.  The probe passes the running task's cgroup: the task's
 * css_set is RCU-protected, and a grace period also waits for the probe,
 * which runs with preemption off.
 */
static __always_inline struct pp_event *
pp_direct_hub_first(struct pp_direct_hub *hub, struct cgroup *cgrp,
		    struct pp_direct_hub_iter *it)
{
	const int last = PP_DIRECT_HUB_LEVELS - 1;

	it->hub = hub;
	it->cgrp = cgrp;
	it->levels = READ_ONCE(hub->levels);
	if (it->cgrp->level < last)
		it->levels &= (2UL << it->cgrp->level) - 1;
	it->level = -1;
	return pp_direct_hub_scan(it, NULL);
}

/* The next one after @ev, or NULL. */
static __always_inline struct pp_event *
pp_direct_hub_next(struct pp_direct_hub_iter *it, struct pp_event *ev)
{
	return pp_direct_hub_scan(it,
				  rcu_dereference_raw(hlist_next_rcu(&ev->hub_node)));
}

#endif /* _PERF_PERSISTENT_DIRECT_H */
