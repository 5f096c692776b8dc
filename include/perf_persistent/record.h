/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Encoding one sample of a persistent event's source into a record in its
 * per-CPU buffer, in perf's PERF_RECORD_SAMPLE layout.
 */
#ifndef _PERF_PERSISTENT_RECORD_H
#define _PERF_PERSISTENT_RECORD_H

#include <linux/types.h>

struct perf_sample_data;
struct pp_buffer;
struct pt_regs;

/**
 * struct pp_record_fmt - what a persistent event's records hold
 * @sample_type: PERF_SAMPLE_* bits, a subset of PERF_PERSISTENT_SAMPLE_TYPES
 * @id: the value of the IDENTIFIER and ID fields: the event's id
 * @fixed_size: bytes of the header and the fixed-size fields
 * @comm_size: bytes of a PERF_RECORD_COMM record, 0 when the event's
 *	records get none
 *
 * Set up with pp_record_fmt_init(), then pp_record_fmt_want_comm() for an
 * event whose attr asks for comm.
 */
struct pp_record_fmt {
	u64		sample_type;
	u64		id;
	unsigned int	fixed_size;
	unsigned int	comm_size;
};

struct pp_comm_slot;

/* Largest RAW payload a record can carry (the header's size is a u16). */
#define PP_RECORD_RAW_MAX	(U16_MAX - 128)

bool pp_record_sample_type_ok(u64 sample_type);
void pp_record_fmt_init(struct pp_record_fmt *fmt, u64 sample_type, u64 id);
void pp_record_fmt_want_comm(struct pp_record_fmt *fmt);
bool pp_record_comm_stale(const struct pp_comm_slot *slot, u32 pid, u32 tid,
			  const char *comm, unsigned long head,
			  unsigned long size);
int pp_record_sample(struct pp_buffer *buf, const struct pp_record_fmt *fmt,
		     const struct perf_sample_data *data,
		     struct pt_regs *regs);

#endif /* _PERF_PERSISTENT_RECORD_H */
