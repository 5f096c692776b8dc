/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers: a persistent event whose records freeze other events, so that
 * the history that led up to an incident is kept.
 *
 * The record path runs them in any context, NMI included, so they take no
 * lock, allocate nothing and do bounded work: one atomic per record of a
 * source, and one per target when the trigger fires.  Setting, replacing
 * and removing triggers, and thawing, run in process context under the
 * registry lock.  The record path reads a trigger under RCU, so it is
 * freed after a grace period.
 */
#ifndef _PERF_PERSISTENT_TRIGGER_H
#define _PERF_PERSISTENT_TRIGGER_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/irq_work.h>
#include <linux/limits.h>
#include <linux/types.h>

struct pp_filter;

/* The largest post-trigger count: what the signed countdown holds. */
#define PP_TRIGGER_AFTER_MAX	((u64)S64_MAX)

/**
 * struct pp_freeze - whether an event stores records, as triggers decide
 * @frozen: no record is stored (each is dropped and counted)
 * @counting: a trigger fired with a post-trigger count: @left more
 *	records are stored, then the event freezes
 * @left: records still to store while @counting
 * @time: local_clock() when it last froze
 * @freezes: times it froze
 * @notify: queued when it freezes (the event's waiters), or NULL
 *
 * The targets of a trigger have one each.  @frozen and @counting are ints
 * for cmpxchg() and release/acquire, which every context may use.
 */
struct pp_freeze {
	int		frozen;
	int		counting;
	atomic64_t	left;
	u64		time;
	atomic64_t	freezes;
	struct irq_work	*notify;
};

/**
 * struct pp_trigger - an event's records freeze others
 * @count: fires on the source's @count-th record after arming (>= 1)
 * @after: each target stores this many more records, then freezes (at
 *	most PP_TRIGGER_AFTER_MAX)
 * @hits: records of the source since it was armed (that matched @filter)
 * @filter: only the source's records that match it count, or NULL for all
 *	of them (filter.h); the trigger owns it
 * @nr: number of @targets
 * @targets: what each target freezes, and the target itself (an opaque
 *	pointer its owner keeps a reference through)
 */
struct pp_trigger {
	u64			count;
	u64			after;
	atomic64_t		hits;
	struct pp_filter	*filter;
	unsigned int		nr;
	struct {
		struct pp_freeze	*freeze;
		void			*owner;
	} targets[];
};

/* May the event store a record now?  Any context. */
static inline bool pp_freeze_stores(const struct pp_freeze *f)
{
	return likely(!READ_ONCE(f->frozen));
}

/* Is the event counting down its post-trigger records?  Any context. */
static inline bool pp_freeze_counting(const struct pp_freeze *f)
{
	/* Read the flag before the count; pairs with pp_freeze_after(). */
	return unlikely(smp_load_acquire(&f->counting));
}

void pp_freeze_now(struct pp_freeze *f, u64 now);
void pp_freeze_after(struct pp_freeze *f, u64 after, u64 now);
void pp_freeze_stored(struct pp_freeze *f, u64 now);
void pp_freeze_thaw(struct pp_freeze *f);
bool pp_trigger_hit(struct pp_trigger *t, u64 now);
void pp_trigger_rearm(struct pp_trigger *t);
bool pp_trigger_fired(struct pp_trigger *t);

#endif /* _PERF_PERSISTENT_TRIGGER_H */
