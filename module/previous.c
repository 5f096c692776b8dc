// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: what the reserved region held at load (previous.h)
 *
 * Before the region is formatted for this boot (keep.c), the module reads
 * what another boot left there.  Nothing in it is trusted: the header,
 * each descriptor, each CPU's control page and every record are checked
 * against the region's bounds and against each other, and the walk over a
 * buffer's records (pp_buffer_found()) stops at the first that breaks a
 * rule.  What passes is copied into buffers in kernel memory, because the
 * region is reused at once; ops.c then shows each event found as a
 * read-only "previous" event.
 *
 * Everything here runs at module init, in process context, before any
 * event exists and before the region is in use: no lock is needed.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/crc32.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "buffer.h"
#include "previous.h"
#include "region.h"
#include "registry.h"

struct pp_previous_boot pp_previous_boot = {
	.list = LIST_HEAD_INIT(pp_previous_boot.list),
};

static const char * const pp_found_stop_names[PP_FOUND_NR] = {
	[PP_FOUND_WHOLE]	= "whole",
	[PP_FOUND_OVERRUN]	= "overrun",
	[PP_FOUND_SIZE]		= "size",
	[PP_FOUND_CROSS]	= "cross",
	[PP_FOUND_TYPE]		= "type",
	[PP_FOUND_TIME]		= "time",
	[PP_FOUND_FIELDS]	= "fields",
	[PP_FOUND_PAGE]		= "page",
	[PP_FOUND_ABSENT]	= "absent",
	[PP_FOUND_NOMEM]	= "nomem",
};

/* The word sysfs and the log use for @stop. */
const char *pp_found_stop_name(enum pp_found_stop stop)
{
	return stop < PP_FOUND_NR ? pp_found_stop_names[stop] : "?";
}

/* Is the string in @s, of @len bytes, terminated inside them? */
static bool pp_terminated(const char *s, size_t len)
{
	return strnlen(s, len) < len;
}

/**
 * pp_region_header_check - is @h a header this module wrote, for this region?
 * @h: the region's first page
 * @size: the region's size
 * @why: out: the reason when it is not
 *
 * Pure.  Return: 0; -ENODATA when no header is there (a region never used,
 * or RAM that was not kept); -EPROTO for another layout version or page
 * size; -EBADMSG for a damaged header or one of another region's size.
 */
int pp_region_header_check(const struct pp_region_header *h, u64 size,
			   const char **why)
{
	if (h->magic != PP_REGION_MAGIC) {
		*why = "no header (a region never used, or RAM not kept)";
		return -ENODATA;
	}
	if (h->version != PP_REGION_VERSION || h->page_size != PAGE_SIZE) {
		*why = "another layout version or page size";
		return -EPROTO;
	}
	if (h->crc != crc32_le(~0, (const void *)h,
			       offsetof(struct pp_region_header, crc))) {
		*why = "the header's checksum is wrong";
		return -EBADMSG;
	}
	if (h->size != size || h->header_size != sizeof(*h) ||
	    h->nr_slots > (PAGE_SIZE - sizeof(*h)) / sizeof(h->slots[0]) ||
	    !pp_terminated(h->boot_id, sizeof(h->boot_id)) ||
	    !pp_terminated(h->release, sizeof(h->release))) {
		*why = "the header does not describe this region";
		return -EBADMSG;
	}
	return 0;
}

/**
 * pp_region_desc_check - the descriptor a directory slot names, if sound
 * @mem: the region
 * @size: its size
 * @page: the slot's value
 * @why: out: the reason when it is not
 *
 * Pure.  The descriptor must lie inside the region after the header,
 * carry its magic and checksum, and hold a valid name, attr, buffer size
 * and terminated format text.
 *
 * Return: the descriptor, or NULL.
 */
