// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the backward-written flight-recorder buffer
 * (module/buffer.c): sizes, backward writing, wrap-around, overwrite
 * accounting, records straddling the end, walking from the head, pause,
 * nested writers.
 *
 * Single-threaded: concurrent writers on other CPUs are not exercised here
 * (each buffer has one writing CPU by design); nesting is simulated by
 * interleaving reserve/commit calls as an interrupt would.  The
 * single-writer pair is checked against the full protocol.
 */
#include <kunit/test.h>

#include <linux/perf_event.h>
#include <linux/prandom.h>

#include "../module/buffer.h"

/*
 * A test record: header, sequence number, then a byte pattern of it;
 * reserved and committed with the full protocol, or with the
 * single-writer pair (pp_buffer_reserve_single()) if @single.
 */
static int put_record_as(struct pp_buffer *buf, unsigned int size, u64 seq,
			 bool single)
{
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE, .size = size,
	};
	unsigned long pos;
	unsigned int i;
	int ret;

	ret = single ? pp_buffer_reserve_single(buf, size, &pos) :
		       pp_buffer_reserve(buf, size, &pos);
	if (ret)
		return ret;
	pp_buffer_write(buf, pos, &hdr, sizeof(hdr));
	pp_buffer_write(buf, pos + 8, &seq, sizeof(seq));
	for (i = 16; i < size; i++) {
		u8 b = seq + i;

		pp_buffer_write(buf, pos + i, &b, 1);
	}
	if (single)
		pp_buffer_commit_single(buf, pos, size);
	else
		pp_buffer_commit(buf);
	return 0;
}

static int put_record(struct pp_buffer *buf, unsigned int size, u64 seq)
{
	return put_record_as(buf, size, seq, false);
}

/* Check the record at @pos is intact; return its sequence number. */
static u64 check_record(struct kunit *test, struct pp_buffer *buf,
			unsigned long pos, unsigned int *size)
{
	struct perf_event_header hdr;
	unsigned int i, bad = 0;
	u64 seq;

	pp_buffer_read(buf, pos, &hdr, sizeof(hdr));
	pp_buffer_read(buf, pos + 8, &seq, sizeof(seq));
	for (i = 16; i < hdr.size; i++) {
		u8 b;

		pp_buffer_read(buf, pos + i, &b, 1);
		bad += b != (u8)(seq + i);
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "record %llu corrupted", seq);
	*size = hdr.size;
	return seq;
}

/*
 * Walk [head, tail) from the newest record; expect consecutive sequence
 * numbers going down from @newest.  Return the number of records.
 */
static unsigned int walk(struct kunit *test, struct pp_buffer *buf, u64 newest)
{
	struct perf_event_mmap_page *page = buf->page;
	unsigned long pos = page->data_head, tail = buf->ext->tail;
	unsigned int n = 0, size;
	u64 seq;

	KUNIT_EXPECT_LE(test, tail - pos, buf->size);
	while (pos != tail) {
		seq = check_record(test, buf, pos, &size);
		KUNIT_ASSERT_EQ(test, seq, newest - n);
		KUNIT_ASSERT_GE(test, size, 16U);
		KUNIT_ASSERT_LE(test, size, tail - pos);
		pos += size;
		n++;
	}
	return n;
}

static struct pp_buffer *new_buffer(struct kunit *test, unsigned long size)
{
	struct pp_buffer *buf = pp_buffer_alloc(size);

	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	return buf;
}

static void pp_buffer_test_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PTR_ERR(pp_buffer_alloc(0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pp_buffer_alloc(PAGE_SIZE / 2)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pp_buffer_alloc(3 * PAGE_SIZE)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pp_buffer_alloc(PAGE_SIZE + 8)), -EINVAL);
	pp_buffer_free(new_buffer(test, PAGE_SIZE));
	pp_buffer_free(new_buffer(test, 4 * PAGE_SIZE));
}

/*
 * The memory limit: buffers count while they exist, one past the limit is
 * refused with ENOSPC and counts nothing, a freed one gives its share back.
 */
