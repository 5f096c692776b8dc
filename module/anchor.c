// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the anchor a crash dump's reader finds the buffers by
 * (include/perf_persistent/anchor.h, anchor.h)
 *
 * Without a region the buffers live in vmalloc memory, which a crash
 * dump keeps (makedumpfile -d 31 drops only free, cache, user and zero
 * pages), but finding them there takes the module's debug information,
 * which DKMS strips.  So the module keeps a description of every event
 * and of the physical pages of each CPU's buffer in pages of its own,
 * behind a magic a reader finds by scanning the dump.
 *
 * The anchor is rewritten whole on every change, in process context, into
 * new pages: a dump taken at any moment has the old one or the new one
 * whole.  The record path never touches it.  A removal rewrites it at
 * once, before the event's buffers are freed; an addition (an event, a
 * CPU's buffer) marks it stale and queues a work item, which rewrites it
 * once for all the additions made meanwhile: loading the module with E
 * events on C CPUs writes a few anchors, not E x C of them, each of which
 * walks every buffer's pages.
 *
 * Lock order: an event's sync_lock, then pp_anchor.lock.  The work item
 * takes pp_anchor.lock alone, in a kworker; it uses the module's memory
 * only and opens no file (a kworker's root has no /proc: the boot id is
 * read by the adding task), and is cancelled before the module's last
 * entry goes (pp_anchor_del()) and at exit.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/crc32.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "anchor.h"
#include "buffer.h"
#include "region.h"
#include "perf_persistent/anchor.h"

/**
 * struct pp_anchor - the anchor of this load
 * @lock: protects everything here
 * @entries: the events' entries
 * @hdr: the anchor written last, or NULL
 * @generation: anchors written
 * @boot_id: this boot's id, read by the first addition's task
 * @stale: an addition is not in @hdr yet; @work is queued
 */
static struct pp_anchor {
	struct mutex		lock;		/* see above */
	struct list_head	entries;
	struct pp_anchor_header	*hdr;
	u64			generation;
	char			boot_id[40];
	bool			stale;
} pp_anchor = {
	.lock = __MUTEX_INITIALIZER(pp_anchor.lock),
	.entries = LIST_HEAD_INIT(pp_anchor.entries),
};

/* The list pages a header page can list. */
#define PP_ANCHOR_MAX_LISTS \
	((PAGE_SIZE - sizeof(struct pp_anchor_header)) / sizeof(u64))
/* The page frames a list page holds. */
#define PP_ANCHOR_PER_LIST	(PAGE_SIZE / sizeof(u64))

/* The page frame of page @i of buffer @buf. */
static unsigned long pp_anchor_buf_pfn(const struct pp_buffer *buf,
				       unsigned long i)
{
	if (buf->phys)
		return PHYS_PFN(buf->phys) + i;
	return vmalloc_to_pfn((void *)buf->page + i * PAGE_SIZE);
}

/*
 * Walk @buf's pages and count its runs of contiguous page frames; with
 * @ext, store them there too.
 */
static u32 pp_anchor_extents(const struct pp_buffer *buf,
			     struct pp_anchor_extent *ext)
{
	unsigned long i, pages = 1 + buf->size / PAGE_SIZE, pfn, last = 0;
	u32 n = 0;

	for (i = 0; i < pages; i++) {
		pfn = pp_anchor_buf_pfn(buf, i);
		if (n && pfn == last + 1) {
			if (ext)
				ext[n - 1].nr++;
		} else {
			if (ext) {
				ext[n].pfn = pfn;
				ext[n].nr = 1;
			}
			n++;
		}
		last = pfn;
	}
	return n;
}

/*
 * Bytes the entry of @e takes, with its tables and text; its CPUs and
 * extents into @nr_cpus and @nr_ext.
 */
static size_t pp_anchor_entry_size(const struct pp_anchor_entry *e,
				   u32 *nr_cpus, u32 *nr_ext)
{
	size_t fmt = e->format ? strlen(e->format) + 1 : 0;
	unsigned int cpu;

	*nr_cpus = 0;
	*nr_ext = 0;
	for_each_possible_cpu(cpu) {
		const struct pp_buffer *buf = READ_ONCE(e->bufs[cpu]);

		if (!buf)
			continue;
		(*nr_cpus)++;
		*nr_ext += pp_anchor_extents(buf, NULL);
	}
	return ALIGN(sizeof(struct pp_anchor_event) +
		     *nr_cpus * sizeof(struct pp_anchor_cpu) +
		     *nr_ext * sizeof(struct pp_anchor_extent) + fmt, 8);
}