const struct pp_region_desc *pp_region_desc_check(const void *mem, u64 size,
						  u32 page, const char **why)
{
	const struct pp_region_desc *d;
	u64 avail;

	if (!page || page >= size >> PAGE_SHIFT) {
		*why = "outside the region";
		return NULL;
	}
	d = mem + (u64)page * PAGE_SIZE;
	avail = size - (u64)page * PAGE_SIZE;
	if (avail < sizeof(*d) || d->magic != PP_REGION_DESC_MAGIC) {
		*why = "no descriptor there";
		return NULL;
	}
	if (!d->nr_cpus || d->nr_cpus > 0x10000 || d->size > avail ||
	    d->size != struct_size(d, cpus, d->nr_cpus) + (u64)d->format_len) {
		*why = "its size runs outside the region";
		return NULL;
	}
	if (d->crc != pp_region_crc(d, (const char *)&d->cpus[d->nr_cpus])) {
		*why = "its checksum is wrong";
		return NULL;
	}
	if (!pp_terminated(d->name, sizeof(d->name)) || !pp_name_valid(d->name) ||
	    !pp_terminated(d->tp_name, sizeof(d->tp_name)) ||
	    d->attr_size < PERF_ATTR_SIZE_VER0 ||
	    d->attr_size > sizeof(d->attr) ||
	    d->buffer_size < PAGE_SIZE || !is_power_of_2(d->buffer_size) ||
	    d->buffer_size > PERF_PERSISTENT_BUFFER_MAX ||
	    (d->format_len &&
	     ((const char *)&d->cpus[d->nr_cpus])[d->format_len - 1])) {
		*why = "it holds values this module never writes";
		return NULL;
	}
	return d;
}

