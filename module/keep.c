// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the reserved region in use by this boot (region.h)
 *
 * At load the region is formatted for this boot: a new header, an empty
 * directory, after previous.c has taken what the last boot left.  Kept
 * events then take a descriptor and their per-CPU buffers from it.  A
 * delayed work refreshes the header's clock pair every
 * PP_REGION_CLOCK_PERIOD seconds, and the panic and reboot notifiers store
 * a last one and write the CPU caches back to memory, so that the next
 * boot knows how late the records can be and finds them in RAM.
 *
 * Locking: r->lock (a mutex, region.c) guards the page map and the
 * directory.  It is taken under an event's sync_lock (a CPU's buffer) and
 * under the mappings table's lock (its area, maps.c), under nothing else;
 * nothing is taken under it.  The notifiers take no
 * lock: they write the header's clock fields and read nothing that
 * changes.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/panic_notifier.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/reboot.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/utsname.h>
#include <linux/uuid.h>

#include "buffer.h"
#include "previous.h"
#include "region.h"

struct pp_region pp_region;

/*
 * This boot's id (pp_boot_id_read()), so that a previous boot found in the
 * region can be matched with its journal, and a reload of the module in
 * the same boot does not take this boot's records for the last one's.
 * Process context (module init).
 */
static void pp_region_read_boot_id(struct pp_region *r)
{
	int ret = pp_boot_id_read(r->boot_id, sizeof(r->boot_id));
	u8 uuid[16];

	if (!ret)
		return;
	/* No /proc where the module loads: a reload will see "another" boot. */
	generate_random_uuid(uuid);
	snprintf(r->boot_id, sizeof(r->boot_id), "%pUb", uuid);
	pr_warn("region: cannot read this boot's id (%d); using %s\n", ret,
		r->boot_id);
}

/* crc32_le over a header's fixed part. */
static u32 pp_region_header_crc(const struct pp_region_header *h)
{
	return crc32_le(~0, (const void *)h, offsetof(struct pp_region_header, crc));
}

/*
 * Store a clock pair in the slot that is not the newest, then make it the
 * newest: a reset in the middle leaves the other slot whole.  Any context:
 * the clocks read are the NMI-safe ones, so that the panic path cannot
 * wait on the timekeeper's lock.
 */
static void pp_region_clock_write(struct pp_region_header *h,
				  struct pp_region_clock *c)
{
	c->local = local_clock();
	c->real = ktime_get_real_fast_ns();
}

static void pp_region_clock_refresh(struct work_struct *work)
{
	struct pp_region *r = container_of(to_delayed_work(work),
					   struct pp_region, clock_work);
	struct pp_region_header *h = r->hdr;
	u32 seq = READ_ONCE(h->clock_seq);

	pp_region_clock_write(h, &h->clock[seq & 1]);
	/* The pair before the count that names it. */
	smp_wmb();
	WRITE_ONCE(h->clock_seq, seq + 1);
	queue_delayed_work(system_power_efficient_wq, &r->clock_work,
			   PP_REGION_CLOCK_PERIOD * HZ);
}

/*
 * The last clock pair and the write-back.  Called by the panic notifier
 * (atomic, other CPUs may be stopped anywhere, even in a writer) and the
 * reboot notifier (process context).  A record a stopped CPU was writing
 * is half there; the next boot's validation drops it.
 */
static void pp_region_end(struct pp_region *r, u32 reason)
{
	struct pp_region_header *h = r->hdr;

	pp_region_clock_write(h, &h->last);
	WRITE_ONCE(h->last_reason, reason);
#ifdef CONFIG_ARCH_HAS_PMEM_API
	/* A warm reset need not write dirty cache lines back to RAM. */
	arch_wb_cache_pmem(r->mem, r->size);
#endif
}

static int pp_region_panic(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	pp_region_end(container_of(nb, struct pp_region, panic_nb),
		      PP_REGION_END_PANIC);
	return NOTIFY_DONE;
}

static int pp_region_reboot(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	pp_region_end(container_of(nb, struct pp_region, reboot_nb),
		      PP_REGION_END_REBOOT);
	return NOTIFY_DONE;
}

/**
 * pp_region_format - write a new header for this boot
 * @r: the region, its page map set up and @r->boot_id this boot's
 *
 * The directory is empty, the clock pair the first.  Whatever the region
 * held is forgotten, so previous.c has copied what it wanted first.
 * Process context.
 */
