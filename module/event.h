/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Persistent events: a source perf_event_attr counted and sampled on every
 * online CPU by kernel counters, recording into per-CPU flight-recorder
 * buffers owned by the module.
 */
#ifndef _PERF_PERSISTENT_EVENT_H
#define _PERF_PERSISTENT_EVENT_H

#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <asm/barrier.h>
#include <asm/local64.h>

#include <uapi/linux/perf_persistent.h>

#include "anchor.h"
#include "buffer.h"
#include "direct.h"
#include "notices.h"
#include "reader.h"
#include "record.h"
#include "region.h"
#include "registry.h"
#include "scope.h"
#include "sysfs.h"
#include "trigger.h"

struct list_head;
struct pp_event;
struct pp_found_event;
struct tracepoint;

/**
 * struct pp_cpu - a persistent event on one CPU
 * @ev: the event
 * @counter: the source's kernel counter; NULL while the CPU is offline
 * @buf: the CPU's buffer, allocated when the CPU is first online and kept
 *	(with its records) while it is offline
 * @count_base: counts of counters released when the CPU went offline
 * @hits: hits of the tracepoint on this CPU (the direct path's count)
 * @online: the CPU is online, as the hotplug callbacks last said
 * @gen: bumped by each online callback.  perf has taken a counter from an
 *	earlier online period out of its context, so it must be replaced
 * @counter_gen: @gen when @counter was created
 * @rd: its readers on this CPU (struct pp_reader_cpu, reader.h)
 * @stored: records stored here while a file watched overflows; every
 *	wakeup_events-th of them asks for an overflow notice
 * @cpu: this CPU
 *
 * @online and @gen are written by the hotplug callbacks; @counter,
 * @count_base and @counter_gen under the event's sync_lock.  @buf is set
 * once, before the first counter.  @rd is the reader's (reader.h).
 */
struct pp_cpu {
	struct pp_event		*ev;
	struct perf_event	*counter;
	struct pp_buffer	*buf;
	u64			count_base;
	local64_t		hits;
	bool			online;
	unsigned int		gen;
	unsigned int		counter_gen;
	struct pp_reader_cpu	rd;
	local_t			stored;
	unsigned int		cpu;
};

/**
 * struct pp_event - a persistent event
 * @entry: id, name, ownership and references (registry.h)
 * @attr: the source attr, as the kernel counters were created with it
 * @fmt: what each record holds
 * @buffer_size: per-CPU buffer size in bytes
 * @direct: the encoder of the direct path (direct.h), or NULL if the event
 *	records through perf's kernel counters
 * @dx: what direct.c keeps of it on the direct path: its probe's
 *	tracepoint (@dx.tp, NULL while none is registered), its place in a
 *	hub (struct pp_direct_ev)
 * @cpus: per-CPU state
 * @node: instance of the module's CPU-hotplug state
 * @sync_lock: serialises creating and releasing counters and buffers
 * @sync_work: brings the counters in line with the online CPUs after a
 *	hotplug callback (which must not create or release them itself)
 * @paused: recording is paused; written under sync_lock
 * @freeze: whether triggers let it store records (trigger.h)
 * @trigger: its trigger, or NULL.  It is set under the registry lock and
 *	read by the record path under RCU
 * @froze_work: queues the notice that it froze (@freeze.notify)
 * @notices: what it has to tell the files that watch it (notices.h)
 * @scope: whose activity it records (scope.h)
 * @no_buffer: records dropped on a CPU that has no buffer yet (a task
 *	scope's, whose tasks run anywhere, and the direct path's, whose probe
 *	sees every CPU)
 * @crash_dump: its newest records go to the kernel log on panic and oops
 *	(dump.h)
 * @format: its tracepoint source's tracefs format text, or NULL
 * @tp_name: its tracepoint source's "system:name", or ""
 * @sysfs: what sysfs shows of it (struct pp_sysfs_event, sysfs.h)
 * @maps: a profile that holds the mappings table (maps.c): from its start
 *	to its free
 * @kept: its buffers live in the reserved region
 * @keep: its place there (region.h)
 * @anchor: its entry in the anchor a crash dump is read by (anchor.h)
 * @prev: for a previous boot's event, what was found of it (previous.h):
 *	its buffers are then the copies, and it has no counter or probe
 * @stopping: on the list of destroyed events waiting for their writers
 *	(pp_event_destroy())
 * @rcu: frees the event after lockless lookups are done with it
 */
struct pp_event {
	struct pp_entry			entry;
	struct perf_event_attr		attr;
	struct pp_record_fmt		fmt;
	unsigned long			buffer_size;
	const struct pp_direct_desc	*direct;
	struct pp_direct_ev		dx;
	struct pp_cpu __percpu		*cpus;
	struct hlist_node		node;
	struct mutex			sync_lock;	/* see above */
	struct work_struct		sync_work;
	bool				paused;
	struct pp_freeze		freeze;
	struct pp_trigger __rcu		*trigger;
	struct irq_work			froze_work;
	struct pp_notices		notices;
	struct pp_scope			scope;
	atomic_long_t			no_buffer;
	bool				crash_dump;
	bool				maps;
	char				*format;
	char				tp_name[64];
	struct pp_sysfs_event		sysfs;
	bool				kept;
	struct pp_region_keep		keep;
	struct pp_anchor_entry		anchor;
	struct pp_found_event		*prev;
	struct llist_node		stopping;
	struct rcu_head			rcu;
};