/* Is the run of @len bytes at @p perf COMM and MMAP2 records, each whole? */
static bool pp_maps_records_ok(const u8 *p, size_t len, unsigned int *comms)
{
	const struct perf_event_header *hdr;
	size_t off = 0, name, min;

	*comms = 0;
	while (off < len) {
		if (len - off < sizeof(*hdr))
			return false;
		hdr = (const void *)(p + off);
		min = sizeof(*hdr) + (hdr->type == PERF_RECORD_MMAP2 ? 64 : 8);
		if ((hdr->type != PERF_RECORD_COMM &&
		     hdr->type != PERF_RECORD_MMAP2) || hdr->size % 8 ||
		    hdr->size < min + 16 || hdr->size > len - off)
			return false;
		/* The name, NUL-terminated, between the fields and the time. */
		name = hdr->size - min - sizeof(u64);
		if (strnlen((const char *)hdr + min, name) == name)
			return false;
		if (hdr->type == PERF_RECORD_MMAP2 &&
		    (hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
		    *((const u8 *)hdr + sizeof(*hdr) + 32) > 20)
			return false;
		*comms += hdr->type == PERF_RECORD_COMM;
		off += hdr->size;
	}
	return true;
}

/**
 * pp_region_maps_check - the newest whole copy of a mappings table's area
 * @a: the area a directory slot points at (its magic checked)
 * @avail: bytes of the region from @a on
 * @len: out: the copy's length
 * @processes: out: the processes it names
 * @why: out: the reason when neither copy is whole
 *
 * Pure.  The area must lie in the region; a copy must lie in its area,
 * match its checksum and be a run of whole COMM and MMAP2 records.  The
 * newest copy is tried first, then the other (a reset may have torn the
 * one being written).
 *
 * Return: the copy, or NULL.
 */
const void *pp_region_maps_check(const struct pp_region_maps *a, u64 avail,
				 size_t *len, unsigned int *processes,
				 const char **why)
{
	unsigned int i, h;
	const u8 *copy;

	if (avail < sizeof(*a) || a->size > avail ||
	    a->size < sizeof(*a) + 2 * (u64)a->half) {
		*why = "its size runs outside the region";
		return NULL;
	}
	*why = "no copy is whole";
	for (i = 0; i < 2 && i < a->seq; i++) {
		h = (a->seq - 1 - i) & 1;
		copy = a->data + (size_t)h * a->half;
		if (a->len[h] > a->half ||
		    a->crc[h] != crc32_le(~0, copy, a->len[h]) ||
		    !pp_maps_records_ok(copy, a->len[h], processes))
			continue;
		*len = a->len[h];
		return copy;
	}
	return NULL;
}

/* Keep a copy of the mappings table the area at @page holds; -ENOMEM. */
static int pp_previous_maps(const struct pp_region *r, u32 page)
{
	struct pp_previous_boot *pb = &pp_previous_boot;
	const void *copy;
	const char *why;
	size_t len;

	copy = pp_region_maps_check(r->mem + (u64)page * PAGE_SIZE,
				    r->size - (u64)page * PAGE_SIZE, &len,
				    &pb->maps_processes, &why);
	if (!copy) {
		pr_warn("previous boot: the profiles' mappings dropped: %s\n",
			why);
		return 0;
	}
	pb->maps = kvmalloc(max_t(size_t, len, 1), GFP_KERNEL);
	if (!pb->maps)
		return -ENOMEM;
	memcpy(pb->maps, copy, len);
	pb->maps_len = len;
	pr_info("previous boot: the profiles' mappings of %u processes found\n",
		pb->maps_processes);
	return 0;
}

/**
 * pp_region_cpu_check - where @d's buffer for @cpu is, if it is one
 * @mem: the region
 * @size: its size
 * @d: a sound descriptor (pp_region_desc_check())
 * @cpu: below @d->nr_cpus
 * @view: out: size and data of the buffer, for pp_buffer_found()
 * @pos: out: the data_head, tail and reserve_head its control page
 *	published
 *
 * Pure.  Return: 0; -ENOENT if the CPU never had a buffer; -ERANGE if it
 * lies outside the region; -EBADMSG if its control page is not one of
 * @d's buffers.
 */
int pp_region_cpu_check(const void *mem, u64 size,
			const struct pp_region_desc *d, unsigned int cpu,
			struct pp_buffer *view, unsigned long *pos)
{
	u64 nr = size >> PAGE_SHIFT, pages = 1 + (d->buffer_size >> PAGE_SHIFT);
	const struct perf_persistent_page_ext *ext;
	const struct perf_event_mmap_page *page;
	u32 first = READ_ONCE(d->cpus[cpu]);

	if (!first)
		return -ENOENT;
	if (first >= nr || pages > nr - first)
		return -ERANGE;
	page = mem + (u64)first * PAGE_SIZE;
	ext = (const void *)page + PERF_PERSISTENT_PAGE_EXT_OFFSET;
	if (page->data_offset != PAGE_SIZE ||
	    page->data_size != d->buffer_size ||
	    ext->size < PERF_PERSISTENT_PAGE_EXT_SIZE_VER1 ||
	    ext->id != d->id || ext->cpu != cpu ||
	    ext->sample_type != ((const struct perf_event_attr *)d->attr)->sample_type)
		return -EBADMSG;
	view->size = d->buffer_size;
	view->data = (void *)page + PAGE_SIZE;
	pos[0] = page->data_head;
	pos[1] = ext->tail;
	pos[2] = ext->reserve_head;
	return 0;
}

/* How much later than the next newer record a record's time may be. */
#define PP_FOUND_ORDER_SLACK	NSEC_PER_SEC

/**
 * pp_found_rules_init - what records of @sample_type must obey
 * @rules: out
 * @sample_type: the event's
 * @max_time: no record may be later
 *
 * The caller sets @rules->regs_mask and @rules->scratch.  Pure.  A
 * sample's time follows its header and the IDENTIFIER, IP and TID fields
 * it has, in perf's order.
 */
void pp_found_rules_init(struct pp_found_rules *rules, u64 sample_type,
			 u64 max_time)
{
	memset(rules, 0, sizeof(*rules));
	rules->sample_type = sample_type;
	rules->time_off = -1;
	if (sample_type & PERF_SAMPLE_TIME)
		rules->time_off = sizeof(struct perf_event_header) + sizeof(u64) *
			hweight64(sample_type & (PERF_SAMPLE_IDENTIFIER |
						 PERF_SAMPLE_IP |
						 PERF_SAMPLE_TID));
	rules->max_time = max_time;
	rules->slack = PP_FOUND_ORDER_SLACK;
}

/* Free a found event and the buffers it still holds; process context. */
void pp_found_event_free(struct pp_found_event *fe)
{
	unsigned int i;

	if (!fe)
		return;
	for (i = 0; i < fe->nr; i++)
		pp_buffer_free(fe->cpus[i].buf);
	kfree(fe->format);
	kfree(fe);
}

/* Check and copy one CPU's buffer of @d into @fc; -ENOMEM. */
static int pp_found_cpu(const struct pp_region *r,
			const struct pp_region_desc *d, unsigned int cpu,
			const struct pp_found_rules *rules,
			struct pp_found_cpu *fc)
{
	struct pp_buffer view = {}, *buf;
	struct pp_buffer_found f;
	unsigned long pos[3];

	fc->cpu = cpu;
	if (pp_region_cpu_check(r->mem, r->size, d, cpu, &view, pos) ||
	    pp_buffer_found(&view, pos[0], pos[1], pos[2], rules, &f)) {
		/* How much it held cannot be known: all it could hold. */
		fc->stop = PP_FOUND_PAGE;
		fc->untrusted = d->buffer_size;
		return 0;
	}
	fc->stop = f.stop;
	fc->torn = f.torn;
	fc->untrusted = pos[1] - f.tail + (f.head - pos[0]);
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		fc->stop = PP_FOUND_ABSENT;
		fc->untrusted = pos[1] - pos[0];
		return 0;
	}
	buf = pp_buffer_alloc(view.size);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (pp_buffer_adopt(buf, &view, f.head, f.tail)) {
		pp_buffer_free(buf);
		fc->stop = PP_FOUND_PAGE;
		fc->untrusted = pos[1] - pos[0];
		return 0;
	}
	buf->ext->sample_type = ((const struct perf_event_attr *)d->attr)->sample_type;
	buf->ext->id = d->id;
	buf->ext->cpu = cpu;
	/* Nothing records into it; it is read as it is. */
	pp_buffer_set_paused(buf, true);
	fc->buf = buf;
	return 0;
}

