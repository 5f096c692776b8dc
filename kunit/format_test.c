// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the attr<num>:<mask> format terms (module/format.c).
 *
 * Covers rendering in both spellings, parsing of both, the round trip
 * between them, and moving values into and out of struct perf_event_attr.
 * Pure logic: nothing here touches the PMU or sysfs.
 */
#include <kunit/test.h>

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>

#include "../module/format.h"

static const struct pp_format_term term_id = {
	.name = "id", .word = PP_ATTR_WORD_CONFIG, .mask = GENMASK_ULL(31, 0),
};

/* Two ranges and a single bit, in config1. */
static const struct pp_format_term term_split = {
	.name = "split", .word = PP_ATTR_WORD_CONFIG1,
	.mask = GENMASK_ULL(3, 0) | GENMASK_ULL(11, 8) | BIT_ULL(63),
};

/* Bit 23 of the flags word: the seed's "attr5:23". */
static const struct pp_format_term term_flag = {
	.name = "flag", .word = 5, .mask = BIT_ULL(23),
};

static void pp_format_test_attr_spelling(struct kunit *test)
{
	char buf[PP_FORMAT_MAX_LEN];

	KUNIT_EXPECT_EQ(test, pp_format_attr_spelling(&term_id, buf, sizeof(buf)), 10);
	KUNIT_EXPECT_STREQ(test, buf, "attr1:0-31");
	KUNIT_EXPECT_GT(test, pp_format_attr_spelling(&term_split, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "attr7:0-3,8-11,63");
	KUNIT_EXPECT_GT(test, pp_format_attr_spelling(&term_flag, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "attr5:23");
}

static void pp_format_test_perf_spelling(struct kunit *test)
{
	const struct pp_format_term c2 = { "c2", PP_ATTR_WORD_CONFIG2, BIT_ULL(0) };
	char buf[PP_FORMAT_MAX_LEN];

	KUNIT_EXPECT_GT(test, pp_format_perf_spelling(&term_id, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "config:0-31");
	KUNIT_EXPECT_GT(test, pp_format_perf_spelling(&term_split, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "config1:0-3,8-11,63");
	KUNIT_EXPECT_GT(test, pp_format_perf_spelling(&c2, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "config2:0");
}

/* A word perf 6.1 cannot name must not be published in its spelling. */
static void pp_format_test_perf_spelling_unnamed_word(struct kunit *test)
{
	char buf[PP_FORMAT_MAX_LEN];

	KUNIT_EXPECT_EQ(test, pp_format_perf_spelling(&term_flag, buf, sizeof(buf)),
			-EOPNOTSUPP);
}

/* The attr's words: its size grows with the kernel (136 bytes in 6.1). */
#define ATTR_WORDS	(sizeof(struct perf_event_attr) / sizeof(u64))

static void pp_format_test_spelling_invalid_term(struct kunit *test)
{
	const struct pp_format_term no_bits = { "z", PP_ATTR_WORD_CONFIG, 0 };
	const struct pp_format_term past_end = { "p", ATTR_WORDS, 1 };
	char buf[PP_FORMAT_MAX_LEN];

	KUNIT_EXPECT_EQ(test, pp_format_attr_spelling(&no_bits, buf, sizeof(buf)), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_format_perf_spelling(&no_bits, buf, sizeof(buf)), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_format_attr_spelling(&past_end, buf, sizeof(buf)), -EINVAL);
}

/* Every bit set on its own is the longest rendering; it must fit the bound. */
static void pp_format_test_spelling_longest(struct kunit *test)
{
	const struct pp_format_term alt = { "alt", 15, 0x5555555555555555ULL };
	char buf[PP_FORMAT_MAX_LEN];
	int n;

	n = pp_format_attr_spelling(&alt, buf, sizeof(buf));
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_EQ(test, n, (int)strlen(buf));
	KUNIT_EXPECT_TRUE(test, str_has_prefix(buf, "attr15:0,2,4,"));
}

static void pp_format_test_spelling_small_buffer(struct kunit *test)
{
	char buf[8];

	/* "attr1:0-31" needs 11 bytes; "attr1:" fits, the bits do not. */
	KUNIT_EXPECT_EQ(test, pp_format_attr_spelling(&term_id, buf, sizeof(buf)), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pp_format_attr_spelling(&term_id, buf, 4), -ENOSPC);
	KUNIT_EXPECT_EQ(test, pp_format_attr_spelling(&term_id, buf, 0), -ENOSPC);
}

static void pp_format_test_parse_attr(struct kunit *test)
{
	unsigned int word = 0;
	u64 mask = 0;

	KUNIT_EXPECT_EQ(test, pp_format_parse("attr5:23", &word, &mask), 0);
	KUNIT_EXPECT_EQ(test, word, 5U);
	KUNIT_EXPECT_EQ(test, mask, BIT_ULL(23));

	KUNIT_EXPECT_EQ(test, pp_format_parse("attr7:0-3,8-11,63\n", &word, &mask), 0);
	KUNIT_EXPECT_EQ(test, word, 7U);
	KUNIT_EXPECT_EQ(test, mask, term_split.mask);

	KUNIT_EXPECT_EQ(test, pp_format_parse("attr15:0-63", &word, &mask), 0);
	KUNIT_EXPECT_EQ(test, word, 15U);
	KUNIT_EXPECT_EQ(test, mask, ~0ULL);
}

static void pp_format_test_parse_config(struct kunit *test)
{
	unsigned int word = 0;
	u64 mask = 0;

	KUNIT_EXPECT_EQ(test, pp_format_parse("config:0-31", &word, &mask), 0);
	KUNIT_EXPECT_EQ(test, word, (unsigned int)PP_ATTR_WORD_CONFIG);
	KUNIT_EXPECT_EQ(test, mask, GENMASK_ULL(31, 0));
	KUNIT_EXPECT_EQ(test, pp_format_parse("config1:4", &word, &mask), 0);
	KUNIT_EXPECT_EQ(test, word, (unsigned int)PP_ATTR_WORD_CONFIG1);
	KUNIT_EXPECT_EQ(test, mask, BIT_ULL(4));
	KUNIT_EXPECT_EQ(test, pp_format_parse("config2:1-2", &word, &mask), 0);
	KUNIT_EXPECT_EQ(test, word, (unsigned int)PP_ATTR_WORD_CONFIG2);
	KUNIT_EXPECT_EQ(test, mask, GENMASK_ULL(2, 1));
}

/* Each malformed definition fails and leaves the outputs untouched. */
static void pp_format_test_parse_rejects(struct kunit *test)
{
	static const char *const bad[] = {
		"", "attr", "attr:1", "attr1", "attr1:", "attr1:-3", "attr1:3-",
		"attr1:5-4", "attr1:64", "attr1:0-64", "attr1:1,",
		"attr1:1,,2", "attr1:1 ", "attr1:1\n\n", "config3:0", "config:x",
		"confi:0", "attr99999999999:0", "attr1:99999999999", " attr1:0",
	};
	unsigned int i, word = 77;
	u64 mask = 77;
	char last[16], past[16];

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, pp_format_parse(bad[i], &word, &mask),
				    -EINVAL, "input \"%s\"", bad[i]);
	/* The word after the attr's last. */
	snprintf(past, sizeof(past), "attr%zu:0", ATTR_WORDS);
	KUNIT_EXPECT_EQ_MSG(test, pp_format_parse(past, &word, &mask), -EINVAL,
			    "input \"%s\"", past);
	KUNIT_EXPECT_EQ(test, word, 77U);
	KUNIT_EXPECT_EQ(test, mask, 77ULL);
	/* The attr's last word is one. */
	snprintf(last, sizeof(last), "attr%zu:0", ATTR_WORDS - 1);
	KUNIT_EXPECT_EQ(test, pp_format_parse(last, &word, &mask), 0);
	KUNIT_EXPECT_EQ(test, word, (unsigned int)(ATTR_WORDS - 1));
}

/* Rendering then parsing gives back the term, in both spellings. */
static void pp_format_test_round_trip(struct kunit *test)
{
	const struct pp_format_term *terms[] = { &term_id, &term_split, &term_flag };
	char buf[PP_FORMAT_MAX_LEN];
	unsigned int i, word;
	u64 mask;

	for (i = 0; i < ARRAY_SIZE(terms); i++) {
		KUNIT_ASSERT_GT(test, pp_format_attr_spelling(terms[i], buf, sizeof(buf)), 0);
		KUNIT_EXPECT_EQ(test, pp_format_parse(buf, &word, &mask), 0);
		KUNIT_EXPECT_EQ(test, word, terms[i]->word);
		KUNIT_EXPECT_EQ(test, mask, terms[i]->mask);
		if (pp_format_perf_spelling(terms[i], buf, sizeof(buf)) < 0)
			continue;
		KUNIT_EXPECT_EQ(test, pp_format_parse(buf, &word, &mask), 0);
		KUNIT_EXPECT_EQ(test, word, terms[i]->word);
		KUNIT_EXPECT_EQ(test, mask, terms[i]->mask);
	}
}

static void pp_format_test_get_set_contiguous(struct kunit *test)
{
	struct perf_event_attr attr = { .config = 0xabcd000000000000ULL };

	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &term_id, 0x12345678), 0);
	/* bits outside the mask are kept */
	KUNIT_EXPECT_EQ(test, attr.config, 0xabcd000012345678ULL);
	KUNIT_EXPECT_EQ(test, pp_format_get(&attr, &term_id), 0x12345678ULL);
	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &term_id, 0), 0);
	KUNIT_EXPECT_EQ(test, attr.config, 0xabcd000000000000ULL);
}

