/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct path's record writing, for the generated probes
 * (direct_stages.h, direct_events.c) and the records the module writes as
 * a probe would (fatal.c, fw_errors.c): a record reserved in an event's
 * buffer on this CPU, its payload filled by the encoder, then committed.
 * Apart from direct.h, which direct.c implements, because these helpers
 * write into the event's buffers (event.h), a layer above direct.c.
 *
 * Contexts: any, up to NMI, preemption disabled (direct.h).
 */
#ifndef _PERF_PERSISTENT_DIRECT_REC_H
#define _PERF_PERSISTENT_DIRECT_REC_H

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
#include "direct.h"
#include "event.h"
#include "record.h"

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
							  dx.hub_node);

			if (ev->dx.cgrp == it->cgrp->ancestors[it->level])
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
				  rcu_dereference_raw(hlist_next_rcu(&ev->dx.hub_node)));
}

#endif /* _PERF_PERSISTENT_DIRECT_REC_H */
