// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the reader of firmware's error records
 * (include/perf_persistent/cper.h): blocks and sections built with the
 * kernel's own structs (struct acpi_hest_generic_status,
 * acpi_hest_generic_data and its 3.0 revision, cper_sec_mem_err), so the
 * reader's offsets are checked against the kernel's layout and its walk
 * against the kernel's section iterator (the lab's KUnit kernel has no
 * CONFIG_UEFI_CPER, so not against its checks); a BERT region
 * of two blocks; the cleared block status that the kernel leaves; the end
 * of a list; and every kind of damage the reader refuses.
 */
#include <kunit/test.h>

#include <linux/cper.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include <acpi/ghes.h>

#include "perf_persistent/cper.h"

/* A block of one memory error section (revision 3.0) and one other. */
struct pp_cper_test_block {
	struct acpi_hest_generic_status		status;
	struct acpi_hest_generic_data_v300	mem_hdr;
	struct cper_sec_mem_err			mem;
	struct acpi_hest_generic_data		other_hdr;
	u8					other[8];
} __packed;

static const guid_t pp_cper_test_other =
	GUID_INIT(0x01234567, 0x89ab, 0xcdef, 0x01, 0x23, 0x45, 0x67,
		  0x89, 0xab, 0xcd, 0xef);

static void pp_cper_test_fill(struct pp_cper_test_block *b, u32 severity,
			      u64 addr)
{
	guid_t mem = CPER_SEC_PLATFORM_MEM;

	memset(b, 0, sizeof(*b));
	b->status.block_status = ACPI_HEST_UNCORRECTABLE;
	b->status.data_length = sizeof(*b) - sizeof(b->status);
	b->status.error_severity = severity;

	memcpy(b->mem_hdr.section_type, &mem, sizeof(mem));
	b->mem_hdr.error_severity = severity;
	b->mem_hdr.revision = 0x300;
	b->mem_hdr.error_data_length = sizeof(b->mem);
	b->mem_hdr.validation_bits = CPER_SEC_VALID_FRU_TEXT;
	memcpy(b->mem_hdr.fru_text, "DIMM A1", 7);
	b->mem.validation_bits = CPER_MEM_VALID_PA | CPER_MEM_VALID_NODE |
		CPER_MEM_VALID_CARD | CPER_MEM_VALID_MODULE |
		CPER_MEM_VALID_BANK | CPER_MEM_VALID_ROW |
		CPER_MEM_VALID_COLUMN | CPER_MEM_VALID_ERROR_TYPE;
	b->mem.physical_addr = addr;
	b->mem.node = 1;
	b->mem.card = 2;
	b->mem.module = 3;
	b->mem.bank = 4;
	b->mem.row = 0x1234;
	b->mem.column = 0x56;
	b->mem.error_type = 3;

	memcpy(b->other_hdr.section_type, &pp_cper_test_other,
	       sizeof(pp_cper_test_other));
	b->other_hdr.error_severity = CPER_SEV_CORRECTED;
	b->other_hdr.revision = 0x201;
	b->other_hdr.error_data_length = sizeof(b->other);
	memset(b->other_hdr.fru_text, 'x', sizeof(b->other_hdr.fru_text));
	memset(b->other, 0xa5, sizeof(b->other));
}

/* The reader's sizes are the kernel's. */
static void pp_cper_test_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PP_CPER_STATUS_SIZE,
			sizeof(struct acpi_hest_generic_status));
	KUNIT_EXPECT_EQ(test, PP_CPER_SECTION_SIZE,
			sizeof(struct acpi_hest_generic_data));
	KUNIT_EXPECT_EQ(test, PP_CPER_SECTION_V3_SIZE,
			sizeof(struct acpi_hest_generic_data_v300));
	KUNIT_EXPECT_EQ(test, PP_CPER_SEV_FATAL, CPER_SEV_FATAL);
	KUNIT_EXPECT_EQ(test, PP_CPER_SEV_CORRECTED, CPER_SEV_CORRECTED);
	KUNIT_EXPECT_EQ(test, PP_CPER_VALID_FRU_ID, CPER_SEC_VALID_FRU_ID);
	KUNIT_EXPECT_EQ(test, PP_CPER_VALID_FRU_TEXT, CPER_SEC_VALID_FRU_TEXT);
	KUNIT_EXPECT_EQ(test, pp_cper_ghes_severity(CPER_SEV_INFORMATIONAL),
			GHES_SEV_NO);
	KUNIT_EXPECT_EQ(test, pp_cper_ghes_severity(CPER_SEV_CORRECTED),
			GHES_SEV_CORRECTED);
	KUNIT_EXPECT_EQ(test, pp_cper_ghes_severity(CPER_SEV_RECOVERABLE),
			GHES_SEV_RECOVERABLE);
	KUNIT_EXPECT_EQ(test, pp_cper_ghes_severity(CPER_SEV_FATAL),
			GHES_SEV_PANIC);
	KUNIT_EXPECT_EQ(test, pp_cper_ghes_severity(7), GHES_SEV_PANIC);
	KUNIT_EXPECT_EQ(test, PP_CPER_MEM_MIN,
			offsetof(struct cper_sec_mem_err, error_type) + 1);
}