static void pp_buffer_test_memory_limit(struct kunit *test)
{
	unsigned long saved = pp_buffer_limit, base = pp_buffer_memory_used();
	struct pp_buffer *a, *b;
	unsigned long one;

	a = new_buffer(test, 4 * PAGE_SIZE);
	one = pp_buffer_memory_used() - base;
	KUNIT_EXPECT_GE(test, one, 5 * PAGE_SIZE);
	/* Room for exactly one more. */
	pp_buffer_limit = base + 2 * one;
	b = pp_buffer_alloc(4 * PAGE_SIZE);
	KUNIT_EXPECT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_EQ(test, PTR_ERR(pp_buffer_alloc(PAGE_SIZE)), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pp_buffer_memory_used(), base + 2 * one);
	if (!IS_ERR(b))
		pp_buffer_free(b);
	pp_buffer_free(a);
	KUNIT_EXPECT_EQ(test, pp_buffer_memory_used(), base);
	pp_buffer_limit = saved;
}

/*
 * A corrupt record header (a bug: only our writers write there) must not
 * leave held records unmarked, which made eviction walk the bitmap: the
 * buffer drops what it holds, keeps written == held + overwritten, and
 * records and wraps correctly afterwards.  (It WARNs once.)
 */
static void pp_buffer_test_corrupt_header_resets(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	struct perf_event_header bad = { .type = PERF_RECORD_SAMPLE, .size = 12 };
	unsigned long pos;
	u64 seq;

	for (seq = 1; seq <= 10; seq++)
		KUNIT_ASSERT_EQ(test, put_record(buf, 64, seq), 0);
	KUNIT_ASSERT_EQ(test, pp_buffer_reserve(buf, 32, &pos), 0);
	pp_buffer_write(buf, pos, &bad, sizeof(bad));
	pp_buffer_commit(buf);

	KUNIT_EXPECT_EQ(test, buf->tail, buf->done);
	KUNIT_EXPECT_EQ(test, (unsigned long)buf->ext->tail,
			(unsigned long)buf->page->data_head);
	KUNIT_EXPECT_EQ(test, buf->overwritten, buf->written);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(buf->starts,
					     buf->size / PP_RECORD_ALIGN));

	/* Ten laps of the buffer: every lap's records intact, in order. */
	for (seq = 11; seq < 11 + 10 * PAGE_SIZE / 64; seq++)
		KUNIT_ASSERT_EQ(test, put_record(buf, 64, seq), 0);
	KUNIT_EXPECT_EQ(test, walk(test, buf, seq - 1), PAGE_SIZE / 64);
	KUNIT_EXPECT_EQ(test, buf->written - buf->overwritten,
			(u64)(PAGE_SIZE / 64));
	pp_buffer_free(buf);
}

/*
 * The page's reserve_head: lowered by every reservation before its bytes
 * are written, committed or not, and never raised, even when an
 * interrupted writer commits after a nested one claimed space below it.
 */
static void pp_buffer_test_reserve_head(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	unsigned long outer, inner;

	KUNIT_EXPECT_EQ(test, buf->ext->size,
			(u32)PERF_PERSISTENT_PAGE_EXT_SIZE_VER1);
	KUNIT_ASSERT_EQ(test, put_record(buf, 64, 1), 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)buf->ext->reserve_head,
			(unsigned long)buf->page->data_head);

	/* Claimed, not yet committed: below data_head already. */
	KUNIT_ASSERT_EQ(test, pp_buffer_reserve(buf, 32, &outer), 0);
	KUNIT_EXPECT_EQ(test, (unsigned long)buf->ext->reserve_head, outer);
	KUNIT_EXPECT_NE(test, (unsigned long)buf->page->data_head, outer);

	/* A nested writer claims below; committing either does not raise it. */
	KUNIT_ASSERT_EQ(test, pp_buffer_reserve(buf, 48, &inner), 0);
	KUNIT_EXPECT_EQ(test, inner, outer - 48);
	KUNIT_EXPECT_EQ(test, (unsigned long)buf->ext->reserve_head, inner);
	pp_buffer_write(buf, inner, &(struct perf_event_header){
			.type = PERF_RECORD_SAMPLE, .size = 48 }, 8);
	pp_buffer_commit(buf);
	KUNIT_EXPECT_EQ(test, (unsigned long)buf->ext->reserve_head, inner);
	pp_buffer_write(buf, outer, &(struct perf_event_header){
			.type = PERF_RECORD_SAMPLE, .size = 32 }, 8);
	pp_buffer_commit(buf);
	KUNIT_EXPECT_EQ(test, (unsigned long)buf->page->data_head, inner);
	KUNIT_EXPECT_EQ(test, (unsigned long)buf->ext->reserve_head, inner);
	pp_buffer_free(buf);
}

