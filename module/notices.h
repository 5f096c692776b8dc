/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An event's notices: what one persistent event has to tell the control
 * files that watch it (a freeze, a fired trigger, stored records), queued
 * from the record path in any context and posted later in process
 * context.  notify.c decides who receives them.
 */
#ifndef _PERF_PERSISTENT_NOTICES_H
#define _PERF_PERSISTENT_NOTICES_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <uapi/linux/perf_persistent.h>

/*
 * The least time between two overflow notices of one event.  A notice
 * wakes a reader and may send SIGIO, and both are recorded by events on
 * the scheduler's and the signals' tracepoints.  Without a pace, an event
 * on one of them would keep notifying itself.
 */
#define PP_NOTICE_PACE_NS	(10 * NSEC_PER_MSEC)

/**
 * struct pp_notices - what one event has to tell the files that watch it
 * @id: the event's id
 * @watchers: files that watch this event's overflows by its id
 * @pending: the PERF_PERSISTENT_NOTICE_* bits not posted yet (FROZE,
 *	FIRED)
 * @time: the time of each pending notice, indexed by its kind
 * @overflow: the pacing of overflow notices (PP_OVERFLOW_* bits, notices.c)
 * @irq: queues @work; hard, so that it runs in hardirq context on
 *	PREEMPT_RT too
 * @work: posts the pending notices to the watching files, in process context
 * @pace: lets the next overflow notice be posted PP_NOTICE_PACE_NS after
 *	the last one
 *
 * Embedded in the event; notices.c owns every field but @watchers, which
 * notify.c counts.  The record path sets @pending and @overflow and queues
 * @irq, in any context including NMI; the walk of the watching files runs
 * in @work, never in an interrupt.
 */
struct pp_notices {
	u32			id;
	atomic_t		watchers;
	unsigned long		pending;
	u64			time[PERF_PERSISTENT_NOTICE_OVERFLOW + 1];
	atomic_t		overflow;
	struct irq_work		irq;
	struct work_struct	work;
	struct hrtimer		pace;
};

/* Some control file watches overflows, so the record path counts records. */
extern struct static_key_false_deferred pp_overflow_watched;
/* Files that watch the overflows of every event. */
extern atomic_t pp_overflow_watch_all;

/*
 * Does a file watch @ns's overflows?  Any context; the record path asks
 * behind pp_overflow_watched, so an event nobody watches pays one branch.
 */
static inline bool pp_notices_watched(const struct pp_notices *ns)
{
	return atomic_read(&ns->watchers) ||
	       atomic_read(&pp_overflow_watch_all);
}

void pp_notices_set_post(void (*post)(u32 id, u32 what, u64 time));
void pp_notices_init(struct pp_notices *ns, u32 id);
void pp_notices_queue(struct pp_notices *ns, u32 what, u64 time);
void pp_notices_overflow(struct pp_notices *ns);
void pp_notices_sync(struct pp_notices *ns);

#endif /* _PERF_PERSISTENT_NOTICES_H */
