// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the parser of region= (module/region.c): both spellings,
 * and every way a parameter is refused.
 */
#include <kunit/test.h>

#include <linux/mm.h>
#include <linux/sizes.h>

#include "../module/region.h"

static void pp_region_test_by_place(struct kunit *test)
{
	struct pp_region_spec spec;

	KUNIT_ASSERT_EQ(test, pp_region_parse("2M@0x20000000", &spec), 0);
	KUNIT_EXPECT_EQ(test, spec.size, (u64)SZ_2M);
	KUNIT_EXPECT_EQ(test, spec.start, (phys_addr_t)0x20000000);
	KUNIT_EXPECT_STREQ(test, spec.label, "");

	/* Suffixes on the address too, as crashkernel= takes them. */
	KUNIT_ASSERT_EQ(test, pp_region_parse("1G@4G", &spec), 0);
	KUNIT_EXPECT_EQ(test, spec.size, (u64)SZ_1G);
	KUNIT_EXPECT_EQ(test, spec.start, (phys_addr_t)SZ_4G);

	KUNIT_ASSERT_EQ(test, pp_region_parse("16384@8192", &spec), 0);
	KUNIT_EXPECT_EQ(test, spec.size, (u64)16384);
	KUNIT_EXPECT_EQ(test, spec.start, (phys_addr_t)8192);
}

static void pp_region_test_by_label(struct kunit *test)
{
	struct pp_region_spec spec;

	KUNIT_ASSERT_EQ(test, pp_region_parse("pp", &spec), 0);
	KUNIT_EXPECT_STREQ(test, spec.label, "pp");
	KUNIT_EXPECT_EQ(test, spec.size, 0ULL);

	/* The longest label reserve_mem keeps: 15 characters. */
	KUNIT_ASSERT_EQ(test, pp_region_parse("flight_rec-0123", &spec), 0);
	KUNIT_EXPECT_STREQ(test, spec.label, "flight_rec-0123");
}

static void pp_region_test_refused(struct kunit *test)
{
	static const char * const bad[] = {
		"",			/* empty */
		"2M",			/* no address */
		"2M@",			/* an empty address */
		"2M@x",			/* an address that is not a number */
		"2M@0x20000000,",	/* something after the address */
		"2M 0x20000000",	/* no @ */
		"0@0x20000000",		/* no size */
		"3000@0x20000000",	/* a size not a multiple of pages */
		"2M@0x20000800",	/* an address not page-aligned */
		"8K@0xfffffffffffff000", /* wraps round the end */
		"flight_rec-01234",	/* a label of 16 characters */
		"p p",			/* a space in a label */
		"p/p",			/* a slash in a label */
		"p\n",			/* a newline in a label */
	};
	struct pp_region_spec spec;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, pp_region_parse(NULL, &spec), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, pp_region_parse(bad[i], &spec),
				    -EINVAL, "region=%s", bad[i]);
}

/* A region of 16 pages whose first (the header) is never handed out. */
static void pp_region_test_pages(struct kunit *test)
{
	struct pp_region r = {};

	KUNIT_ASSERT_EQ(test, pp_region_pages_init(&r, 16, 1), 0);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 0), -EINVAL);
	/* First fit, after the header. */
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 5), 1L);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 5), 6L);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 5), 11L);
	/* Full: the header's page is not handed out. */
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 1), -ENOSPC);
	/* A hole in the middle takes what fits in it, and no more. */
	pp_region_pages_free(&r, 6, 5);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 6), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 2), 6L);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 3), 8L);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 1), -ENOSPC);
	/* Everything back: one run of 15 again. */
	pp_region_pages_free(&r, 1, 5);
	pp_region_pages_free(&r, 6, 2);
	pp_region_pages_free(&r, 8, 3);
	pp_region_pages_free(&r, 11, 5);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 16), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pp_region_pages_alloc(&r, 15), 1L);
	pp_region_pages_exit(&r);

	/* A header as large as the region leaves nothing. */
	KUNIT_EXPECT_EQ(test, pp_region_pages_init(&r, 4, 4), -EINVAL);
}

static struct kunit_case pp_region_test_cases[] = {
	KUNIT_CASE(pp_region_test_by_place),
	KUNIT_CASE(pp_region_test_by_label),
	KUNIT_CASE(pp_region_test_refused),
	KUNIT_CASE(pp_region_test_pages),
	{}
};

static struct kunit_suite pp_region_test_suite = {
	.name = "perf_persistent_region",
	.test_cases = pp_region_test_cases,
};

kunit_test_suite(pp_region_test_suite);

MODULE_LICENSE("GPL");
