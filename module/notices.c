// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: an event's notices (notices.h)
 *
 * How a notice travels.  The record path, in any context including NMI,
 * only sets a bit of the event's struct pp_notices and queues its hard
 * irq_work; that queues the notices' work, and the work hands each notice
 * to the poster notify.c set at module init, which walks the watching
 * files in process context.  So no interrupt walks a list whose length
 * userspace decides, and on PREEMPT_RT nothing of it runs at real-time
 * priority.  This file knows no file that watches: the poster is the one
 * way a notice goes up, and it is called from the work only, never from
 * the record path.
 *
 * Feedback.  Posting a notice wakes a reader and sends SIGIO, and the
 * tracepoints of the scheduler, the signals, the workqueue and irq_work
 * record that (signal_generate fires even for a signal that is already
 * pending).  A watched event on one of them would post a notice for every
 * notice.  Two rules break the loop, whatever the source:
 *   - An event posts an overflow notice no sooner than PP_NOTICE_PACE_NS
 *     after its last one.  The pace timer here turns the overflows that
 *     come meanwhile into one notice when it expires.
 *   - A file that still holds an unread overflow notice of the event gets
 *     no other: nothing is queued for it, and it is neither woken nor
 *     signalled (notify.c).
 *
 * The pacing of an event's overflow notices, struct pp_notices::overflow:
 *
 *   idle --record--> DUE|PACING|OPEN (irq_work queued)
 *   the work takes OPEN (and DUE), posts, starts the timer: PACING
 *   records while PACING set DUE
 *   the timer: DUE set -> OPEN, queue the irq_work again; else idle
 *
 * Contexts: pp_notices_queue() and pp_notices_overflow() run in any
 * context, NMI included.  The irq_work and the pace timer run in hardirq
 * context, also on RT.  Everything else runs in process context.
 */

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cache.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/sched/clock.h>
#include <linux/workqueue.h>

#include <uapi/linux/perf_persistent.h>

#include "compat.h"
#include "notices.h"

/*
 * pp_notices::overflow.  DUE: a record asked for a notice.  PACING: a
 * notice is going out, or went out less than the pace ago.  OPEN: the
 * work may post one now.
 */
#define PP_OVERFLOW_DUE		BIT(0)
#define PP_OVERFLOW_PACING	BIT(1)
#define PP_OVERFLOW_OPEN	BIT(2)

/*
 * The key is disabled a second after the last watcher goes, so a file that
 * watches and closes in a loop does not patch the kernel text each time.
 */
DEFINE_STATIC_KEY_DEFERRED_FALSE(pp_overflow_watched, HZ);
atomic_t pp_overflow_watch_all = ATOMIC_INIT(0);

/*
 * Where the notices go: the walk of the files that watch event @id
 * (notify.c), set at module init before any event exists.
 */
static void (*notices_post)(u32 id, u32 what, u64 time) __ro_after_init;

/**
 * pp_notices_set_post - say where the notices of every event go
 * @post: called with the event's id, the PERF_PERSISTENT_NOTICE_* kind
 *	and the time, in process context (the notices' work)
 *
 * Module init, before any event exists.
 */
void pp_notices_set_post(void (*post)(u32 id, u32 what, u64 time))
{
	notices_post = post;
}

/*
 * Take the right to post an overflow notice now, and clear the DUE that
 * asked for it.  Return: false if the pace allows none now, or none is due.
 */
static bool notices_overflow_take(struct pp_notices *ns)
{
	int old = atomic_read(&ns->overflow), new;

	do {
		if (!(old & PP_OVERFLOW_OPEN))
			return false;
		new = old & ~(PP_OVERFLOW_DUE | PP_OVERFLOW_OPEN);
	} while (!atomic_try_cmpxchg(&ns->overflow, &old, new));
	return true;
}

