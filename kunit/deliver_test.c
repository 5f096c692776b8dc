// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the pacing of deliveries to readers
 * (pp_deliver_delay() in module/reader.h): a run never queues
 * itself again at once, an interrupted writer is left to queue the next
 * run, records left are paced, and the delivery's own interrupts cannot
 * keep the timer going on an idle CPU.
 */
#include <kunit/test.h>

#include "../module/reader.h"

/* Stopped at an interrupted writer: its commit queues the next run. */
static void pp_deliver_test_writer(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, pp_deliver_delay(PP_WRITER, 0, false, false), 0ULL);
	KUNIT_EXPECT_EQ(test, pp_deliver_delay(PP_WRITER, 0, true, true), 0ULL);
	/* What it delivered before: the records that follow go together. */
	KUNIT_EXPECT_EQ(test, pp_deliver_delay(PP_WRITER, 3, false, false),
			(u64)PP_COALESCE_NS);
}

/*
 * Records left after the budget, or no recursion slot: a timer, never a
 * run at once (a source fired by each delivered record would be fed for
 * good, a hard lockup).
 */
static void pp_deliver_test_records_left(struct kunit *test)
{
	unsigned int i;

	/* Each of by_timer and fed, false and true. */
	for (i = 0; i < 4; i++) {
		bool by_timer = i & 1, fed = i & 2;
		u64 budget = pp_deliver_delay(PP_BUDGET, PP_DELIVER_BUDGET,
					      by_timer, fed);
		u64 no_slot = pp_deliver_delay(PP_NO_SLOT, 0, by_timer, fed);

		KUNIT_EXPECT_EQ(test, budget, (u64)PP_PACE_NS);
		KUNIT_EXPECT_EQ(test, no_slot, (u64)PP_PACE_NS);
	}
}

/* A run that delivered sets the timer; one with nothing to do does not. */
static void pp_deliver_test_coalesce(struct kunit *test)
{
	u64 delay;

	KUNIT_EXPECT_EQ(test, pp_deliver_delay(PP_CAUGHT_UP, 1, false, false),
			(u64)PP_COALESCE_NS);
	KUNIT_EXPECT_EQ(test, pp_deliver_delay(PP_CAUGHT_UP, 0, false, false), 0ULL);
	/* Records stored during the run: their writers did not queue one. */
	KUNIT_EXPECT_EQ(test, pp_deliver_delay(PP_CAUGHT_UP, 0, false, true),
			(u64)PP_COALESCE_NS);
	/* A steady stream keeps the timer going, one run per period. */
	delay = pp_deliver_delay(PP_CAUGHT_UP, PP_SELF_FED_MAX + 1, true, false);
	KUNIT_EXPECT_EQ(test, delay, (u64)PP_COALESCE_NS);
}

/*
 * An idle CPU with a reader of its timer interrupt's tracepoints: one real
 * record, then each timer run delivers only what the timer's own interrupt
 * recorded (four records).  The timer is set once, then never again.
 */
static void pp_deliver_test_self_fed(struct kunit *test)
{
	unsigned int runs, timers = 0;
	u64 delay;

	delay = pp_deliver_delay(PP_CAUGHT_UP, 1, false, false);
	for (runs = 0; delay && runs < 100; runs++) {
		timers++;
		delay = pp_deliver_delay(PP_CAUGHT_UP, 4, true, false);
	}
	KUNIT_EXPECT_EQ(test, timers, 1U);

	/* Its records during the run too: still no timer. */
	KUNIT_EXPECT_EQ(test, pp_deliver_delay(PP_CAUGHT_UP, PP_SELF_FED_MAX,
					       true, true), 0ULL);
}

static struct kunit_case pp_deliver_test_cases[] = {
	KUNIT_CASE(pp_deliver_test_writer),
	KUNIT_CASE(pp_deliver_test_records_left),
	KUNIT_CASE(pp_deliver_test_coalesce),
	KUNIT_CASE(pp_deliver_test_self_fed),
	{}
};

static struct kunit_suite pp_deliver_test_suite = {
	.name = "perf_persistent_deliver",
	.test_cases = pp_deliver_test_cases,
};

kunit_test_suites(&pp_deliver_test_suite);

MODULE_LICENSE("GPL");
