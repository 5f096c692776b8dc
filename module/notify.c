// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: waiting for incidents
 *
 * A control file watches events (PERF_PERSISTENT_IOC_WATCH, an id or 0 for
 * all) and then receives a struct perf_persistent_notice each time one of
 * them freezes or its trigger fires: poll() and epoll say it is readable,
 * read() returns the notices, and a file with O_ASYNC sends SIGIO to its
 * owner (F_SETOWN: a process, or with a negative id a whole process group,
 * so that every process of a tree that shares the file is told).  A file
 * that watches with PERF_PERSISTENT_WATCH_OVERFLOW is also told when the
 * event stores records, as perf signals an fd's owner on overflow; while
 * some file does, the record path queues the event's overflow irq_work
 * (pp_event_overflow_notice(), behind the static key pp_overflow_watched).
 *
 * Contexts: freezes happen in the record path, any context, NMI included;
 * it queues the event's irq_work, whose handler calls pp_notify_post():
 * hardirq context, or a per-CPU thread on PREEMPT_RT.  Everything else
 * runs in process context.
 *
 * Locking: pp_watch_lock (a spinlock taken with interrupts off) protects
 * the list of watching files; each watcher's lock its queue.  Order:
 * pp_watch_lock -> watcher->lock.  A watcher is freed only after it has
 * left the list, under pp_watch_lock, so the poster never sees it freed.
 */

#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/list.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <uapi/linux/perf_persistent.h>

#include "perf_persistent/event.h"
#include "perf_persistent/notify.h"

/* Notices a watcher holds before it counts the rest as lost. */
#define PP_NOTICES	64

/* The values of pp_watcher::ids. */
#define PP_WATCH_INCIDENTS	1	/* freezes and fired triggers */
#define PP_WATCH_OVERFLOWS	2	/* and stored records */

/**
 * struct pp_watcher - a control file that watches events
 * @node: on pp_watchers
 * @ids: the ids watched (values: xa_mk_value(PP_WATCH_*))
 * @all: every event is watched
 * @all_overflows: every event's overflows are watched
 * @overflows: this file counts in pp_overflow_watched
 * @lock: protects @queue, @lost
 * @queue: notices not read yet
 * @lost: notices dropped because @queue was full
 * @wait: readers and pollers
 * @fasync: SIGIO subscribers
 */
struct pp_watcher {
	struct list_head	node;
	struct xarray		ids;
	bool			all;
	bool			all_overflows;
	bool			overflows;
	spinlock_t		lock;		/* @queue, @lost */
	DECLARE_KFIFO(queue, struct perf_persistent_notice, PP_NOTICES);
	u64			lost;
	wait_queue_head_t	wait;
	struct fasync_struct	*fasync;
};

DEFINE_STATIC_KEY_FALSE(pp_overflow_watched);

static LIST_HEAD(pp_watchers);
static DEFINE_SPINLOCK(pp_watch_lock);
/* Serialises creating a file's watcher. */
static DEFINE_MUTEX(pp_watcher_create);

/* The file's watcher, made on first use; process context. */
static struct pp_watcher *watcher_get(struct file *file)
{
	struct pp_watcher *w = READ_ONCE(file->private_data);
	unsigned long flags;

	if (w)
		return w;
	mutex_lock(&pp_watcher_create);
	w = file->private_data;
	if (w)
		goto out;
	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w)
		goto out;
	xa_init(&w->ids);
	spin_lock_init(&w->lock);
	INIT_KFIFO(w->queue);
	init_waitqueue_head(&w->wait);
	spin_lock_irqsave(&pp_watch_lock, flags);
	list_add(&w->node, &pp_watchers);
	spin_unlock_irqrestore(&pp_watch_lock, flags);
	/* Read locklessly by poll and read of other threads. */
	smp_store_release(&file->private_data, w);
out:
	mutex_unlock(&pp_watcher_create);
	return w;
}

/* The file's watcher, NULL if it watches nothing. */
static struct pp_watcher *watcher_of(struct file *file)
{
	/* Pairs with the release in watcher_get(): a set-up watcher. */
	return smp_load_acquire(&file->private_data);
}

/**
 * pp_notify_watch - have @file watch event @id, or every event (0)
 * @file: the control file
 * @id: an event's id, or 0
 * @overflows: also the records it stores
 *
 * Process context.  Return: 0, -ENOENT (no such event), -ENOMEM.
 */
int pp_notify_watch(struct file *file, u32 id, bool overflows)
{
	unsigned long what = PP_WATCH_INCIDENTS;
	struct pp_watcher *w;
	struct pp_event *ev;
	void *old;
	int ret;

	if (id) {
		ev = pp_event_get(id);
		if (!ev)
			return -ENOENT;
		pp_event_put(ev);
	}
	w = watcher_get(file);
	if (!w)
		return -ENOMEM;
	if (overflows)
		what |= PP_WATCH_OVERFLOWS;
	if (!id) {
		WRITE_ONCE(w->all, true);
		if (overflows)
			WRITE_ONCE(w->all_overflows, true);
		ret = 0;
	} else {
		/* Watching again adds to what is watched. */
		xa_lock(&w->ids);
		old = xa_load(&w->ids, id);
		if (old)
			what |= xa_to_value(old);
		ret = xa_err(__xa_store(&w->ids, id, xa_mk_value(what),
					GFP_KERNEL_ACCOUNT));
		xa_unlock(&w->ids);
	}
	/* The first overflow watch of this file turns the record path's on. */
	if (!ret && overflows) {
		mutex_lock(&pp_watcher_create);
		if (!w->overflows) {
			w->overflows = true;
			static_branch_inc(&pp_overflow_watched);
		}
		mutex_unlock(&pp_watcher_create);
	}
	return ret;
}