/* Post what @ns has pending; process context (a worker). */
static void notices_work(struct work_struct *work)
{
	struct pp_notices *ns = container_of(work, struct pp_notices, work);
	u32 what;

	for (what = PERF_PERSISTENT_NOTICE_FROZE;
	     what <= PERF_PERSISTENT_NOTICE_FIRED; what++)
		/* Fully ordered; pairs with the barrier in pp_notices_queue(). */
		if (test_and_clear_bit(what, &ns->pending))
			notices_post(ns->id, what, READ_ONCE(ns->time[what]));
	if (notices_overflow_take(ns)) {
		notices_post(ns->id, PERF_PERSISTENT_NOTICE_OVERFLOW,
			     local_clock());
		hrtimer_start(&ns->pace, ns_to_ktime(PP_NOTICE_PACE_NS),
			      HRTIMER_MODE_REL_HARD);
	}
}

/* Hardirq context, also on RT.  The walk of the files is left to the work. */
static void notices_irq(struct irq_work *irq)
{
	queue_work(pp_system_percpu_wq, &container_of(irq, struct pp_notices, irq)->work);
}

/* The pace is over: post what came meanwhile, or go idle.  Hardirq context. */
static enum hrtimer_restart notices_pace(struct hrtimer *timer)
{
	struct pp_notices *ns = container_of(timer, struct pp_notices, pace);
	int old = atomic_read(&ns->overflow), new;

	do {
		new = old & PP_OVERFLOW_DUE ? old | PP_OVERFLOW_OPEN : 0;
	} while (!atomic_try_cmpxchg(&ns->overflow, &old, new));
	if (new)
		irq_work_queue(&ns->irq);
	return HRTIMER_NORESTART;
}

/**
 * pp_notices_init - set up an event's notices
 * @ns: the notices
 * @id: the event's id (0 until it has one)
 */
void pp_notices_init(struct pp_notices *ns, u32 id)
{
	ns->id = id;
	ns->irq = IRQ_WORK_INIT_HARD(notices_irq);
	INIT_WORK(&ns->work, notices_work);
	pp_hrtimer_setup(&ns->pace, notices_pace, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_HARD);
}

/**
 * pp_notices_queue - have a notice of a freeze or a fired trigger posted
 * @ns: the event's notices
 * @what: PERF_PERSISTENT_NOTICE_FROZE or _FIRED
 * @time: when it happened
 *
 * Any context, NMI included.  Two of a kind before the work runs make one
 * notice, with the later time.
 */
void pp_notices_queue(struct pp_notices *ns, u32 what, u64 time)
{
	WRITE_ONCE(ns->time[what], time);
	/* Store the time before the bit; pairs with notices_work(). */
	smp_mb__before_atomic();
	set_bit(what, &ns->pending);
	irq_work_queue(&ns->irq);
}

/**
 * pp_notices_overflow - the event stored its wakeup_events-th record
 * @ns: the event's notices
 *
 * Posts an overflow notice now if the last one went out at least the pace
 * ago, else when the pace is over.  Any context, NMI included.  Only the
 * notices' own transitions can make the cmpxchg loop go round again, and
 * nothing is done while a notice is already due.
 */
void pp_notices_overflow(struct pp_notices *ns)
{
	int old = atomic_read(&ns->overflow), new;

	do {
		if (old & PP_OVERFLOW_DUE)
			return;
		new = old ? old | PP_OVERFLOW_DUE :
			    PP_OVERFLOW_DUE | PP_OVERFLOW_PACING |
			    PP_OVERFLOW_OPEN;
	} while (!atomic_try_cmpxchg(&ns->overflow, &old, new));
	if (!old)
		irq_work_queue(&ns->irq);
}

/**
 * pp_notices_sync - wait until nothing of @ns runs or is queued
 * @ns: the notices of an event that records no more
 *
 * The irq_work queues the work, the work starts the timer and the timer
 * queues the irq_work, so wait until one round finds all three quiet.
 * Process context.
 */
void pp_notices_sync(struct pp_notices *ns)
{
	do {
		irq_work_sync(&ns->irq);
		flush_work(&ns->work);
	} while (hrtimer_cancel(&ns->pace) || irq_work_is_pending(&ns->irq));
}
