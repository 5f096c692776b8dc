// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the record encoder (module/record.c): the
 * PERF_RECORD_SAMPLE layout of each supported field, RAW payload sizes and
 * padding as perf pads them, records written in place and wrapped alike,
 * refusals; call chains (module/callchain.c) in their place, walked from
 * registers as perf makes them up for a software event.
 */
#include <kunit/test.h>

#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <asm/segment.h>

#include <uapi/linux/perf_persistent.h>

#include "../module/buffer.h"
#include "../module/callchain.h"
#include "perf_persistent/decode.h"
#include "../module/record.h"

/* Every field of a fixed layout: not those whose sizes vary by task. */
#define ALL_TYPES	(PERF_PERSISTENT_SAMPLE_TYPES &			\
			 ~(u64)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | \
				PERF_SAMPLE_STACK_USER))

struct record_fixture {
	struct pp_buffer *buf;
	struct pt_regs regs;
	struct perf_sample_data data;
	struct perf_raw_record raw;
	u8 payload[256];
	u64 words[64];
};

static int record_init(struct kunit *test)
{
	struct record_fixture *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	unsigned int i;

	if (!fx)
		return -ENOMEM;
	fx->buf = pp_buffer_alloc(PAGE_SIZE);
	if (IS_ERR(fx->buf))
		return PTR_ERR(fx->buf);
	/* Old bytes everywhere: padding must be written, not inherited. */
	memset(fx->buf->data, 0xff, PAGE_SIZE);
	fx->regs.ip = 0xffffffff81234567UL;
	fx->regs.cs = __KERNEL_CS;
	for (i = 0; i < sizeof(fx->payload); i++)
		fx->payload[i] = i ^ 0x5a;
	test->priv = fx;
	return 0;
}

static void record_exit(struct kunit *test)
{
	struct record_fixture *fx = test->priv;

	pp_buffer_free(fx->buf);
}

/*
 * Finish a RAW record the way perf_sample_save_raw_data() does since 6.3,
 * before any overflow handler runs: the last fragment's ->pad, which
 * shares ->next's storage, gets the padding.  Before 6.3 ->next stayed
 * NULL (pad 0); the encoder must take either.
 */
static void save_raw(struct record_fixture *fx)
{
	struct perf_raw_frag *frag = &fx->raw.frag;
	u32 sum = 0;

	for (;;) {
		sum += frag->size;
		if (perf_raw_frag_last(frag))
			break;
		frag = frag->next;
	}
	fx->raw.size = round_up(sum + sizeof(u32), sizeof(u64)) - sizeof(u32);
	frag->pad = fx->raw.size - sum;
	fx->data.raw = &fx->raw;
	fx->data.sample_flags |= PERF_SAMPLE_RAW;
}

static void set_raw(struct record_fixture *fx, u32 size)
{
	perf_sample_data_init(&fx->data, 0, 1);
	if (size == U32_MAX)
		return;
	fx->raw.frag.next = NULL;
	fx->raw.frag.copy = NULL;
	fx->raw.frag.data = fx->payload;
	fx->raw.frag.size = size;
	save_raw(fx);
}

/*
 * A fragment's copy function (BPF output copies from its context this
 * way): bytes [@off, @off + @len) of @src, inverted, so that the test sees
 * it was used.
 */
static unsigned long invert_copy(void *dst, const void *src,
				 unsigned long off, unsigned long len)
{
	const u8 *s = src;
	u8 *d = dst;
	unsigned long i;

	for (i = 0; i < len; i++)
		d[i] = ~s[off + i];
	return 0;
}

/* Encode with @type, as the handler would (preemption off); read it back. */
static int encode(struct kunit *test, u64 type, u64 id)
{
	struct record_fixture *fx = test->priv;
	struct pp_record_fmt fmt;
	struct perf_event_header hdr;
	int ret;

	pp_record_fmt_init(&fmt, type, id);
	preempt_disable();
	ret = pp_record_sample(fx->buf, &fmt, &fx->data, &fx->regs);
	preempt_enable();
	if (ret)
		return ret;
	pp_buffer_read(fx->buf, fx->buf->page->data_head, &hdr, sizeof(hdr));
	KUNIT_EXPECT_LE(test, (size_t)hdr.size, sizeof(fx->words));
	pp_buffer_read(fx->buf, fx->buf->page->data_head, fx->words, hdr.size);
	return 0;
}

static struct perf_event_header *header(struct kunit *test)
{
	return (void *)((struct record_fixture *)test->priv)->words;
}

