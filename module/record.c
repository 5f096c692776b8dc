// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: encode a sample into a PERF_RECORD_SAMPLE record
 *
 * Runs in the source counter's overflow handler: any context including NMI,
 * preemption disabled, on the CPU that owns the buffer.  No lock, no
 * allocation.  The space is reserved first and the fields are written in
 * place, the RAW payload copied straight from the tracepoint's scratch
 * buffer (valid only during the call); only a record that wraps round the
 * end of the data area is assembled on the stack.
 *
 * The handler gets the sample data unprepared.  perf_sample_data_init()
 * set only sample_flags, period and (when non-zero) addr; raw is set when
 * sample_flags has PERF_SAMPLE_RAW.  RAW data is a chain of fragments,
 * each copied with its own copy function when it has one.  The last
 * fragment is the one perf_raw_frag_last() says.  Since 6.3,
 * perf_sample_save_raw_data() stores the padding in the last fragment's
 * ->pad, which shares ->next's storage, so that ->next is not NULL.
 * Everything else is taken here: the IP from @regs, pid and tid from
 * current, the time from local_clock() (perf's clock), and the CPU from
 * smp_processor_id().
 *
 * A CALLCHAIN field (between PERIOD and RAW, as in perf) is built by
 * pp_callchain() before the space is reserved, since its length sets the
 * record's size.
 *
 * An event whose attr asks for comm also gets PERF_RECORD_COMM records:
 * before a record of a task its buffer has no recent COMM record of, one
 * with the task's name at that moment, so that readers name the task as it
 * was, not as whatever has its pid when they read (see
 * pp_record_comm_stale()).
 */

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

#include <uapi/linux/perf_persistent.h>

#include "buffer.h"
#include "maps.h"
#include "record.h"

/* The fixed-size fields a record can have: one u64 each. */
#define PP_RECORD_FIXED_TYPES						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* The sample_id fields a COMM record ends with, as sample_id_all has them. */
#define PP_RECORD_ID_TYPES						\
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* Header, pid and tid, the name, and five sample_id fields. */
#define PP_RECORD_COMM_MAX						\
	(sizeof(struct perf_event_header) + sizeof(u64) + TASK_COMM_LEN + \
	 5 * sizeof(u64))

bool pp_record_sample_type_ok(u64 sample_type)
{
	return !(sample_type & ~(u64)PERF_PERSISTENT_SAMPLE_TYPES);
}

/* The fragment after @frag, NULL after the last. */
static const struct perf_raw_frag *raw_next(const struct perf_raw_frag *frag)
{
	return perf_raw_frag_last(frag) ? NULL : frag->next;
}

/* Bytes of RAW payload in @data, 0 if it has none. */
static u32 raw_payload_size(const struct perf_sample_data *data)
{
	const struct perf_raw_frag *frag;
	u32 sum = 0;

	if (!(data->sample_flags & PERF_SAMPLE_RAW) || !data->raw)
		return 0;
	for (frag = &data->raw->frag; frag; frag = raw_next(frag))
		sum += frag->size;
	return sum;
}

/*
 * Copy bytes [@off, @off + @len) of @frag to @dst, with the fragment's
 * copy function when it has one.  That function returns how much it could
 * not copy, and that part is zeroed rather than left stale.
 */
static void copy_frag(void *dst, const struct perf_raw_frag *frag,
		      unsigned long off, unsigned long len)
{
	unsigned long left;

	if (!frag->copy) {
		memcpy(dst, frag->data + off, len);
		return;
	}
	left = frag->copy(dst, frag->data, off, len);
	if (unlikely(left))
		memset(dst + len - min(left, len), 0, min(left, len));
}

/* @frag at logical position @pos of @buf, wrapping round its end. */
static void write_frag(struct pp_buffer *buf, unsigned long pos,
		       const struct perf_raw_frag *frag)
{
	unsigned long off = pos & (buf->size - 1);
	unsigned long first = min_t(unsigned long, frag->size, buf->size - off);

	copy_frag(buf->data + off, frag, 0, first);
	if (first < frag->size)
		copy_frag(buf->data, frag, first, frag->size - first);
}

/**
 * pp_record_fmt_init - set up what a persistent event's records hold
 * @fmt: out
 * @sample_type: PERF_SAMPLE_* bits, accepted by pp_record_sample_type_ok()
 * @id: the event's id
 */
void pp_record_fmt_init(struct pp_record_fmt *fmt, u64 sample_type, u64 id)
{
	fmt->sample_type = sample_type;
	fmt->id = id;
	fmt->fixed_size = sizeof(struct perf_event_header) +
			  hweight64(sample_type & PP_RECORD_FIXED_TYPES) *
			  sizeof(u64);
	fmt->comm_size = 0;
	fmt->chain.max_stack = 0;
	fmt->chain.kernel = false;
	fmt->chain.user = false;
	fmt->want_maps = false;
	fmt->regs_mask = 0;
	fmt->stack_user = 0;
}

/**
 * pp_record_fmt_profile - what a profile's samples hold and need
 * @fmt: set up by pp_record_fmt_init()
 * @attr: the event's attr, checked by pp_event_attr_check()
 *
 * The frames of its CALLCHAIN field, as perf: sample_max_stack entries,
 * the module's max_stack when it is 0; the kernel's and the user's frames
 * unless the attr excludes them.  And whether it is a profile, whose
 * samples' user IPs the mappings table names: an event with CALLCHAIN,
 * or with IP of a source that is not a tracepoint.
 */
void pp_record_fmt_profile(struct pp_record_fmt *fmt,
			   const struct perf_event_attr *attr)
{
	fmt->chain.max_stack = attr->sample_max_stack ?: pp_chain_max_stack;
	fmt->chain.kernel = !attr->exclude_callchain_kernel;
	fmt->chain.user = !attr->exclude_callchain_user;
	fmt->want_maps = (attr->sample_type & (PERF_SAMPLE_CALLCHAIN |
						 PERF_SAMPLE_STACK_USER)) ||
			 ((attr->sample_type & PERF_SAMPLE_IP) &&
			  attr->type != PERF_TYPE_TRACEPOINT);
	fmt->regs_mask = attr->sample_regs_user;
	fmt->stack_user = attr->sample_stack_user;
}

/*
 * The REGS_USER and STACK_USER fields, which end a record, at @pos: the
 * ABI and the registers of @mask, then the size, the stack from the user
 * stack pointer and how much of it could be read (dyn_size), as
 * perf_output_sample() writes them.  The stack is read with
 * copy_from_user_nofault(), a chunk at a time, and what cannot be read
 * is zeroed.  Any context; bounded by the record's size.
 */
static noinline void write_user_tail(struct pp_buffer *buf, unsigned long pos,
				     const struct pp_record_fmt *fmt,
				     struct pt_regs *uregs, u64 abi,
				     unsigned int ustack)
{
	u64 bounce[32], v;
	unsigned long sp, off, n;
	unsigned int i;
	u64 dyn = 0;

	if (fmt->sample_type & PERF_SAMPLE_REGS_USER) {
		pp_buffer_write(buf, pos, &abi, sizeof(abi));
		pos += sizeof(abi);
		for (i = 0; uregs && i < 64; i++) {
			if (!(fmt->regs_mask & BIT_ULL(i)))
				continue;
			v = pp_uregs_value(uregs, i);
			pp_buffer_write(buf, pos, &v, sizeof(v));
			pos += sizeof(v);
		}
	}
	if (!(fmt->sample_type & PERF_SAMPLE_STACK_USER))
		return;
	v = ustack;
	pp_buffer_write(buf, pos, &v, sizeof(v));
	pos += sizeof(v);
	if (!ustack)
		return;
	sp = user_stack_pointer(uregs);
	for (off = 0; off < ustack; off += n) {
		n = min_t(unsigned long, sizeof(bounce), ustack - off);
		if (copy_from_user_nofault(bounce, (const void __user *)(sp + off), n))
			break;
		pp_buffer_write(buf, pos + off, bounce, n);
		dyn = off + n;
	}
	if (dyn < ustack)
		pp_buffer_zero(buf, pos + dyn, ustack - dyn);
	pp_buffer_write(buf, pos + ustack, &dyn, sizeof(dyn));
}

/**
 * pp_record_fmt_want_comm - give the event's records COMM records
 * @fmt: set up by pp_record_fmt_init(); its sample_type has TID
 *
 * The event's attr has comm and sample_id_all (pp_event_attr_check()
 * checks).
 */
void pp_record_fmt_want_comm(struct pp_record_fmt *fmt)
{
	fmt->comm_size = sizeof(struct perf_event_header) + sizeof(u64) +
			 TASK_COMM_LEN +
			 hweight64(fmt->sample_type & PP_RECORD_ID_TYPES) *
			 sizeof(u64);
}

/*
 * Store a COMM record of the current task before its record: the check
 * inline (pp_record_comm_needed()) found its slot stale.  The name is
 * read again, NUL-padded, and checked again against the slot.  A writer
 * nested in this one runs for the same task (an interrupt or NMI does not
 * change current), so the slot's races cost at most one COMM record too
 * many.  Any context; no lock.
 */
noinline void pp_record_comm(struct pp_buffer *buf,
			     const struct pp_record_fmt *fmt)
{
	struct task_struct *task = current;
	u32 pid = task_tgid_nr(task), tid = task_pid_nr(task);
	u64 rec[PP_RECORD_COMM_MAX / sizeof(u64)];
	struct perf_event_header *hdr = (void *)rec;
	u64 type = fmt->sample_type, *p;
	char comm[TASK_COMM_LEN] __aligned(sizeof(u64));
	struct pp_comm_slot *slot;
	unsigned long pos;
	bool end = false;
	unsigned int i;

	/* Read racily, as perf does.  A rename may be under way, so pad it. */
	for (i = 0; i < TASK_COMM_LEN; i++) {
		comm[i] = end ? 0 : READ_ONCE(task->comm[i]);
		end |= !comm[i];
	}
	comm[TASK_COMM_LEN - 1] = 0;
	slot = &buf->comm[hash_32(tid, PP_COMM_SLOTS_BITS)];
	if (!pp_record_comm_stale(slot, pid, tid, comm,
				  local_read(pp_buffer_head(buf)), buf->size))
		return;
	if (pp_buffer_reserve(buf, fmt->comm_size, &pos))
		return;

	hdr->type = PERF_RECORD_COMM;
	hdr->misc = 0;
	hdr->size = fmt->comm_size;
	((u32 *)&rec[1])[0] = pid;
	((u32 *)&rec[1])[1] = tid;
	memcpy(&rec[2], comm, TASK_COMM_LEN);
	/* sample_id, in perf's order (__perf_event__output_id_sample()). */
	p = &rec[2 + TASK_COMM_LEN / sizeof(u64)];
	if (type & PERF_SAMPLE_TID) {
		((u32 *)p)[0] = pid;
		((u32 *)p)[1] = tid;
		p++;
	}
	if (type & PERF_SAMPLE_TIME)
		*p++ = local_clock();
	if (type & PERF_SAMPLE_ID)
		*p++ = fmt->id;
	if (type & PERF_SAMPLE_CPU) {
		((u32 *)p)[0] = smp_processor_id();
		((u32 *)p)[1] = 0;
		p++;
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = fmt->id;
	pp_buffer_write(buf, pos, rec, fmt->comm_size);
	pp_buffer_commit(buf);

	slot->pid = pid;
	slot->tid = tid;
	memcpy(slot->comm, comm, TASK_COMM_LEN);
	slot->pos = pos;
}

/*
 * The header and the fixed-size fields of a sample the overflow handler
 * got.  The time is taken here, after the space is reserved, so that it is
 * the time the record got its place and records are ordered by time from
 * the head.
 */
static __always_inline void fill_fixed(u64 *p,
				       const struct pp_record_fmt *fmt,
				       const struct perf_sample_data *data,
				       struct pt_regs *regs, unsigned int size)
{
	u64 type = fmt->sample_type;

	pp_record_fill_fixed(p, type, fmt->id, size,
			     regs && user_mode(regs) ? PERF_RECORD_MISC_USER :
						       PERF_RECORD_MISC_KERNEL,
			     regs ? instruction_pointer(regs) : 0,
			     type & PERF_SAMPLE_TIME ? local_clock() : 0,
			     data->sample_flags & PERF_SAMPLE_ADDR ? data->addr : 0,
			     data->period);
}

/*
 * The record at @pos wraps round the end of the data area, which happens
 * once per lap.  Assemble the fixed part on the stack and copy it
 * piecewise.  Out of line, so that the common path sets up no stack buffer.
 */
static noinline void write_wrapped(struct pp_buffer *buf, unsigned long pos,
				   const struct pp_record_fmt *fmt,
				   const struct perf_sample_data *data,
				   struct pt_regs *regs, unsigned int size,
				   const u64 *ips, u64 nr_ips,
				   u32 raw_size, u32 raw_pad)
{
	u64 fixed[PP_RECORD_FIXED_MAX / sizeof(u64)];
	const struct perf_raw_frag *frag;
	u32 field = raw_size + raw_pad;

	fill_fixed(fixed, fmt, data, regs, size);
	pp_buffer_write(buf, pos, fixed, fmt->fixed_size);
	pos += fmt->fixed_size;
	if (fmt->sample_type & PERF_SAMPLE_CALLCHAIN) {
		pp_buffer_write(buf, pos, &nr_ips, sizeof(nr_ips));
		pos += sizeof(nr_ips);
		pp_buffer_write(buf, pos, ips, nr_ips * sizeof(u64));
		pos += nr_ips * sizeof(u64);
	}
	if (!(fmt->sample_type & PERF_SAMPLE_RAW))
		return;
	pp_buffer_write(buf, pos, &field, sizeof(field));
	pos += sizeof(field);
	for (frag = raw_size ? &data->raw->frag : NULL; frag; frag = raw_next(frag)) {
		write_frag(buf, pos, frag);
		pos += frag->size;
	}
	pp_buffer_zero(buf, pos, raw_pad);
}

/**
 * pp_record_sample - store one sample as a record in @buf
 * @buf: this CPU's buffer of the persistent event
 * @fmt: the fields to store
 * @data: the sample as the overflow handler got it
 * @regs: the registers the handler got
 *
 * The common case writes the record in place, in one pass; a paused buffer
 * costs one test and a counter.  With comm, a COMM record may go first.
 *
 * Return: 0, or the negative errno of pp_buffer_reserve() (the record was
 * dropped and counted), or -E2BIG for a RAW payload or a record larger
 * than a record can carry (counted as dropped too).
 */
int pp_record_sample(struct pp_buffer *buf, const struct pp_record_fmt *fmt,
		     const struct perf_sample_data *data, struct pt_regs *regs)
{
	const struct perf_raw_frag *frag;
	u32 raw_size = 0, raw_pad = 0;
	unsigned int size, tail = 0, ustack = 0;
	struct pt_regs *uregs = NULL;
	const u64 *ips = NULL;
	unsigned long pos;
	u64 nr_ips = 0, abi = 0;
	void *dst;
	int ret;

	if (!pp_record_prepare(buf, fmt))
		return -EAGAIN;

	size = fmt->fixed_size;
	if (fmt->sample_type & PERF_SAMPLE_CALLCHAIN) {
		nr_ips = pp_callchain(&fmt->chain, regs, &ips);
		size += sizeof(u64) * (1 + nr_ips);
	}
	if (fmt->want_maps)
		pp_maps_sample(ips, nr_ips, regs);
	if (fmt->sample_type & PERF_SAMPLE_RAW) {
		raw_size = raw_payload_size(data);
		if (unlikely(raw_size > PP_RECORD_RAW_MAX)) {
			local64_inc(&buf->dropped);
			return -E2BIG;
		}
		/*
		 * As in perf, the u32 size counts the payload and the padding
		 * that aligns the field to 8 bytes.  Without a payload the
		 * size is 4, followed by 4 zero bytes.
		 */
		raw_pad = ALIGN(sizeof(u32) + (raw_size ?: sizeof(u32)), sizeof(u64)) -
			  sizeof(u32) - raw_size;
		size += sizeof(u32) + raw_size + raw_pad;
		if (unlikely(size > PP_RECORD_MAX)) {
			local64_inc(&buf->dropped);
			return -E2BIG;
		}
	}
	if (unlikely(fmt->sample_type & (PERF_SAMPLE_REGS_USER |
					 PERF_SAMPLE_STACK_USER))) {
		uregs = pp_uregs(regs, &abi);
		if (fmt->sample_type & PERF_SAMPLE_REGS_USER)
			tail += sizeof(u64) + (uregs ? sizeof(u64) *
					       hweight64(fmt->regs_mask) : 0);
		if (fmt->sample_type & PERF_SAMPLE_STACK_USER) {
			ustack = pp_ustack_size(fmt->stack_user, size + tail,
						uregs);
			tail += sizeof(u64) + (ustack ? ustack + sizeof(u64) : 0);
		}
		size += tail;
		if (unlikely(size > PP_RECORD_MAX)) {
			local64_inc(&buf->dropped);
			return -E2BIG;
		}
	}

	ret = pp_buffer_reserve(buf, size, &pos);
	if (ret)
		return ret;

	dst = pp_buffer_ptr(buf, pos, size);
	if (unlikely(!dst)) {
		write_wrapped(buf, pos, fmt, data, regs, size, ips, nr_ips,
			      raw_size, raw_pad);
		goto out;
	}
	fill_fixed(dst, fmt, data, regs, size);
	dst += fmt->fixed_size;
	if (fmt->sample_type & PERF_SAMPLE_CALLCHAIN) {
		*(u64 *)dst = nr_ips;
		memcpy(dst + sizeof(u64), ips, nr_ips * sizeof(u64));
		dst += sizeof(u64) * (1 + nr_ips);
	}
	if (fmt->sample_type & PERF_SAMPLE_RAW) {
		*(u32 *)dst = raw_size + raw_pad;
		dst += sizeof(u32);
		for (frag = raw_size ? &data->raw->frag : NULL; frag;
		     frag = raw_next(frag)) {
			copy_frag(dst, frag, 0, frag->size);
			dst += frag->size;
		}
		/* perf's tracepoint payloads come padded already. */
		if (raw_pad)
			memset(dst, 0, raw_pad);
	}
out:
	if (unlikely(tail))
		write_user_tail(buf, pos + size - tail, fmt, uregs, abi, ustack);
	pp_buffer_commit_one(buf, pos, size);
	return 0;
}