/* The head moves down; the newest record is at the head. */
static void pp_buffer_test_backward(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	struct pp_buffer_stats st;
	unsigned int size;

	/* before: head = tail = 0 */
	KUNIT_EXPECT_EQ(test, buf->page->data_head, 0ULL);
	KUNIT_EXPECT_EQ(test, put_record(buf, 24, 1), 0);
	KUNIT_EXPECT_EQ(test, put_record(buf, 40, 2), 0);
	KUNIT_EXPECT_EQ(test, put_record(buf, 16, 3), 0);
	/* after: head = -(24 + 40 + 16), records 3, 2, 1 from the head */
	KUNIT_EXPECT_EQ(test, buf->page->data_head, (u64)-80);
	KUNIT_EXPECT_EQ(test, buf->ext->tail, 0ULL);
	KUNIT_EXPECT_EQ(test, check_record(test, buf, -80, &size), 3ULL);
	KUNIT_EXPECT_EQ(test, size, 16U);
	KUNIT_EXPECT_EQ(test, check_record(test, buf, -64, &size), 2ULL);
	KUNIT_EXPECT_EQ(test, check_record(test, buf, -24, &size), 1ULL);
	KUNIT_EXPECT_EQ(test, walk(test, buf, 3), 3U);

	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 3ULL);
	KUNIT_EXPECT_EQ(test, st.overwritten, 0ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 80ULL);
	KUNIT_EXPECT_EQ(test, st.head, (u64)-80);
	pp_buffer_free(buf);
}

/*
 * Filling the buffer exactly evicts nothing.  One more record evicts what
 * it needs and a 64th of the buffer ahead (64 bytes of 4096): two records.
 * The records that then fill that room evict nothing.
 */
static void pp_buffer_test_full_then_overwrite(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	unsigned int n = PAGE_SIZE / 64, i;
	struct pp_buffer_stats st;

	KUNIT_ASSERT_EQ(test, pp_buffer_ahead(buf), 64UL);
	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ(test, put_record(buf, 64, i), 0);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.overwritten, 0ULL);
	KUNIT_EXPECT_EQ(test, walk(test, buf, n), n);

	KUNIT_ASSERT_EQ(test, put_record(buf, 64, n + 1), 0);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, (u64)n + 1);
	KUNIT_EXPECT_EQ(test, st.overwritten, 2ULL);
	KUNIT_EXPECT_EQ(test, walk(test, buf, n + 1), n - 1);

	/* The room evicted ahead takes one record without evicting. */
	KUNIT_ASSERT_EQ(test, put_record(buf, 64, n + 2), 0);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.overwritten, 2ULL);
	KUNIT_EXPECT_EQ(test, walk(test, buf, n + 2), n);

	/*
	 * A large record evicts as many small ones as it needs, and 64 bytes
	 * more: 5 + 1.
	 */
	KUNIT_ASSERT_EQ(test, put_record(buf, 64 * 5, n + 3), 0);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.overwritten, 8ULL);
	KUNIT_EXPECT_EQ(test, walk(test, buf, n + 3), n - 5);
	KUNIT_EXPECT_EQ(test, st.written, (u64)n - 5 + st.overwritten);
	pp_buffer_free(buf);
}

/*
 * Eviction ahead never leaves less than the buffer's size minus a 64th
 * minus the longest record held, a record that fills the buffer on its
 * own evicts everything else, and the room ahead is at most 8 KiB.
 */
static void pp_buffer_test_evict_ahead_bounds(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, 4 * PAGE_SIZE);
	unsigned long ahead = pp_buffer_ahead(buf);
	struct pp_buffer_stats st;
	struct rnd_state rnd;
	unsigned int i, held;

	prandom_seed_state(&rnd, 7);
	for (i = 1; i <= 3000; i++) {
		unsigned int size = 16 + 8 * (prandom_u32_state(&rnd) % 32);

		KUNIT_ASSERT_EQ(test, put_record(buf, size, i), 0);
		pp_buffer_stats(buf, &st);
		KUNIT_ASSERT_LE(test, st.tail - st.head, (u64)buf->size);
		if (i > 400)
			KUNIT_ASSERT_GE(test, st.tail - st.head,
					(u64)buf->size - ahead - 264);
	}
	held = walk(test, buf, 3000);
	KUNIT_EXPECT_EQ(test, st.written, (u64)held + st.overwritten);

	KUNIT_ASSERT_EQ(test, put_record(buf, buf->size, 3001), 0);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, walk(test, buf, 3001), 1U);
	KUNIT_EXPECT_EQ(test, st.overwritten, (u64)3000);
	pp_buffer_free(buf);

	/* In a large buffer the room ahead stays 8 KiB: the clearing is short. */
	buf = new_buffer(test, 1 << 20);
	KUNIT_EXPECT_EQ(test, pp_buffer_ahead(buf), 8192UL);
	pp_buffer_free(buf);
}

