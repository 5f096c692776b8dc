// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for pp_buffer_found() (module/buffer.c): what of a buffer
 * found after a reset is kept, and why not more: a whole window, a writer
 * caught mid-record, torn and oversized records, foreign types, times
 * after the last clock or out of order, fields that do not fit their
 * record, and impossible positions.
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

/*
 * A sample with a RAW field, as a tracepoint's: header, time, then the u32
 * size of payload and padding (REC - 20 fits the record), then them.
 */
static unsigned long push_raw(struct found_ctx *c, u64 time, u32 raw_size)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE,
					 .size = REC };
	u8 rec[REC] = {};

	memcpy(rec, &hdr, sizeof(hdr));
	memcpy(rec + TIME_OFF, &time, sizeof(time));
	memcpy(rec + TIME_OFF + sizeof(time), &raw_size, sizeof(raw_size));
	c->head -= REC;
	pp_buffer_write(&c->buf, c->head, rec, REC);
	return c->head;
}

/*
 * A COMM record: header, pid and tid, 8 bytes of name (NUL-terminated
 * when shorter), then its sample_id's TIME.
 */
#define COMM_REC	32
#define COMM_NAME	16
static unsigned long push_comm(struct found_ctx *c, const char *name,
			       u64 time)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_COMM,
					 .size = COMM_REC };
	u8 rec[COMM_REC] = {};

	memcpy(rec, &hdr, sizeof(hdr));
	memcpy(rec + COMM_NAME, name, min_t(size_t, strlen(name), 8));
	memcpy(rec + COMM_NAME + 8, &time, sizeof(time));
	c->head -= COMM_REC;
	pp_buffer_write(&c->buf, c->head, rec, COMM_REC);
	return c->head;
}

/*
 * Each record's fields must fill it exactly, as the readers decode them
 * (decode.h): a RAW size that runs past its record or stops short of it,
 * a COMM name with no terminator.  The walk stops at such a record; the
 * newest alone, torn, is dropped and the walk goes on.
 */
static void found_test_fields(struct kunit *test)
{
	struct found_ctx *c = test->priv;
	unsigned long second, comm, newest;
	struct pp_buffer_found f;

	c->rules.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	c->rules.scratch = kunit_kzalloc(test, PP_FOUND_SCRATCH, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->rules.scratch);
	push_raw(c, 10, REC - 20);
	second = push_raw(c, 20, REC - 20);
	comm = push_comm(c, "abc", 25);
	newest = push_raw(c, 30, REC - 20);
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, f.records, 4ULL);

	/* The RAW size one damaged byte made larger (region-fuzz seed 20332). */
	pp_buffer_write(&c->buf, second + 16, &(u32){ REC - 12 }, sizeof(u32));
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_FIELDS);
	KUNIT_EXPECT_EQ(test, f.records, 2ULL);
	KUNIT_EXPECT_EQ(test, f.tail, second);
	/* Smaller than the record. */
	pp_buffer_write(&c->buf, second + 16, &(u32){ REC - 28 }, sizeof(u32));
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_FIELDS);
	KUNIT_EXPECT_EQ(test, f.tail, second);
	/* A size that leaves the fields after it unaligned. */
	pp_buffer_write(&c->buf, second + 16, &(u32){ REC - 22 }, sizeof(u32));
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_FIELDS);
	pp_buffer_write(&c->buf, second + 16, &(u32){ REC - 20 }, sizeof(u32));

	/* A task name that fills its space: no terminator. */
	pp_buffer_write(&c->buf, comm + COMM_NAME, "abcdefgh", 8);
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_FIELDS);
	KUNIT_EXPECT_EQ(test, f.records, 1ULL);
	KUNIT_EXPECT_EQ(test, f.tail, comm);
	pp_buffer_write(&c->buf, comm + COMM_NAME, "abc\0\0\0\0\0", 8);

	/* The newest, torn: dropped alone. */
	pp_buffer_write(&c->buf, newest + 16, &(u32){ 0 }, sizeof(u32));
	KUNIT_ASSERT_EQ(test, pp_buffer_found(&c->buf, c->head, 0, c->head,
					      &c->rules, &f), 0);
	KUNIT_EXPECT_EQ(test, f.stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, f.torn, 1U);
	KUNIT_EXPECT_EQ(test, f.head, comm);
	KUNIT_EXPECT_EQ(test, f.records, 3ULL);
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
	KUNIT_CASE(found_test_fields),
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
