// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: readers
 *
 * A reader is an event of the persistent PMU opened with pid -1 on CPU N:
 * it receives persistent event <id>'s records from CPU N's buffer, the
 * history first (oldest first) when asked, then every new record, each
 * exactly once while it is scheduled in.
 *
 * Delivery.  The source's overflow handler cannot deliver a record itself.
 * It holds the swevent recursion slot of its context, so it cannot call
 * perf_tp_event(), the one exported way to put a sample into another
 * event's ring buffer.  It queues an irq_work on its CPU instead.  The
 * work is a hard irq_work, so it runs in hardirq context with interrupts
 * off on that CPU, on PREEMPT_RT too.  It takes a recursion slot for each
 * record and hands the record to perf_tp_event() for a list of readers.
 * Each record goes out as a RAW payload: a struct perf_persistent_sample
 * (8 bytes that the core overwrites with the delivery context, then the
 * stored sample_type) followed by the stored record.
 *
 * Each CPU of a persistent event has a struct pp_reader_cpu, the @rd of
 * struct pp_cpu (event.h), which gives it the CPU's buffer, the records'
 * sample_type and the event's id with each reader (struct
 * pp_reader_source): this file reads nothing of the event's own.  The
 * readers on @live are fed first, from @live_pos up
 * to the accounted head.  Readers that are catching up, with the history
 * or after the core took them out for a while, sit on @pending.  Each of
 * them has a private one-entry list (its event's hlist_entry in @solo)
 * and is fed from its own position up to @live_pos; when it gets there it
 * joins @live.  So each record reaches each reader once.  All of this runs
 * on that CPU with interrupts off (the PMU's add/del and the irq_work), so
 * it needs no lock.  Writers are another matter.  The irq_work may have
 * interrupted a writer of this CPU in task or softirq context, and an NMI
 * writer may interrupt the run.  pp_buffer_next_oldest() validates each
 * copy against them.  A run that finds an interrupted writer in mid-commit
 * stops, and that writer's commit queues the next run.
 *
 * Pacing (pp_deliver_delay()).  A run never queues itself again at once.
 * It would come back before the interrupted context could go on, and an
 * interrupted writer, or a source that the run itself fires, would keep
 * the CPU in interrupts for ever.  Writers do not queue a run while one is
 * in progress (@delivering); they set @fed, which the run reads when it
 * ends.  Each run delivers a bounded number of records.  When records are
 * left, history or a live backlog, a pinned hrtimer (@pace) queues the
 * next run PP_PACE_NS later.  The pace matters because a process on
 * another CPU drains the reader's ring buffer: a history of megabytes
 * poured in back-to-back runs would overflow perf's default ring before it
 * is read, and perf would count the samples lost.
 *
 * Coalescing.  A run that delivered records sets the timer (@deferred) to
 * queue the next one PP_COALESCE_NS later.  Until then writers do not
 * queue a run, unless the live readers lack half the buffer.  So the first
 * record after a quiet while is delivered at once, and a steady stream in
 * batches, one run per PP_COALESCE_NS rather than one interrupt per record.
 * Sources that the delivery itself fires cannot keep the CPU busy: the
 * interrupt and timer tracepoints around the run, ipi_exit where irq_work
 * comes by IPI, a probe on a function it calls.  Their records wait for
 * the timer instead of queueing a run at once, and a run from the timer
 * that delivers no more than PP_SELF_FED_MAX records sets no timer, so an
 * idle CPU goes quiet.  (On x86 perf refuses to sample
 * irq_vectors:irq_work_exit, because of the loop it would make.)
 *
 * add/del run whenever the perf core reschedules the CPU's events.  A
 * reader taken out keeps its position and catches up when it comes back.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/trace_events.h>

#include <uapi/linux/perf_persistent.h>

#include "buffer.h"
#include "compat.h"
#include "reader.h"

/* Largest record delivered: a tracepoint payload of PERF_MAX_TRACE_SIZE. */
#define PP_DELIVER_RECORD_MAX	(PERF_MAX_TRACE_SIZE + 256)
#define PP_DELIVER_SCRATCH	(sizeof(struct perf_persistent_sample) + \
				 PP_DELIVER_RECORD_MAX + sizeof(u64))

/* Per-CPU payload under construction; used only by the irq_work. */
static DEFINE_PER_CPU(void *, pp_scratch);

/**
 * struct pp_reader - one reader event
 * @event: the perf event
 * @rd: the readers of the persistent event it reads, on the reader's CPU
 * @src: what it reads (pmu.c holds a reference on @src.ev)
 * @node: on @rd->pending while catching up
 * @solo: the one-entry list it is delivered through while catching up
 * @pos: every record at or beyond (older than) this position was delivered
 * @started: @pos is set
 * @history: start from the oldest record held, not from the newest
 * @live: on @rd->live
 */
struct pp_reader {
	struct perf_event	*event;
	struct pp_reader_cpu	*rd;
	struct pp_reader_source	src;
	struct list_head	node;
	struct hlist_head	solo;
	unsigned long		pos;
	bool			started;
	bool			history;
	bool			live;
};

/*
 * Hand the payload under construction, @size bytes of record after the
 * struct perf_persistent_sample, to the readers on @head, with the
 * delivery's @regs.  Puts the recursion slot @rctx back.
 */
static void deliver_one(struct pp_reader_cpu *rd, struct hlist_head *head,
			struct perf_persistent_sample *payload, int size,
			struct pt_regs *regs, int rctx)
{
	payload->sample_type = rd->src.sample_type;
	size += sizeof(*payload);
	/* As tracepoints do: the u32 size field plus data 8-aligned. */
	*(u32 *)((void *)payload + size) = 0;
	perf_tp_event(0, 1, payload, size + sizeof(u32), regs, head, rctx,
		      NULL);
}

/*
 * Deliver the records between *@pos and @limit, oldest first, to the
 * readers on @head.  Records overwritten before they could be delivered
 * (or too large to be) go out as one struct perf_persistent_lost for each
 * run of them.  IRQs off, on @rd's CPU.  Returns why it stopped.  The
 * statistics read *@pos without a lock (pp_reader_backlog()).
 */
static enum pp_stop deliver_range(struct pp_reader_cpu *rd, struct hlist_head *head,
				  unsigned long *pos, unsigned long limit,
				  struct pt_regs *regs, unsigned int *budget)
{
	struct perf_persistent_sample *payload = this_cpu_read(pp_scratch);
	struct perf_persistent_lost *lost = (void *)(payload + 1);
	unsigned long next = *pos;
	int size, rctx;

	while (next != limit) {
		if (!*budget)
			return PP_BUDGET;
		size = pp_buffer_next_oldest(rd->src.buf, &next, limit, payload + 1,
					     PP_DELIVER_RECORD_MAX);
		if (size == -EAGAIN)
			return PP_WRITER;
		/*
		 * Without a slot, leave *@pos before this record or this
		 * loss; the next run finds it again.
		 */
		rctx = perf_swevent_get_recursion_context();
		if (rctx < 0)
			return PP_NO_SLOT;
		(*budget)--;
		if (size <= 0) {
			/* Overwritten (or too large): tell the readers. */
			*lost = (struct perf_persistent_lost) {
				.header.type = PERF_RECORD_LOST,
				.header.size = sizeof(*lost),
				.id = rd->src.id,
				.lost = *pos - next,
			};
			WRITE_ONCE(rd->lost, rd->lost + lost->lost);
			size = sizeof(*lost);
		}
		WRITE_ONCE(*pos, next);
		/* Also puts the recursion slot back. */
		deliver_one(rd, head, payload, size, regs, rctx);
	}
	return PP_CAUGHT_UP;
}

/* The accounted head of @buf.  On its CPU, IRQs off. */
static unsigned long accounted_head(struct pp_buffer *buf)
{
	return READ_ONCE(buf->done);
}

/* Have @pace queue the next run @ns from now.  Hardirq, on @rd's CPU. */
static void pp_deliver_later(struct pp_reader_cpu *rd, u64 ns)
{
	WRITE_ONCE(rd->deferred, true);
	if (!hrtimer_active(&rd->pace))
		hrtimer_start(&rd->pace, ns_to_ktime(ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/**
 * pp_reader_notify - a record was stored on this CPU: have it delivered
 * @rd: the readers of the persistent event on this CPU
 *
 * Called when the CPU has readers (pp_event_after_store()).  Queues the
 * delivery, unless a run is in progress, which decides when it ends how
 * the record goes out.  Nor is it queued if the timer is set to queue it
 * and the live readers lack less than half the buffer; with more, a small
 * buffer could go round while its records wait for the timer.  Any
 * context, NMI included, on @rd's CPU.
 */
void pp_reader_notify(struct pp_reader_cpu *rd)
{
	struct pp_buffer *buf = READ_ONCE(rd->src.buf);

	if (READ_ONCE(rd->delivering)) {
		WRITE_ONCE(rd->fed, true);
		return;
	}
	if (READ_ONCE(rd->deferred) &&
	    READ_ONCE(rd->live_pos) - READ_ONCE(buf->done) < buf->size / 2)
		return;
	irq_work_queue(&rd->deliver);
}

/* One run's deliveries: to the live readers, then to those catching up. */
static enum pp_stop deliver_all(struct pp_reader_cpu *rd, unsigned int *budget)
{
	unsigned long head = accounted_head(rd->src.buf);
	struct pp_reader *r, *tmp;
	struct pt_regs regs;
	enum pp_stop stop;

	/* The samples carry the delivery's regs, fetched once per run. */
	memset(&regs, 0, sizeof(regs));
	perf_fetch_caller_regs(&regs);

	/* First bring the live readers up to the head. */
	if (hlist_empty(&rd->live)) {
		WRITE_ONCE(rd->live_pos, head);
	} else {
		stop = deliver_range(rd, &rd->live, &rd->live_pos, head, &regs,
				     budget);
		if (stop != PP_CAUGHT_UP)
			return stop;
	}

	/* Then each reader catching up, from its position to theirs. */
	list_for_each_entry_safe(r, tmp, &rd->pending, node) {
		if (!r->started) {
			r->pos = r->history ? READ_ONCE(rd->src.buf->tail) : head;
			r->started = true;
		}
		stop = deliver_range(rd, &r->solo, &r->pos, rd->live_pos, &regs,
				     budget);
		if (stop != PP_CAUGHT_UP)
			return stop;
		/* Caught up: from now on it gets what the live readers get. */
		list_del(&r->node);
		hlist_del_rcu(&r->event->hlist_entry);
		hlist_add_head_rcu(&r->event->hlist_entry, &rd->live);
		r->live = true;
		WRITE_ONCE(rd->nr_live, rd->nr_live + 1);
	}
	return PP_CAUGHT_UP;
}

/*
 * Hardirq, IRQs off, on @rd's CPU.  Only NMI writers can run meanwhile,
 * besides the writers the run itself fires (a probe on a function it
 * calls, say).  They find @delivering set and leave the queueing to
 * pp_deliver_delay().
 */
static void pp_deliver(struct irq_work *work)
{
	struct pp_reader_cpu *rd = container_of(work, struct pp_reader_cpu, deliver);
	unsigned int budget = PP_DELIVER_BUDGET;
	bool by_timer = rd->paced;
	enum pp_stop stop;
	u64 delay;

	rd->paced = false;
	WRITE_ONCE(rd->fed, false);
	WRITE_ONCE(rd->delivering, true);
	/* NMI writers of this CPU see the flag before the run reads. */
	barrier();
	stop = deliver_all(rd, &budget);
	barrier();
	WRITE_ONCE(rd->delivering, false);
	/* A writer that saw the flag set @fed before this reads it. */
	barrier();
	delay = pp_deliver_delay(stop, PP_DELIVER_BUDGET - budget, by_timer,
				 READ_ONCE(rd->fed));
	if (delay)
		pp_deliver_later(rd, delay);
}

/* Hardirq, IRQs off. */
static enum hrtimer_restart pp_pace(struct hrtimer *timer)
{
	struct pp_reader_cpu *rd = container_of(timer, struct pp_reader_cpu, pace);

	/*
	 * The timer may have migrated off a CPU going offline.  Its readers
	 * were taken out there (pp_reader_del()) and queue a run when they
	 * are added again.
	 */
	WRITE_ONCE(rd->deferred, false);
	if (smp_processor_id() == rd->cpu) {
		rd->paced = true;
		irq_work_queue(&rd->deliver);
	}
	return HRTIMER_NORESTART;
}

/**
 * pp_reader_backlog - bytes held on a CPU that its readers lack
 * @rd: the readers of a persistent event on one CPU
 *
 * 0 when every reader scheduled in on the CPU has every record accounted
 * there.  While a reader still replays the history, the whole history
 * held is counted, so the result is an upper bound until all readers are
 * live.
 *
 * Any context.  It reads the CPU's fields without a lock, so the result is
 * a snapshot.
 */
unsigned long pp_reader_backlog(struct pp_reader_cpu *rd)
{
	unsigned int nr = READ_ONCE(rd->nr_readers);
	struct pp_buffer *buf = READ_ONCE(rd->src.buf);
	unsigned long done, from;

	if (!buf || !nr)
		return 0;
	done = READ_ONCE(buf->done);
	from = READ_ONCE(rd->nr_live) == nr ? READ_ONCE(rd->live_pos) :
					      READ_ONCE(buf->tail);
	return min(from - done, buf->size);
}

/* Set up the readers of a persistent event on @cpu. */
void pp_reader_cpu_init(struct pp_reader_cpu *rd, unsigned int cpu)
{
	INIT_LIST_HEAD(&rd->pending);
	INIT_HLIST_HEAD(&rd->live);
	/*
	 * A hard irq_work, so that it runs in hardirq context with interrupts
	 * off on PREEMPT_RT as well.  There, init_irq_work() gives a work
	 * that a preemptible per-CPU thread (irq_workd) runs.  Its list walks
	 * would race with the PMU's add/del, and each run would be two
	 * context switches.  A persistent event on sched:sched_switch would
	 * record them, and its records would queue the next run: a loop at
	 * real-time priority.
	 */
	rd->deliver = IRQ_WORK_INIT_HARD(pp_deliver);
	pp_hrtimer_setup(&rd->pace, pp_pace, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_HARD);
	rd->cpu = cpu;
}

/*
 * Wait for deliveries that are still running or paced.  No reader is
 * left, so none is started again.  Process context.
 */
void pp_reader_cpu_sync(struct pp_reader_cpu *rd)
{
	irq_work_sync(&rd->deliver);
	hrtimer_cancel(&rd->pace);
	irq_work_sync(&rd->deliver);
}

/**
 * pp_reader_event_init - make a new reader event a reader on one CPU
 * @event: the reader, CPU-wide on @rd's CPU
 * @rd: the readers of the persistent event on that CPU
 * @src: what it reads: the CPU's buffer (there is one), the records'
 *	sample_type, the event's id; the caller holds a reference on
 *	@src->ev until pp_reader_free()
 * @history: deliver the records already held first
 *
 * Process context, from perf_event_open() (pmu.c, which found the event
 * and checked the opener's right to its records).
 *
 * Return: 0 or -ENOMEM.
 */
int pp_reader_event_init(struct perf_event *event, struct pp_reader_cpu *rd,
			 const struct pp_reader_source *src, bool history)
{
	struct pp_reader *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->event = event;
	r->rd = rd;
	r->src = *src;
	r->history = history;
	INIT_LIST_HEAD(&r->node);
	event->pmu_private = r;
	return 0;
}

/**
 * pp_reader_free - free what pp_reader_event_init() gave a reader event
 * @event: the reader, destroyed by perf
 *
 * Process context.
 *
 * Return: the persistent event it read, whose reference the caller drops.
 */
struct pp_event *pp_reader_free(struct perf_event *event)
{
	struct pp_reader *r = event->pmu_private;
	struct pp_event *ev = r->src.ev;

	kfree(r);
	return ev;
}

/*
 * PMU add: IRQs off, on the reader's CPU.  The CPU's readers read what
 * this one does (the same for all of them): set before the record path,
 * an NMI on this CPU, sees the reader counted.
 */
void pp_reader_add(struct perf_event *event)
{
	struct pp_reader *r = event->pmu_private;
	struct pp_reader_cpu *rd = r->rd;

	rd->src.sample_type = r->src.sample_type;
	rd->src.id = r->src.id;
	rd->src.ev = r->src.ev;
	WRITE_ONCE(rd->src.buf, r->src.buf);
	if (!r->started && !r->history) {
		/* Without history, start after the newest record accounted. */
		r->pos = accounted_head(rd->src.buf);
		r->started = true;
	}
	INIT_HLIST_HEAD(&r->solo);
	hlist_add_head_rcu(&event->hlist_entry, &r->solo);
	list_add_tail(&r->node, &rd->pending);
	WRITE_ONCE(rd->nr_readers, rd->nr_readers + 1);
	irq_work_queue(&rd->deliver);
}

/* PMU del: IRQs off, on the reader's CPU. */
void pp_reader_del(struct perf_event *event)
{
	struct pp_reader *r = event->pmu_private;
	struct pp_reader_cpu *rd = r->rd;

	hlist_del_rcu(&event->hlist_entry);
	if (r->live) {
		/* It has what the live readers have, so resume from there. */
		r->pos = rd->live_pos;
		r->live = false;
		WRITE_ONCE(rd->nr_live, rd->nr_live - 1);
	} else {
		list_del(&r->node);
	}
	WRITE_ONCE(rd->nr_readers, rd->nr_readers - 1);
}

int pp_readers_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		void *scratch = kzalloc_node(PP_DELIVER_SCRATCH, GFP_KERNEL,
					     cpu_to_node(cpu));

		if (!scratch) {
			pp_readers_exit();
			return -ENOMEM;
		}
		per_cpu(pp_scratch, cpu) = scratch;
	}
	return 0;
}

/* Module exit.  No reader exists, because each one pins the module. */
void pp_readers_exit(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		kfree(per_cpu(pp_scratch, cpu));
		per_cpu(pp_scratch, cpu) = NULL;
	}
}
