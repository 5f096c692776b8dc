/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the error records that firmware hands the kernel (UEFI's Common
 * Platform Error Record sections, in ACPI's generic error status blocks):
 * the blocks of the BERT region, which hold the errors of the boot before,
 * and a GHES error source's block, which holds the error it reports now.
 * Shared by the module (kernel) and the tool (userspace), which decodes a
 * memory error section from ras:non_standard_event's raw data.
 *
 * A block (ACPI 6.5, 18.3.2.7.1, struct acpi_hest_generic_status) is 20
 * bytes: block status, raw data offset, raw data length, data length,
 * error severity.  Its data_length bytes of sections follow, each a
 * 64-byte descriptor (72 from revision 3.0, which adds a timestamp) and
 * error_data_length bytes of payload, whose layout the descriptor's
 * section type (a GUID) names.  The kernel's readers clear the block
 * status once they have handled a block (bert.c at boot, ghes.c before a
 * fatal error's panic), and leave the rest: so a block is taken here by
 * its lengths and severity, whatever its status says.
 *
 * Everything is read byte by byte, little-endian, bounds-checked against
 * the length given: the bytes are firmware's, or a record's, and may be
 * anything.  Pure logic: any context, no allocation, no libc.
 */
#ifndef _PERF_PERSISTENT_CPER_H
#define _PERF_PERSISTENT_CPER_H

#include <linux/types.h>

/* The sizes of a block's header and of a section's descriptor. */
#define PP_CPER_STATUS_SIZE	20
#define PP_CPER_SECTION_SIZE	64
#define PP_CPER_SECTION_V3_SIZE	72

/* Error severities (UEFI N.2.1), of a block and of a section. */
#define PP_CPER_SEV_RECOVERABLE	0
#define PP_CPER_SEV_FATAL	1
#define PP_CPER_SEV_CORRECTED	2
#define PP_CPER_SEV_INFO	3

/* A memory error section's type, as stored (a GUID's bytes). */
#define PP_CPER_SEC_MEMORY						\
	{ 0x14, 0x11, 0xbc, 0xa5, 0x64, 0x6f, 0xde, 0x4e,		\
	  0xb8, 0x63, 0x3e, 0x83, 0xed, 0x7c, 0x83, 0xb1 }

/* A section's validation bits: its FRU id, its FRU text are set. */
#define PP_CPER_VALID_FRU_ID	0x1
#define PP_CPER_VALID_FRU_TEXT	0x2

/*
 * The severity the kernel's GHES driver gives the RAS tracepoints for a
 * CPER severity (ghes_severity(): none, corrected, recoverable, panic;
 * one UEFI does not define is a panic).
 */
static inline __u8 pp_cper_ghes_severity(__u32 sev)
{
	switch (sev) {
	case PP_CPER_SEV_INFO:
		return 0;
	case PP_CPER_SEV_CORRECTED:
		return 1;
	case PP_CPER_SEV_RECOVERABLE:
		return 2;
	default:
		return 3;
	}
}

/**
 * struct pp_cper_block - one generic error status block
 * @severity: the block's error severity (PP_CPER_SEV_*)
 * @data_length: bytes of sections after the header
 * @length: the block's whole length (header, sections, raw data)
 */
struct pp_cper_block {
	__u32	severity;
	__u32	data_length;
	__u32	length;
};

/**
 * struct pp_cper_section - one section of a block, pointing into it
 * @type: the section type, 16 bytes as stored
 * @fru_id: the FRU id, 16 bytes
 * @fru_text: the FRU text, 20 bytes, NUL-padded or not terminated
 * @severity: the section's severity (PP_CPER_SEV_*)
 * @revision: the descriptor's revision (major in the high byte)
 * @valid: its validation bits (PP_CPER_VALID_FRU_*)
 * @data: the payload
 * @length: the payload's length
 */
struct pp_cper_section {
	const __u8	*type;
	const __u8	*fru_id;
	const __u8	*fru_text;
	__u32		severity;
	__u16		revision;
	__u8		valid;
	const __u8	*data;
	__u32		length;
};

static inline __u64 pp_cper_le(const __u8 *p, unsigned int bytes)
{
	__u64 v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

/**
 * pp_cper_block_read - the header of the block at the start of @buf
 * @buf: the bytes
 * @len: how many there are
 * @b: its header, filled on success
 *
 * Return: 1 for a block, 0 for the end of a list of blocks (fewer bytes
 * than a header, or no sections: firmware ends the BERT region so), -1
 * for a damaged one (a severity UEFI does not define, sections shorter
 * than one descriptor, raw data that overlaps them, or a length beyond
 * @len).
 */
static inline int pp_cper_block_read(const void *buf, __u64 len,
				     struct pp_cper_block *b)
{
	const __u8 *p = (const __u8 *)buf;
	__u64 raw_off, raw_len, end;

	if (len < PP_CPER_STATUS_SIZE)
		return 0;
	raw_off = pp_cper_le(p + 4, 4);
	raw_len = pp_cper_le(p + 8, 4);
	b->data_length = (__u32)pp_cper_le(p + 12, 4);
	b->severity = (__u32)pp_cper_le(p + 16, 4);
	if (!b->data_length)
		return 0;
	if (b->severity > PP_CPER_SEV_INFO ||
	    b->data_length < PP_CPER_SECTION_SIZE)
		return -1;
	end = PP_CPER_STATUS_SIZE + (__u64)b->data_length;
	if (raw_len) {
		if (raw_off < end)
			return -1;
		end = raw_off + raw_len;
	}
	if (end > len)
		return -1;
	b->length = (__u32)end;
	return 1;
}

/**
 * pp_cper_section_next - the section of a block at *@off
 * @block: the block, as pp_cper_block_read() read it
 * @b: its header
 * @off: the offset of the next section in the sections (0 for the first);
 *	moved past the one returned
 * @s: the section, filled on success
 *
 * Return: 1 for a section, 0 after the last, -1 if the section does not
 * fit in the block's data_length (the rest of the block is not read).
 */
static inline int pp_cper_section_next(const void *block,
				       const struct pp_cper_block *b,
				       __u32 *off, struct pp_cper_section *s)
{
	const __u8 *p = (const __u8 *)block + PP_CPER_STATUS_SIZE + *off;
	__u32 left = b->data_length - *off, head;

	if (*off >= b->data_length)
		return 0;
	if (left < PP_CPER_SECTION_SIZE)
		return -1;
	s->revision = (__u16)pp_cper_le(p + 20, 2);
	head = (s->revision >> 8) >= 3 ? PP_CPER_SECTION_V3_SIZE :
					 PP_CPER_SECTION_SIZE;
	s->length = (__u32)pp_cper_le(p + 24, 4);
	if (left < head || s->length > left - head)
		return -1;
	s->type = p;
	s->valid = p[22];
	s->severity = (__u32)pp_cper_le(p + 16, 4);
	s->fru_id = p + 28;
	s->fru_text = p + 44;
	s->data = p + head;
	*off += head + s->length;
	return 1;
}

/* Whether @type (16 bytes as stored) is @want's. */
static inline int pp_cper_type_is(const __u8 *type, const __u8 *want)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (type[i] != want[i])
			return 0;
	return 1;
}

/* A memory error section's validation bits (UEFI N.2.5). */
#define PP_CPER_MEM_STATUS	0x1ULL
#define PP_CPER_MEM_PA		0x2ULL
#define PP_CPER_MEM_PA_MASK	0x4ULL
#define PP_CPER_MEM_NODE	0x8ULL
#define PP_CPER_MEM_CARD	0x10ULL
#define PP_CPER_MEM_MODULE	0x20ULL
#define PP_CPER_MEM_BANK	0x40ULL
#define PP_CPER_MEM_DEVICE	0x80ULL
#define PP_CPER_MEM_ROW		0x100ULL
#define PP_CPER_MEM_COLUMN	0x200ULL
#define PP_CPER_MEM_BIT_POS	0x400ULL
#define PP_CPER_MEM_TYPE	0x4000ULL

/*
 * The shortest memory error section: UEFI 2.1's, which ends with the
 * error type (the later fields, from "extended" on, came with 2.3).
 */
#define PP_CPER_MEM_MIN		73

/**
 * struct pp_cper_mem - the fields of a memory error section a reader
 *	shows, each meaningful only if its bit is set in @valid
 */
struct pp_cper_mem {
	__u64	valid;
	__u64	status;
	__u64	addr;
	__u64	addr_mask;
	__u16	node;
	__u16	card;
	__u16	module;
	__u16	bank;
	__u16	device;
	__u16	row;
	__u16	column;
	__u16	bit_pos;
	__u8	type;
};

/**
 * pp_cper_mem_read - decode a memory error section's payload
 * @data: the payload
 * @len: its length
 * @m: the fields, filled on success
 *
 * Return: 0, or -1 if @len is shorter than UEFI's shortest layout.
 */
static inline int pp_cper_mem_read(const void *data, __u32 len,
				   struct pp_cper_mem *m)
{
	const __u8 *p = (const __u8 *)data;

	if (len < PP_CPER_MEM_MIN)
		return -1;
	m->valid = pp_cper_le(p, 8);
	m->status = pp_cper_le(p + 8, 8);
	m->addr = pp_cper_le(p + 16, 8);
	m->addr_mask = pp_cper_le(p + 24, 8);
	m->node = (__u16)pp_cper_le(p + 32, 2);
	m->card = (__u16)pp_cper_le(p + 34, 2);
	m->module = (__u16)pp_cper_le(p + 36, 2);
	m->bank = (__u16)pp_cper_le(p + 38, 2);
	m->device = (__u16)pp_cper_le(p + 40, 2);
	m->row = (__u16)pp_cper_le(p + 42, 2);
	m->column = (__u16)pp_cper_le(p + 44, 2);
	m->bit_pos = (__u16)pp_cper_le(p + 46, 2);
	m->type = p[72];
	return 0;
}

/* The memory error types UEFI defines. */
#define PP_CPER_MEM_TYPES	16

/*
 * A memory error type's name (UEFI N.2.5's table, as the kernel's
 * cper_mem_err_type_str() spells them), or NULL for one it does not
 * define.
 */
static inline const char *pp_cper_mem_type_name(__u8 type)
{
	static const char *const names[PP_CPER_MEM_TYPES] = {
		"unknown", "no error", "single-bit ECC", "multi-bit ECC",
		"single-symbol chipkill ECC", "multi-symbol chipkill ECC",
		"master abort", "target abort", "parity error",
		"watchdog timeout", "invalid address", "mirror Broken",
		"memory sparing", "scrub corrected error",
		"scrub uncorrected error", "physical memory map-out event",
	};

	return type < PP_CPER_MEM_TYPES ? names[type] : NULL;
}

#endif /* _PERF_PERSISTENT_CPER_H */
