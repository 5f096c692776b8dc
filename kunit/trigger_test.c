// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for triggers (module/trigger.c): a trigger fires once, on
 * its count-th record; its targets freeze at once or after their
 * post-trigger records; a freeze is counted and timed once; re-arming
 * thaws the targets and counts again.
 */
#include <kunit/test.h>

#include <linux/overflow.h>
#include <linux/slab.h>

#include "../module/trigger.h"

struct trigger_fixture {
	struct pp_freeze a, b;
	struct pp_trigger *t;
};

/* A trigger on targets a and b. */
static struct pp_trigger *make(struct kunit *test, u64 count, u64 after)
{
	struct trigger_fixture *fx = test->priv;
	struct pp_trigger *t = kunit_kzalloc(test, struct_size(t, targets, 2),
					     GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->count = count;
	t->after = after;
	t->nr = 2;
	t->targets[0].freeze = &fx->a;
	t->targets[1].freeze = &fx->b;
	fx->t = t;
	return t;
}

static int trigger_init(struct kunit *test)
{
	struct trigger_fixture *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);

	if (!fx)
		return -ENOMEM;
	test->priv = fx;
	return 0;
}

/* Fires on the third record, not before and never again. */
static void pp_trigger_test_count(struct kunit *test)
{
	struct trigger_fixture *fx = test->priv;
	struct pp_trigger *t = make(test, 3, 0);
	unsigned int i, fired = 0;

	KUNIT_EXPECT_FALSE(test, pp_trigger_hit(t, 10));
	KUNIT_EXPECT_FALSE(test, pp_trigger_hit(t, 11));
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_FALSE(test, pp_trigger_fired(t));
	KUNIT_EXPECT_TRUE(test, pp_trigger_hit(t, 12));
	KUNIT_EXPECT_TRUE(test, pp_trigger_fired(t));
	for (i = 0; i < 1000; i++)
		fired += pp_trigger_hit(t, 13 + i);
	KUNIT_EXPECT_EQ(test, fired, 0U);
	/* Both targets froze at once, at the firing record's time. */
	KUNIT_EXPECT_FALSE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_FALSE(test, pp_freeze_stores(&fx->b));
	KUNIT_EXPECT_EQ(test, fx->a.time, 12ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->a.freezes), 1LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->b.freezes), 1LL);
	/* The count stops at the firing: no wrap however long it runs. */
	KUNIT_EXPECT_EQ(test, atomic64_read(&t->hits), 3LL);
}

/* After M: each target stores M more records, then freezes. */
static void pp_trigger_test_after(struct kunit *test)
{
	struct trigger_fixture *fx = test->priv;
	struct pp_trigger *t = make(test, 1, 4);
	unsigned int i;

	KUNIT_EXPECT_TRUE(test, pp_trigger_hit(t, 100));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->a));
		pp_freeze_stored(&fx->a, 101 + i);
	}
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->a));
	pp_freeze_stored(&fx->a, 200);
	KUNIT_EXPECT_FALSE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_EQ(test, fx->a.time, 200ULL);
	/* b stored nothing yet: still counting, still storing. */
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->b));
	pp_freeze_stored(&fx->b, 300);
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->b));
	/* A freeze is counted once, however many records come after. */
	pp_freeze_stored(&fx->a, 201);
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->a.freezes), 1LL);
	KUNIT_EXPECT_EQ(test, fx->a.time, 200ULL);
}

/*
 * An after beyond what the countdown holds (-1 as "very large") stores
 * on: it is held as the largest count, not as a negative one that
 * freezes at the first record.
 */
