// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: triggers and the freezing of their targets
 *
 * The state machine of one target (struct pp_freeze):
 *
 *   storing --trigger fires, after 0--------------------> frozen
 *   storing --trigger fires, after M--> counting --M records stored--^
 *   frozen/counting --THAW (pp_freeze_thaw)--> storing
 *
 * The state machine of one trigger:
 *
 *   armed --count-th record of its source--> fired --REARM (pp_trigger_rearm)--> armed
 *
 * Every transition except thaw and rearm runs in the record path, in any
 * context including NMI and on several CPUs at once, so they use atomics
 * and cmpxchg() only.
 */

#include <linux/atomic.h>

#include "trigger.h"

/**
 * pp_freeze_now - stop storing records
 * @f: the target
 * @now: the time of the freeze (local_clock())
 *
 * Any context.  Only the first of racing callers records the time,
 * counts the freeze and tells the waiters.
 */
void pp_freeze_now(struct pp_freeze *f, u64 now)
{
	WRITE_ONCE(f->counting, 0);
	if (cmpxchg(&f->frozen, 0, 1))
		return;
	WRITE_ONCE(f->time, now);
	atomic64_inc(&f->freezes);
	if (f->notify)
		irq_work_queue(f->notify);
}

/**
 * pp_freeze_after - freeze after @after more records are stored
 * @f: the target
 * @after: records still to store; 0 freezes at once.  A value above
 *	PP_TRIGGER_AFTER_MAX counts as PP_TRIGGER_AFTER_MAX, because the
 *	countdown is signed
 * @now: the time, for a freeze at once
 *
 * Any context.  A target counting down already starts again from @after.
 */
void pp_freeze_after(struct pp_freeze *f, u64 after, u64 now)
{
	if (!after) {
		pp_freeze_now(f, now);
		return;
	}
	atomic64_set(&f->left, min(after, PP_TRIGGER_AFTER_MAX));
	/* Set the count before the flag; pairs with pp_freeze_counting(). */
	smp_store_release(&f->counting, 1);
}

/**
 * pp_freeze_stored - the target stored a record
 * @f: the target
 * @now: the time, should this record be the last
 *
 * Any context, after each record stored.  Counts down a target that is
 * counting, and freezes it after its last record.
 */
void pp_freeze_stored(struct pp_freeze *f, u64 now)
{
	if (!pp_freeze_counting(f))
		return;
	if (atomic64_dec_return(&f->left) <= 0)
		pp_freeze_now(f, now);
}

/**
 * pp_freeze_thaw - store records again
 * @f: the target
 *
 * Process context.  The caller holds the registry lock, so that no other
 * thaw runs (pp_ops_thaw() takes it around the call).
 */
void pp_freeze_thaw(struct pp_freeze *f)
{
	WRITE_ONCE(f->counting, 0);
	WRITE_ONCE(f->frozen, 0);
}

/**
 * pp_trigger_hit - the trigger's source stored a record
 * @t: the trigger
 * @now: the time (local_clock())
 *
 * Any context.  Fires once, on the count-th record since arming: every
 * target then freezes, or starts counting down its post-trigger records.
 *
 * Return: true if this record fired it.
 */
bool pp_trigger_hit(struct pp_trigger *t, u64 now)
{
	unsigned int i;

	/* Past the count it has fired already; don't let @hits wrap. */
	if (atomic64_read(&t->hits) >= t->count)
		return false;
	if (atomic64_inc_return(&t->hits) != t->count)
		return false;
	for (i = 0; i < t->nr; i++)
		pp_freeze_after(t->targets[i].freeze, t->after, now);
	return true;
}

/**
 * pp_trigger_fired - has the trigger fired since it was armed?
 * @t: the trigger
 */
bool pp_trigger_fired(struct pp_trigger *t)
{
	return atomic64_read(&t->hits) >= t->count;
}

/**
 * pp_trigger_rearm - arm the trigger again and thaw its targets
 * @t: the trigger
 *
 * Process context; the caller holds the registry lock (pp_ops_thaw()
 * takes it around the call).
 */
void pp_trigger_rearm(struct pp_trigger *t)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		pp_freeze_thaw(t->targets[i].freeze);
	atomic64_set(&t->hits, 0);
}