/* Does @w want a notice of @what about event @id? */
static bool watcher_wants(struct pp_watcher *w, u32 id, u32 what)
{
	void *v;

	if (what == PERF_PERSISTENT_NOTICE_OVERFLOW) {
		if (READ_ONCE(w->all_overflows))
			return true;
		v = xa_load(&w->ids, id);
		return v && (xa_to_value(v) & PP_WATCH_OVERFLOWS);
	}
	return READ_ONCE(w->all) || xa_load(&w->ids, id);
}

/**
 * pp_notify_post - tell the files watching event @id
 * @id: the event
 * @what: PERF_PERSISTENT_NOTICE_*
 * @time: when, in the records' clock
 *
 * Called by an event's irq_work: hardirq context (a thread on RT).
 */
void pp_notify_post(u32 id, u32 what, u64 time)
{
	struct perf_persistent_notice n = { .id = id, .what = what,
					    .time = time };
	struct pp_watcher *w;
	unsigned long flags;

	spin_lock_irqsave(&pp_watch_lock, flags);
	list_for_each_entry(w, &pp_watchers, node) {
		if (!watcher_wants(w, id, what))
			continue;
		spin_lock(&w->lock);
		if (!kfifo_put(&w->queue, n))
			w->lost++;
		spin_unlock(&w->lock);
		wake_up_interruptible_poll(&w->wait, EPOLLIN | EPOLLRDNORM);
		kill_fasync(&w->fasync, SIGIO, POLL_IN);
	}
	spin_unlock_irqrestore(&pp_watch_lock, flags);
}

/* Notices queued or lost: readable.  Takes w->lock. */
static bool watcher_ready(struct pp_watcher *w)
{
	unsigned long flags;
	bool ready;

	spin_lock_irqsave(&w->lock, flags);
	ready = !kfifo_is_empty(&w->queue) || w->lost;
	spin_unlock_irqrestore(&w->lock, flags);
	return ready;
}

__poll_t pp_notify_poll(struct file *file, poll_table *wait)
{
	struct pp_watcher *w = watcher_of(file);

	if (!w)
		return 0;
	poll_wait(file, &w->wait, wait);
	return watcher_ready(w) ? EPOLLIN | EPOLLRDNORM : 0;
}

/*
 * Take up to @max notices into @out; a loss is reported first, as a
 * PERF_PERSISTENT_NOTICE_LOST notice whose time is the number lost.
 */
static unsigned int watcher_take(struct pp_watcher *w,
				 struct perf_persistent_notice *out,
				 unsigned int max)
{
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&w->lock, flags);
	if (w->lost && max) {
		out[n++] = (struct perf_persistent_notice) {
			.what = PERF_PERSISTENT_NOTICE_LOST, .time = w->lost,
		};
		w->lost = 0;
	}
	n += kfifo_out(&w->queue, out + n, max - n);
	spin_unlock_irqrestore(&w->lock, flags);
	return n;
}

/**
 * pp_notify_read - read the notices of a watching file
 * @file: the control file
 * @buf: user buffer
 * @len: its size: whole notices are returned, at least one
 *
 * Blocks until there is one, unless O_NONBLOCK.  Process context.
 *
 * Return: bytes read; -EINVAL (@len below one notice, or the file watches
 * nothing), -EAGAIN, -ERESTARTSYS, -EFAULT.
 */
ssize_t pp_notify_read(struct file *file, char __user *buf, size_t len)
{
	struct perf_persistent_notice out[8];
	struct pp_watcher *w = watcher_of(file);
	unsigned int n;
	int ret;

	if (!w || len < sizeof(out[0]))
		return -EINVAL;
	for (;;) {
		n = watcher_take(w, out, min_t(size_t, ARRAY_SIZE(out),
					       len / sizeof(out[0])));
		if (n)
			break;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(w->wait, watcher_ready(w));
		if (ret)
			return ret;
	}
	if (copy_to_user(buf, out, n * sizeof(out[0])))
		return -EFAULT;
	return n * sizeof(out[0]);
}

int pp_notify_fasync(int fd, struct file *file, int on)
{
	struct pp_watcher *w = watcher_get(file);

	if (!w)
		return -ENOMEM;
	return fasync_helper(fd, file, on, &w->fasync);
}

/* The control file is released: its watcher leaves the list and goes. */
void pp_notify_release(struct file *file)
{
	struct pp_watcher *w = file->private_data;
	unsigned long flags;

	if (!w)
		return;
	spin_lock_irqsave(&pp_watch_lock, flags);
	list_del(&w->node);
	spin_unlock_irqrestore(&pp_watch_lock, flags);
	if (w->overflows)
		static_branch_dec(&pp_overflow_watched);
	xa_destroy(&w->ids);
	kfree(w);
}