void pp_region_format(struct pp_region *r)
{
	struct pp_region_header *h = r->mem;

	memset(h, 0, PAGE_SIZE);
	h->magic = PP_REGION_MAGIC;
	h->version = PP_REGION_VERSION;
	h->header_size = sizeof(*h);
	h->size = r->size;
	h->page_size = PAGE_SIZE;
	h->nr_cpu_ids = nr_cpu_ids;
	h->text_anchor = (unsigned long)&_printk;
	strscpy(h->boot_id, r->boot_id, sizeof(h->boot_id));
	strscpy(h->release, init_utsname()->release, sizeof(h->release));
	h->nr_slots = (PAGE_SIZE - sizeof(*h)) / sizeof(h->slots[0]);
	h->crc = pp_region_header_crc(h);
	pp_region_clock_write(h, &h->clock[0]);
	h->clock_seq = 1;
	/* Published to CREATE with KEEP (event.c) once it is whole. */
	smp_store_release(&r->hdr, h);
}

/**
 * pp_region_start - read the region, for this boot to take it
 * @r: the region, set up (pp_region_setup())
 *
 * Takes what the previous boot left in it (pp_previous_find()) and sets up
 * its page map; nothing is written to it until pp_region_commit().  Module
 * init, process context.
 *
 * Return: 0 or -ENOMEM (the region as it was: the next load reads it
 * again).
 */
int pp_region_start(struct pp_region *r)
{
	int ret;

	pp_region_read_boot_id(r);
	ret = pp_previous_find(r);
	if (ret)
		return ret;
	ret = pp_region_pages_init(r, r->size >> PAGE_SHIFT, 1);
	if (ret)
		/* Nothing will make events of what was found. */
		pp_previous_forget();
	return ret;
}

/**
 * pp_region_commit - take the region into use for this boot
 * @r: the region, started (pp_region_start())
 *
 * Formats it and starts the clock refresh and the notifiers.  Called once
 * the load can no longer fail, after the previous boot's events are
 * published: a load that fails before leaves the region as the previous
 * boot left it.  Until then no event can be kept in it (every writer
 * checks @r->hdr: a CREATE with KEEP made while the module is still
 * loading fails with ENXIO).  Module init, process context.
 */
void pp_region_commit(struct pp_region *r)
{
	pp_region_format(r);
	INIT_DELAYED_WORK(&r->clock_work, pp_region_clock_refresh);
	queue_delayed_work(system_power_efficient_wq, &r->clock_work,
			   PP_REGION_CLOCK_PERIOD * HZ);
	r->panic_nb.notifier_call = pp_region_panic;
	atomic_notifier_chain_register(&panic_notifier_list, &r->panic_nb);
	r->reboot_nb.notifier_call = pp_region_reboot;
	register_reboot_notifier(&r->reboot_nb);
}

/*
 * Module exit, or a load that failed after pp_region_start(); process
 * context.  At exit every event is gone, so the directory is empty, and
 * the next boot finds no previous events.  A load that failed before
 * pp_region_commit() wrote nothing to the region.
 */
void pp_region_stop(struct pp_region *r)
{
	if (r->hdr) {
		unregister_reboot_notifier(&r->reboot_nb);
		atomic_notifier_chain_unregister(&panic_notifier_list, &r->panic_nb);
		cancel_delayed_work_sync(&r->clock_work);
		r->hdr = NULL;
	}
	pp_region_pages_exit(r);
}

/*
 * Point a free directory slot at the descriptor @d, written whole on its
 * @k->pages pages from @first; give the pages back if no slot is free.
 * Process context; takes r->lock.  Return: 0 or -ENOSPC.
 */
static int pp_region_slot_add(struct pp_region *r, struct pp_region_keep *k,
			      void *d, long first)
{
	struct pp_region_header *h = r->hdr;
	unsigned int slot;

	mutex_lock(&r->lock);
	for (slot = 0; slot < h->nr_slots; slot++)
		if (!h->slots[slot])
			break;
	if (slot < h->nr_slots) {
		/* The descriptor before the slot that points at it. */
		smp_wmb();
		WRITE_ONCE(h->slots[slot], first);
	}
	mutex_unlock(&r->lock);
	if (slot == h->nr_slots) {
		pp_region_pages_free(r, first, k->pages);
		return -ENOSPC;
	}
	k->desc = d;
	k->first = first;
	k->slot = slot;
	return 0;
}

/**
 * pp_region_keep_begin - give an event a descriptor in the region
 * @r: the region in use
 * @k: out: the event's place
 * @id: its id
 * @name: its name
 * @tp_name: its tracepoint's "system:name", or ""
 * @attr: its source attr
 * @buffer_size: its per-CPU buffer size
 * @format: its tracepoint's format text, or NULL
 *
 * Process context; takes r->lock.  The descriptor is whole before the
 * directory points at it.
 *
 * Return: 0; -ENOSPC when the region has no room or no free slot left.
 */