/* A record that crosses the end of the data area reads back whole. */
static void pp_buffer_test_straddle(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	unsigned int size;

	/* 4096 = 3 * 1344 + 64: the fourth record runs from 64 down past 0 */
	KUNIT_ASSERT_EQ(test, put_record(buf, 1344, 1), 0);
	KUNIT_ASSERT_EQ(test, put_record(buf, 1344, 2), 0);
	KUNIT_ASSERT_EQ(test, put_record(buf, 1344, 3), 0);
	KUNIT_ASSERT_EQ(test, put_record(buf, 200, 4), 0);
	/* head = -4232: physical offset 4096 - 136 = 3960, wraps after 136 bytes */
	KUNIT_EXPECT_EQ(test, buf->page->data_head & (PAGE_SIZE - 1), 3960ULL);
	KUNIT_EXPECT_EQ(test, check_record(test, buf, buf->page->data_head, &size), 4ULL);
	KUNIT_EXPECT_EQ(test, size, 200U);
	/* record 1 was overwritten by the wrap */
	KUNIT_EXPECT_EQ(test, walk(test, buf, 4), 3U);
	pp_buffer_free(buf);
}

/*
 * Many laps with random sizes: every held record is intact and consecutive,
 * written == held + overwritten, and perf's own reader algorithm (walk from
 * the head until a zero-sized header or until the next record would pass
 * one buffer size, tools/lib/perf/mmap.c) finds the held records, and
 * after them no more than the 64th of the buffer evicted ahead holds.
 */
static void pp_buffer_test_many_wraps(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, 2 * PAGE_SIZE);
	unsigned int i, held, perf_n = 0, size;
	struct pp_buffer_stats st;
	struct rnd_state rnd;
	unsigned long pos;

	prandom_seed_state(&rnd, 42);
	for (i = 1; i <= 5000; i++) {
		size = 16 + 8 * (prandom_u32_state(&rnd) % 64);
		KUNIT_ASSERT_EQ(test, put_record(buf, size, i), 0);
	}
	held = walk(test, buf, 5000);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 5000ULL);
	KUNIT_EXPECT_EQ(test, st.written, (u64)held + st.overwritten);
	KUNIT_EXPECT_GT(test, st.overwritten, 4000ULL);

	for (pos = buf->page->data_head; ; pos += size) {
		struct perf_event_header hdr;

		pp_buffer_read(buf, pos, &hdr, sizeof(hdr));
		size = hdr.size;
		if (!size || pos + size - buf->page->data_head > buf->size)
			break;
		perf_n++;
	}
	KUNIT_EXPECT_GE(test, perf_n, held);
	/* The record at the tail, and those starting in the 128 bytes above. */
	KUNIT_EXPECT_LE(test, perf_n, held + 1 + pp_buffer_ahead(buf) / 16);
	pp_buffer_free(buf);
}

/*
 * Records longer than the 64 slots of a bitmap word, next to short ones:
 * eviction finds starts beyond the word of the evicted record's last slot
 * (and across the end of the bitmap) as well as in it.
 */
static void pp_buffer_test_long_records(struct kunit *test)
{
	static const unsigned int sizes[] = { 16, 1024, 24, 520, 4000, 512 };
	struct pp_buffer *buf = new_buffer(test, 2 * PAGE_SIZE);
	struct pp_buffer_stats st;
	unsigned int i, held;

	for (i = 1; i <= 600; i++) {
		unsigned int size = sizes[i % ARRAY_SIZE(sizes)];

		KUNIT_ASSERT_EQ(test, put_record(buf, size, i), 0);
	}
	held = walk(test, buf, 600);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 600ULL);
	KUNIT_EXPECT_EQ(test, st.written, (u64)held + st.overwritten);
	/*
	 * 8 KiB holds the newest records that fit, less the 128 bytes evicted
	 * ahead: at least 8192 - 128 - 4000 bytes' worth.
	 */
	KUNIT_EXPECT_GE(test, st.tail - st.head, 8192ULL - 128 - 4000);
	KUNIT_EXPECT_LE(test, st.tail - st.head, 8192ULL);
	pp_buffer_free(buf);
}