/* Write the entry of @e at @ev, which has room for it. */
static void pp_anchor_entry_fill(const struct pp_anchor_entry *e,
				 struct pp_anchor_event *ev, size_t size,
				 u32 nr_cpus, u32 nr_ext)
{
	struct pp_anchor_cpu *c = (void *)(ev + 1);
	struct pp_anchor_extent *x = (void *)(c + nr_cpus);
	u32 k = 0, first = 0;
	unsigned int cpu;

	ev->size = size;
	ev->id = e->id;
	ev->nr_cpus = nr_cpus;
	ev->nr_extents = nr_ext;
	ev->buffer_size = e->buffer_size;
	ev->attr_size = min_t(u32, e->attr->size, PP_ANCHOR_ATTR_MAX);
	ev->kept = e->kept;
	strscpy(ev->name, e->name, sizeof(ev->name));
	strscpy(ev->tp_name, e->tp_name, sizeof(ev->tp_name));
	memcpy(ev->attr, e->attr, ev->attr_size);
	for_each_possible_cpu(cpu) {
		const struct pp_buffer *buf = READ_ONCE(e->bufs[cpu]);

		if (!buf)
			continue;
		c[k].cpu = cpu;
		c[k].first = first;
		c[k].pages = 1 + buf->size / PAGE_SIZE;
		c[k].nr = pp_anchor_extents(buf, x + first);
		first += c[k].nr;
		k++;
	}
	if (e->format) {
		ev->format_len = strlen(e->format) + 1;
		memcpy(x + nr_ext, e->format, ev->format_len);
	}
}

/* Clear @h's magic, so that a dump holds one anchor, and free it. */
static void pp_anchor_free(struct pp_anchor_header *h)
{
	if (!h)
		return;
	WRITE_ONCE(h->magic[0], 0);
	vfree(h);
}

/*
 * Write a new anchor from the entries, then retire the old one.  On
 * failure there is none: an old one could name pages that are given back.
 * Process context, the anchor's lock held.
 *
 * One allocation holds the anchor's @pages pages, then its @lists list
 * pages, which hold the page frame of each anchor page in order; the
 * header's page list names the list pages.
 */
static void pp_anchor_write(void)
{
	struct pp_anchor *a = &pp_anchor;
	struct pp_anchor_header *h = NULL;
	struct pp_anchor_entry *e;
	size_t entries = 0, off;
	unsigned long pages, lists = 1, i;
	u32 nr_cpus, nr_ext, nr = 0;
	u64 *list;

	lockdep_assert_held(&a->lock);
	a->stale = false;
	if (list_empty(&a->entries))
		goto out;
	/* The entries and their buffers change only under the lock. */
	list_for_each_entry(e, &a->entries, node)
		entries += pp_anchor_entry_size(e, &nr_cpus, &nr_ext);
	/* Enough list pages for the pages the anchor then takes. */
	for (;;) {
		off = ALIGN(sizeof(*h) + lists * sizeof(u64), 8);
		pages = DIV_ROUND_UP(off + entries, PAGE_SIZE);
		if (DIV_ROUND_UP(pages, PP_ANCHOR_PER_LIST) <= lists)
			break;
		lists = DIV_ROUND_UP(pages, PP_ANCHOR_PER_LIST);
	}
	if (lists > PP_ANCHOR_MAX_LISTS) {
		pr_warn_ratelimited("anchor: %zu bytes, more than %lu list pages: a crash dump will not show the events\n",
				    off + entries, PP_ANCHOR_MAX_LISTS);
		goto out;
	}
	h = vzalloc((pages + lists) * PAGE_SIZE);
	if (!h)
		goto out;
	h->version = PP_ANCHOR_VERSION;
	h->page_size = PAGE_SIZE;
	h->nr_pages = pages;
	h->nr_lists = lists;
	h->header_size = sizeof(*h);
	list = (void *)h + pages * PAGE_SIZE;
	for (i = 0; i < pages; i++)
		list[i] = vmalloc_to_pfn((void *)h + i * PAGE_SIZE);
	for (i = 0; i < lists; i++)
		h->pfn[i] = vmalloc_to_pfn((void *)list + i * PAGE_SIZE);
	h->entries = off;
	list_for_each_entry(e, &a->entries, node) {
		size_t n = pp_anchor_entry_size(e, &nr_cpus, &nr_ext);

		pp_anchor_entry_fill(e, (void *)h + off, n, nr_cpus, nr_ext);
		off += n;
		nr++;
	}
	h->size = off;
	h->nr_events = nr;
	h->generation = ++a->generation;
	h->local = local_clock();
	h->real = ktime_get_real_ns();
	strscpy(h->boot_id, a->boot_id, sizeof(h->boot_id));
	strscpy(h->release, init_utsname()->release, sizeof(h->release));
	/* zlib's crc32, as the tool computes it. */
	h->crc = ~crc32_le(~0, (const u8 *)h, h->size);
	/* The magic last: a reader that finds it finds the rest whole. */
	smp_wmb();
	h->magic[1] = PP_ANCHOR_MAGIC1;
	WRITE_ONCE(h->magic[0], PP_ANCHOR_MAGIC0);
out:
	pp_anchor_free(a->hdr);
	a->hdr = h;
}