/* Value bits go to the mask's set bits lowest first, as perf deposits them. */
static void pp_format_test_get_set_scattered(struct kunit *test)
{
	struct perf_event_attr attr = {};

	/* perf: split=0xff on config1:0-3,8-11 gives 0xf0f */
	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &term_split, 0xff), 0);
	KUNIT_EXPECT_EQ(test, attr.config1, 0xf0fULL);
	KUNIT_EXPECT_EQ(test, pp_format_get(&attr, &term_split), 0xffULL);

	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &term_split, 0x1a5), 0);
	KUNIT_EXPECT_EQ(test, attr.config1, BIT_ULL(63) | 0xa05ULL);
	KUNIT_EXPECT_EQ(test, pp_format_get(&attr, &term_split), 0x1a5ULL);
	KUNIT_EXPECT_EQ(test, attr.config, 0ULL);
	KUNIT_EXPECT_EQ(test, attr.config2, 0ULL);
}

static void pp_format_test_set_flag_word(struct kunit *test)
{
	struct perf_event_attr attr = {};

	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &term_flag, 1), 0);
	/* word 5 is the flags bit field; bit 23 there is mmap2 */
	KUNIT_EXPECT_TRUE(test, attr.mmap2);
	KUNIT_EXPECT_EQ(test, pp_format_get(&attr, &term_flag), 1ULL);
}