/* Paused: records are dropped and counted, the history stays. */
static void pp_buffer_test_pause(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	struct pp_buffer_stats st;
	u64 head;

	KUNIT_ASSERT_EQ(test, put_record(buf, 32, 1), 0);
	KUNIT_ASSERT_EQ(test, put_record(buf, 32, 2), 0);
	head = buf->page->data_head;
	pp_buffer_set_paused(buf, true);
	KUNIT_EXPECT_EQ(test, put_record(buf, 32, 3), -EAGAIN);
	KUNIT_EXPECT_EQ(test, put_record(buf, 32, 4), -EAGAIN);
	KUNIT_EXPECT_EQ(test, buf->page->data_head, head);
	KUNIT_EXPECT_EQ(test, walk(test, buf, 2), 2U);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 2ULL);
	KUNIT_EXPECT_EQ(test, st.written, 2ULL);

	pp_buffer_set_paused(buf, false);
	KUNIT_EXPECT_EQ(test, put_record(buf, 32, 3), 0);
	KUNIT_EXPECT_EQ(test, walk(test, buf, 3), 3U);
	pp_buffer_free(buf);
}

static void pp_buffer_test_too_big(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	struct pp_buffer_stats st;

	KUNIT_EXPECT_EQ(test, put_record(buf, PAGE_SIZE + 8, 1), -E2BIG);
	KUNIT_EXPECT_EQ(test, put_record(buf, PAGE_SIZE, 2), 0);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, walk(test, buf, 2), 1U);
	pp_buffer_free(buf);
}

/*
 * An interrupting writer's record is published only when the interrupted
 * (outermost) writer commits; both are then walkable, newest first.
 */
static void pp_buffer_test_nested(struct kunit *test)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = 32 };
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	struct pp_buffer_stats st;
	unsigned long outer;
	u64 seq = 1;

	KUNIT_ASSERT_EQ(test, pp_buffer_reserve(buf, 32, &outer), 0);
	/* "interrupt": a whole nested record */
	KUNIT_ASSERT_EQ(test, put_record(buf, 48, 2), 0);
	KUNIT_EXPECT_EQ(test, buf->page->data_head, 0ULL);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 0ULL);

	pp_buffer_write(buf, outer, &hdr, sizeof(hdr));
	pp_buffer_write(buf, outer + 8, &seq, sizeof(seq));
	pp_buffer_zero(buf, outer + 16, 16);
	for (seq = 16; seq < 32; seq++) {
		u8 b = 1 + seq;

		pp_buffer_write(buf, outer + seq, &b, 1);
	}
	pp_buffer_commit(buf);
	KUNIT_EXPECT_EQ(test, buf->page->data_head, (u64)-80);
	KUNIT_EXPECT_EQ(test, walk(test, buf, 2), 2U);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 2ULL);
	KUNIT_EXPECT_EQ(test, local_read(&buf->nest), 0L);
	pp_buffer_free(buf);
}

/*
 * Interrupting writers may not reuse space the interrupted writer has not
 * accounted yet: past one buffer size they are dropped, nothing is lost.
 */
static void pp_buffer_test_nested_no_room(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .size = 1024 };
	struct pp_buffer_stats st;
	unsigned long outer;
	u64 seq = 1;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, pp_buffer_reserve(buf, 1024, &outer), 0);
	for (i = 2; i <= 4; i++)
		KUNIT_EXPECT_EQ(test, put_record(buf, 1024, i), 0);
	KUNIT_EXPECT_EQ(test, put_record(buf, 16, 5), -ENOSPC);

	pp_buffer_write(buf, outer, &hdr, sizeof(hdr));
	pp_buffer_write(buf, outer + 8, &seq, sizeof(seq));
	for (i = 16; i < 1024; i++) {
		u8 b = 1 + i;

		pp_buffer_write(buf, outer + i, &b, 1);
	}
	pp_buffer_commit(buf);
	pp_buffer_stats(buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 4ULL);
	KUNIT_EXPECT_EQ(test, st.dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, walk(test, buf, 4), 4U);
	pp_buffer_free(buf);
}

