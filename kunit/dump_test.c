// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the crash-dump encoder (module/dump_enc.c): base64 as
 * RFC 4648 spells it, the data lines' layout and CRC, and which records of
 * a buffer a dump of bounded size takes: the newest whole ones, none while
 * a writer is in the buffer, none past a corrupt header.
 */
#include <kunit/test.h>

#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "../module/buffer.h"
#include "perf_persistent/dump.h"

/* RFC 4648, section 10. */
static void pp_dump_test_base64(struct kunit *test)
{
	static const char * const in[] = { "", "f", "fo", "foo", "foob",
					   "fooba", "foobar" };
	static const char * const out[] = { "", "Zg==", "Zm8=", "Zm9v",
					    "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	const u8 bin[] = { 0x00, 0xff, 0xfe, 0x3e, 0x3f };
	char dst[16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		KUNIT_EXPECT_EQ(test, pp_dump_base64(dst, in[i], strlen(in[i])),
				(unsigned int)strlen(out[i]));
		KUNIT_EXPECT_STREQ(test, dst, out[i]);
	}
	pp_dump_base64(dst, bin, sizeof(bin));
	KUNIT_EXPECT_STREQ(test, dst, "AP/+Pj8=");
}

/* "ppdump SEQ R ID CPU OFFSET CRC DATA"; CRC-32 of "123456789" is cbf43926. */
static void pp_dump_test_lines(struct kunit *test)
{
	char line[PP_DUMP_LINE_MAX];
	u8 chunk[PP_DUMP_CHUNK + 1];
	int n;

	n = pp_dump_data_line(line, sizeof(line), 7, 'R', 3, 1, 192,
			      "123456789", 9);
	KUNIT_EXPECT_STREQ(test, line, "ppdump 7 R 3 1 192 cbf43926 MTIzNDU2Nzg5");
	KUNIT_EXPECT_EQ(test, n, (int)strlen(line));
	pp_dump_data_line(line, sizeof(line), 0, 'F', 12, -1, 0, "123456789", 9);
	KUNIT_EXPECT_STREQ(test, line, "ppdump 0 F 12 0 cbf43926 MTIzNDU2Nzg5");

	/* A full chunk with the largest numbers fits the line. */
	memset(chunk, 0xa5, sizeof(chunk));
	n = pp_dump_data_line(line, sizeof(line), U32_MAX, 'R', U32_MAX,
			      INT_MAX, U32_MAX, chunk, PP_DUMP_CHUNK);
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_LT(test, n, PP_DUMP_LINE_MAX);
	KUNIT_EXPECT_EQ(test, pp_dump_data_line(line, sizeof(line), 0, 'R', 1,
						0, 0, chunk, sizeof(chunk)), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_dump_data_line(line, 64, 0, 'R', 1, 0, 0,
						chunk, 8), -EINVAL);
}

/* Records of @size bytes, each carrying its number after the header. */
static void put(struct pp_buffer *buf, unsigned int size, u64 seq)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = size };
	unsigned long pos;

	preempt_disable();
	if (!pp_buffer_reserve(buf, size, &pos)) {
		pp_buffer_zero(buf, pos, size);
		pp_buffer_write(buf, pos, &hdr, sizeof(hdr));
		pp_buffer_write(buf, pos + 8, &seq, sizeof(seq));
		pp_buffer_commit(buf);
	}
	preempt_enable();
}

static u64 seq_at(struct pp_buffer *buf, unsigned long pos)
{
	u64 seq;

	pp_buffer_read(buf, pos, &seq, sizeof(seq));
	return seq;
}

static void pp_dump_test_range(struct kunit *test)
{
	struct pp_buffer *buf = pp_buffer_alloc(PAGE_SIZE);
	unsigned long start, len;
	u64 i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, pp_dump_range(buf, 1024, &start, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 0UL);

	/* 1000 records of 24 bytes: the buffer wrapped many times. */
	for (i = 0; i < 1000; i++)
		put(buf, 24, i);
	KUNIT_EXPECT_EQ(test, pp_dump_range(buf, 100, &start, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 96UL);	/* 4 whole records */
	KUNIT_EXPECT_EQ(test, start, (unsigned long)buf->page->data_head);
	KUNIT_EXPECT_EQ(test, seq_at(buf, start + 8), 999ULL);
	KUNIT_EXPECT_EQ(test, seq_at(buf, start + 72 + 8), 996ULL);

	/* A budget beyond the buffer: everything held, and no further. */
	KUNIT_EXPECT_EQ(test, pp_dump_range(buf, 1UL << 20, &start, &len), 0);
	KUNIT_EXPECT_EQ(test, len, buf->tail - start);
	KUNIT_EXPECT_LE(test, len, PAGE_SIZE);
	KUNIT_EXPECT_GT(test, len, PAGE_SIZE - 48);

	/* A writer in the buffer: nothing. */
	local_inc(&buf->nest);
	KUNIT_EXPECT_EQ(test, pp_dump_range(buf, 1024, &start, &len), -EBUSY);
	local_dec(&buf->nest);

	/* A corrupt header stops the walk: the records before it stay. */
	pp_dump_range(buf, 1UL << 20, &start, &len);
	pp_buffer_zero(buf, start + 48, 8);
	KUNIT_EXPECT_EQ(test, pp_dump_range(buf, 1UL << 20, &start, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 48UL);
	pp_buffer_free(buf);
}

static struct kunit_case pp_dump_test_cases[] = {
	KUNIT_CASE(pp_dump_test_base64),
	KUNIT_CASE(pp_dump_test_lines),
	KUNIT_CASE(pp_dump_test_range),
	{}
};

static struct kunit_suite pp_dump_test_suite = {
	.name = "perf_persistent_dump",
	.test_cases = pp_dump_test_cases,
};

kunit_test_suites(&pp_dump_test_suite);

MODULE_LICENSE("GPL");