static void pp_trigger_test_after_huge(struct kunit *test)
{
	struct trigger_fixture *fx = test->priv;
	struct pp_trigger *t = make(test, 1, U64_MAX);
	unsigned int i;

	KUNIT_EXPECT_TRUE(test, pp_trigger_hit(t, 100));
	for (i = 0; i < 100; i++)
		pp_freeze_stored(&fx->a, 101 + i);
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_TRUE(test, pp_freeze_counting(&fx->a));
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->a.left), S64_MAX - 100);
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->a.freezes), 0LL);
	/* The largest after the trigger takes counts the same way. */
	pp_freeze_after(&fx->b, PP_TRIGGER_AFTER_MAX, 300);
	pp_freeze_stored(&fx->b, 301);
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->b));
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->b.left), S64_MAX - 1);
}

/* Re-arming thaws the targets and counts from zero again. */
static void pp_trigger_test_rearm(struct kunit *test)
{
	struct trigger_fixture *fx = test->priv;
	struct pp_trigger *t = make(test, 2, 0);

	pp_trigger_hit(t, 1);
	KUNIT_ASSERT_TRUE(test, pp_trigger_hit(t, 2));
	KUNIT_EXPECT_FALSE(test, pp_freeze_stores(&fx->b));
	pp_trigger_rearm(t);
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->b));
	KUNIT_EXPECT_FALSE(test, pp_trigger_fired(t));
	KUNIT_EXPECT_FALSE(test, pp_trigger_hit(t, 3));
	KUNIT_EXPECT_TRUE(test, pp_trigger_hit(t, 4));
	KUNIT_EXPECT_FALSE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->a.freezes), 2LL);
	KUNIT_EXPECT_EQ(test, fx->a.time, 4ULL);
}

/*
 * A thaw of one target alone (THAW of that event): it stores again, a
 * countdown it was in is over, the trigger stays fired.
 */
static void pp_trigger_test_thaw(struct kunit *test)
{
	struct trigger_fixture *fx = test->priv;
	struct pp_trigger *t = make(test, 1, 5);

	pp_trigger_hit(t, 1);
	pp_freeze_thaw(&fx->a);
	pp_freeze_stored(&fx->a, 2);
	pp_freeze_stored(&fx->a, 3);
	pp_freeze_stored(&fx->a, 4);
	pp_freeze_stored(&fx->a, 5);
	pp_freeze_stored(&fx->a, 6);
	pp_freeze_stored(&fx->a, 7);
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_EQ(test, atomic64_read(&fx->a.freezes), 0LL);
	KUNIT_EXPECT_TRUE(test, pp_trigger_fired(t));
}

/* Firing again while a target counts down starts its count again. */
static void pp_trigger_test_refire_counting(struct kunit *test)
{
	struct trigger_fixture *fx = test->priv;
	struct pp_trigger *t = make(test, 1, 2);

	pp_trigger_hit(t, 1);
	pp_freeze_stored(&fx->a, 2);
	pp_trigger_rearm(t);
	KUNIT_EXPECT_TRUE(test, pp_trigger_hit(t, 3));
	pp_freeze_stored(&fx->a, 4);
	KUNIT_EXPECT_TRUE(test, pp_freeze_stores(&fx->a));
	pp_freeze_stored(&fx->a, 5);
	KUNIT_EXPECT_FALSE(test, pp_freeze_stores(&fx->a));
	KUNIT_EXPECT_EQ(test, fx->a.time, 5ULL);
}

static struct kunit_case pp_trigger_test_cases[] = {
	KUNIT_CASE(pp_trigger_test_count),
	KUNIT_CASE(pp_trigger_test_after),
	KUNIT_CASE(pp_trigger_test_after_huge),
	KUNIT_CASE(pp_trigger_test_rearm),
	KUNIT_CASE(pp_trigger_test_thaw),
	KUNIT_CASE(pp_trigger_test_refire_counting),
	{}
};

static struct kunit_suite pp_trigger_test_suite = {
	.name = "perf_persistent_trigger",
	.init = trigger_init,
	.test_cases = pp_trigger_test_cases,
};

kunit_test_suites(&pp_trigger_test_suite);

MODULE_LICENSE("GPL");
