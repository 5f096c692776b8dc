// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for pp_buffer_found() (module/buffer.c): what of a buffer
 * found after a reset is kept, and why not more: a whole window, a writer
 * caught mid-record, torn and oversized records, foreign types, times
 * after the last clock or out of order, and impossible positions.
 */
#include <kunit/test.h>

#include <linux/perf_event.h>
#include <linux/slab.h>

#include "../module/buffer.h"

#define DATA	4096
/* A sample of 32 bytes: header, then its time at offset 8, then padding. */
#define REC	32
#define TIME_OFF 8

struct found_ctx {
	struct pp_buffer	buf;
	unsigned long		head;	/* where the next record goes (below) */
	struct pp_found_rules	rules;
};

static int found_init(struct kunit *test)
{
	struct found_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	c->buf.size = DATA;
	c->buf.data = kunit_kzalloc(test, DATA, GFP_KERNEL);
	if (!c->buf.data)
		return -ENOMEM;
	c->rules = (struct pp_found_rules){ .time_off = TIME_OFF,
					    .max_time = 1000000, .slack = 5 };
	test->priv = c;
	return 0;
}

/* Write a record of @size bytes below the head, as the writer does. */
static unsigned long push(struct found_ctx *c, u32 type, u16 size, u64 time)
{
	struct perf_event_header hdr = { .type = type, .size = size };
	u8 rec[64] = {};

	memcpy(rec, &hdr, sizeof(hdr));
	memcpy(rec + TIME_OFF, &time, sizeof(time));
	c->head -= size;
	pp_buffer_write(&c->buf, c->head, rec, size);
	return c->head;
}

/* Patch the header of the record at @pos. */
static void set_header(struct found_ctx *c, unsigned long pos, u32 type,
		       u16 size)
{
	struct perf_event_header hdr = { .type = type, .size = size };

	pp_buffer_write(&c->buf, pos, &hdr, sizeof(hdr));
}

static void found_test_whole(struct kunit *test)
{
	struct found_ctx *c = test->priv;
	struct pp_buffer_found f;

	push(c, PERF_RECORD_SAMPLE, REC, 10);
	push(c, PERF_RECORD_COMM, 24, 0);
	push(c, PERF_RECORD_SAMPLE, REC, 30);
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, f.records, 3ULL);
	KUNIT_EXPECT_EQ(test, f.bytes, (u64)(2 * REC + 24));
	KUNIT_EXPECT_EQ(test, f.tail, 0UL);

	/* An empty buffer keeps nothing and says nothing is wrong. */
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, 0, 0, 0, &c->rules,
					      &f), 0);
	KUNIT_EXPECT_EQ(test, f.records, 0ULL);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_WHOLE);
}

/*
 * A full buffer whose writer had reserved 64 bytes more when the reset
 * came: those bytes were the oldest two records'.
 */
static void found_test_overrun(struct kunit *test)
{
	struct found_ctx *c = test->priv;
	struct pp_buffer_found f;
	unsigned long tail, i;

	for (i = 0; i < DATA / REC; i++)
		push(c, PERF_RECORD_SAMPLE, REC, 100 + i);
	tail = c->head + DATA;
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, tail,
					      c->head - 2 * REC, &c->rules,
					      &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_OVERRUN);
	KUNIT_EXPECT_EQ(test, f.records, (u64)(DATA / REC - 2));
	KUNIT_EXPECT_EQ(test, f.tail, tail - 2 * REC);

	/* A reserve_head above data_head was never published: ignored. */
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, tail,
					      c->head + 8, &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, f.records, (u64)(DATA / REC));
}

/* The second newest record is damaged: only the newest is kept. */
static void found_expect_one(struct kunit *test, struct found_ctx *c,
			     enum pp_found_stop why)
{
	struct pp_buffer_found f;

	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, why);
	KUNIT_EXPECT_EQ(test, f.records, 1ULL);
	KUNIT_EXPECT_EQ(test, f.tail, c->head + REC);
}

static void found_test_sizes(struct kunit *test)
{
	struct found_ctx *c = test->priv;
	unsigned long second;

	push(c, PERF_RECORD_SAMPLE, REC, 10);
	second = push(c, PERF_RECORD_SAMPLE, REC, 20);
	push(c, PERF_RECORD_SAMPLE, REC, 30);

	set_header(c, second, PERF_RECORD_SAMPLE, 0);	/* torn: zeroes */
	found_expect_one(test, c, PP_FOUND_SIZE);
	set_header(c, second, PERF_RECORD_SAMPLE, 12);	/* not a multiple of 8 */
	found_expect_one(test, c, PP_FOUND_SIZE);
	set_header(c, second, PERF_RECORD_SAMPLE, 4);	/* under a header */
	found_expect_one(test, c, PP_FOUND_SIZE);
	set_header(c, second, PERF_RECORD_SAMPLE, 2 * REC + 8); /* past the tail */
	found_expect_one(test, c, PP_FOUND_CROSS);
	set_header(c, second, 77, REC);			/* never written */
	found_expect_one(test, c, PP_FOUND_TYPE);
}

static void found_test_times(struct kunit *test)
{
	struct found_ctx *c = test->priv;
	struct pp_buffer_found f;

	push(c, PERF_RECORD_SAMPLE, REC, 10);
	push(c, PERF_RECORD_SAMPLE, REC, 33);	/* out of order by 3: slack */
	push(c, PERF_RECORD_SAMPLE, REC, 30);
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, f.records, 3ULL);

	/* Out of order by more than the slack. */
	c->rules.slack = 2;
	found_expect_one(test, c, PP_FOUND_TIME);

	/*
	 * The newest after the last clock the region stored: torn, dropped
	 * alone; the walk goes on from the record after it.
	 */
	c->rules.slack = 5;
	c->rules.max_time = 40;
	push(c, PERF_RECORD_SAMPLE, REC, 1000);
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.torn, 1U);
	KUNIT_EXPECT_EQ(test, f.head, c->head + REC);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, f.records, 3ULL);

	/* A second record past the last clock: the walk stops there. */
	c->rules.max_time = 29;
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.torn, 1U);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_TIME);
	KUNIT_EXPECT_EQ(test, f.records, 0ULL);
	KUNIT_EXPECT_EQ(test, f.tail, c->head + REC);

	/* Without a time in its samples, an event's times are not looked at. */
	c->rules.time_off = -1;
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.records, 4ULL);
}

/* A window larger than the buffer cannot have been published. */
static void found_test_impossible(struct kunit *test)
{
	struct found_ctx *c = test->priv;
	struct pp_buffer_found f;

	KUNIT_EXPECT_EQ(test, pp_buffer_found(&c->buf, -(DATA + 8UL), 0,
					      -(DATA + 8UL), &c->rules, &f),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, f.records, 0ULL);
	/* A tail newer than the head: the same. */
	KUNIT_EXPECT_EQ(test, pp_buffer_found(&c->buf, 0, -8UL, 0, &c->rules,
					      &f), -EINVAL);
}

static struct kunit_case found_test_cases[] = {
	KUNIT_CASE(found_test_whole),
	KUNIT_CASE(found_test_overrun),
	KUNIT_CASE(found_test_sizes),
	KUNIT_CASE(found_test_times),
	KUNIT_CASE(found_test_impossible),
	{}
};

static struct kunit_suite found_test_suite = {
	.name = "perf_persistent_found",
	.init = found_init,
	.test_cases = found_test_cases,
};

kunit_test_suite(found_test_suite);

MODULE_LICENSE("GPL");