/*
 * Check and copy the event @d describes; NULL if out of memory for it or
 * for any of its CPUs' buffers.
 */
static struct pp_found_event *pp_found_event(const struct pp_region *r,
					     const struct pp_region_desc *d,
					     u64 max_time, void *scratch)
{
	const char *format = (const char *)&d->cpus[d->nr_cpus];
	struct pp_found_rules rules;
	struct pp_found_event *fe;
	unsigned int cpu, n = 0;

	for (cpu = 0; cpu < d->nr_cpus; cpu++)
		n += !!READ_ONCE(d->cpus[cpu]);
	fe = kzalloc(struct_size(fe, cpus, n), GFP_KERNEL);
	if (!fe)
		return NULL;
	fe->id = d->id;
	strscpy(fe->name, d->name, sizeof(fe->name));
	strscpy(fe->tp_name, d->tp_name, sizeof(fe->tp_name));
	memcpy(&fe->attr, d->attr, min_t(u32, d->attr_size, sizeof(fe->attr)));
	fe->attr.size = sizeof(fe->attr);
	fe->buffer_size = d->buffer_size;
	if (d->format_len) {
		fe->format = kstrdup(format, GFP_KERNEL);
		if (!fe->format) {
			kfree(fe);
			return NULL;
		}
	}
	pp_found_rules_init(&rules, fe->attr.sample_type, max_time);
	rules.regs_mask = fe->attr.sample_regs_user;
	rules.scratch = scratch;
	for (cpu = 0; cpu < d->nr_cpus && fe->nr < n; cpu++) {
		if (!READ_ONCE(d->cpus[cpu]))
			continue;
		if (pp_found_cpu(r, d, cpu, &rules, &fe->cpus[fe->nr])) {
			pp_found_event_free(fe);
			return NULL;
		}
		fe->nr++;
	}
	return fe;
}

/* Log what was kept of @fe. */
static void pp_found_event_log(const struct pp_found_event *fe)
{
	u64 records = 0, untrusted = 0;
	unsigned int i, bad = 0;

	for (i = 0; i < fe->nr; i++) {
		const struct pp_found_cpu *fc = &fe->cpus[i];

		if (fc->buf)
			records += fc->buf->written;
		untrusted += fc->untrusted;
		if (fc->stop != PP_FOUND_WHOLE) {
			bad++;
			pr_info("previous boot: %s: CPU %u: %s, %llu bytes not kept\n",
				fe->name, fc->cpu, pp_found_stop_name(fc->stop),
				fc->untrusted);
		}
	}
	pr_info("previous boot: %s: %llu records kept of %u CPUs, %u of them cut short (%llu bytes not kept)\n",
		fe->name, records, fe->nr, bad, untrusted);
}

/* Is an event of this name found already? */
static bool pp_found_named(const char *name)
{
	const struct pp_found_event *fe;

	list_for_each_entry(fe, &pp_previous_boot.list, node)
		if (!strcmp(fe->name, name))
			return true;
	return false;
}

/**
 * pp_previous_find - take what the previous boot left in the region
 * @r: the region, mapped and not yet formatted for this boot
 *
 * Fills pp_previous_boot.  Module init, process context.  What is damaged
 * is dropped and logged; memory too short to copy what the previous boot
 * kept fails the load, so that the region is not formatted and the next
 * load finds it all again.
 *
 * Return: 0, or -ENOMEM (nothing kept: pp_previous_forget() done).
 */
