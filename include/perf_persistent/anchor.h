/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The anchor: what a crash dump's reader needs to find the events' buffers
 * in the dumped memory without the module's debug information, which DKMS
 * strips and a crashed machine rarely has ("perf persistent record
 * --vmcore").
 *
 * The module keeps one anchor while any event exists (module/anchor.c).
 * It starts at a page boundary with struct pp_anchor_header, whose magic
 * the reader looks for at the start of every page of the dump, and lies
 * on @nr_pages pages which need not be contiguous.  Their page frames, in
 * order, are listed on @nr_lists list pages, each an array of
 * @page_size / 8 u64s, and @pfn gives the list pages' own frames: a
 * header page lists enough list pages for an anchor of about 1 GiB with
 * 4 KiB pages.  After the header and @pfn come @nr_events entries, each
 * a struct pp_anchor_event, its CPU table, its extents and its format
 * text, padded to 8 bytes.  Everything is in the byte order of the kernel
 * that wrote it.
 *
 * The module writes a new anchor whole when the events or their buffers
 * change, then its magic, then clears the old anchor's magic before it
 * frees it: a dump taken at any moment holds at least one anchor whose
 * checksum holds.  An event's removal is in the anchor before its buffers
 * are freed; its creation and its CPUs' buffers are added a moment later,
 * together (a work item), so that a load of many events on many CPUs
 * writes a few anchors, not one per buffer.  Memory the previous boot left (a warm reset clears
 * nothing) may hold an older boot's anchor too: the reader takes the one
 * written last by @clock.real.
 *
 * Each CPU's buffer is laid out as the tool maps it: a control page
 * (struct perf_event_mmap_page, then struct perf_persistent_page_ext at
 * PERF_PERSISTENT_PAGE_EXT_OFFSET) followed by @buffer_size bytes of
 * records, written backward (the UAPI header).  Its pages are where the
 * extents say, the control page first.
 */
#ifndef _PERF_PERSISTENT_ANCHOR_H
#define _PERF_PERSISTENT_ANCHOR_H

#include <linux/types.h>

/* "PPANCHOR" and "perf-pst", read as little-endian u64s. */
#define PP_ANCHOR_MAGIC0	0x524f48434e415050ULL
#define PP_ANCHOR_MAGIC1	0x7473702d66726570ULL
#define PP_ANCHOR_VERSION	2

/* Bytes of a source attr an entry keeps (perf_event_attr is 136 in 6.12). */
#define PP_ANCHOR_ATTR_MAX	256
#define PP_ANCHOR_NAME_MAX	64
#define PP_ANCHOR_TP_MAX	64

/**
 * struct pp_anchor_header - the anchor's first bytes, at a page boundary
 * @magic: PP_ANCHOR_MAGIC0, PP_ANCHOR_MAGIC1; written last
 * @version: PP_ANCHOR_VERSION
 * @header_size: sizeof(struct pp_anchor_header); @pfn follows it
 * @page_size: the writer's page size
 * @nr_pages: pages of the anchor's @size bytes, this one included
 * @size: bytes of the anchor, from this header to the end of the last
 *	entry
 * @entries: offset of the first entry from this header
 * @nr_events: entries
 * @crc: crc32 (zlib's) of the anchor's @size bytes, with @crc and @magic
 *	taken as zero
 * @nr_lists: list pages, as many as @pfn has
 * @generation: counts the anchors this load wrote
 * @local: local_clock() when it was written, in ns: the records' clock
 * @real: CLOCK_REALTIME at the same moment, in ns
 * @boot_id: the writer's /proc/sys/kernel/random/boot_id
 * @release: the writer's kernel release (uname -r)
 * @pfn: the page frame of each list page; together the list pages hold
 *	the page frame of each of the anchor's @nr_pages pages, in order,
 *	this one first
 */
struct pp_anchor_header {
	__u64	magic[2];
	__u32	version;
	__u32	header_size;
	__u32	page_size;
	__u32	nr_pages;
	__u64	size;
	__u32	entries;
	__u32	nr_events;
	__u32	crc;
	__u32	nr_lists;
	__u64	generation;
	__u64	local;
	__u64	real;
	char	boot_id[40];
	char	release[72];
	__u64	pfn[];
};

/**
 * struct pp_anchor_event - an event in the anchor
 * @size: bytes of the entry with its tables and text, a multiple of 8
 * @id: the event's id, which its records carry
 * @nr_cpus: entries of the CPU table that follows: the CPUs that have a
 *	buffer
 * @nr_extents: entries of the extent table after the CPU table
 * @buffer_size: bytes of records of each CPU's buffer
 * @attr_size: bytes of @attr used
 * @format_len: bytes of the format text after the extent table, its NUL
 *	included; 0 when there is none
 * @kept: its buffers are in the region reserved at boot, which a dump may
 *	leave out (memmap=) and the next boot reads in any case
 * @name: its name
 * @tp_name: its tracepoint source's "system:name", or ""
 * @attr: its source attr
 */
struct pp_anchor_event {
	__u32	size;
	__u32	id;
	__u32	nr_cpus;
	__u32	nr_extents;
	__u64	buffer_size;
	__u32	attr_size;
	__u32	format_len;
	__u32	kept;
	__u32	reserved;
	char	name[PP_ANCHOR_NAME_MAX];
	char	tp_name[PP_ANCHOR_TP_MAX];
	__u8	attr[PP_ANCHOR_ATTR_MAX];
};

/**
 * struct pp_anchor_cpu - one CPU's buffer
 * @cpu: the CPU
 * @first: its first extent, an index into the entry's extent table
 * @nr: its extents
 * @pages: its pages, the control page included
 */
struct pp_anchor_cpu {
	__u32	cpu;
	__u32	first;
	__u32	nr;
	__u32	pages;
};

/**
 * struct pp_anchor_extent - physically contiguous pages of a buffer
 * @pfn: the first one's page frame
 * @nr: how many
 */
struct pp_anchor_extent {
	__u64	pfn;
	__u64	nr;
};

#endif /* _PERF_PERSISTENT_ANCHOR_H */