/* Every supported field, in perf's order, with a 116-byte payload. */
static void pp_record_test_all_fields(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	u64 *w = fx->words, before, after;
	u32 *half;

	set_raw(fx, 116);
	before = local_clock();
	KUNIT_ASSERT_EQ(test, encode(test, ALL_TYPES, 7), 0);
	after = local_clock();

	KUNIT_EXPECT_EQ(test, header(test)->type, (u32)PERF_RECORD_SAMPLE);
	KUNIT_EXPECT_EQ(test, header(test)->misc, (u16)PERF_RECORD_MISC_KERNEL);
	/* 8 header + 8 fields of 8 + 4 size + 116 payload */
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)192);
	KUNIT_EXPECT_EQ(test, w[1], 7ULL);			/* IDENTIFIER */
	KUNIT_EXPECT_EQ(test, w[2], (u64)fx->regs.ip);		/* IP */
	half = (u32 *)&w[3];					/* TID */
	KUNIT_EXPECT_EQ(test, half[0], (u32)task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, half[1], (u32)task_pid_nr(current));
	KUNIT_EXPECT_GE(test, w[4], before);			/* TIME */
	KUNIT_EXPECT_LE(test, w[4], after);
	KUNIT_EXPECT_EQ(test, w[5], 0ULL);			/* ADDR: none */
	KUNIT_EXPECT_EQ(test, w[6], 7ULL);			/* ID */
	half = (u32 *)&w[7];					/* CPU */
	KUNIT_EXPECT_LT(test, half[0], nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, half[1], 0U);
	KUNIT_EXPECT_EQ(test, w[8], 1ULL);			/* PERIOD */
	half = (u32 *)&w[9];					/* RAW */
	KUNIT_EXPECT_EQ(test, half[0], 116U);
	KUNIT_EXPECT_EQ(test, memcmp(&half[1], fx->payload, 116), 0);
}

/* A payload that is not 4 mod 8 is padded; the size field counts the pad. */
static void pp_record_test_raw_padding(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	u8 *raw;
	u32 *size;

	set_raw(fx, 5);
	KUNIT_ASSERT_EQ(test, encode(test, PERF_SAMPLE_RAW, 1), 0);
	/* 8 header + ALIGN(4 + 5, 8) */
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)24);
	size = (u32 *)&fx->words[1];
	KUNIT_EXPECT_EQ(test, *size, 12U);
	raw = (u8 *)(size + 1);
	KUNIT_EXPECT_EQ(test, memcmp(raw, fx->payload, 5), 0);
	KUNIT_EXPECT_TRUE(test, !raw[5] && !raw[6] && !raw[7] && !raw[8] &&
			  !raw[9] && !raw[10] && !raw[11]);
}

/* RAW asked for, none in the sample: size 4 and four zero bytes (perf). */
static void pp_record_test_raw_absent(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	u32 *raw;

	set_raw(fx, U32_MAX);
	KUNIT_ASSERT_EQ(test, encode(test, PERF_SAMPLE_RAW | PERF_SAMPLE_TIME, 1), 0);
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)24);
	raw = (u32 *)&fx->words[2];
	KUNIT_EXPECT_EQ(test, raw[0], 4U);
	KUNIT_EXPECT_EQ(test, raw[1], 0U);
}

/*
 * A chained RAW record is copied fragment after fragment, up to the one
 * perf_raw_frag_last() names: its ->next holds the padding (1 here).
 */
static void pp_record_test_raw_fragments(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct perf_raw_frag second = { .data = fx->payload + 10, .size = 9 };
	u32 *raw;
	u8 *pad;

	set_raw(fx, 10);
	fx->raw.frag.next = &second;
	save_raw(fx);
	KUNIT_ASSERT_EQ(test, second.pad, 1UL);
	KUNIT_ASSERT_EQ(test, encode(test, PERF_SAMPLE_RAW, 1), 0);
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)32);
	raw = (u32 *)&fx->words[1];
	KUNIT_EXPECT_EQ(test, raw[0], 20U);
	KUNIT_EXPECT_EQ(test, memcmp(&raw[1], fx->payload, 19), 0);
	pad = (u8 *)&raw[1] + 19;
	KUNIT_EXPECT_EQ(test, *pad, 0);
}

/* A fragment with a copy function is copied with it, in place and wrapped. */
static void pp_record_test_raw_copy(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	unsigned int i, j, wrapped = 0;
	u8 want[116];

	for (j = 0; j < sizeof(want); j++)
		want[j] = ~fx->payload[j];
	set_raw(fx, 116);
	fx->raw.frag.copy = invert_copy;
	for (i = 0; i < 3 * PAGE_SIZE / 136; i++) {
		unsigned long off;
		struct pp_decoded d;

		KUNIT_ASSERT_EQ(test, encode(test, PERF_SAMPLE_RAW | PERF_SAMPLE_IDENTIFIER, i), 0);
		off = fx->buf->page->data_head & (fx->buf->size - 1);
		wrapped += off + 136 > fx->buf->size;
		KUNIT_ASSERT_EQ(test, pp_decode(fx->words, 136,
						PERF_SAMPLE_RAW | PERF_SAMPLE_IDENTIFIER, &d), 0);
		KUNIT_EXPECT_EQ(test, d.raw_size, 116U);
		KUNIT_EXPECT_EQ(test, memcmp(d.raw, want, 116), 0);
	}
	KUNIT_EXPECT_GT(test, wrapped, 1U);
}

