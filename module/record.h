/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Encoding one sample of a persistent event's source into a record in its
 * per-CPU buffer, in perf's PERF_RECORD_SAMPLE layout.
 */
#ifndef _PERF_PERSISTENT_RECORD_H
#define _PERF_PERSISTENT_RECORD_H

#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "buffer.h"
#include "callchain.h"

struct perf_sample_data;
struct pt_regs;

/**
 * struct pp_record_fmt - what a persistent event's records hold
 * @sample_type: PERF_SAMPLE_* bits, a subset of PERF_PERSISTENT_SAMPLE_TYPES
 * @id: the value of the IDENTIFIER and ID fields: the event's id
 * @fixed_size: bytes of the header and the fixed-size fields
 * @comm_size: bytes of a PERF_RECORD_COMM record, 0 when the event's
 *	records get none
 * @chain: which frames a CALLCHAIN field holds
 * @want_maps: the event is a profile: its samples' user IPs are named by
 *	the mappings table (maps.c)
 * @regs_mask: the user registers a REGS_USER field holds
 *	(sample_regs_user)
 * @stack_user: the bytes of user stack a STACK_USER field asks for
 *	(sample_stack_user)
 *
 * Set up with pp_record_fmt_init(), then pp_record_fmt_want_comm() for an
 * event whose attr asks for comm.
 */
struct pp_record_fmt {
	u64			sample_type;
	u64			id;
	unsigned int		fixed_size;
	unsigned int		comm_size;
	struct pp_chain_cfg	chain;
	bool			want_maps;
	u64			regs_mask;
	unsigned int		stack_user;
};

struct pp_comm_slot;

/* Header plus the eight fixed-size fields. */
#define PP_RECORD_FIXED_MAX	(sizeof(struct perf_event_header) + 8 * sizeof(u64))

/* Largest RAW payload a record can carry (the header's size is a u16). */
#define PP_RECORD_RAW_MAX	(U16_MAX - 128)

/* Largest record: the header's size is a u16, records are 8-byte aligned. */
#define PP_RECORD_MAX		(U16_MAX & ~7U)

bool pp_record_sample_type_ok(u64 sample_type);
void pp_record_fmt_init(struct pp_record_fmt *fmt, u64 sample_type, u64 id);
void pp_record_fmt_want_comm(struct pp_record_fmt *fmt);
void pp_record_fmt_profile(struct pp_record_fmt *fmt,
			   const struct perf_event_attr *attr);
int pp_record_sample(struct pp_buffer *buf, const struct pp_record_fmt *fmt,
		     const struct perf_sample_data *data,
		     struct pt_regs *regs);
void pp_record_comm(struct pp_buffer *buf, const struct pp_record_fmt *fmt);

/**
 * pp_record_comm_stale - does a task's record need a COMM record first?
 * @slot: the cache slot of @tid in the buffer
 * @pid: the task's process id
 * @tid: its thread id
 * @comm: its name (TASK_COMM_LEN bytes, 8-byte aligned), read as it is,
 *	racily
 * @head: the buffer's head (the newest record)
 * @size: the buffer's size
 *
 * Yes unless the slot holds the same task under the same name and its
 * record lies in the newer half of the buffer.  So every record in the
 * newer half has its task's COMM record still held, older than itself;
 * the records of the older half may have lost theirs (readers fall back
 * to naming the pid as it is now).  The name's 16 bytes are compared, as
 * two words, with the slot's NUL-padded copy: a name equal to it is the
 * same name, and one with bytes after its NUL (a rename under way) is
 * stale, which costs one COMM record.  Any context.
 */
static __always_inline bool pp_record_comm_stale(const struct pp_comm_slot *slot,
						 u32 pid, u32 tid,
						 const char *comm,
						 unsigned long head,
						 unsigned long size)
{
	const u64 *name = (const u64 *)comm;
	u64 name0, name1;

	BUILD_BUG_ON(TASK_COMM_LEN != 2 * sizeof(u64));
	/* A rename may be writing it: read racily, as perf does (above). */
	name0 = data_race(name[0]);
	/* The same. */
	name1 = data_race(name[1]);
	return slot->tid != tid || slot->pid != pid ||
	       slot->comm_words[0] != name0 || slot->comm_words[1] != name1 ||
	       slot->pos - head > size / 2;
}

