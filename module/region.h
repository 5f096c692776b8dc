/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reserved region: memory set aside at boot (reserve_mem= or, on x86,
 * memmap=) that the module parameter region= names, where the buffers of
 * the events kept across a reboot live: the parser, the setup, the page
 * map (region.c), the layout this header describes, what is written into
 * it while the region is in use (keep.c) and what is found in it at the
 * next load (previous.c).
 *
 * Layout, version 1, in the byte order and page size of the kernel that
 * wrote it:
 *
 *   page 0         struct pp_region_header; after it, the directory: one
 *                  u32 per slot, the first page of a descriptor, 0 if free
 *   descriptors    struct pp_region_desc, its CPU table and its format
 *                  text, on as many pages as they take
 *   buffers        per CPU of a kept event: its control page (struct
 *                  perf_event_mmap_page and the ext, as readers map it)
 *                  then its data pages, written by the usual record path
 *
 * A descriptor is written whole before its slot points at it, and its
 * slot is cleared before its pages are given back, so the next boot finds
 * every slot either free or pointing at a complete descriptor.  What a
 * reset can tear (a CPU table entry, the clocks, the records) is checked
 * piece by piece when it is read.
 */
#ifndef _PERF_PERSISTENT_REGION_H
#define _PERF_PERSISTENT_REGION_H

#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <uapi/linux/perf_persistent.h>

/* reserve_mem's own limit on a name, with its NUL (RESERVE_MEM_NAME_SIZE). */
#define PP_REGION_LABEL_MAX	16

/**
 * struct pp_region_spec - what region= says
 * @label: a reserve_mem label, or "" when the region is given by place
 * @start: the physical address of its first byte (by place)
 * @size: its size in bytes (by place)
 */
struct pp_region_spec {
	char		label[PP_REGION_LABEL_MAX];
	phys_addr_t	start;
	u64		size;
};

/*
 * The least region worth having: its header page, one descriptor page and
 * one CPU's buffer of one page with its control page.
 */
#define PP_REGION_MIN		(4 * PAGE_SIZE)

/**
 * struct pp_region - the reserved region of this boot
 * @start: physical address of its first byte
 * @size: its size in bytes
 * @mem: where it is mapped, cached (memremap(MEMREMAP_WB))
 * @res: the claim on it in iomem_resource, NULL for reserve_mem's memory,
 *	which lies inside System RAM and is claimed by memblock
 * @lock: protects @used
 * @used: one bit per page of the region, set where something lives (the
 *	header, a descriptor, a buffer); in normal memory, made anew each
 *	boot
 * @nr_pages: pages in the region
 * @hdr: its header, at @mem, once formatted for this boot (keep.c)
 * @boot_id: this boot's id, as the header keeps it
 * @clock_work: refreshes the header's clock pair
 * @panic_nb: on panic, the last clock pair and the write-back
 * @reboot_nb: the same on reboot, halt and power off
 */
struct pp_region {
	phys_addr_t	start;
	u64		size;
	void		*mem;
	struct resource	*res;
	struct mutex	lock;		/* protects @used and the directory */
	unsigned long	*used;
	unsigned long	nr_pages;
	struct pp_region_header	*hdr;
	char		boot_id[40];
	struct delayed_work	clock_work;
	struct notifier_block	panic_nb;
	struct notifier_block	reboot_nb;
};

/* The region of this boot; its @mem is NULL without region=. */
extern struct pp_region pp_region;

/**
 * struct pp_region_keep - an event's place in the region
 * @desc: its descriptor, or NULL if the event is not kept
 * @first: the descriptor's first page
 * @pages: its pages
 * @slot: its directory slot
 */
struct pp_region_keep {
	struct pp_region_desc	*desc;
	unsigned long		first;
	unsigned long		pages;
	unsigned int		slot;
};

struct perf_event_attr;
struct pp_buffer;

/*
 * The region's header: "PPREGION" and "PPEVENT" read as little-endian u64s;
 * the mappings table's area, "PPMAPS".
 */
#define PP_REGION_MAGIC		0x4e4f494745525050ULL
#define PP_REGION_DESC_MAGIC	0x00544e4556455050ULL
#define PP_REGION_MAPS_MAGIC	0x000053504d505050ULL
#define PP_REGION_VERSION	1

/* How the last boot ended, as its notifiers saw it (last_reason). */
#define PP_REGION_END_UNKNOWN	0	/* no kernel path: a reset, a watchdog */
#define PP_REGION_END_PANIC	1
#define PP_REGION_END_REBOOT	2	/* reboot, halt or power off */

/**
 * struct pp_region_clock - the records' clock and the wall clock at once
 * @local: local_clock(), which stamps the records, in ns
 * @real: CLOCK_REALTIME at the same moment, in ns
 */
struct pp_region_clock {
	u64	local;
	u64	real;
};