static void pp_record_test_addr_and_period(struct kunit *test)
{
	struct record_fixture *fx = test->priv;

	perf_sample_data_init(&fx->data, 0xdead000, 3);
	KUNIT_ASSERT_EQ(test, encode(test, PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD, 1), 0);
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)24);
	KUNIT_EXPECT_EQ(test, fx->words[1], 0xdead000ULL);
	KUNIT_EXPECT_EQ(test, fx->words[2], 3ULL);
}

/* Only the requested fields, nothing else: a bare header is 8 bytes. */
static void pp_record_test_minimal(struct kunit *test)
{
	struct record_fixture *fx = test->priv;

	set_raw(fx, 116);
	KUNIT_ASSERT_EQ(test, encode(test, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)8);
	KUNIT_ASSERT_EQ(test, encode(test, PERF_SAMPLE_IP, 1), 0);
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)16);
	KUNIT_EXPECT_EQ(test, fx->words[1], (u64)fx->regs.ip);
}

static void pp_record_test_user_mode(struct kunit *test)
{
	struct record_fixture *fx = test->priv;

	set_raw(fx, U32_MAX);
	fx->regs.cs = __USER_CS;
	KUNIT_ASSERT_EQ(test, encode(test, PERF_SAMPLE_IP, 1), 0);
	KUNIT_EXPECT_EQ(test, header(test)->misc, (u16)PERF_RECORD_MISC_USER);
}

/* Too large a payload is dropped and counted, the buffer is untouched. */
static void pp_record_test_raw_too_big(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct pp_buffer_stats st;

	set_raw(fx, PP_RECORD_RAW_MAX + 1);
	KUNIT_EXPECT_EQ(test, encode(test, PERF_SAMPLE_RAW, 1), -E2BIG);
	pp_buffer_stats(fx->buf, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, st.written, 0ULL);
	KUNIT_EXPECT_EQ(test, fx->buf->page->data_head, 0ULL);
}

/* The shared decoder reads back what the encoder wrote, field by field. */
static void pp_record_test_decode_round_trip(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct pp_decoded d;

	set_raw(fx, 116);
	fx->data.sample_flags |= PERF_SAMPLE_ADDR;
	fx->data.addr = 0xabc;
	KUNIT_ASSERT_EQ(test, encode(test, ALL_TYPES, 9), 0);
	KUNIT_ASSERT_EQ(test, pp_decode(fx->words, sizeof(fx->words), ALL_TYPES, &d), 0);
	KUNIT_EXPECT_EQ(test, d.size, 192U);
	KUNIT_EXPECT_EQ(test, d.id, 9ULL);
	KUNIT_EXPECT_EQ(test, d.ip, (u64)fx->regs.ip);
	KUNIT_EXPECT_EQ(test, d.pid, (u32)task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, d.tid, (u32)task_pid_nr(current));
	KUNIT_EXPECT_EQ(test, d.time, fx->words[4]);
	KUNIT_EXPECT_EQ(test, d.addr, 0xabcULL);
	KUNIT_EXPECT_EQ(test, d.period, 1ULL);
	KUNIT_EXPECT_EQ(test, d.raw_size, 116U);
	KUNIT_EXPECT_EQ(test, memcmp(d.raw, fx->payload, 116), 0);
}

/* The decoder refuses what does not add up. */
static void pp_record_test_decode_rejects(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct perf_event_header *hdr = header(test);
	struct pp_decoded d;

	set_raw(fx, 116);
	KUNIT_ASSERT_EQ(test, encode(test, ALL_TYPES, 9), 0);
	/* truncated */
	KUNIT_EXPECT_EQ(test, pp_decode(fx->words, 100, ALL_TYPES, &d), -1);
	/* the fields do not fill the record */
	KUNIT_EXPECT_EQ(test, pp_decode(fx->words, sizeof(fx->words),
					ALL_TYPES & ~PERF_SAMPLE_TIME, &d), -1);
	/* more fields than the record holds */
	KUNIT_EXPECT_EQ(test, pp_decode(fx->words, sizeof(fx->words),
					PERF_SAMPLE_IP, &d), -1);
	/* raw size beyond the record */
	*(u32 *)&fx->words[9] = 200;
	KUNIT_EXPECT_EQ(test, pp_decode(fx->words, sizeof(fx->words), ALL_TYPES, &d), -1);
	/* not a sample */
	hdr->type = PERF_RECORD_LOST;
	KUNIT_EXPECT_EQ(test, pp_decode(fx->words, sizeof(fx->words), ALL_TYPES, &d), -1);
	hdr->type = PERF_RECORD_SAMPLE;
	hdr->size = 190;
	KUNIT_EXPECT_EQ(test, pp_decode(fx->words, sizeof(fx->words), ALL_TYPES, &d), -1);
}