/*
 * Does the current task's record need a COMM record first?  The check of
 * every record of an event with COMM records, inline: a cache slot, two
 * ids and two words of the name.  Any context.
 */
static __always_inline bool pp_record_comm_needed(struct pp_buffer *buf)
{
	struct task_struct *task = current;
	u32 tid = task_pid_nr(task);

	BUILD_BUG_ON(offsetof(struct task_struct, comm) % sizeof(u64));
	return pp_record_comm_stale(&buf->comm[hash_32(tid, PP_COMM_SLOTS_BITS)],
				    task_tgid_nr(task), tid, task->comm,
				    local_read(pp_buffer_head(buf)), buf->size);
}

/**
 * pp_record_prepare - what comes before a record of the current task
 * @buf: the buffer, on this CPU
 * @fmt: the event's record format
 *
 * Refuses the record of a paused buffer, counted as one drop (not a second
 * one for its COMM record), else stores the task's COMM record if the
 * event has them and the buffer needs one.  Both record paths call it
 * first.  Any context; no lock.
 *
 * Return: false if the record is dropped.
 */
static __always_inline bool pp_record_prepare(struct pp_buffer *buf,
					      const struct pp_record_fmt *fmt)
{
	if (pp_buffer_drop_paused(buf))
		return false;
	if (fmt->comm_size && unlikely(pp_record_comm_needed(buf)))
		pp_record_comm(buf, fmt);
	return true;
}

/**
 * pp_record_comm_first - pp_record_prepare() for a record reserved next
 * @buf: the buffer, on this CPU
 * @fmt: the format of an event with COMM records
 *
 * The direct path's: its reservation, right after, refuses a paused
 * buffer itself, so the pause is tested here only when a COMM record is
 * needed (and then counted as the one drop).  Any context; no lock.
 *
 * Return: false if the record is dropped.
 */
static __always_inline bool pp_record_comm_first(struct pp_buffer *buf,
						 const struct pp_record_fmt *fmt)
{
	if (likely(!pp_record_comm_needed(buf)))
		return true;
	if (pp_buffer_drop_paused(buf))
		return false;
	pp_record_comm(buf, fmt);
	return true;
}

/**
 * pp_record_fill_fixed - write a sample's header and fixed-size fields
 * @p: where the record starts (8-byte aligned)
 * @type: the event's sample_type (a constant makes this straight-line code)
 * @id: the event's id
 * @size: the whole record's size
 * @misc: the header's misc
 * @ip: the IP field
 * @time: the TIME field
 * @addr: the ADDR field
 * @period: the PERIOD field
 *
 * The fields go in perf's order (perf_output_sample()).  pid and tid are
 * current's, and the CPU is the one this runs on.  Any context.
 */
static __always_inline void pp_record_fill_fixed(u64 *p, u64 type, u64 id,
						 unsigned int size, u16 misc,
						 u64 ip, u64 time, u64 addr,
						 u64 period)
{
	struct perf_event_header *hdr = (void *)p++;

	hdr->type = PERF_RECORD_SAMPLE;
	hdr->misc = misc;
	hdr->size = size;
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = id;
	if (type & PERF_SAMPLE_IP)
		*p++ = ip;
	if (type & PERF_SAMPLE_TID) {
		u32 *tid = (u32 *)p++;

		tid[0] = task_tgid_nr(current);
		tid[1] = task_pid_nr(current);
	}
	if (type & PERF_SAMPLE_TIME)
		*p++ = time;
	if (type & PERF_SAMPLE_ADDR)
		*p++ = addr;
	if (type & PERF_SAMPLE_ID)
		*p++ = id;
	if (type & PERF_SAMPLE_CPU) {
		u32 *cpu = (u32 *)p++;

		cpu[0] = smp_processor_id();
		cpu[1] = 0;
	}
	if (type & PERF_SAMPLE_PERIOD)
		*p++ = period;
}

#endif /* _PERF_PERSISTENT_RECORD_H */
