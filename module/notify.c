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
 * that watches with PERF_PERSISTENT_IOC_WATCH_OVERFLOW is also told when
 * the event stores records, as perf signals an fd's owner on overflow.
 *
 * notices.c tells how a notice reaches this file and how an event is kept
 * from notifying itself without end.  Its work calls notify_post(), which
 * pp_notify_init() hands it at module init.  The second rule against
 * feedback is kept here: watcher_put() merges an overflow notice into one
 * that the file has not read yet, and sends nothing.  The merge is
 * remembered: reading the held notice queues the merged one behind what
 * was read, and signals it then (watcher_take()), so a reader that was
 * late for one notice does not lose the next, and still gets at most one
 * per read.
 *
 * Who may watch.  Notices of freezes and triggers need no capability
 * (opening the device needs root).  Overflow notices tell when an event
 * records, as reading its counts does, so they need CAP_PERFMON or
 * CAP_SYS_ADMIN.  The control device checks it.
 *
 * Contexts: process context throughout.
 *
 * Locking: pp_watch_lock, a mutex, protects the list of watching files,
 * and each watcher's lock, a spinlock, protects its queue.  The order is
 * pp_watch_lock -> watcher->lock.  A watcher is freed only after it has
 * left the list under pp_watch_lock, so the poster never sees it freed.
 */

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <uapi/linux/perf_persistent.h>

#include "event.h"
#include "notices.h"
#include "notify.h"

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
 * @lock: protects @queue, @later, @first, @len, @lost
 * @queue: notices not read yet, @len of them from @first on (a ring)
 * @later: per slot of @queue, the time of the last overflow notice of the
 *	same event merged into it while unread, or 0
 * @first: the oldest
 * @len: how many
 * @lost: notices dropped because @queue was full
 * @wait: readers and pollers
 * @fasync: SIGIO subscribers
 */
struct pp_watcher {
	struct list_head		node;
	struct xarray			ids;
	bool				all;
	bool				all_overflows;
	bool				overflows;
	spinlock_t			lock;	/* @queue, @later, @first, @len, @lost */
	struct perf_persistent_notice	queue[PP_NOTICES];
	u64				later[PP_NOTICES];
	unsigned int			first;
	unsigned int			len;
	u64				lost;
	wait_queue_head_t		wait;
	struct fasync_struct		*fasync;
};

static LIST_HEAD(pp_watchers);
static DEFINE_MUTEX(pp_watch_lock);
/* Serialises creating a file's watcher. */
static DEFINE_MUTEX(pp_watcher_create);

/* The file's watcher, made on first use; process context. */
static struct pp_watcher *watcher_get(struct file *file)
{
	struct pp_watcher *w = READ_ONCE(file->private_data);

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
	init_waitqueue_head(&w->wait);
	mutex_lock(&pp_watch_lock);
	list_add(&w->node, &pp_watchers);
	mutex_unlock(&pp_watch_lock);
	/* poll() and read() in other threads load it without a lock. */
	smp_store_release(&file->private_data, w);
out:
	mutex_unlock(&pp_watcher_create);
	return w;
}

/* The file's watcher, NULL if it watches nothing. */
static struct pp_watcher *watcher_of(struct file *file)
{
	/* Pairs with the release in watcher_get(), so @w is set up. */
	return smp_load_acquire(&file->private_data);
}

/* @w watches @id, or every event if 0, for @what; pp_watcher_create held. */
static int watcher_add(struct pp_watcher *w, u32 id, unsigned long what)
{
	unsigned long had = 0;
	struct pp_event *ev;
	void *old;
	int ret;

	lockdep_assert_held(&pp_watcher_create);
	if (!id) {
		WRITE_ONCE(w->all, true);
		if ((what & PP_WATCH_OVERFLOWS) && !w->all_overflows) {
			WRITE_ONCE(w->all_overflows, true);
			atomic_inc(&pp_overflow_watch_all);
		}
		return 0;
	}
	/* Destroyed since pp_notify_watch() looked?  Watch nothing more. */
	ev = pp_event_get(id);
	if (!ev)
		return -ENOENT;
	/* Watching again adds to what is watched. */
	old = xa_load(&w->ids, id);
	if (old)
		had = xa_to_value(old);
	ret = xa_err(xa_store(&w->ids, id, xa_mk_value(had | what),
			      GFP_KERNEL_ACCOUNT));
	/* The event's record path counts records for its first watcher. */
	if (!ret && (what & ~had & PP_WATCH_OVERFLOWS))
		atomic_inc(&ev->notices.watchers);
	pp_event_put(ev);
	return ret;
}