static void pp_record_test_sample_types(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, pp_record_sample_type_ok(0));
	KUNIT_EXPECT_TRUE(test, pp_record_sample_type_ok(ALL_TYPES));
	KUNIT_EXPECT_TRUE(test, pp_record_sample_type_ok(PERF_SAMPLE_CALLCHAIN));
	KUNIT_EXPECT_TRUE(test, pp_record_sample_type_ok(PERF_SAMPLE_REGS_USER |
							 PERF_SAMPLE_STACK_USER));
	KUNIT_EXPECT_FALSE(test, pp_record_sample_type_ok(PERF_SAMPLE_REGS_INTR));
	KUNIT_EXPECT_FALSE(test, pp_record_sample_type_ok(PERF_SAMPLE_READ));
	KUNIT_EXPECT_FALSE(test, pp_record_sample_type_ok(PERF_SAMPLE_STREAM_ID));
	KUNIT_EXPECT_FALSE(test, pp_record_sample_type_ok(PERF_SAMPLE_BRANCH_STACK));
	KUNIT_EXPECT_FALSE(test, pp_record_sample_type_ok(1ULL << 63));
}

/* The header and fixed fields take 8 bytes each, whatever else is asked. */
static void pp_record_test_fixed_size(struct kunit *test)
{
	struct pp_record_fmt fmt;

	pp_record_fmt_init(&fmt, ALL_TYPES, 3);
	KUNIT_EXPECT_EQ(test, fmt.fixed_size, 72U);
	KUNIT_EXPECT_EQ(test, fmt.id, 3ULL);
	pp_record_fmt_init(&fmt, PERF_SAMPLE_RAW, 3);
	KUNIT_EXPECT_EQ(test, fmt.fixed_size, 8U);
	pp_record_fmt_init(&fmt, PERF_SAMPLE_TID | PERF_SAMPLE_CPU, 3);
	KUNIT_EXPECT_EQ(test, fmt.fixed_size, 24U);
}

/*
 * Records are written in place, except one that wraps round the end of the
 * data area, which is assembled apart: both read back the same.
 */
static void pp_record_test_wrapped(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	unsigned int i, wrapped = 0;

	set_raw(fx, 116);
	for (i = 0; i < 3 * PAGE_SIZE / 192; i++) {
		unsigned long off;
		struct pp_decoded d;

		KUNIT_ASSERT_EQ(test, encode(test, ALL_TYPES, i), 0);
		off = fx->buf->page->data_head & (fx->buf->size - 1);
		wrapped += off + 192 > fx->buf->size;
		KUNIT_ASSERT_EQ(test, pp_decode(fx->words, 192, ALL_TYPES, &d), 0);
		KUNIT_EXPECT_EQ(test, d.id, (u64)i);
		KUNIT_EXPECT_EQ(test, d.ip, (u64)fx->regs.ip);
		KUNIT_EXPECT_EQ(test, d.raw_size, 116U);
		KUNIT_EXPECT_EQ(test, memcmp(d.raw, fx->payload, 116), 0);
	}
	KUNIT_EXPECT_GT(test, wrapped, 1U);
}

/* Paused: the record is refused before anything is taken or written. */
static void pp_record_test_paused(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct pp_buffer_stats st;

	set_raw(fx, 16);
	pp_buffer_set_paused(fx->buf, true);
	KUNIT_EXPECT_EQ(test, encode(test, ALL_TYPES, 1), -EAGAIN);
	pp_buffer_stats(fx->buf, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, st.written, 0ULL);
	KUNIT_EXPECT_EQ(test, st.head, 0ULL);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(fx->buf->data, 0xff, PAGE_SIZE), NULL);

	pp_buffer_set_paused(fx->buf, false);
	KUNIT_EXPECT_EQ(test, encode(test, ALL_TYPES, 1), 0);
	pp_buffer_stats(fx->buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 1ULL);
}

/* Sample fields of the comm cases: those a COMM record's sample_id has. */
#define COMM_TYPES	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |	\
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

