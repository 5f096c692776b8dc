/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readers: perf events of the persistent PMU that receive a persistent
 * event's records on one CPU, history first, then live.
 */
#ifndef _PERF_PERSISTENT_READER_H
#define _PERF_PERSISTENT_READER_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/time64.h>
#include <linux/types.h>

struct perf_event;
struct pp_buffer;
struct pp_event;

/**
 * struct pp_reader_source - what the readers of a persistent event on one
 *	CPU read, as the event's layer gives it with each reader
 *	(pp_reader_event_init())
 * @buf: the CPU's buffer, which the event keeps as long as it has readers
 * @sample_type: the sample_type of its records
 * @id: the persistent event's id, in the loss notices
 * @ev: the persistent event, opaque here: pp_reader_free() hands it back
 *	for the caller to drop its reference
 */
struct pp_reader_source {
	struct pp_buffer	*buf;
	u64			sample_type;
	u64			id;
	struct pp_event		*ev;
};

/**
 * struct pp_reader_cpu - the readers of a persistent event on one CPU
 * @pending: readers catching up with the history (struct pp_reader.node)
 * @live: readers receiving every new record (struct perf_event.hlist_entry)
 * @live_pos: the live readers have every record at or beyond (older than)
 *	this position
 * @nr_readers: readers added on this CPU (read locklessly elsewhere)
 * @nr_live: those of them on @live
 * @deliver: delivers records to the readers, on this CPU
 * @pace: a timer pinned to this CPU that queues @deliver again a while
 *	later.  It is set after a run that left history to replay, so that a
 *	reader's consumer keeps up, and after a run that delivered, so that
 *	the records that follow go out together
 * @deferred: @pace is set to queue @deliver, so writers need not queue it
 * @paced: @pace queued the run of @deliver that comes next
 * @delivering: a run of @deliver is in progress; writers leave the
 *	queueing to it
 * @fed: a writer stored a record during that run
 * @lost: bytes of records overwritten before a reader here received them
 *	(read locklessly elsewhere)
 * @src: what they read, from the reader added last (every reader of the
 *	CPU has the same); @src.buf is NULL until the first is added
 * @cpu: the CPU
 *
 * Embedded in struct pp_cpu (event.h) as @rd; reader.c owns it.  It
 * belongs to its CPU: it changes with interrupts off, in the PMU's
 * add/del, in @deliver and in @pace.  The record path (NMI included)
 * reads @nr_readers, @deferred, @delivering and @src.buf, and sets @fed
 * (pp_reader_notify()).
 */
struct pp_reader_cpu {
	struct list_head	pending;
	struct hlist_head	live;
	unsigned long		live_pos;
	unsigned int		nr_readers;
	unsigned int		nr_live;
	struct irq_work		deliver;
	struct hrtimer		pace;
	bool			deferred;
	bool			paced;
	bool			delivering;
	bool			fed;
	unsigned long		lost;
	struct pp_reader_source	src;
	unsigned int		cpu;
};

/* Records delivered per run of the delivery; the rest in a later run. */
#define PP_DELIVER_BUDGET	64

/*
 * The pause between runs while records are left once a run's budget is
 * spent, whether history to replay or a backlog of live records.
 * PP_DELIVER_BUDGET records per 250 us make 256k records/s.  Writers that
 * find half the buffer undelivered queue runs sooner.
 */
#define PP_PACE_NS		(250 * NSEC_PER_USEC)

/* Live records that follow a run closely wait this long to go out. */
#define PP_COALESCE_NS		NSEC_PER_MSEC

/*
 * A run started by the timer that delivers no more than this many records
 * was fed only by the interrupts of the delivery itself (the timer's and
 * the irq_work's), or by nothing at all.  Such a run sets no timer.
 */
#define PP_SELF_FED_MAX		8

/* Why a delivery run stopped. */
enum pp_stop {
	PP_CAUGHT_UP,	/* every record up to the run's limit is delivered */
	PP_BUDGET,	/* the run's budget is spent */
	PP_WRITER,	/* interrupted a writer of this CPU in mid-commit */
	PP_NO_SLOT,	/* no swevent recursion slot free in this context */
};

/**
 * pp_deliver_delay - when the pace timer is to queue the next run
 * @stop: why the run stopped
 * @delivered: records (and loss notices) it delivered
 * @by_timer: the pace timer queued it
 * @fed: records were stored on the CPU while it ran (their writers left
 *	the queueing to it)
 *
 * A run never queues itself again at once.  It would come back before the
 * interrupted context could go on, and a writer in mid-commit (PP_WRITER)
 * or a source that the run itself fires would keep the CPU in interrupts
 * for ever.  Records that are left are paced, and an interrupted writer's
 * commit queues a run itself.  A run that delivered sets the timer so that
 * the records that follow go out together.  The exception is a run from
 * the timer that delivered only what the delivery's own interrupts
 * recorded, which would set the timer again and again on an idle CPU.
 *
 * Return: nanoseconds from now, or 0 for no timer (writers queue the run).
 */
static inline u64 pp_deliver_delay(enum pp_stop stop, unsigned int delivered,
				   bool by_timer, bool fed)
{
	switch (stop) {
	case PP_BUDGET:
	case PP_NO_SLOT:
		return PP_PACE_NS;
	case PP_WRITER:
		return delivered ? PP_COALESCE_NS : 0;
	case PP_CAUGHT_UP:
		break;
	}
	if (by_timer && delivered <= PP_SELF_FED_MAX)
		return 0;
	return delivered || fed ? PP_COALESCE_NS : 0;
}

int pp_readers_init(void);
void pp_readers_exit(void);

void pp_reader_cpu_init(struct pp_reader_cpu *rd, unsigned int cpu);
void pp_reader_cpu_sync(struct pp_reader_cpu *rd);
int pp_reader_event_init(struct perf_event *event, struct pp_reader_cpu *rd,
			 const struct pp_reader_source *src, bool history);
struct pp_event *pp_reader_free(struct perf_event *event);
void pp_reader_add(struct perf_event *event);
void pp_reader_del(struct perf_event *event);
unsigned long pp_reader_backlog(struct pp_reader_cpu *rd);

/*
 * The record path, after storing a record on this CPU: are there readers
 * here to deliver it to?  Any context, NMI included.
 */
static __always_inline bool pp_reader_waiting(const struct pp_reader_cpu *rd)
{
	return READ_ONCE(rd->nr_readers);
}

void pp_reader_notify(struct pp_reader_cpu *rd);

#endif /* _PERF_PERSISTENT_READER_H */