/**
 * struct pp_event_spec - what to create
 * @name: the event's name
 * @attr: the source attr
 * @buffer_size: per-CPU buffer size in bytes, 0 for the default
 * @owner_file: the file the event is attached to, NULL to create it detached
 * @crash_dump: write its newest records to the kernel log on panic and oops
 * @perf_path: record through perf's kernel counters even when the direct
 *	path could (direct.h)
 * @scope: PERF_PERSISTENT_SCOPE_*
 * @target: the scope's pid or cgroup fd (scope.h)
 * @cgroup_path: user pointer to the scope's cgroup path, or 0
 * @keep: its buffers go into the reserved region (keep.c)
 */
struct pp_event_spec {
	const char		*name;
	struct perf_event_attr	attr;
	u64			buffer_size;
	const void		*owner_file;
	bool			crash_dump;
	bool			perf_path;
	u32			scope;
	s32			target;
	u64			cgroup_path;
	bool			keep;
};

/*
 * The registry of persistent events (registry.h).  ops.c makes every
 * change to it under its lock; pp_event_get() and the crash dump's walk
 * look events up without the lock.
 */
extern struct pp_registry pp_registry;

int pp_events_init(void);
void pp_events_exit(void);

int pp_buffer_size_check(u64 size);
int pp_event_attr_check(const struct perf_event_attr *attr);
struct pp_event *pp_event_alloc(const struct pp_event_spec *spec, u64 size);
bool pp_source_cannot_step(const struct perf_event_attr *attr);
struct perf_event *pp_event_probe_counter(struct pp_event *ev);
void pp_event_probe_attr(const struct pp_event *ev,
			 struct perf_event_attr *attr);
int pp_event_start(struct pp_event *ev);
void pp_event_set_paused(struct pp_event *ev, bool paused);
void pp_events_wait_writers(bool direct);
void pp_event_trigger_free(struct pp_trigger *trig);
void pp_event_stop(struct pp_event *ev);
void pp_event_destroy(struct pp_event *ev);
void pp_events_reap(void);
void pp_events_stop_put(struct list_head *list);
void pp_event_free(struct pp_event *ev);
struct pp_event *pp_event_alloc_previous(struct pp_found_event *fe);

typedef void (*pp_event_fn)(struct pp_event *ev);
void pp_events_walk_crash_dump(pp_event_fn fn);
void pp_events_walk_listed(pp_event_fn fn);
struct pp_event *pp_event_get(u32 id);
void pp_event_put(struct pp_event *ev);

u32 pp_event_state(const struct pp_event *ev, const void *file);
unsigned int pp_event_cpu_stats(struct pp_event *ev,
				struct perf_persistent_cpu_stats *stats,
				unsigned int nr, u64 *count);
void pp_event_sum_stats(struct pp_event *ev, struct pp_buffer_stats *sum);
unsigned int pp_event_nr_readers(struct pp_event *ev);
unsigned long pp_event_backlog(struct pp_event *ev);
unsigned long pp_event_reader_lost(struct pp_event *ev);

/*
 * @pc's buffer, or NULL until its CPU has first come online.  A buffer
 * seen here is set up, because pp_cpu_start() publishes it with release.
 * Any context.
 */
static inline struct pp_buffer *pp_cpu_buf(struct pp_cpu *pc)
{
	/* Pairs with the release in pp_cpu_start(). */
	return smp_load_acquire(&pc->buf);
}

void pp_event_trigger_hit(struct pp_event *ev, const void *raw, u32 size);
void pp_event_overflow_notice(struct pp_event *ev, struct pp_cpu *pc);

/**
 * pp_event_after_store - what follows a record stored on this CPU
 * @ev: the event
 * @pc: @ev on this CPU
 * @raw: the record's RAW payload, which the trigger's filter reads, or
 *	NULL if there is none to read in place
 * @size: its size
 *
 * Counts down a freeze in progress, has the readers get the record, may
 * fire the event's trigger and count towards an overflow notice if a
 * file watches the event's overflows.  Any context, NMI included.
 */
static __always_inline void pp_event_after_store(struct pp_event *ev,
						 struct pp_cpu *pc,
						 const void *raw, u32 size)
{
	/* Read the clock only for an event counting down to a freeze. */
	if (pp_freeze_counting(&ev->freeze))
		pp_freeze_stored(&ev->freeze, local_clock());
	if (pp_reader_waiting(&pc->rd))
		pp_reader_notify(&pc->rd);
	if (unlikely(rcu_access_pointer(ev->trigger)))
		pp_event_trigger_hit(ev, raw, size);
	if (static_branch_unlikely(&pp_overflow_watched.key) &&
	    pp_notices_watched(&ev->notices))
		pp_event_overflow_notice(ev, pc);
}

#endif /* _PERF_PERSISTENT_EVENT_H */