/* Store one sample of an event with comm; 0 or the encoder's error. */
static int encode_comm(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct pp_record_fmt fmt;
	int ret;

	pp_record_fmt_init(&fmt, COMM_TYPES, 5);
	pp_record_fmt_want_comm(&fmt);
	/* 8 header + 8 pid/tid + 16 name + 4 sample_id fields */
	KUNIT_EXPECT_EQ(test, fmt.comm_size, 64U);
	preempt_disable();
	ret = pp_record_sample(fx->buf, &fmt, &fx->data, &fx->regs);
	preempt_enable();
	return ret;
}

/*
 * With comm, a task's first record comes after a COMM record naming it,
 * in perf's layout with sample_id fields; its next records do not.
 */
static void pp_record_test_comm_first(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	unsigned long head;
	struct pp_buffer_stats st;
	struct pp_decoded s, c;
	u64 comm[8];

	KUNIT_ASSERT_EQ(test, encode_comm(test), 0);
	head = fx->buf->page->data_head;
	pp_buffer_read(fx->buf, head, fx->words, 40);
	KUNIT_ASSERT_EQ(test, pp_decode(fx->words, 40, COMM_TYPES, &s), 0);
	KUNIT_EXPECT_EQ(test, s.type, (u32)PERF_RECORD_SAMPLE);
	pp_buffer_read(fx->buf, head + 40, comm, sizeof(comm));
	KUNIT_ASSERT_EQ(test, pp_decode(comm, sizeof(comm), COMM_TYPES, &c), 0);
	KUNIT_EXPECT_EQ(test, c.type, (u32)PERF_RECORD_COMM);
	KUNIT_EXPECT_EQ(test, c.size, 64U);
	KUNIT_EXPECT_EQ(test, c.pid, (u32)task_tgid_nr(current));
	KUNIT_EXPECT_EQ(test, c.tid, (u32)task_pid_nr(current));
	KUNIT_EXPECT_STREQ(test, c.comm, current->comm);
	KUNIT_EXPECT_EQ(test, c.id, 5ULL);
	KUNIT_EXPECT_EQ(test, c.cpu, s.cpu);
	KUNIT_EXPECT_LE(test, c.time, s.time);
	/* sample_id's TID repeats pid and tid */
	KUNIT_EXPECT_EQ(test, comm[4], comm[1]);

	KUNIT_ASSERT_EQ(test, encode_comm(test), 0);
	KUNIT_ASSERT_EQ(test, encode_comm(test), 0);
	pp_buffer_stats(fx->buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 4ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 64ULL + 3 * 40);
}

/* A renamed task gets a COMM record with its new name. */
static void pp_record_test_comm_renamed(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct pp_buffer_stats st;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, encode_comm(test), 0);
	/* As if the cache had seen another name: the task's is new. */
	for (i = 0; i < ARRAY_SIZE(fx->buf->comm); i++)
		if (fx->buf->comm[i].tid == task_pid_nr(current))
			fx->buf->comm[i].comm[0] ^= 1;
	KUNIT_ASSERT_EQ(test, encode_comm(test), 0);
	pp_buffer_stats(fx->buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 4ULL);
}

/*
 * The cache's rule: the same task under the same name needs no COMM
 * record while its last one lies in the newer half of the buffer.
 */
static void pp_record_test_comm_stale(struct kunit *test)
{
	struct pp_comm_slot slot = { .pid = 10, .tid = 11, .comm = "worker",
				     .pos = 1000 };
	/* The check reads names as two aligned words. */
	char same[TASK_COMM_LEN] __aligned(8) = "worker";
	char other[TASK_COMM_LEN] __aligned(8) = "worker2";
	char unpadded[TASK_COMM_LEN] __aligned(8) = "worker";

	KUNIT_EXPECT_FALSE(test, pp_record_comm_stale(&slot, 10, 11, same, 1000, 4096));
	KUNIT_EXPECT_TRUE(test, pp_record_comm_stale(&slot, 10, 12, same, 1000, 4096));
	KUNIT_EXPECT_TRUE(test, pp_record_comm_stale(&slot, 9, 11, same, 1000, 4096));
	KUNIT_EXPECT_TRUE(test, pp_record_comm_stale(&slot, 10, 11, other, 1000, 4096));
	/*
	 * The check compares all 16 bytes: a name with bytes after its NUL
	 * (a rename under way) is stale, and the slow path pads it.
	 */
	unpadded[10] = 'x';
	KUNIT_EXPECT_TRUE(test, pp_record_comm_stale(&slot, 10, 11, unpadded, 1000, 4096));
	/* Positions go down: 2048 bytes newer is still the newer half. */
	KUNIT_EXPECT_FALSE(test, pp_record_comm_stale(&slot, 10, 11, same, 1000 - 2048, 4096));
	KUNIT_EXPECT_TRUE(test, pp_record_comm_stale(&slot, 10, 11, same, 1000 - 2056, 4096));
	/* Across the wrap of the unsigned positions too. */
	slot.pos = 8;
	KUNIT_EXPECT_FALSE(test, pp_record_comm_stale(&slot, 10, 11, same, -8UL, 4096));
	KUNIT_EXPECT_TRUE(test, pp_record_comm_stale(&slot, 10, 11, same, 8 - 4096, 4096));
}