/* The next record up to the accounted head. */
/*
 * The single-writer pair, with a record through the full protocol now
 * and then between (as a COMM record goes before a sample), leaves a
 * buffer exactly as the full protocol alone does: the same bytes, head,
 * tail, marks and counts, over many laps and random sizes.  It refuses
 * what pp_buffer_reserve() refuses, and leaves the nest count at 0.
 */
static void pp_buffer_test_single_writer(struct kunit *test)
{
	struct pp_buffer *a = new_buffer(test, 2 * PAGE_SIZE);
	struct pp_buffer *b = new_buffer(test, 2 * PAGE_SIZE);
	struct pp_buffer_stats sa, sb;
	unsigned int i, size, nbits = a->size / PP_RECORD_ALIGN;
	struct rnd_state rnd;
	unsigned long pos;

	prandom_seed_state(&rnd, 44);
	for (i = 1; i <= 3000; i++) {
		size = 16 + 8 * (prandom_u32_state(&rnd) % 80);
		KUNIT_ASSERT_EQ(test, put_record_as(a, size, i, i % 7), 0);
		KUNIT_ASSERT_EQ(test, put_record(b, size, i), 0);
		KUNIT_ASSERT_EQ(test, local_read(&a->nest), 0L);
		KUNIT_ASSERT_EQ(test, a->done, (unsigned long)a->page->data_head);
	}
	pp_buffer_stats(a, &sa);
	pp_buffer_stats(b, &sb);
	KUNIT_EXPECT_EQ(test, sa.head, sb.head);
	KUNIT_EXPECT_EQ(test, sa.tail, sb.tail);
	KUNIT_EXPECT_EQ(test, sa.written, 3000ULL);
	KUNIT_EXPECT_EQ(test, sa.written, sb.written);
	KUNIT_EXPECT_EQ(test, sa.overwritten, sb.overwritten);
	KUNIT_EXPECT_EQ(test, sa.bytes, sb.bytes);
	KUNIT_EXPECT_GT(test, sa.overwritten, 2000ULL);
	KUNIT_EXPECT_EQ(test, sa.written, (u64)walk(test, a, 3000) + sa.overwritten);
	KUNIT_EXPECT_EQ(test, memcmp(a->data, b->data, a->size), 0);
	KUNIT_EXPECT_TRUE(test, bitmap_equal(a->starts, b->starts, nbits));

	/* Paused, or larger than the buffer: refused and counted, as before. */
	KUNIT_EXPECT_EQ(test, pp_buffer_reserve_single(a, 2 * a->size, &pos), -E2BIG);
	pp_buffer_set_paused(a, true);
	KUNIT_EXPECT_EQ(test, pp_buffer_reserve_single(a, 64, &pos), -EAGAIN);
	pp_buffer_stats(a, &sa);
	KUNIT_EXPECT_EQ(test, sa.dropped, 2ULL);
	KUNIT_EXPECT_EQ(test, local_read(&a->nest), 0L);
	pp_buffer_free(a);
	pp_buffer_free(b);
}

static int next_oldest(struct pp_buffer *buf, unsigned long *pos, void *rec,
		       unsigned int max)
{
	return pp_buffer_next_oldest(buf, pos, buf->done, rec, max);
}

/* Read every record from @pos to the head, oldest first; return count. */
static unsigned int read_all(struct kunit *test, struct pp_buffer *buf,
			     unsigned long *pos, u64 *last_seq)
{
	u8 rec[1024];
	unsigned int n = 0;
	int size;

	while ((size = next_oldest(buf, pos, rec, sizeof(rec))) != 0) {
		u64 seq;

		if (size == -ESTALE)
			continue;
		KUNIT_ASSERT_GT(test, size, 0);
		memcpy(&seq, rec + 8, sizeof(seq));
		/* oldest first, no record twice */
		KUNIT_EXPECT_GT(test, seq, *last_seq);
		*last_seq = seq;
		n++;
	}
	return n;
}

/* History oldest first: every record held, in order, each once. */
static void pp_buffer_test_history_order(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	unsigned long pos = 0;
	u64 last = 0;
	unsigned int i;

	for (i = 1; i <= 10; i++)
		KUNIT_ASSERT_EQ(test, put_record(buf, 16 + 8 * i, i), 0);
	pos = buf->ext->tail;
	KUNIT_EXPECT_EQ(test, read_all(test, buf, &pos, &last), 10U);
	KUNIT_EXPECT_EQ(test, last, 10ULL);
	KUNIT_EXPECT_EQ(test, pos, buf->done);
	/* nothing new: nothing more */
	KUNIT_EXPECT_EQ(test, read_all(test, buf, &pos, &last), 0U);
	KUNIT_EXPECT_EQ(test, put_record(buf, 32, 11), 0);
	KUNIT_EXPECT_EQ(test, read_all(test, buf, &pos, &last), 1U);
	KUNIT_EXPECT_EQ(test, last, 11ULL);
	pp_buffer_free(buf);
}