/* A block and its two sections, as the kernel's iterator walks them. */
static void pp_cper_test_walk(struct kunit *test)
{
	static const u8 mem_type[] = PP_CPER_SEC_MEMORY;
	struct pp_cper_test_block blk;
	struct acpi_hest_generic_status *st = &blk.status;
	struct acpi_hest_generic_data *gdata;
	struct pp_cper_section s;
	struct pp_cper_block b;
	struct pp_cper_mem m;
	unsigned int n = 0;
	u32 off = 0;

	pp_cper_test_fill(&blk, CPER_SEV_FATAL, 0x5678000);
	KUNIT_ASSERT_EQ(test, pp_cper_block_read(&blk, sizeof(blk), &b), 1);
	KUNIT_EXPECT_EQ(test, b.severity, PP_CPER_SEV_FATAL);
	KUNIT_EXPECT_EQ(test, b.length, sizeof(blk));

	apei_estatus_for_each_section(st, gdata) {
		KUNIT_ASSERT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s),
				1);
		KUNIT_EXPECT_PTR_EQ(test, (const void *)s.type,
				    (const void *)gdata->section_type);
		KUNIT_EXPECT_PTR_EQ(test, (const void *)s.data,
				    acpi_hest_get_payload(gdata));
		KUNIT_EXPECT_EQ(test, s.length,
				acpi_hest_get_error_length(gdata));
		KUNIT_EXPECT_PTR_EQ(test, (const void *)s.fru_text,
				    (const void *)gdata->fru_text);
		KUNIT_EXPECT_PTR_EQ(test, (const void *)s.fru_id,
				    (const void *)gdata->fru_id);
		KUNIT_EXPECT_EQ(test, s.severity, gdata->error_severity);
		KUNIT_EXPECT_EQ(test, s.valid, gdata->validation_bits);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 2);
	KUNIT_EXPECT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), 0);

	/* The first is the memory error, decoded. */
	off = 0;
	KUNIT_ASSERT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), 1);
	KUNIT_EXPECT_TRUE(test, pp_cper_type_is(s.type, mem_type));
	KUNIT_ASSERT_EQ(test, pp_cper_mem_read(s.data, s.length, &m), 0);
	KUNIT_EXPECT_EQ(test, m.valid, blk.mem.validation_bits);
	KUNIT_EXPECT_EQ(test, m.addr, 0x5678000);
	KUNIT_EXPECT_EQ(test, m.node, 1);
	KUNIT_EXPECT_EQ(test, m.card, 2);
	KUNIT_EXPECT_EQ(test, m.module, 3);
	KUNIT_EXPECT_EQ(test, m.bank, 4);
	KUNIT_EXPECT_EQ(test, m.row, 0x1234);
	KUNIT_EXPECT_EQ(test, m.column, 0x56);
	KUNIT_EXPECT_EQ(test, m.type, 3);
	KUNIT_EXPECT_STREQ(test, pp_cper_mem_type_name(m.type),
			   "multi-bit ECC");
	KUNIT_EXPECT_STREQ(test, pp_cper_mem_type_name(0), "unknown");
	KUNIT_EXPECT_STREQ(test, pp_cper_mem_type_name(15),
			   "physical memory map-out event");
	KUNIT_EXPECT_NULL(test, pp_cper_mem_type_name(16));

	/* The second is another kind, not taken for memory. */
	KUNIT_ASSERT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), 1);
	KUNIT_EXPECT_FALSE(test, pp_cper_type_is(s.type, mem_type));
	KUNIT_EXPECT_EQ(test, s.length, 8);
	KUNIT_EXPECT_EQ(test, s.data[7], 0xa5);
	KUNIT_EXPECT_EQ(test, s.revision, 0x201);
}

/*
 * A BERT region: two blocks, then zeros.  The kernel's bert.c clears each
 * block's status once printed; the blocks are still read.
 */
static void pp_cper_test_region(struct kunit *test)
{
	struct pp_cper_test_block *r;
	struct pp_cper_block b;
	size_t len = 2 * sizeof(*r) + 64, pos = 0;
	unsigned int blocks = 0;
	u8 *region;

	region = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, region);
	r = (struct pp_cper_test_block *)region;
	pp_cper_test_fill(&r[0], CPER_SEV_CORRECTED, 0x1000);
	pp_cper_test_fill(&r[1], CPER_SEV_FATAL, 0x2000);
	r[0].status.block_status = 0;
	r[1].status.block_status = 0;

	while (pp_cper_block_read(region + pos, len - pos, &b) == 1) {
		blocks++;
		pos += b.length;
	}
	KUNIT_EXPECT_EQ(test, blocks, 2);
	KUNIT_EXPECT_EQ(test, pos, 2 * sizeof(*r));
	/* Fewer bytes than a header end the list too. */
	KUNIT_EXPECT_EQ(test, pp_cper_block_read(region, 19, &b), 0);
}

