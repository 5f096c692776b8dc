/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The anchor (include/perf_persistent/anchor.h): where a crash dump's
 * reader finds the events' buffers.  Each event has an entry; the module
 * rewrites the anchor from the entries when one is removed (at once) and
 * when one is added or gets a CPU's buffer (a moment later, several
 * additions together).
 *
 * Lock order: an event's sync_lock, then the anchor's lock.
 */
#ifndef _PERF_PERSISTENT_ANCHOR_MOD_H
#define _PERF_PERSISTENT_ANCHOR_MOD_H

#include <linux/list.h>
#include <linux/types.h>

struct perf_event_attr;
struct pp_buffer;

/**
 * struct pp_anchor_entry - an event, as the anchor describes it
 * @node: in the anchor's list, while added
 * @id: the event's id
 * @name: its name
 * @tp_name: its tracepoint source's "system:name", or ""
 * @attr: its source attr
 * @format: its tracepoint source's format text, or NULL
 * @buffer_size: its per-CPU buffer's data size
 * @kept: its buffers are in the reserved region
 * @bufs: per possible CPU, its buffer once it has one
 *
 * The strings and @attr are the event's: it removes the entry before it
 * frees them or its buffers.
 */
struct pp_anchor_entry {
	struct list_head		node;
	u32				id;
	const char			*name;
	const char			*tp_name;
	const struct perf_event_attr	*attr;
	const char			*format;
	unsigned long			buffer_size;
	bool				kept;
	struct pp_buffer		**bufs;
};

int pp_anchor_add(struct pp_anchor_entry *e);
void pp_anchor_set_buffer(struct pp_anchor_entry *e, unsigned int cpu,
			  struct pp_buffer *buf);
void pp_anchor_del(struct pp_anchor_entry *e);
void pp_anchor_exit(void);
size_t pp_anchor_current(void *hdr, size_t len);

#endif /* _PERF_PERSISTENT_ANCHOR_MOD_H */
