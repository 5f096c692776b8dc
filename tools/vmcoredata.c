// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the events of a crashed kernel, read out of its
 * crash dump ("record --vmcore", "script --vmcore").
 *
 * The module keeps an anchor (include/perf_persistent/anchor.h) in pages
 * of its own: the events' names, attrs and formats, and the physical
 * pages of each CPU's buffer.  The dump is searched for its magic at the
 * start of every page; the anchor written last is taken, and each
 * buffer is put back together from its pages as a reader maps it, then
 * read as a buffer that was being written when the kernel stopped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "vmcore.h"
#include "perf_persistent/anchor.h"

/**
 * struct anchor_search - the anchors a dump holds
 * @vc: the dump
 * @best: the one written last (by its wall clock), whole, malloc()ed
 * @found: anchors whose checksum holds
 * @bad: pages with the magic that hold no whole anchor
 */
struct anchor_search {
	struct vmcore		*vc;
	struct pp_anchor_header	*best;
	unsigned int		found;
	unsigned int		bad;
};

/*
 * Read the anchor whose header page is at @paddr into a malloc()ed copy:
 * NULL when it is not whole (a page missing, a size or checksum that does
 * not hold) or memory runs out.
 */
static struct pp_anchor_header *anchor_read(struct vmcore *vc, uint64_t paddr)
{
	size_t page = vmcore_page_size(vc), per = page / sizeof(uint64_t), i;
	struct pp_anchor_header *h = malloc(page), *all;
	uint64_t *list = NULL;
	uint32_t crc;

	if (!h || vmcore_read(vc, paddr, h, page))
		goto bad;
	if (h->version != PP_ANCHOR_VERSION || h->page_size != page ||
	    h->header_size != sizeof(*h) || !h->nr_pages || !h->nr_lists ||
	    h->nr_lists > (page - sizeof(*h)) / sizeof(uint64_t) ||
	    h->nr_pages > (uint64_t)h->nr_lists * per ||
	    h->size > (uint64_t)h->nr_pages * page || h->size < sizeof(*h) ||
	    h->entries > h->size)
		goto bad;
	/* The list pages: the page frame of each of the anchor's pages. */
	list = malloc((size_t)h->nr_lists * page);
	if (!list)
		goto bad;
	for (i = 0; i < h->nr_lists; i++)
		if (vmcore_read(vc, h->pfn[i] * page, (char *)list + i * page, page))
			goto bad;
	if (list[0] * page != paddr)
		goto bad;
	all = realloc(h, (size_t)h->nr_pages * page);
	if (!all)
		goto bad;
	h = all;
	for (i = 1; i < h->nr_pages; i++)
		if (vmcore_read(vc, list[i] * page, (char *)h + i * page, page))
			goto bad;
	free(list);
	list = NULL;
	crc = h->crc;
	h->crc = 0;
	memset(h->magic, 0, sizeof(h->magic));
	if (pp_crc32(h, h->size) != crc)
		goto bad;
	h->crc = crc;
	return h;
bad:
	free(list);
	free(h);
	return NULL;
}

static int anchor_candidate(void *arg, uint64_t paddr)
{
	struct anchor_search *s = arg;
	struct pp_anchor_header *h = anchor_read(s->vc, paddr);

	if (!h) {
		s->bad++;
		return 0;
	}
	s->found++;
	if (s->best && (s->best->real > h->real ||
			(s->best->real == h->real &&
			 s->best->generation > h->generation))) {
		free(h);
		return 0;
	}
	free(s->best);
	s->best = h;
	return 0;
}

/*
 * The entry at @off of anchor @h, if it lies whole inside it with its
 * tables and text; NULL otherwise.
 */
static const struct pp_anchor_event *anchor_entry(const struct pp_anchor_header *h,
						  uint64_t off)
{
	const struct pp_anchor_event *e = (const void *)((const char *)h + off);
	uint64_t need;

	if (off + sizeof(*e) > h->size || off % 8)
		return NULL;
	need = sizeof(*e) + (uint64_t)e->nr_cpus * sizeof(struct pp_anchor_cpu) +
	       (uint64_t)e->nr_extents * sizeof(struct pp_anchor_extent) +
	       e->format_len;
	if (e->size < need || e->size > h->size - off ||
	    e->attr_size > PP_ANCHOR_ATTR_MAX ||
	    !memchr(e->name, '\0', sizeof(e->name)) ||
	    !memchr(e->tp_name, '\0', sizeof(e->tp_name)))
		return NULL;
	if (e->format_len &&
	    ((const char *)e)[need - 1] != '\0')
		return NULL;
	return e;
}

