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
 * The handler gets the sample data unprepared: perf_sample_data_init() set
 * only sample_flags, period and (when non-zero) addr; raw is set when
 * sample_flags has PERF_SAMPLE_RAW.  RAW data is a chain of fragments,
 * each copied with its own copy function when it has one, the last one
 * the one perf_raw_frag_last() says: since 6.3 perf_sample_save_raw_data()
 * has stored the padding in its ->pad, which shares ->next's storage, so
 * ->next of the last fragment is not NULL there.  Everything else is taken
 * here: the IP
 * from @regs, pid/tid from current, the time from local_clock() (perf's
 * clock), the CPU from smp_processor_id().
 */

#include <linux/bitops.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

#include <uapi/linux/perf_persistent.h>

#include "perf_persistent/buffer.h"
#include "perf_persistent/record.h"

/* The fixed-size fields a record can have: one u64 each. */
#define PP_RECORD_FIXED_TYPES						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* Header plus the eight fixed-size fields. */
#define PP_RECORD_FIXED_MAX	(sizeof(struct perf_event_header) + 8 * sizeof(u64))

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
 * copy function when it has one (it returns what it could not copy: that
 * part is zeroed, not left stale).
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
}

/*
 * The header and the fixed-size fields, at @p (8-byte aligned).  Fields
 * are taken here, after the space is reserved: the time is the time the
 * record got its place, so records are ordered by time from the head.
 */
static __always_inline void fill_fixed(u64 *p,
				       const struct pp_record_fmt *fmt,
				       const struct perf_sample_data *data,
				       struct pt_regs *regs, unsigned int size)
{
	struct perf_event_header *hdr = (void *)p++;
	u64 type = fmt->sample_type;

	hdr->type = PERF_RECORD_SAMPLE;
	hdr->misc = regs && user_mode(regs) ? PERF_RECORD_MISC_USER :
					      PERF_RECORD_MISC_KERNEL;
	hdr->size = size;
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = fmt->id;
	if (type & PERF_SAMPLE_IP)
		*p++ = regs ? instruction_pointer(regs) : 0;
	if (type & PERF_SAMPLE_TID) {
		u32 *tid = (u32 *)p++;

		tid[0] = task_tgid_nr(current);
		tid[1] = task_pid_nr(current);
	}
	if (type & PERF_SAMPLE_TIME)
		*p++ = local_clock();
	if (type & PERF_SAMPLE_ADDR)
		*p++ = data->sample_flags & PERF_SAMPLE_ADDR ? data->addr : 0;
	if (type & PERF_SAMPLE_ID)
		*p++ = fmt->id;
	if (type & PERF_SAMPLE_CPU) {
		u32 *cpu = (u32 *)p++;

		cpu[0] = smp_processor_id();
		cpu[1] = 0;
	}
	if (type & PERF_SAMPLE_PERIOD)
		*p++ = data->period;
}

/*
 * The record at @pos wraps round the end of the data area (once per lap):
 * assemble the fixed part on the stack and copy piecewise.  Out of line, so
 * that the common path has no stack buffer to set up.
 */
static noinline void write_wrapped(struct pp_buffer *buf, unsigned long pos,
				   const struct pp_record_fmt *fmt,
				   const struct perf_sample_data *data,
				   struct pt_regs *regs, unsigned int size,
				   u32 raw_size, u32 raw_pad)
{
	u64 fixed[PP_RECORD_FIXED_MAX / sizeof(u64)];
	const struct perf_raw_frag *frag;
	u32 field = raw_size + raw_pad;

	fill_fixed(fixed, fmt, data, regs, size);
	pp_buffer_write(buf, pos, fixed, fmt->fixed_size);
	if (!(fmt->sample_type & PERF_SAMPLE_RAW))
		return;
	pos += fmt->fixed_size;
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
 * costs one test and a counter.
 *
 * Return: 0, or the negative errno of pp_buffer_reserve() (the record was
 * dropped and counted), or -E2BIG for a RAW payload larger than a record
 * can carry (counted as dropped too).
 */
int pp_record_sample(struct pp_buffer *buf, const struct pp_record_fmt *fmt,
		     const struct perf_sample_data *data, struct pt_regs *regs)
{
	const struct perf_raw_frag *frag;
	u32 raw_size = 0, raw_pad = 0;
	unsigned int size;
	unsigned long pos;
	void *dst;
	int ret;

	if (pp_buffer_drop_paused(buf))
		return -EAGAIN;

	size = fmt->fixed_size;
	if (fmt->sample_type & PERF_SAMPLE_RAW) {
		raw_size = raw_payload_size(data);
		if (unlikely(raw_size > PP_RECORD_RAW_MAX)) {
			local64_inc(&buf->dropped);
			return -E2BIG;
		}
		/*
		 * As perf: the u32 size counts the payload and the padding
		 * that aligns the field to 8 bytes; with no payload, a size
		 * of 4 and 4 zero bytes.
		 */
		raw_pad = ALIGN(sizeof(u32) + (raw_size ?: sizeof(u32)), sizeof(u64)) -
			  sizeof(u32) - raw_size;
		size += sizeof(u32) + raw_size + raw_pad;
	}

	ret = pp_buffer_reserve(buf, size, &pos);
	if (ret)
		return ret;

	dst = pp_buffer_ptr(buf, pos, size);
	if (unlikely(!dst)) {
		write_wrapped(buf, pos, fmt, data, regs, size, raw_size, raw_pad);
		goto out;
	}
	fill_fixed(dst, fmt, data, regs, size);
	if (fmt->sample_type & PERF_SAMPLE_RAW) {
		dst += fmt->fixed_size;
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
	pp_buffer_commit(buf);
	return 0;
}
