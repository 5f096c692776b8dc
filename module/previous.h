/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The previous boot: what the reserved region held when the module
 * loaded, checked and copied out (previous.c), then shown read-only as
 * events of their own (ops.c) until someone destroys them.
 */
#ifndef _PERF_PERSISTENT_PREVIOUS_H
#define _PERF_PERSISTENT_PREVIOUS_H

#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include "buffer.h"
#include "region.h"

/**
 * struct pp_found_cpu - one CPU's buffer of a previous boot's event
 * @cpu: the CPU, in the previous boot
 * @stop: why not all its published records were kept (PP_FOUND_WHOLE
 *	if they were)
 * @torn: 1 if its newest record was dropped as torn
 * @untrusted: bytes of the published records not kept
 * @buf: the records kept, copied out of the region; NULL if none could be
 */
struct pp_found_cpu {
	u32			cpu;
	enum pp_found_stop	stop;
	unsigned int		torn;
	u64			untrusted;
	struct pp_buffer	*buf;
};

/**
 * struct pp_found_event - a previous boot's event, as found
 * @node: on pp_previous_boot.events until it becomes an event
 * @id: its id in the previous boot, which its records carry
 * @name: its name
 * @tp_name: its tracepoint's "system:name", or ""
 * @attr: its source attr (the fields this kernel knows)
 * @buffer_size: per-CPU buffer size
 * @format: its tracepoint's format text, or NULL
 * @clock: the clock pair its records' times turn into wall-clock times
 *	with: the previous boot's newest, or this boot's for records written
 *	at load (boot_errors)
 * @nr: entries of @cpus: its CPUs that had a buffer
 * @cpus: per CPU
 */
struct pp_found_event {
	struct list_head	node;
	u32			id;
	char			name[PERF_PERSISTENT_NAME_MAX];
	char			tp_name[64];
	struct perf_event_attr	attr;
	unsigned long		buffer_size;
	char			*format;
	struct pp_region_clock	clock;
	unsigned int		nr;
	struct pp_found_cpu	cpus[];
};

/**
 * struct pp_previous_boot - what the module learnt of the previous boot
 * @found: the region held a header of another boot
 * @boot_id: that boot's id (journalctl --list-boots)
 * @release: its kernel release
 * @text_delta: how far this boot's kernel text moved from that one's, in
 *	bytes (KASLR), for addresses in its records
 * @end: PP_REGION_END_*: how it ended, as its notifiers saw it
 * @clock: its newest clock pair: the last one if @end says so
 * @events: its kept events found
 * @bad: descriptors dropped by the validation
 * @list: the found events not yet published
 * @maps: the profiles' mappings table it kept (PERF_RECORD_COMM and
 *	PERF_RECORD_MMAP2 records, as MAPS reads them), or NULL; freed at
 *	unload
 * @maps_len: its bytes
 * @maps_processes: the processes it names
 */
struct pp_previous_boot {
	bool			found;
	char			boot_id[40];
	char			release[72];
	long			text_delta;
	u32			end;
	struct pp_region_clock	clock;
	unsigned int		events;
	unsigned int		bad;
	struct list_head	list;
	void			*maps;
	size_t			maps_len;
	unsigned int		maps_processes;
};

extern struct pp_previous_boot pp_previous_boot;

const char *pp_found_stop_name(enum pp_found_stop stop);
int pp_region_header_check(const struct pp_region_header *h, u64 size,
			   const char **why);
const struct pp_region_desc *pp_region_desc_check(const void *mem, u64 size,
						  u32 page, const char **why);
int pp_region_cpu_check(const void *mem, u64 size,
			const struct pp_region_desc *d, unsigned int cpu,
			struct pp_buffer *view, unsigned long *pos);
void pp_found_rules_init(struct pp_found_rules *rules, u64 sample_type,
			 u64 max_time);

int pp_previous_find(struct pp_region *r);
void pp_found_event_free(struct pp_found_event *fe);
void pp_previous_forget(void);
const void *pp_region_maps_check(const struct pp_region_maps *a, u64 avail,
				 size_t *len, unsigned int *processes,
				 const char **why);

#endif /* _PERF_PERSISTENT_PREVIOUS_H */