/* A buffer lapping round keeps giving the task COMM records. */
static void pp_record_test_comm_lapped(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	struct pp_buffer_stats st;
	unsigned int i, n = 2 * PAGE_SIZE / 40;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, encode_comm(test), 0);
	pp_buffer_stats(fx->buf, &st);
	/* One COMM record per half buffer of samples, give or take one. */
	KUNIT_EXPECT_GE(test, st.written - n, 4ULL);
	KUNIT_EXPECT_LE(test, st.written - n, 6ULL);
}

/* Fields of the call chain cases: a chain between PERIOD and RAW. */
#define CHAIN_TYPES	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |	\
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |	\
			 PERF_SAMPLE_RAW)

/*
 * Store one sample with a chain, from registers made up here as perf makes
 * them up for a software event (perf_fetch_caller_regs()): their IP is
 * this function's return address, in the test case, so that the chain
 * must hold it.  Returns the encoder's result and the return address.
 */
static noinline int encode_chain(struct kunit *test, u16 max_stack,
				 bool kernel, bool user, unsigned long *ret_ip)
{
	struct record_fixture *fx = test->priv;
	struct pp_record_fmt fmt;
	struct perf_event_header hdr;
	int ret;

	*ret_ip = (unsigned long)__builtin_return_address(0);
	pp_record_fmt_init(&fmt, CHAIN_TYPES, 9);
	fmt.chain.max_stack = max_stack;
	fmt.chain.kernel = kernel;
	fmt.chain.user = user;
	perf_fetch_caller_regs(&fx->regs);
	preempt_disable();
	ret = pp_record_sample(fx->buf, &fmt, &fx->data, &fx->regs);
	preempt_enable();
	if (ret)
		return ret;
	pp_buffer_read(fx->buf, fx->buf->page->data_head, &hdr, sizeof(hdr));
	KUNIT_EXPECT_LE(test, (size_t)hdr.size, sizeof(fx->words));
	pp_buffer_read(fx->buf, fx->buf->page->data_head, fx->words,
		       min_t(size_t, hdr.size, sizeof(fx->words)));
	return 0;
}

static int chain_init(struct kunit *test)
{
	int ret = record_init(test);

	return ret ?: pp_callchain_init();
}

static void chain_exit(struct kunit *test)
{
	pp_callchain_exit();
	record_exit(test);
}

/*
 * A sample in the kernel: PERF_CONTEXT_KERNEL, then kernel text addresses
 * from the interrupted function's caller outwards, this test case among
 * them; no user part in a kernel thread; the RAW field after the chain.
 */
static void pp_record_test_chain_kernel(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	unsigned long ret_ip;
	struct pp_decoded d;
	bool found = false;
	u64 i;

	set_raw(fx, 20);
	KUNIT_ASSERT_EQ(test, encode_chain(test, 40, true, true, &ret_ip), 0);
	KUNIT_ASSERT_EQ(test, pp_decode(fx->words, header(test)->size,
					CHAIN_TYPES, &d), 0);
	KUNIT_EXPECT_EQ(test, d.id, 9ULL);
	KUNIT_EXPECT_EQ(test, d.ip, (u64)ret_ip);
	KUNIT_ASSERT_GE(test, d.callchain_nr, 3ULL);
	KUNIT_EXPECT_LE(test, d.callchain_nr, 40ULL);
	KUNIT_EXPECT_EQ(test, d.callchain[0], (u64)PERF_CONTEXT_KERNEL);
	for (i = 1; i < d.callchain_nr; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, kernel_text_address(d.callchain[i]),
				      "entry %llu: %llx", i, d.callchain[i]);
		found |= d.callchain[i] == ret_ip;
	}
	KUNIT_EXPECT_TRUE(test, found);
	KUNIT_EXPECT_EQ(test, d.raw_size, 20U);
	KUNIT_EXPECT_EQ(test, memcmp(d.raw, fx->payload, 20), 0);
}

/* perf's limit: IPs while the chain is shorter than max_stack, marker counted. */
static void pp_record_test_chain_max_stack(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	unsigned long ret_ip;
	struct pp_decoded d;

	set_raw(fx, U32_MAX);
	KUNIT_ASSERT_EQ(test, encode_chain(test, 3, true, true, &ret_ip), 0);
	KUNIT_ASSERT_EQ(test, pp_decode(fx->words, header(test)->size,
					CHAIN_TYPES, &d), 0);
	KUNIT_EXPECT_EQ(test, d.callchain_nr, 3ULL);
	/* 8 header + 3 fields + nr + 3 entries + RAW's 8 */
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)72);
}