/**
 * struct pp_region_header - page 0 of the region
 * @magic: PP_REGION_MAGIC
 * @version: PP_REGION_VERSION
 * @header_size: bytes before the directory
 * @size: the region's size when it was formatted
 * @page_size: the writer's PAGE_SIZE
 * @nr_cpu_ids: the writer's nr_cpu_ids
 * @text_anchor: the address of _printk() in the writer: the difference with
 *	the reader's is the text's move between the two boots (KASLR)
 * @boot_id: the writer's /proc/sys/kernel/random/boot_id, as text, the
 *	same as journalctl --list-boots shows
 * @release: the writer's kernel release (uname -r)
 * @nr_slots: directory slots
 * @crc: crc32_le of everything above it
 * @clock_seq: how many times @clock was written: the newest complete pair
 *	is @clock[(@clock_seq - 1) % 2]
 * @last_reason: PP_REGION_END_*; @last is valid unless UNKNOWN
 * @clock: a clock pair the module refreshes every PP_REGION_CLOCK_PERIOD
 * @last: the clock pair when the panic or reboot notifier ran
 * @slots: the directory
 */
struct pp_region_header {
	u64			magic;
	u32			version;
	u32			header_size;
	u64			size;
	u32			page_size;
	u32			nr_cpu_ids;
	u64			text_anchor;
	char			boot_id[40];
	char			release[72];
	u32			nr_slots;
	u32			crc;
	/* Rewritten while the region is in use; not in @crc. */
	u32			clock_seq;
	u32			last_reason;
	struct pp_region_clock	clock[2];
	struct pp_region_clock	last;
	u32			slots[];
};

/* The clock pair's refresh, in seconds, and the lag allowed for it. */
#define PP_REGION_CLOCK_PERIOD	1
#define PP_REGION_CLOCK_SLACK	(10ULL * NSEC_PER_SEC)

/* Bytes of a source attr a descriptor keeps (perf_event_attr is 136 in 6.12). */
#define PP_REGION_ATTR_MAX	256

/**
 * struct pp_region_desc - a kept event, as the next boot needs it
 * @magic: PP_REGION_DESC_MAGIC
 * @size: bytes of the descriptor, its CPU table and format text included
 * @crc: crc32_le of @id up to @cpus, then of the format text
 * @id: the event's id
 * @nr_cpus: entries of @cpus (the writer's nr_cpu_ids)
 * @buffer_size: its per-CPU buffer's data size
 * @name: its name
 * @tp_name: its tracepoint's "system:name", or ""
 * @attr_size: bytes of @attr used
 * @format_len: bytes of the format text after the CPU table, its NUL
 *	included; 0 when there is none
 * @attr: its source attr
 * @cpus: per CPU, the region page of its buffer's control page, 0 while it
 *	has none; written when the CPU gets its buffer, not in @crc
 */
struct pp_region_desc {
	u64	magic;
	u32	size;
	u32	crc;
	u32	id;
	u32	nr_cpus;
	u64	buffer_size;
	char	name[PERF_PERSISTENT_NAME_MAX];
	char	tp_name[64];
	u32	attr_size;
	u32	format_len;
	u8	attr[PP_REGION_ATTR_MAX];
	u32	cpus[];
};

/**
 * struct pp_region_maps - the profiles' mappings table, for the next boot
 * @magic: PP_REGION_MAPS_MAGIC
 * @size: bytes of the area, this header included
 * @half: bytes of each of the two copies' room, after the header
 * @seq: copies written: the newest whole one is (@seq - 1) % 2; 0: none
 * @len: bytes each copy holds
 * @crc: crc32_le of each copy's bytes
 * @data: the two copies, @half bytes apart: the records of
 *	PERF_PERSISTENT_IOC_MAPS, the processes used last first
 *
 * A directory slot points at it as at a descriptor.  A copy is written
 * whole, then its length and checksum, then @seq, so a reset leaves at
 * least the copy before whole (maps.c).
 */
struct pp_region_maps {
	u64	magic;
	u32	size;
	u32	half;
	u32	seq;
	u32	len[2];
	u32	crc[2];
	u32	reserved;
	u8	data[];
};

int pp_boot_id_read(char *buf, size_t len);
int pp_region_parse(const char *s, struct pp_region_spec *spec);
int pp_region_setup(struct pp_region *r, const char *param);
void pp_region_teardown(struct pp_region *r);
/* A descriptor's checksum: keep.c writes it, previous.c checks it. */
u32 pp_region_crc(const struct pp_region_desc *d, const char *format);

int pp_region_pages_init(struct pp_region *r, unsigned long nr_pages,
			 unsigned long reserved);
void pp_region_pages_exit(struct pp_region *r);
long pp_region_pages_alloc(struct pp_region *r, unsigned long nr);
void pp_region_pages_free(struct pp_region *r, unsigned long first,
			  unsigned long nr);

/* keep.c: the region in use by this boot. */
int pp_region_start(struct pp_region *r);
void pp_region_commit(struct pp_region *r);
void pp_region_format(struct pp_region *r);
void pp_region_stop(struct pp_region *r);
int pp_region_keep_begin(struct pp_region *r, struct pp_region_keep *k,
			 u32 id, const char *name, const char *tp_name,
			 const struct perf_event_attr *attr,
			 unsigned long buffer_size, const char *format);
void pp_region_keep_end(struct pp_region *r, struct pp_region_keep *k);
struct pp_buffer *pp_region_keep_buffer(struct pp_region *r,
					struct pp_region_keep *k,
					unsigned int cpu);
void pp_region_buffer_free(struct pp_region *r, struct pp_buffer *buf);
struct pp_region_maps *pp_region_maps_begin(struct pp_region *r,
					    struct pp_region_keep *k,
					    u32 half);
void pp_region_maps_end(struct pp_region *r, struct pp_region_keep *k);

#endif /* _PERF_PERSISTENT_REGION_H */