/* Raw data after the sections counts in the length; overlapping, not. */
static void pp_cper_test_raw(struct kunit *test)
{
	struct {
		struct pp_cper_test_block	blk;
		u8				raw[16];
	} __packed x;
	struct pp_cper_block b;

	pp_cper_test_fill(&x.blk, CPER_SEV_RECOVERABLE, 0);
	x.blk.status.raw_data_offset = sizeof(x.blk);
	x.blk.status.raw_data_length = sizeof(x.raw);
	KUNIT_ASSERT_EQ(test, pp_cper_block_read(&x, sizeof(x), &b), 1);
	KUNIT_EXPECT_EQ(test, b.length, sizeof(x));
	/* Cut short of its raw data. */
	KUNIT_EXPECT_EQ(test, pp_cper_block_read(&x, sizeof(x) - 1, &b), -1);
	/* Raw data inside the sections. */
	x.blk.status.raw_data_offset = sizeof(x.blk.status);
	KUNIT_EXPECT_EQ(test, pp_cper_block_read(&x, sizeof(x), &b), -1);
}

/* What the reader refuses, and where the kernel's check agrees. */
static void pp_cper_test_damaged(struct kunit *test)
{
	struct pp_cper_test_block blk;
	struct pp_cper_section s;
	struct pp_cper_block b;
	u32 off;

	/* A severity UEFI does not define. */
	pp_cper_test_fill(&blk, 4, 0);
	KUNIT_EXPECT_EQ(test, pp_cper_block_read(&blk, sizeof(blk), &b), -1);

	/* Sections shorter than one descriptor. */
	pp_cper_test_fill(&blk, CPER_SEV_FATAL, 0);
	blk.status.data_length = PP_CPER_SECTION_SIZE - 1;
	KUNIT_EXPECT_EQ(test, pp_cper_block_read(&blk, sizeof(blk), &b), -1);

	/* A block longer than the bytes there are. */
	pp_cper_test_fill(&blk, CPER_SEV_FATAL, 0);
	KUNIT_EXPECT_EQ(test, pp_cper_block_read(&blk, sizeof(blk) - 1, &b),
			-1);

	/* No sections: the end. */
	blk.status.data_length = 0;
	KUNIT_EXPECT_EQ(test, pp_cper_block_read(&blk, sizeof(blk), &b), 0);

	/* A section whose payload runs past data_length. */
	pp_cper_test_fill(&blk, CPER_SEV_FATAL, 0);
	blk.other_hdr.error_data_length = sizeof(blk.other) + 1;
	KUNIT_ASSERT_EQ(test, pp_cper_block_read(&blk, sizeof(blk), &b), 1);
	off = 0;
	KUNIT_EXPECT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), 1);
	KUNIT_EXPECT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), -1);

	/* A payload length that wraps. */
	blk.other_hdr.error_data_length = 0xffffffff;
	off = 0;
	KUNIT_EXPECT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), 1);
	KUNIT_EXPECT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), -1);

	/* Bytes left after the last section, too few for a descriptor. */
	pp_cper_test_fill(&blk, CPER_SEV_FATAL, 0);
	blk.status.data_length -= sizeof(blk.other_hdr) + sizeof(blk.other);
	blk.status.data_length += 8;
	KUNIT_ASSERT_EQ(test, pp_cper_block_read(&blk, sizeof(blk), &b), 1);
	off = 0;
	KUNIT_EXPECT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), 1);
	KUNIT_EXPECT_EQ(test, pp_cper_section_next(&blk, &b, &off, &s), -1);

	/* A memory section shorter than UEFI 2.1's layout. */
	pp_cper_test_fill(&blk, CPER_SEV_FATAL, 0);
	KUNIT_EXPECT_EQ(test, pp_cper_mem_read(&blk.mem, PP_CPER_MEM_MIN - 1,
					       &(struct pp_cper_mem){}), -1);
}

static struct kunit_case pp_cper_test_cases[] = {
	KUNIT_CASE(pp_cper_test_sizes),
	KUNIT_CASE(pp_cper_test_walk),
	KUNIT_CASE(pp_cper_test_region),
	KUNIT_CASE(pp_cper_test_raw),
	KUNIT_CASE(pp_cper_test_damaged),
	{}
};

static struct kunit_suite pp_cper_test_suite = {
	.name = "perf_persistent_cper",
	.test_cases = pp_cper_test_cases,
};

kunit_test_suite(pp_cper_test_suite);