/* Both parts excluded: an empty chain, nr 0, still in its place. */
static void pp_record_test_chain_excluded(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	unsigned long ret_ip;
	struct pp_decoded d;

	set_raw(fx, 4);
	KUNIT_ASSERT_EQ(test, encode_chain(test, 60, false, true, &ret_ip), 0);
	KUNIT_ASSERT_EQ(test, pp_decode(fx->words, header(test)->size,
					CHAIN_TYPES, &d), 0);
	/* A kernel thread has no user frames either. */
	KUNIT_EXPECT_EQ(test, d.callchain_nr, 0ULL);
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)(8 + 3 * 8 + 8 + 8));
	KUNIT_EXPECT_EQ(test, d.raw_size, 4U);
}

/* Records with chains read back whole, the wrapped ones too. */
static void pp_record_test_chain_wrapped(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	unsigned int i, wrapped = 0, size;
	unsigned long ret_ip;
	struct pp_decoded d;

	set_raw(fx, 36);
	for (i = 0; i < 40; i++) {
		unsigned long off;

		KUNIT_ASSERT_EQ(test, encode_chain(test, 12, true, false, &ret_ip), 0);
		size = header(test)->size;
		off = fx->buf->page->data_head & (fx->buf->size - 1);
		wrapped += off + size > fx->buf->size;
		KUNIT_ASSERT_EQ(test, pp_decode(fx->words, size, CHAIN_TYPES, &d), 0);
		KUNIT_EXPECT_EQ(test, d.callchain[0], (u64)PERF_CONTEXT_KERNEL);
		KUNIT_EXPECT_EQ(test, d.raw_size, 36U);
		KUNIT_EXPECT_EQ(test, memcmp(d.raw, fx->payload, 36), 0);
	}
	KUNIT_EXPECT_GE(test, wrapped, 1U);
}

/* A chain's count that runs past the record is refused by the decoder. */
static void pp_record_test_chain_decode_rejects(struct kunit *test)
{
	u64 rec[4] = { 0 };
	struct perf_event_header *hdr = (void *)rec;
	struct pp_decoded d;

	hdr->type = PERF_RECORD_SAMPLE;
	hdr->size = sizeof(rec);
	rec[1] = 2;
	KUNIT_EXPECT_EQ(test, pp_decode(rec, sizeof(rec), PERF_SAMPLE_CALLCHAIN, &d), 0);
	KUNIT_EXPECT_EQ(test, d.callchain_nr, 2ULL);
	rec[1] = 3;
	KUNIT_EXPECT_EQ(test, pp_decode(rec, sizeof(rec), PERF_SAMPLE_CALLCHAIN, &d), -1);
	rec[1] = ~0ULL;
	KUNIT_EXPECT_EQ(test, pp_decode(rec, sizeof(rec), PERF_SAMPLE_CALLCHAIN, &d), -1);
	rec[1] = 1;
	KUNIT_EXPECT_EQ(test, pp_decode(rec, sizeof(rec), PERF_SAMPLE_CALLCHAIN, &d), -1);
}

/*
 * DWARF's fields, after RAW: a kernel thread has no user registers and no
 * user stack, so ABI NONE and a size of 0, as perf writes them.
 */
static void pp_record_test_user_fields_kthread(struct kunit *test)
{
	struct record_fixture *fx = test->priv;
	const u64 type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW |
			 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	struct pp_record_fmt fmt;
	struct pp_decoded d;
	int ret;

	set_raw(fx, 4);
	pp_record_fmt_init(&fmt, type, 1);
	fmt.regs_mask = 0xff;
	fmt.stack_user = 4096;
	preempt_disable();
	ret = pp_record_sample(fx->buf, &fmt, &fx->data, &fx->regs);
	preempt_enable();
	KUNIT_ASSERT_EQ(test, ret, 0);
	pp_buffer_read(fx->buf, fx->buf->page->data_head, fx->words, 40);
	/* 8 header + 8 IP + 8 RAW + 8 ABI + 8 stack size */
	KUNIT_EXPECT_EQ(test, header(test)->size, (u16)40);
	KUNIT_ASSERT_EQ(test, pp_decode_regs(fx->words, 40, type, 0xff, &d), 0);
	KUNIT_EXPECT_EQ(test, d.regs_abi, (u64)PERF_SAMPLE_REGS_ABI_NONE);
	KUNIT_EXPECT_PTR_EQ(test, d.regs, NULL);
	KUNIT_EXPECT_EQ(test, d.stack_size, 0ULL);
	KUNIT_EXPECT_PTR_EQ(test, d.stack, NULL);
}

