// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the resizable events/ attribute list
 * (module/attr_list.c): growing from 0 to N and back, removal from the
 * middle, re-adding, and allocation failures leaving the list intact.
 */
#include <kunit/test.h>

#include <linux/slab.h>
#include <linux/sysfs.h>

#include "../module/attr_list.h"

#define N_ATTRS	100

static struct attribute test_attrs[N_ATTRS];

static bool fail_realloc;

static void *test_realloc(const void *p, size_t size, gfp_t gfp)
{
	return fail_realloc ? NULL : krealloc(p, size, gfp);
}

static int attr_list_init(struct kunit *test)
{
	struct pp_attr_list *list = kunit_kzalloc(test, sizeof(*list), GFP_KERNEL);

	if (!list)
		return -ENOMEM;
	fail_realloc = false;
	list->realloc = test_realloc;
	KUNIT_ASSERT_EQ(test, pp_attr_list_init(list), 0);
	test->priv = list;
	return 0;
}

static void attr_list_exit(struct kunit *test)
{
	pp_attr_list_free(test->priv);
}

/* The array holds exactly @n entries of @expect, then NULL. */
static void expect_list(struct kunit *test, struct pp_attr_list *list,
			struct attribute **expect, unsigned int n)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, list->nr, n);
	KUNIT_EXPECT_LE(test, list->nr, list->cap);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_PTR_EQ(test, list->attrs[i], expect[i]);
	KUNIT_EXPECT_NULL(test, list->attrs[n]);
}

static void pp_attr_list_test_empty(struct kunit *test)
{
	struct pp_attr_list *list = test->priv;

	KUNIT_ASSERT_NOT_NULL(test, list->attrs);
	expect_list(test, list, NULL, 0);
	KUNIT_EXPECT_EQ(test, pp_attr_list_del(list, &test_attrs[0]), -ENOENT);
}

/* 0 -> N -> 0: no fixed maximum, and the array shrinks back. */
static void pp_attr_list_test_grow_shrink(struct kunit *test)
{
	struct attribute *expect[N_ATTRS];
	struct pp_attr_list *list = test->priv;
	unsigned int i, min_cap = list->cap;

	for (i = 0; i < N_ATTRS; i++) {
		KUNIT_ASSERT_EQ(test, pp_attr_list_add(list, &test_attrs[i]), 0);
		expect[i] = &test_attrs[i];
	}
	expect_list(test, list, expect, N_ATTRS);
	KUNIT_EXPECT_GE(test, list->cap, (unsigned int)N_ATTRS);
	KUNIT_EXPECT_LT(test, list->cap, 2U * N_ATTRS);

	for (i = N_ATTRS; i-- > 0; )
		KUNIT_ASSERT_EQ(test, pp_attr_list_del(list, &test_attrs[i]), 0);
	expect_list(test, list, NULL, 0);
	KUNIT_EXPECT_EQ(test, list->cap, min_cap);
}

/* Removing from the middle keeps the others in order. */
static void pp_attr_list_test_del_middle(struct kunit *test)
{
	struct attribute *expect[] = {
		&test_attrs[0], &test_attrs[1], &test_attrs[3], &test_attrs[4],
	};
	struct pp_attr_list *list = test->priv;
	unsigned int i;

	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, pp_attr_list_add(list, &test_attrs[i]), 0);
	KUNIT_EXPECT_EQ(test, pp_attr_list_del(list, &test_attrs[2]), 0);
	expect_list(test, list, expect, 4);
	KUNIT_EXPECT_EQ(test, pp_attr_list_del(list, &test_attrs[2]), -ENOENT);
	expect_list(test, list, expect, 4);
}

/* A removed name can come back (at the end). */
static void pp_attr_list_test_readd(struct kunit *test)
{
	struct attribute *expect[] = {
		&test_attrs[0], &test_attrs[2], &test_attrs[1],
	};
	struct pp_attr_list *list = test->priv;
	unsigned int i;

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, pp_attr_list_add(list, &test_attrs[i]), 0);
	KUNIT_EXPECT_EQ(test, pp_attr_list_del(list, &test_attrs[1]), 0);
	KUNIT_EXPECT_EQ(test, pp_attr_list_add(list, &test_attrs[1]), 0);
	expect_list(test, list, expect, 3);
}

/* A failed grow returns -ENOMEM and changes nothing. */
static void pp_attr_list_test_add_enomem(struct kunit *test)
{
	struct attribute *expect[N_ATTRS];
	struct pp_attr_list *list = test->priv;
	struct attribute **before;
	unsigned int i, cap;

	for (i = 0; i < list->cap; i++) {
		KUNIT_ASSERT_EQ(test, pp_attr_list_add(list, &test_attrs[i]), 0);
		expect[i] = &test_attrs[i];
	}
	before = list->attrs;
	cap = list->cap;
	fail_realloc = true;
	KUNIT_EXPECT_EQ(test, pp_attr_list_add(list, &test_attrs[i]), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, list->attrs, before);
	KUNIT_EXPECT_EQ(test, list->cap, cap);
	expect_list(test, list, expect, cap);

	fail_realloc = false;
	KUNIT_EXPECT_EQ(test, pp_attr_list_add(list, &test_attrs[i]), 0);
	expect[i] = &test_attrs[i];
	expect_list(test, list, expect, cap + 1);
}

/* A failed shrink keeps the larger array and a correct list. */
static void pp_attr_list_test_del_enomem(struct kunit *test)
{
	struct attribute *expect[N_ATTRS];
	struct pp_attr_list *list = test->priv;
	unsigned int i, cap;

	for (i = 0; i < 32; i++)
		KUNIT_ASSERT_EQ(test, pp_attr_list_add(list, &test_attrs[i]), 0);
	cap = list->cap;
	fail_realloc = true;
	for (i = 31; i >= 4; i--)
		KUNIT_ASSERT_EQ(test, pp_attr_list_del(list, &test_attrs[i]), 0);
	for (i = 0; i < 4; i++)
		expect[i] = &test_attrs[i];
	expect_list(test, list, expect, 4);
	KUNIT_EXPECT_EQ(test, list->cap, cap);
}

static void pp_attr_list_test_init_enomem(struct kunit *test)
{
	struct pp_attr_list list = { .realloc = test_realloc };

	fail_realloc = true;
	KUNIT_EXPECT_EQ(test, pp_attr_list_init(&list), -ENOMEM);
	KUNIT_EXPECT_NULL(test, list.attrs);
}

static struct kunit_case pp_attr_list_test_cases[] = {
	KUNIT_CASE(pp_attr_list_test_empty),
	KUNIT_CASE(pp_attr_list_test_grow_shrink),
	KUNIT_CASE(pp_attr_list_test_del_middle),
	KUNIT_CASE(pp_attr_list_test_readd),
	KUNIT_CASE(pp_attr_list_test_add_enomem),
	KUNIT_CASE(pp_attr_list_test_del_enomem),
	KUNIT_CASE(pp_attr_list_test_init_enomem),
	{}
};

static struct kunit_suite pp_attr_list_test_suite = {
	.name = "perf_persistent_attr_list",
	.init = attr_list_init,
	.exit = attr_list_exit,
	.test_cases = pp_attr_list_test_cases,
};

kunit_test_suites(&pp_attr_list_test_suite);

MODULE_LICENSE("GPL");