int pp_previous_find(struct pp_region *r)
{
	struct pp_previous_boot *pb = &pp_previous_boot;
	const struct pp_region_header *h = r->mem;
	const struct pp_region_desc *d;
	struct pp_found_event *fe;
	bool maps_seen = false;
	const char *why;
	unsigned int i;
	void *scratch;
	u64 max_time;
	u32 seq;

	if (pp_region_header_check(h, r->size, &why)) {
		pr_info("region: no previous boot: %s\n", why);
		return 0;
	}
	if (!strcmp(h->boot_id, r->boot_id)) {
		pr_info("region: written by this boot (the module was reloaded): no previous boot\n");
		return 0;
	}
	pb->found = true;
	strscpy(pb->boot_id, h->boot_id, sizeof(pb->boot_id));
	strscpy(pb->release, h->release, sizeof(pb->release));
	pb->text_delta = (long)((unsigned long)&_printk - h->text_anchor);
	pb->end = READ_ONCE(h->last_reason);
	seq = READ_ONCE(h->clock_seq);
	pb->clock = h->clock[(seq - 1) & 1];
	if (pb->end == PP_REGION_END_PANIC || pb->end == PP_REGION_END_REBOOT)
		pb->clock = h->last;
	else
		pb->end = PP_REGION_END_UNKNOWN;
	/* A record can be later than the last clock pair the region got. */
	max_time = pb->clock.local + PP_REGION_CLOCK_SLACK;
	scratch = kvmalloc(PP_FOUND_SCRATCH, GFP_KERNEL);
	if (!scratch)
		goto err_nomem;

	for (i = 0; i < h->nr_slots; i++) {
		u32 page = READ_ONCE(h->slots[i]);

		if (!page)
			continue;
		if (page < r->size >> PAGE_SHIFT &&
		    READ_ONCE(*(const u64 *)(r->mem + (u64)page * PAGE_SIZE)) ==
		    PP_REGION_MAPS_MAGIC) {
			/*
			 * A region holds one mappings area.  A second is
			 * damage that copied its page over a descriptor's,
			 * whose event is lost: count it as that descriptor.
			 */
			if (maps_seen) {
				pb->bad++;
				pr_warn("previous boot: descriptor %u (page %u) dropped: another mappings area\n",
					i, page);
				continue;
			}
			maps_seen = true;
			if (pp_previous_maps(r, page))
				goto err_nomem;
			continue;
		}
		d = pp_region_desc_check(r->mem, r->size, page, &why);
		if (!d) {
			pb->bad++;
			pr_warn("previous boot: descriptor %u (page %u) dropped: %s\n",
				i, page, why);
			continue;
		}
		/*
		 * Two slots lead to one event when damage copied a
		 * descriptor's page over another's: keep the first.
		 */
		if (pp_found_named(d->name)) {
			pb->bad++;
			pr_warn("previous boot: descriptor %u (page %u) dropped: another descriptor holds %s\n",
				i, page, d->name);
			continue;
		}
		fe = pp_found_event(r, d, max_time, scratch);
		if (!fe)
			goto err_nomem;
		fe->clock = pb->clock;
		pp_found_event_log(fe);
		list_add_tail(&fe->node, &pb->list);
		pb->events++;
	}
	pr_info("region: previous boot %s (%s, ended by %s): %u events found, %u dropped\n",
		pb->boot_id, pb->release,
		pb->end == PP_REGION_END_PANIC ? "a panic" :
		pb->end == PP_REGION_END_REBOOT ? "a reboot" : "a reset",
		pb->events, pb->bad);
	kvfree(scratch);
	return 0;

err_nomem:
	kvfree(scratch);
	pr_warn("previous boot: no memory to keep its events: not loading, the region left as it is\n");
	pp_previous_forget();
	pb->events = 0;
	pb->found = false;
	return -ENOMEM;
}

/* Free the found events no one made events of; process context. */
void pp_previous_forget(void)
{
	struct pp_found_event *fe, *tmp;

	list_for_each_entry_safe(fe, tmp, &pp_previous_boot.list, node) {
		list_del(&fe->node);
		pp_found_event_free(fe);
	}
	kvfree(pp_previous_boot.maps);
	pp_previous_boot.maps = NULL;
	pp_previous_boot.maps_len = 0;
}