int pp_region_keep_begin(struct pp_region *r, struct pp_region_keep *k,
			 u32 id, const char *name, const char *tp_name,
			 const struct perf_event_attr *attr,
			 unsigned long buffer_size, const char *format)
{
	size_t format_len = format ? strlen(format) + 1 : 0;
	size_t size = struct_size(k->desc, cpus, nr_cpu_ids) + format_len;
	struct pp_region_desc *d;
	long first;

	k->pages = DIV_ROUND_UP(size, PAGE_SIZE);
	first = pp_region_pages_alloc(r, k->pages);
	if (first < 0)
		return first;
	d = r->mem + first * PAGE_SIZE;
	memset(d, 0, k->pages * PAGE_SIZE);
	d->magic = PP_REGION_DESC_MAGIC;
	d->size = size;
	d->id = id;
	d->nr_cpus = nr_cpu_ids;
	d->buffer_size = buffer_size;
	strscpy(d->name, name, sizeof(d->name));
	strscpy(d->tp_name, tp_name, sizeof(d->tp_name));
	d->attr_size = min_t(u32, attr->size, sizeof(d->attr));
	memcpy(d->attr, attr, d->attr_size);
	d->format_len = format_len;
	if (format)
		memcpy(&d->cpus[nr_cpu_ids], format, format_len);
	d->crc = pp_region_crc(d, (const char *)&d->cpus[nr_cpu_ids]);
	return pp_region_slot_add(r, k, d, first);
}

/*
 * Take the event's descriptor out of the directory, then give its pages
 * back.  Process context; the event's buffers are still there and are
 * freed after this.
 */
void pp_region_keep_end(struct pp_region *r, struct pp_region_keep *k)
{
	if (!k->desc)
		return;
	mutex_lock(&r->lock);
	WRITE_ONCE(r->hdr->slots[k->slot], 0);
	mutex_unlock(&r->lock);
	k->desc->magic = 0;
	pp_region_pages_free(r, k->first, k->pages);
	k->desc = NULL;
}

/**
 * pp_region_keep_buffer - a kept event's buffer for @cpu, in the region
 * @r: the region in use
 * @k: the event's place
 * @cpu: the CPU
 *
 * Process context, the event's sync_lock held; takes r->lock.
 *
 * Return: the buffer, or ERR_PTR(-ENOSPC) when the region is full, or
 * pp_buffer_alloc_at()'s error.
 */
struct pp_buffer *pp_region_keep_buffer(struct pp_region *r,
					struct pp_region_keep *k,
					unsigned int cpu)
{
	unsigned long size = k->desc->buffer_size;
	unsigned long pages = 1 + (size >> PAGE_SHIFT);
	struct pp_buffer *buf;
	long first;

	first = pp_region_pages_alloc(r, pages);
	if (first < 0)
		return ERR_PTR(first);
	buf = pp_buffer_alloc_at(r->mem + first * PAGE_SIZE,
				 r->start + first * PAGE_SIZE, size);
	if (IS_ERR(buf)) {
		pp_region_pages_free(r, first, pages);
		return buf;
	}
	WRITE_ONCE(k->desc->cpus[cpu], first);
	return buf;
}

/**
 * pp_region_maps_begin - an area for the mappings table's copies
 * @r: the region in use
 * @k: out: its place (its @desc is the area)
 * @half: bytes of each copy's room
 *
 * Process context; takes r->lock.  The area is in the directory, with no
 * copy yet (@seq 0).
 *
 * Return: the area, or ERR_PTR(-ENOSPC).
 */
struct pp_region_maps *pp_region_maps_begin(struct pp_region *r,
					    struct pp_region_keep *k,
					    u32 half)
{
	size_t size = sizeof(struct pp_region_maps) + 2 * (size_t)half;
	struct pp_region_maps *m;
	long first;
	int ret;

	k->pages = DIV_ROUND_UP(size, PAGE_SIZE);
	first = pp_region_pages_alloc(r, k->pages);
	if (first < 0)
		return ERR_PTR(first);
	m = r->mem + first * PAGE_SIZE;
	memset(m, 0, sizeof(*m));
	m->magic = PP_REGION_MAPS_MAGIC;
	m->size = size;
	m->half = half;
	ret = pp_region_slot_add(r, k, m, first);
	return ret ? ERR_PTR(ret) : m;
}

/*
 * Take the mappings' area out of the directory; process context.  Its
 * magic is cleared as a descriptor's: both start with it.
 */
void pp_region_maps_end(struct pp_region *r, struct pp_region_keep *k)
{
	pp_region_keep_end(r, k);
}

/* Free a buffer pp_region_keep_buffer() made; process context. */
void pp_region_buffer_free(struct pp_region *r, struct pp_buffer *buf)
{
	unsigned long first = (buf->phys - r->start) >> PAGE_SHIFT;
	unsigned long pages = 1 + (buf->size >> PAGE_SHIFT);

	pp_buffer_free(buf);
	pp_region_pages_free(r, first, pages);
}