/*
 * Put CPU @c's buffer of @e back together from the dump and add its
 * records to @snap.  0, or -1 when out of memory; a buffer that cannot be
 * read is reported and left out.
 */
static int dump_cpu(struct vmcore *vc, const struct pp_anchor_event *e,
		    const struct pp_anchor_cpu *c, struct pp_snapshot *snap)
{
	const struct pp_anchor_extent *x = (const void *)
		((const struct pp_anchor_cpu *)(e + 1) + e->nr_cpus);
	size_t page = vmcore_page_size(vc), len, off = 0;
	const struct perf_event_mmap_page *pg;
	unsigned char *map;
	uint32_t i;
	uint64_t n = 0;
	void *image;
	long bad;
	int ret, missing = 0;

	for (i = 0; i < c->nr && c->first + i < e->nr_extents; i++)
		n += x[c->first + i].nr;
	if (c->first + c->nr > e->nr_extents || n != c->pages ||
	    n != 1 + e->buffer_size / page || e->buffer_size % page) {
		pp_error("%s: CPU %u: the anchor's page list does not add up: left out",
			 e->name, c->cpu);
		return 0;
	}
	map = malloc(n * page);
	if (!map)
		return -1;
	for (i = 0; i < c->nr; i++) {
		const struct pp_anchor_extent *ex = &x[c->first + i];

		ret = vmcore_read(vc, ex->pfn * page, map + off, ex->nr * page);
		if (ret < 0)
			goto skip;
		missing |= ret;
		off += ex->nr * page;
	}
	if (missing) {
		pp_error("%s: CPU %u: pages of its buffer are not in the dump%s: left out",
			 e->name, c->cpu, e->kept ?
			 " (it is in the reserved region: the next boot reads it, record --previous)" :
			 "");
		goto skip;
	}
	pg = (const void *)map;
	if (pg->data_offset != page || pg->data_size != e->buffer_size) {
		pp_error("%s: CPU %u: its control page is damaged: left out",
			 e->name, c->cpu);
		goto skip;
	}
	image = snapshot_image(map, &len, true);
	free(map);
	if (!image)
		return -1;
	bad = snapshot_add(snap, image, len);
	if (bad < 0)
		return -1;
	if (bad)
		pp_error("%s: CPU %u: a malformed record: it and the older records (%ld bytes) are not shown",
			 e->name, c->cpu, bad);
	return 0;
skip:
	free(map);
	return 0;
}

/*
 * Whether event @name is among the @nr @names (every event if none); with
 * @found, the name's flag there set.
 */
static bool wanted(const char *name, char **names, size_t nr, bool *found)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!strcmp(names[i], name)) {
			if (found)
				found[i] = true;
			return true;
		}
	}
	return !nr;
}