/* The work item: write the anchor once for the additions made since. */
static void pp_anchor_work_fn(struct work_struct *work)
{
	mutex_lock(&pp_anchor.lock);
	if (pp_anchor.stale)
		pp_anchor_write();
	mutex_unlock(&pp_anchor.lock);
}

static DECLARE_WORK(pp_anchor_work, pp_anchor_work_fn);

/* An addition: the anchor's lock held. */
static void pp_anchor_mark_stale(void)
{
	lockdep_assert_held(&pp_anchor.lock);
	pp_anchor.stale = true;
	schedule_work(&pp_anchor_work);
}

/**
 * pp_anchor_add - describe an event in the anchor
 * @e: its entry, every field but @node and @bufs set
 *
 * In the anchor a moment later (the work item).  Process context.
 *
 * Return: 0, or -ENOMEM.
 */
int pp_anchor_add(struct pp_anchor_entry *e)
{
	e->bufs = kcalloc(nr_cpu_ids, sizeof(*e->bufs), GFP_KERNEL);
	if (!e->bufs)
		return -ENOMEM;
	mutex_lock(&pp_anchor.lock);
	/*
	 * The boot id is read here, in the task adding the event, which
	 * sees the machine's /proc: the work item's kworker has the root of
	 * the kernel's first filesystem, where /proc is not mounted (the
	 * id came out empty on Debian 13's machine).  Tried again at the
	 * next addition if this task's root has no /proc either.
	 */
	if (!pp_anchor.boot_id[0])
		pp_boot_id_read(pp_anchor.boot_id, sizeof(pp_anchor.boot_id));
	list_add_tail(&e->node, &pp_anchor.entries);
	pp_anchor_mark_stale();
	mutex_unlock(&pp_anchor.lock);
	return 0;
}

/**
 * pp_anchor_set_buffer - an event's CPU got its buffer
 * @e: the event's entry, added
 * @cpu: the CPU
 * @buf: its buffer, which stays until pp_anchor_del()
 *
 * In the anchor a moment later (the work item).  Process context.
 */
void pp_anchor_set_buffer(struct pp_anchor_entry *e, unsigned int cpu,
			  struct pp_buffer *buf)
{
	mutex_lock(&pp_anchor.lock);
	WRITE_ONCE(e->bufs[cpu], buf);
	pp_anchor_mark_stale();
	mutex_unlock(&pp_anchor.lock);
}

/**
 * pp_anchor_del - take an event out of the anchor
 * @e: its entry, added or not
 *
 * Before its buffers or its strings are freed: the anchor is rewritten
 * at once, the additions still waiting for the work item with it, and
 * the work item cancelled (the last entry's removal leaves nothing
 * queued in the module).  Process context; may wait for the work item,
 * which takes no lock of the caller's.
 */
void pp_anchor_del(struct pp_anchor_entry *e)
{
	if (!e->bufs)
		return;
	cancel_work_sync(&pp_anchor_work);
	mutex_lock(&pp_anchor.lock);
	list_del(&e->node);
	pp_anchor_write();
	mutex_unlock(&pp_anchor.lock);
	kfree(e->bufs);
	e->bufs = NULL;
}

/**
 * pp_anchor_current - the anchor as it is once the additions are in, for
 * its KUnit suite
 * @hdr: out: a copy of it, @len bytes at most
 * @len: room in @hdr
 *
 * Process context; waits for the work item.
 *
 * Return: the anchor's size, 0 when there is none (its copy cut at @len).
 */
size_t pp_anchor_current(void *hdr, size_t len)
{
	size_t size = 0;

	flush_work(&pp_anchor_work);
	mutex_lock(&pp_anchor.lock);
	if (pp_anchor.hdr) {
		size = pp_anchor.hdr->size;
		memcpy(hdr, pp_anchor.hdr, min(size, len));
	}
	mutex_unlock(&pp_anchor.lock);
	return size;
}

/* Module exit, with no event left: no anchor either.  Process context. */
void pp_anchor_exit(void)
{
	cancel_work_sync(&pp_anchor_work);
	mutex_lock(&pp_anchor.lock);
	WARN_ON(!list_empty(&pp_anchor.entries));
	pp_anchor_free(pp_anchor.hdr);
	pp_anchor.hdr = NULL;
	mutex_unlock(&pp_anchor.lock);
}