/**
 * pp_notify_watch - have @file watch event @id, or every event (0)
 * @file: the control file
 * @id: an event's id, or 0
 * @overflows: also the records it stores (the caller checked the right)
 *
 * Process context.  Return: 0, -ENOENT (no such event), -ENOMEM.
 */
int pp_notify_watch(struct file *file, u32 id, bool overflows)
{
	unsigned long what = PP_WATCH_INCIDENTS;
	struct pp_watcher *w;
	struct pp_event *ev;
	int ret;

	/* With no such event, the file is left as it was, watching nothing. */
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
	mutex_lock(&pp_watcher_create);
	ret = watcher_add(w, id, what);
	/* This file's first overflow watch turns on the record path's count. */
	if (!ret && overflows && !w->overflows) {
		w->overflows = true;
		static_branch_deferred_inc(&pp_overflow_watched);
	}
	mutex_unlock(&pp_watcher_create);
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

/*
 * The slot of @w's overflow notice of @id not read yet, or -1 if it holds
 * none.  w->lock held.
 */
static int watcher_overflow_slot(struct pp_watcher *w, u32 id)
{
	unsigned int i, slot;

	lockdep_assert_held(&w->lock);
	for (i = 0; i < w->len; i++) {
		slot = (w->first + i) % PP_NOTICES;
		if (w->queue[slot].id == id &&
		    w->queue[slot].what == PERF_PERSISTENT_NOTICE_OVERFLOW)
			return slot;
	}
	return -1;
}

/* Append @n to @w's queue, or count it lost.  w->lock held. */
static bool watcher_append(struct pp_watcher *w,
			   const struct perf_persistent_notice *n)
{
	unsigned int slot;

	lockdep_assert_held(&w->lock);
	if (w->len == PP_NOTICES) {
		w->lost++;
		/* News only if it is the first loss since the last read. */
		return w->lost == 1;
	}
	slot = (w->first + w->len++) % PP_NOTICES;
	w->queue[slot] = *n;
	w->later[slot] = 0;
	return true;
}

/*
 * Queue @n for @w.  An overflow notice of an event whose last one the
 * reader has not read yet is merged into that one (its time kept for
 * watcher_take()), and is no news.
 * Return: whether the reader has news, that is a notice queued or the
 * first loss since it last read.
 */
static bool watcher_put(struct pp_watcher *w,
			const struct perf_persistent_notice *n)
{
	bool news = false;
	int slot = -1;

	spin_lock(&w->lock);
	if (n->what == PERF_PERSISTENT_NOTICE_OVERFLOW)
		slot = watcher_overflow_slot(w, n->id);
	if (slot >= 0)
		w->later[slot] = n->time;
	else
		news = watcher_append(w, n);
	spin_unlock(&w->lock);
	return news;
}

/* Tell @w's reader that it has news: its poll and its SIGIO (F_SETOWN). */
static void watcher_tell(struct pp_watcher *w)
{
	wake_up_interruptible_poll(&w->wait, EPOLLIN | EPOLLRDNORM);
	kill_fasync(&w->fasync, SIGIO, POLL_IN);
}

/*
 * Tell the files that watch event @id.  Process context, in the notices'
 * work.  The walk may be long, one step per file, so it may sleep between
 * files.
 */
static void notify_post(u32 id, u32 what, u64 time)
{
	struct perf_persistent_notice n = { .id = id, .what = what,
					    .time = time };
	struct pp_watcher *w;

	mutex_lock(&pp_watch_lock);
	list_for_each_entry(w, &pp_watchers, node) {
		if (!watcher_wants(w, id, what) || !watcher_put(w, &n))
			continue;
		watcher_tell(w);
		cond_resched();
	}
	mutex_unlock(&pp_watch_lock);
}

/* Module init, before any event exists.  The notices are posted here. */
void pp_notify_init(void)
{
	pp_notices_set_post(notify_post);
}

/* Is a notice queued or lost, so that @w is readable?  Takes w->lock. */
static bool watcher_ready(struct pp_watcher *w)
{
	bool ready;

	spin_lock(&w->lock);
	ready = w->len || w->lost;
	spin_unlock(&w->lock);
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

/* The most notices one read returns. */
#define PP_NOTIFY_READ_MAX	8

/*
 * Take up to @max (at most PP_NOTIFY_READ_MAX) notices into @out; a loss
 * is reported first, as a PERF_PERSISTENT_NOTICE_LOST notice whose time
 * is the number lost.  An overflow notice taken that had another merged
 * into it leaves that one queued behind the rest, for the next read;
 * *@news then says that the reader has news to be told of.
 */
static unsigned int watcher_take(struct pp_watcher *w,
				 struct perf_persistent_notice *out,
				 unsigned int max, bool *news)
{
	struct perf_persistent_notice again[PP_NOTIFY_READ_MAX];
	unsigned int n = 0, nr_again = 0, i;

	*news = false;
	max = min_t(unsigned int, max, PP_NOTIFY_READ_MAX);
	spin_lock(&w->lock);
	if (w->lost && max) {
		out[n++] = (struct perf_persistent_notice) {
			.what = PERF_PERSISTENT_NOTICE_LOST, .time = w->lost,
		};
		w->lost = 0;
	}
	for (; n < max && w->len; n++, w->len--) {
		out[n] = w->queue[w->first];
		if (w->later[w->first]) {
			again[nr_again] = out[n];
			again[nr_again++].time = w->later[w->first];
		}
		w->first = (w->first + 1) % PP_NOTICES;
	}
	for (i = 0; i < nr_again; i++)
		*news |= watcher_append(w, &again[i]);
	spin_unlock(&w->lock);
	return n;
}

/**
 * pp_notify_read - read the notices of a watching file
 * @file: the control file
 * @buf: user buffer
 * @len: its size, at least one notice; only whole notices are returned
 *
 * Blocks until there is one, unless O_NONBLOCK.  Process context.
 *
 * Return: bytes read; -EINVAL (@len below one notice, or the file watches
 * nothing), -EAGAIN, -ERESTARTSYS, -EFAULT.
 */
ssize_t pp_notify_read(struct file *file, char __user *buf, size_t len)
{
	struct perf_persistent_notice out[PP_NOTIFY_READ_MAX];
	struct pp_watcher *w = watcher_of(file);
	unsigned int n;
	bool news;
	int ret;

	if (!w || len < sizeof(out[0]))
		return -EINVAL;
	for (;;) {
		n = watcher_take(w, out, min_t(size_t, ARRAY_SIZE(out),
					       len / sizeof(out[0])), &news);
		if (n)
			break;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(w->wait, watcher_ready(w));
		if (ret)
			return ret;
	}
	/*
	 * A merged notice queued again is told as notify_post() tells one:
	 * the SIGIO goes to the file's owner, as F_SETOWN set it.  It can
	 * feed the event only once per read, and the event's notices stay
	 * paced (notices.c).
	 */
	if (news)
		watcher_tell(w);
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

/* @w leaves the overflow counts of the events it watched. */
static void watcher_unwatch_overflows(struct pp_watcher *w)
{
	struct pp_event *ev;
	unsigned long id;
	void *v;

	if (w->all_overflows)
		atomic_dec(&pp_overflow_watch_all);
	xa_for_each(&w->ids, id, v) {
		if (!(xa_to_value(v) & PP_WATCH_OVERFLOWS))
			continue;
		/* A destroyed event records no more and needs no count. */
		ev = pp_event_get(id);
		if (!ev)
			continue;
		atomic_dec(&ev->notices.watchers);
		pp_event_put(ev);
	}
	static_branch_slow_dec_deferred(&pp_overflow_watched);
}

/* The control file is released: take its watcher off the list, free it. */
void pp_notify_release(struct file *file)
{
	struct pp_watcher *w = file->private_data;

	if (!w)
		return;
	mutex_lock(&pp_watch_lock);
	list_del(&w->node);
	mutex_unlock(&pp_watch_lock);
	if (w->overflows)
		watcher_unwatch_overflows(w);
	xa_destroy(&w->ids);
	kfree(w);
}

/* Module unload: run the key's deferred decrement before the code goes. */
void pp_notify_exit(void)
{
	static_key_deferred_flush(&pp_overflow_watched);
}