/* A value wider than the mask is refused and changes nothing. */
static void pp_format_test_set_range(struct kunit *test)
{
	const struct pp_format_term all = { "all", PP_ATTR_WORD_CONFIG2, ~0ULL };
	struct perf_event_attr attr = { .config = 7 };

	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &term_id, 1ULL << 32), -ERANGE);
	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &term_flag, 2), -ERANGE);
	KUNIT_EXPECT_EQ(test, attr.config, 7ULL);
	KUNIT_EXPECT_FALSE(test, attr.mmap2);
	KUNIT_EXPECT_EQ(test, pp_format_set(&attr, &all, ~0ULL), 0);
	KUNIT_EXPECT_EQ(test, attr.config2, ~0ULL);
	KUNIT_EXPECT_EQ(test, pp_format_get(&attr, &all), ~0ULL);
}

static void pp_format_test_covers(struct kunit *test)
{
	const struct pp_format_term *terms[] = { &term_id, &term_split };
	struct perf_event_attr attr = {};

	/* empty config is always covered */
	KUNIT_EXPECT_TRUE(test, pp_format_covers(&attr, terms, 2));
	attr.config = 0xffffffff;
	attr.config1 = 0xf0f;
	KUNIT_EXPECT_TRUE(test, pp_format_covers(&attr, terms, 2));
	attr.config = BIT_ULL(32);
	KUNIT_EXPECT_FALSE(test, pp_format_covers(&attr, terms, 2));
	attr.config = 0;
	attr.config1 = BIT_ULL(4);
	KUNIT_EXPECT_FALSE(test, pp_format_covers(&attr, terms, 2));
	attr.config1 = 0;
	attr.config2 = 1;
	KUNIT_EXPECT_FALSE(test, pp_format_covers(&attr, terms, 2));
	/* with no terms, any config bit is unknown */
	attr.config2 = 0;
	attr.config = 1;
	KUNIT_EXPECT_FALSE(test, pp_format_covers(&attr, terms, 0));
}

static struct kunit_case pp_format_test_cases[] = {
	KUNIT_CASE(pp_format_test_attr_spelling),
	KUNIT_CASE(pp_format_test_perf_spelling),
	KUNIT_CASE(pp_format_test_perf_spelling_unnamed_word),
	KUNIT_CASE(pp_format_test_spelling_invalid_term),
	KUNIT_CASE(pp_format_test_spelling_longest),
	KUNIT_CASE(pp_format_test_spelling_small_buffer),
	KUNIT_CASE(pp_format_test_parse_attr),
	KUNIT_CASE(pp_format_test_parse_config),
	KUNIT_CASE(pp_format_test_parse_rejects),
	KUNIT_CASE(pp_format_test_round_trip),
	KUNIT_CASE(pp_format_test_get_set_contiguous),
	KUNIT_CASE(pp_format_test_get_set_scattered),
	KUNIT_CASE(pp_format_test_set_flag_word),
	KUNIT_CASE(pp_format_test_set_range),
	KUNIT_CASE(pp_format_test_covers),
	{}
};

static struct kunit_suite pp_format_test_suite = {
	.name = "perf_persistent_format",
	.test_cases = pp_format_test_cases,
};

kunit_test_suites(&pp_format_test_suite);

MODULE_LICENSE("GPL");