/* Make @e of @h @x's next export.  0, or 1 (reported). */
static int dump_event(struct exports *x, struct vmcore *vc,
		      const struct pp_anchor_header *h,
		      const struct pp_anchor_event *e, bool wall_clock)
{
	const struct pp_anchor_cpu *c = (const void *)(e + 1);
	const char *fmt = (const char *)((const struct pp_anchor_extent *)
					 (c + e->nr_cpus) + e->nr_extents);
	struct pp_event_desc *desc = &x->desc[x->nr];
	struct pp_export *ev = &x->ev[x->nr];
	struct pp_snapshot *snap = &x->snap[x->nr];
	uint32_t i;

	memset(desc, 0, sizeof(*desc));
	snprintf(desc->info.name, sizeof(desc->info.name), "%s", e->name);
	memcpy(&desc->attr, e->attr, e->attr_size < sizeof(desc->attr) ?
	       e->attr_size : sizeof(desc->attr));
	desc->attr.size = sizeof(desc->attr);
	if (desc->attr.type == PERF_TYPE_TRACEPOINT) {
		if (!e->format_len || !e->tp_name[0]) {
			pp_error("%s: the dump kept no format for its tracepoint",
				 e->name);
			return 1;
		}
		ev->p = printer_new_format(&desc->attr, e->tp_name, fmt);
	} else {
		ev->p = printer_new(&desc->attr);
	}
	if (!ev->p)
		return 1;
	printer_set_clock(ev->p, &(struct pp_clock){
				.clock_ns = h->local,
				.realtime_ns = h->real,
			  }, wall_clock);
	/* The crashed kernel's tasks are named by its COMM records only. */
	printer_add_comm(ev->p, 0, "swapper");
	memset(snap, 0, sizeof(*snap));
	snap->sample_type = desc->attr.sample_type;
	snap->regs_user = desc->attr.sample_regs_user;
	snap->live = true;
	/* Counted now: exports_free() frees what x->nr covers. */
	ev->name = desc->info.name;
	ev->attr = desc->attr;
	ev->id = e->id;
	ev->previous = true;
	ev->dumped = true;
	ev->snap = snap;
	x->nr++;
	for (i = 0; i < e->nr_cpus; i++)
		if (dump_cpu(vc, e, &c[i], snap))
			goto nomem;
	snapshot_sort(snap);
	if (snapshot_name_tasks(snap, false))
		goto nomem;
	return 0;
nomem:
	pp_error("out of memory");
	return 1;
}

int exports_from_vmcore(struct exports *x, const char *path, char **names,
			size_t nr, bool wall_clock)
{
	static const uint64_t magic[2] = { PP_ANCHOR_MAGIC0, PP_ANCHOR_MAGIC1 };
	struct anchor_search s = { 0 };
	const struct pp_anchor_header *h;
	const struct pp_anchor_event *e;
	uint64_t off;
	size_t i, count = 0;
	bool *found = NULL;
	int ret = 1;

	memset(x, 0, sizeof(*x));
	s.vc = vmcore_open(path);
	if (!s.vc)
		return 1;
	if (vmcore_scan(s.vc, magic, sizeof(magic), anchor_candidate, &s) < 0)
		goto out;
	h = s.best;
	if (!h) {
		pp_error("%s: no perf-persistent anchor in this %s dump%s",
			 path, vmcore_kind(s.vc), s.bad ?
			 " whole (pages of it are missing or damaged)" :
			 " (no event existed, or the module was not loaded or predates the anchor)");
		goto out;
	}
	fprintf(stderr, "perf persistent: %s: %s dump of %s, boot %s: %u events\n",
		path, vmcore_kind(s.vc), h->release, h->boot_id[0] ?
		h->boot_id : "(unknown)", h->nr_events);
	if (s.found > 1)
		fprintf(stderr, "perf persistent: %s: %u anchors, from memory an earlier kernel left: the newest taken\n",
			path, s.found);
	/* One pass: the entries checked, counted, and the names found. */
	found = calloc(nr ? nr : 1, sizeof(*found));
	if (!found) {
		pp_error("out of memory");
		goto out;
	}
	for (off = h->entries, i = 0; i < h->nr_events; i++, off += e->size) {
		e = anchor_entry(h, off);
		if (!e) {
			pp_error("%s: the anchor's entry %zu is damaged", path, i);
			goto out;
		}
		count += wanted(e->name, names, nr, found);
	}
	for (i = 0; i < nr; i++) {
		if (!found[i]) {
			pp_error("no event '%s' in the dump", names[i]);
			goto out;
		}
	}
	if (!count) {
		pp_error("%s: the crashed kernel had no event", path);
		goto out;
	}
	if (exports_alloc(x, count))
		goto out;
	for (off = h->entries, i = 0; i < h->nr_events; i++, off += e->size) {
		e = anchor_entry(h, off);
		if (wanted(e->name, names, nr, NULL) &&
		    dump_event(x, s.vc, h, e, wall_clock))
			goto out;
	}
	ret = 0;
out:
	free(found);
	free(s.best);
	vmcore_close(s.vc);
	return ret;
}
