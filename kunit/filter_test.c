// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for trigger filters (module/filter.c): which programs are
 * refused and why, and what the accepted ones match: each comparison on
 * each field size, signed and unsigned, the bit test, AND, OR and NOT in
 * postfix order, unaligned fields and fields beyond the payload.
 */
#include <kunit/test.h>

#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../module/filter.h"
#include "../module/record.h"

#define CMP(o, sz, off, v, fl)						\
	((struct perf_persistent_filter_op){ .op = PERF_PERSISTENT_FILTER_##o, \
	  .size = (sz), .offset = (off), .value = (v), .flags = (fl) })
#define LOGIC(o)							\
	((struct perf_persistent_filter_op){ .op = PERF_PERSISTENT_FILTER_##o })

/* A filter of @nr ops, checked: the test fails if the check refuses it. */
static struct pp_filter *make(struct kunit *test,
			      const struct perf_persistent_filter_op *ops,
			      unsigned int nr)
{
	struct pp_filter *f = kunit_kzalloc(test, struct_size(f, ops, nr),
					    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	memcpy(f->ops, ops, nr * sizeof(*ops));
	f->nr = nr;
	KUNIT_ASSERT_EQ(test, pp_filter_check(f->ops, nr), 0);
	return f;
}

/*
 * A payload laid out as a tracepoint's: a u8 at 1, an s16 at 3 (odd: not
 * aligned), a u32 at 8, an s64 at 16.
 */
struct payload {
	u8 b[24];
};

static struct payload sample(u8 u8v, s16 s16v, u32 u32v, s64 s64v)
{
	struct payload p = {};

	p.b[1] = u8v;
	memcpy(&p.b[3], &s16v, sizeof(s16v));
	memcpy(&p.b[8], &u32v, sizeof(u32v));
	memcpy(&p.b[16], &s64v, sizeof(s64v));
	return p;
}

static bool match1(struct kunit *test, struct perf_persistent_filter_op op,
		   const struct payload *p)
{
	return pp_filter_match(make(test, &op, 1), p->b, sizeof(p->b));
}

/* Every comparison, unsigned, on the u8 and the u32. */
static void pp_filter_test_unsigned(struct kunit *test)
{
	struct payload p = sample(200, 0, 0x80000000u, 0);

	KUNIT_EXPECT_TRUE(test, match1(test, CMP(EQ, 1, 1, 200, 0), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(EQ, 1, 1, 201, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(NE, 1, 1, 201, 0), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(NE, 1, 1, 200, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(LT, 1, 1, 201, 0), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(LT, 1, 1, 200, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(LE, 1, 1, 200, 0), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(LE, 1, 1, 199, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(GT, 1, 1, 199, 0), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(GT, 1, 1, 200, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(GE, 1, 1, 200, 0), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(GE, 1, 1, 201, 0), &p));
	/* 0x80000000 is large unsigned, not negative. */
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(GT, 4, 8, 1, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(EQ, 4, 8, 0x80000000u, 0), &p));
}

/* Signed fields are sign-extended and compared as signed. */
static void pp_filter_test_signed(struct kunit *test)
{
	struct payload p = sample(0xff, -300, 0, -5000000000LL);
	const u8 s = PERF_PERSISTENT_FILTER_SIGNED;

	KUNIT_EXPECT_TRUE(test, match1(test, CMP(EQ, 2, 3, (u64)-300, s), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(LT, 2, 3, (u64)-299, s), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(LT, 2, 3, (u64)-300, s), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(LT, 2, 3, 0, s), &p));
	/* The same bits unsigned: 65236, not below 0. */
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(LT, 2, 3, 0, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(EQ, 2, 3, 65236, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(EQ, 1, 1, (u64)-1, s), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(EQ, 1, 1, 255, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(LE, 8, 16, (u64)-5000000000LL, s), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(GT, 8, 16, (u64)-5000000001LL, s), &p));
	/* Negative signed, huge unsigned. */
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(GT, 8, 16, 0, s), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(GT, 8, 16, 0, 0), &p));
}

/* "&": true when any of the value's bits is set in the field. */
static void pp_filter_test_band(struct kunit *test)
{
	struct payload p = sample(0, 0, 0x00a0, 0);

	KUNIT_EXPECT_TRUE(test, match1(test, CMP(BAND, 4, 8, 0x0020, 0), &p));
	KUNIT_EXPECT_TRUE(test, match1(test, CMP(BAND, 4, 8, 0x0f80, 0), &p));
	KUNIT_EXPECT_FALSE(test, match1(test, CMP(BAND, 4, 8, 0x0f0f, 0), &p));
}

/* Postfix logic: (a == 1 || b == 2) && !(c == 3), all eight cases. */
static void pp_filter_test_logic(struct kunit *test)
{
	const struct perf_persistent_filter_op ops[] = {
		CMP(EQ, 1, 1, 1, 0), CMP(EQ, 2, 3, 2, 0), LOGIC(OR),
		CMP(EQ, 4, 8, 3, 0), LOGIC(NOT), LOGIC(AND),
	};
	struct pp_filter *f = make(test, ops, ARRAY_SIZE(ops));
	unsigned int i;

	for (i = 0; i < 8; i++) {
		bool a = i & 1, b = i & 2, c = i & 4;
		struct payload p = sample(a ? 1 : 9, b ? 2 : 9, c ? 3 : 9, 0);

		KUNIT_EXPECT_EQ_MSG(test, pp_filter_match(f, p.b, sizeof(p.b)),
				    (a || b) && !c, "a=%d b=%d c=%d", a, b, c);
	}
}

/* A deep stack: 32 ops, 16 comparisons pushed before the first AND. */
static void pp_filter_test_deep(struct kunit *test)
{
	struct perf_persistent_filter_op ops[PERF_PERSISTENT_FILTER_MAX] = {};
	struct payload p = sample(7, 0, 0, 0);
	struct pp_filter *f;
	unsigned int i;

	for (i = 0; i < 16; i++)
		ops[i] = CMP(EQ, 1, 1, 7, 0);
	for (; i < 31; i++)
		ops[i] = LOGIC(AND);
	ops[31] = LOGIC(NOT);
	f = make(test, ops, ARRAY_SIZE(ops));
	KUNIT_EXPECT_FALSE(test, pp_filter_match(f, p.b, sizeof(p.b)));
	p.b[1] = 6;
	KUNIT_EXPECT_TRUE(test, pp_filter_match(f, p.b, sizeof(p.b)));
}

/* A field that ends beyond the payload compares false, even for "!=". */
static void pp_filter_test_short_payload(struct kunit *test)
{
	struct payload p = sample(0, 0, 5, 0);
	const struct perf_persistent_filter_op ne = CMP(NE, 4, 8, 0, 0);
	const struct perf_persistent_filter_op not[] = { CMP(EQ, 4, 8, 0, 0),
							 LOGIC(NOT) };

	KUNIT_EXPECT_TRUE(test, pp_filter_match(make(test, &ne, 1), p.b, 12));
	KUNIT_EXPECT_FALSE(test, pp_filter_match(make(test, &ne, 1), p.b, 11));
	KUNIT_EXPECT_FALSE(test, pp_filter_match(make(test, &ne, 1), p.b, 0));
	/* Its negation is true: "beyond" is a false comparison, not a veto. */
	KUNIT_EXPECT_TRUE(test, pp_filter_match(make(test, not, 2), p.b, 11));
}

/* What the check refuses, and with which errno. */
static void pp_filter_test_check(struct kunit *test)
{
	struct perf_persistent_filter_op many[PERF_PERSISTENT_FILTER_MAX + 1] = {};
	struct perf_persistent_filter_op o = CMP(EQ, 4, 0, 1, 0);
	const struct perf_persistent_filter_op two[] = { o, o };
	const struct perf_persistent_filter_op under[] = { o, LOGIC(AND) };
	const struct perf_persistent_filter_op not_first[] = { LOGIC(NOT), o };
	struct perf_persistent_filter_op logic_value[] = { o, LOGIC(NOT) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = i ? LOGIC(NOT) : o;
	KUNIT_EXPECT_EQ(test, pp_filter_check(many, ARRAY_SIZE(many) - 1), 0);
	KUNIT_EXPECT_EQ(test, pp_filter_check(many, ARRAY_SIZE(many)), -E2BIG);
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_filter_check(two, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_filter_check(under, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_filter_check(not_first, 2), -EINVAL);
	logic_value[1].value = 1;
	KUNIT_EXPECT_EQ(test, pp_filter_check(logic_value, 2), -EINVAL);
	logic_value[1].value = 0;
	logic_value[1].size = 4;
	KUNIT_EXPECT_EQ(test, pp_filter_check(logic_value, 2), -EINVAL);

	o.op = 0;
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
	o.op = PERF_PERSISTENT_FILTER_NOT + 1;
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
	o = CMP(EQ, 3, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
	o = CMP(EQ, 0, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
	o = CMP(EQ, 4, 0, 1, 2);
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
	o = CMP(EQ, 4, 0, 1, 0);
	o.__reserved = 1;
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
	o = CMP(EQ, 8, PP_RECORD_RAW_MAX - 8, 1, 0);
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), 0);
	o.offset++;
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
	o.offset = U32_MAX;
	KUNIT_EXPECT_EQ(test, pp_filter_check(&o, 1), -EINVAL);
}

static void pp_filter_test_text(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, pp_filter_text_check("bank == 4 && status & 0x1"), 0);
	KUNIT_EXPECT_EQ(test, pp_filter_text_check(""), 0);
	KUNIT_EXPECT_EQ(test, pp_filter_text_check("bank == 4\nfired=1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_filter_text_check("a\tb"), -EINVAL);
}

static struct kunit_case pp_filter_test_cases[] = {
	KUNIT_CASE(pp_filter_test_unsigned),
	KUNIT_CASE(pp_filter_test_signed),
	KUNIT_CASE(pp_filter_test_band),
	KUNIT_CASE(pp_filter_test_logic),
	KUNIT_CASE(pp_filter_test_deep),
	KUNIT_CASE(pp_filter_test_short_payload),
	KUNIT_CASE(pp_filter_test_check),
	KUNIT_CASE(pp_filter_test_text),
	{}
};

static struct kunit_suite pp_filter_test_suite = {
	.name = "perf_persistent_filter",
	.test_cases = pp_filter_test_cases,
};

kunit_test_suites(&pp_filter_test_suite);

MODULE_LICENSE("GPL");
