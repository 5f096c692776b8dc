/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding a persistent event's stored record: shared by the kernel's KUnit
 * suites and the userspace readers (tests/, tools/), so both read the
 * layout the same way.  Header-only, no allocation, no libc.
 */
#ifndef _PERF_PERSISTENT_DECODE_H
#define _PERF_PERSISTENT_DECODE_H

#include <linux/perf_event.h>
#include <linux/types.h>

/**
 * struct pp_decoded - the fields of one stored record
 * @type: PERF_RECORD_SAMPLE, or PERF_RECORD_COMM (events with comm)
 * @size: the record's size in bytes (header included)
 * @misc: the header's misc bits
 * @id: IDENTIFIER or ID
 * @ip: IP
 * @pid: TID's pid
 * @tid: TID's tid
 * @time: TIME
 * @addr: ADDR
 * @cpu: CPU
 * @period: PERIOD
 * @callchain: CALLCHAIN's entries (in the record), or NULL
 * @callchain_nr: how many
 * @raw: RAW payload, or NULL
 * @raw_size: RAW's size field (payload plus padding)
 * @regs_abi: REGS_USER's ABI (PERF_SAMPLE_REGS_ABI_*)
 * @regs: its registers, or NULL
 * @stack: STACK_USER's bytes, or NULL
 * @stack_size: their size field
 * @stack_dyn: how many of them were read
 * @comm: a COMM record's name (NUL-terminated, in the record).  For a
 *	sample it is NULL here; a reader that follows the COMM records may
 *	set it
 *
 * Fields the record does not have are zero.  A COMM record has its pid and
 * tid and, from its sample_id fields, time, CPU and id.
 */
struct pp_decoded {
	__u32		type;
	__u32		size;
	__u16		misc;
	__u64		id;
	__u64		ip;
	__u32		pid;
	__u32		tid;
	__u64		time;
	__u64		addr;
	__u32		cpu;
	__u64		period;
	const __u64	*callchain;
	__u64		callchain_nr;
	const void	*raw;
	__u32		raw_size;
	__u64		regs_abi;
	const __u64	*regs;
	const void	*stack;
	__u64		stack_size;
	__u64		stack_dyn;
	const char	*comm;
};