/* The sizes perf takes: a register mask of known ones, a stack within a record. */
static void pp_record_test_user_fields_limits(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, pp_uregs_mask_ok(0));
	KUNIT_EXPECT_TRUE(test, pp_uregs_mask_ok(1));
	KUNIT_EXPECT_FALSE(test, pp_uregs_mask_ok(BIT_ULL(63)));
	KUNIT_EXPECT_EQ(test, pp_ustack_size(8192, 64, NULL), 0U);
}

/* arm64's trim: from the interrupted PC on, or nothing if it is absent. */
static void pp_record_test_chain_trim(struct kunit *test)
{
	unsigned long t[5] = { 10, 11, 12, 13, 14 };

	KUNIT_EXPECT_EQ(test, pp_chain_trim(t, 5, 12), 3U);
	KUNIT_EXPECT_EQ(test, t[0], 12UL);
	KUNIT_EXPECT_EQ(test, t[2], 14UL);
	KUNIT_EXPECT_EQ(test, pp_chain_trim(t, 3, 12), 3U);
	KUNIT_EXPECT_EQ(test, pp_chain_trim(t, 3, 99), 0U);
	KUNIT_EXPECT_EQ(test, pp_chain_trim(t, 0, 12), 0U);
}

/*
 * The idle loop's kept chain is reused only while every stack word it was
 * walked from is the same: one word differing anywhere is a miss.
 */
static void pp_record_test_chain_words(struct kunit *test)
{
	unsigned long kept[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, stack[8];
	unsigned int i;

	memcpy(stack, kept, sizeof(stack));
	KUNIT_EXPECT_TRUE(test, pp_chain_words_equal(kept, stack, 8));
	KUNIT_EXPECT_TRUE(test, pp_chain_words_equal(kept, stack, 0));
	for (i = 0; i < 8; i++) {
		stack[i] ^= 1UL << (i * 7);
		KUNIT_EXPECT_FALSE(test, pp_chain_words_equal(kept, stack, 8));
		/* Words beyond those compared do not count. */
		KUNIT_EXPECT_TRUE(test, pp_chain_words_equal(kept, stack, i));
		stack[i] = kept[i];
	}
}

static struct kunit_case pp_chain_test_cases[] = {
	KUNIT_CASE(pp_record_test_chain_kernel),
	KUNIT_CASE(pp_record_test_chain_max_stack),
	KUNIT_CASE(pp_record_test_chain_excluded),
	KUNIT_CASE(pp_record_test_chain_wrapped),
	KUNIT_CASE(pp_record_test_chain_decode_rejects),
	KUNIT_CASE(pp_record_test_chain_trim),
	KUNIT_CASE(pp_record_test_chain_words),
	KUNIT_CASE(pp_record_test_user_fields_kthread),
	KUNIT_CASE(pp_record_test_user_fields_limits),
	{}
};

static struct kunit_suite pp_chain_test_suite = {
	.name = "perf_persistent_callchain",
	.init = chain_init,
	.exit = chain_exit,
	.test_cases = pp_chain_test_cases,
};

static struct kunit_case pp_record_test_cases[] = {
	KUNIT_CASE(pp_record_test_all_fields),
	KUNIT_CASE(pp_record_test_raw_padding),
	KUNIT_CASE(pp_record_test_raw_absent),
	KUNIT_CASE(pp_record_test_raw_fragments),
	KUNIT_CASE(pp_record_test_raw_copy),
	KUNIT_CASE(pp_record_test_addr_and_period),
	KUNIT_CASE(pp_record_test_minimal),
	KUNIT_CASE(pp_record_test_user_mode),
	KUNIT_CASE(pp_record_test_raw_too_big),
	KUNIT_CASE(pp_record_test_decode_round_trip),
	KUNIT_CASE(pp_record_test_decode_rejects),
	KUNIT_CASE(pp_record_test_sample_types),
	KUNIT_CASE(pp_record_test_fixed_size),
	KUNIT_CASE(pp_record_test_wrapped),
	KUNIT_CASE(pp_record_test_comm_first),
	KUNIT_CASE(pp_record_test_comm_renamed),
	KUNIT_CASE(pp_record_test_comm_stale),
	KUNIT_CASE(pp_record_test_comm_lapped),
	KUNIT_CASE(pp_record_test_paused),
	{}
};

static struct kunit_suite pp_record_test_suite = {
	.name = "perf_persistent_record",
	.init = record_init,
	.exit = record_exit,
	.test_cases = pp_record_test_cases,
};

kunit_test_suites(&pp_record_test_suite, &pp_chain_test_suite);

MODULE_LICENSE("GPL");