/*
 * Across wrap and overwrite: a reader that falls behind loses only what
 * was overwritten (it resumes at the oldest record held), reads every
 * record still intact once, in order; a record crossing the end of the
 * data area reads back whole.
 */
static void pp_buffer_test_history_overwrite(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	struct pp_buffer_stats st;
	unsigned long pos = 0;
	unsigned int i, n = 0, seq = 0;
	u64 last = 0;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 7);
	for (i = 0; i < 200; i++) {
		unsigned int burst = prandom_u32_state(&rnd) % 80, j;

		for (j = 0; j < burst; j++) {
			unsigned int size = 16 + 8 * (prandom_u32_state(&rnd) % 40);

			KUNIT_ASSERT_EQ(test, put_record(buf, size, ++seq), 0);
		}
		n += read_all(test, buf, &pos, &last);
		/* after reading up to the head, the last one read is the newest */
		if (burst)
			KUNIT_EXPECT_EQ(test, last, (u64)seq);
	}
	pp_buffer_stats(buf, &st);
	/* lost = overwritten before being read; never more than overwritten */
	KUNIT_EXPECT_LE(test, (u64)seq - n, st.overwritten);
	KUNIT_EXPECT_GT(test, n, 0U);
	pp_buffer_free(buf);
}

/* A record larger than the caller's space is skipped, not half read. */
static void pp_buffer_test_history_too_large(struct kunit *test)
{
	struct pp_buffer *buf = new_buffer(test, PAGE_SIZE);
	unsigned long pos;
	u8 rec[64];

	KUNIT_ASSERT_EQ(test, put_record(buf, 32, 1), 0);
	KUNIT_ASSERT_EQ(test, put_record(buf, 128, 2), 0);
	KUNIT_ASSERT_EQ(test, put_record(buf, 32, 3), 0);
	pos = buf->ext->tail;
	KUNIT_EXPECT_EQ(test, next_oldest(buf, &pos, rec, sizeof(rec)), 32);
	KUNIT_EXPECT_EQ(test, next_oldest(buf, &pos, rec, sizeof(rec)), -ENOSPC);
	KUNIT_EXPECT_EQ(test, next_oldest(buf, &pos, rec, sizeof(rec)), 32);
	KUNIT_EXPECT_EQ(test, rec[8], 3);
	KUNIT_EXPECT_EQ(test, next_oldest(buf, &pos, rec, sizeof(rec)), 0);
	pp_buffer_free(buf);
}

static struct kunit_case pp_buffer_test_cases[] = {
	KUNIT_CASE(pp_buffer_test_sizes),
	KUNIT_CASE(pp_buffer_test_memory_limit),
	KUNIT_CASE(pp_buffer_test_corrupt_header_resets),
	KUNIT_CASE(pp_buffer_test_reserve_head),
	KUNIT_CASE(pp_buffer_test_backward),
	KUNIT_CASE(pp_buffer_test_full_then_overwrite),
	KUNIT_CASE(pp_buffer_test_evict_ahead_bounds),
	KUNIT_CASE(pp_buffer_test_straddle),
	KUNIT_CASE(pp_buffer_test_many_wraps),
	KUNIT_CASE(pp_buffer_test_long_records),
	KUNIT_CASE(pp_buffer_test_pause),
	KUNIT_CASE(pp_buffer_test_too_big),
	KUNIT_CASE(pp_buffer_test_nested),
	KUNIT_CASE(pp_buffer_test_nested_no_room),
	KUNIT_CASE(pp_buffer_test_single_writer),
	KUNIT_CASE(pp_buffer_test_history_order),
	KUNIT_CASE(pp_buffer_test_history_overwrite),
	KUNIT_CASE(pp_buffer_test_history_too_large),
	{}
};

static struct kunit_suite pp_buffer_test_suite = {
	.name = "perf_persistent_buffer",
	.test_cases = pp_buffer_test_cases,
};

kunit_test_suites(&pp_buffer_test_suite);

MODULE_LICENSE("GPL");