/* The sample_id fields that end a COMM record, one u64 each. */
#define PP_DECODE_ID							\
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* Bits set in @v. */
static inline __u32 pp_decode_weight(__u64 v)
{
	__u32 n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/*
 * A COMM record: pid, tid, a NUL-terminated name padded to 8 bytes, then
 * the sample_id fields of @sample_type (the event has sample_id_all).
 */
static inline int pp_decode_comm(const struct perf_event_header *hdr,
				 __u64 sample_type, struct pp_decoded *d)
{
	const __u64 *p = (const __u64 *)(hdr + 1);
	const __u64 *end = (const __u64 *)((const char *)hdr + hdr->size);
	const __u64 *id = end - pp_decode_weight(sample_type & PP_DECODE_ID);
	const char *name = (const char *)(p + 1), *c;

	if (id < p + 2)
		return -1;
	/* The name ends within its space. */
	for (c = name; c < (const char *)id && *c; c++)
		;
	if (c == (const char *)id)
		return -1;
	d->pid = ((const __u32 *)p)[0];
	d->tid = ((const __u32 *)p)[1];
	d->comm = name;
	if (sample_type & PERF_SAMPLE_TID)
		id++;
	if (sample_type & PERF_SAMPLE_TIME)
		d->time = *id++;
	if (sample_type & PERF_SAMPLE_ID)
		d->id = *id++;
	if (sample_type & PERF_SAMPLE_CPU)
		d->cpu = *(const __u32 *)id++;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		d->id = *id++;
	return 0;
}

#define PP_DECODE_FIXED							\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/*
 * Decode the record at @rec, at most @len bytes, whose fields are
 * @sample_type, with the user registers of @regs_mask (sample_regs_user)
 * in a REGS_USER field.  Returns 0, or -1 if the record is malformed:
 * neither a PERF_RECORD_SAMPLE nor a PERF_RECORD_COMM, a size that is not
 * a multiple of 8, larger than @len, or different from what its fields
 * need.
 */
static inline int pp_decode_regs(const void *rec, __u32 len,
				 __u64 sample_type, __u64 regs_mask,
				 struct pp_decoded *d)
{
	const struct perf_event_header *hdr = rec;
	const __u64 *p = (const __u64 *)(hdr + 1);
	const __u64 *end;
	__u32 i, nfixed;

	for (i = 0; i < sizeof(*d); i++)
		((unsigned char *)d)[i] = 0;
	if (len < sizeof(*hdr) || hdr->size % 8 || hdr->size > len ||
	    hdr->size < sizeof(*hdr))
		return -1;
	d->type = hdr->type;
	d->size = hdr->size;
	d->misc = hdr->misc;
	if (hdr->type == PERF_RECORD_COMM)
		return pp_decode_comm(hdr, sample_type, d);
	if (hdr->type != PERF_RECORD_SAMPLE)
		return -1;
	end = (const __u64 *)((const char *)rec + hdr->size);

	/* One u64 per fixed-size field, in perf's order. */
	nfixed = pp_decode_weight(sample_type & PP_DECODE_FIXED);
	if (p + nfixed > end)
		return -1;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		d->id = *p++;
	if (sample_type & PERF_SAMPLE_IP)
		d->ip = *p++;
	if (sample_type & PERF_SAMPLE_TID) {
		d->pid = ((const __u32 *)p)[0];
		d->tid = ((const __u32 *)p)[1];
		p++;
	}
	if (sample_type & PERF_SAMPLE_TIME)
		d->time = *p++;
	if (sample_type & PERF_SAMPLE_ADDR)
		d->addr = *p++;
	if (sample_type & PERF_SAMPLE_ID)
		d->id = *p++;
	if (sample_type & PERF_SAMPLE_CPU)
		d->cpu = *(const __u32 *)p++;
	if (sample_type & PERF_SAMPLE_PERIOD)
		d->period = *p++;

	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		if (p >= end || p[0] > (__u64)(end - p - 1))
			return -1;
		d->callchain_nr = p[0];
		d->callchain = p + 1;
		p += 1 + p[0];
	}
	if (sample_type & PERF_SAMPLE_RAW) {
		const __u32 *raw = (const __u32 *)p;

		/* The u32 size and the payload end on an 8-byte boundary. */
		if (p >= end || raw[0] % 8 != 4 ||
		    (const char *)(raw + 1) + raw[0] > (const char *)end)
			return -1;
		d->raw_size = raw[0];
		d->raw = raw + 1;
		p = (const __u64 *)((const char *)(raw + 1) + raw[0]);
	}
	if (sample_type & PERF_SAMPLE_REGS_USER) {
		if (p >= end)
			return -1;
		d->regs_abi = *p++;
		if (d->regs_abi) {
			nfixed = pp_decode_weight(regs_mask);
			if (nfixed > (__u64)(end - p))
				return -1;
			d->regs = p;
			p += nfixed;
		}
	}
	if (sample_type & PERF_SAMPLE_STACK_USER) {
		if (p >= end)
			return -1;
		d->stack_size = *p++;
		if (d->stack_size) {
			if (d->stack_size % 8 ||
			    d->stack_size / 8 + 1 > (__u64)(end - p))
				return -1;
			d->stack = p;
			p += d->stack_size / 8;
			d->stack_dyn = *p++;
			if (d->stack_dyn > d->stack_size)
				return -1;
		}
	}
	return p == end ? 0 : -1;
}

/* pp_decode_regs() of a record whose fields need no registers' mask. */
static inline int pp_decode(const void *rec, __u32 len, __u64 sample_type,
			    struct pp_decoded *d)
{
	return pp_decode_regs(rec, len, sample_type, 0, d);
}

#endif /* _PERF_PERSISTENT_DECODE_H */
