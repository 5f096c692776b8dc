// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the direct path's generated encoders (module/direct.c,
 * module/direct_events.c built with PP_DIRECT_NO_PROBES): the table covers
 * the tracepoints it names and no other; each encoder's payload has every
 * field of the kernel's own definition of its event, with its name, offset
 * and size (the kernel under test is the one the layouts were generated
 * from: the same TRACE_EVENT()s, read by other macros); the check that
 * guards the direct path refuses each kind of difference; and which source
 * attrs may take the direct path.
 */
#include <kunit/test.h>

#include <linux/perf_event.h>
#include <linux/trace_events.h>

#include "../module/direct.h"

static const char *const covered[][2] = {
	{ "raw_syscalls", "sys_enter" }, { "raw_syscalls", "sys_exit" },
	{ "sched", "sched_switch" }, { "sched", "sched_wakeup" },
	{ "sched", "sched_process_exec" }, { "sched", "sched_process_exit" },
	{ "sched", "sched_process_fork" }, { "irq", "irq_handler_entry" },
	{ "irq", "irq_handler_exit" }, { "irq", "softirq_entry" },
	{ "irq", "softirq_exit" }, { "timer", "hrtimer_expire_entry" },
#ifdef CONFIG_X86_MCE
	{ "mce", "mce_record" },
#endif
};

/* Every covered tracepoint has an encoder; others, or a wrong system, none. */
static void pp_direct_test_table(struct kunit *test)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, pp_direct_nr_descs, ARRAY_SIZE(covered));
	for (i = 0; i < ARRAY_SIZE(covered); i++) {
		const struct pp_direct_desc *d =
			pp_direct_find(covered[i][0], covered[i][1]);

		KUNIT_ASSERT_NOT_NULL_MSG(test, d, "%s:%s", covered[i][0],
					  covered[i][1]);
		KUNIT_EXPECT_STREQ(test, d->name, covered[i][1]);
		KUNIT_EXPECT_STREQ(test, d->system, covered[i][0]);
		KUNIT_EXPECT_GE(test, d->raw_size, sizeof(struct trace_entry));
	}
	KUNIT_EXPECT_NULL(test, pp_direct_find("sched", "sched_migrate_task"));
	KUNIT_EXPECT_NULL(test, pp_direct_find("sched", "sys_enter"));
	KUNIT_EXPECT_NULL(test, pp_direct_find("", ""));
}

/*
 * Each encoder's payload against the running kernel's event: the kernel
 * lays out the fields of trace_event_class::fields_array one after the
 * other, each at its alignment.  Also: no field lies past the struct.
 */
static void pp_direct_test_layouts(struct kunit *test)
{
	unsigned int i, j, nr;
	char why[160];

	for (i = 0; i < pp_direct_nr_descs; i++) {
		const struct pp_direct_desc *d = pp_direct_descs[i];
		const struct pp_direct_field *f = d->fields(&nr);
		struct trace_event_file *file;
		int ret;

		file = trace_get_event_file(NULL, d->system, d->name);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "%s:%s: %ld",
				       d->system, d->name, PTR_ERR(file));
		why[0] = '\0';
		ret = pp_direct_layout_check(d,
					     file->event_call->class->fields_array,
					     why, sizeof(why));
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s:%s: %s", d->system,
				    d->name, why);
		trace_put_event_file(file);

		KUNIT_EXPECT_GT_MSG(test, nr, 0U, "%s", d->name);
		for (j = 0; j < nr; j++)
			KUNIT_EXPECT_LE_MSG(test, f[j].offset + f[j].size,
					    d->raw_size, "%s.%s", d->name,
					    f[j].name);
	}
}

/* sys_exit's fields as the kernel defines them: long id, long ret. */
#define LONG_FIELD(n)							\
	{ .type = "long", .name = (n), .size = sizeof(long),		\
	  .align = __alignof__(long), .is_signed = 1 }

static int check(const struct trace_event_fields *kernel, char *why,
		 size_t len)
{
	return pp_direct_layout_check(pp_direct_find("raw_syscalls", "sys_exit"),
				      kernel, why, len);
}

/* Each kind of difference is refused, and said. */
static void pp_direct_test_layout_check(struct kunit *test)
{
	const struct trace_event_fields same[] = {
		LONG_FIELD("id"), LONG_FIELD("ret"), {}
	};
	const struct trace_event_fields renamed[] = {
		LONG_FIELD("id"), LONG_FIELD("retval"), {}
	};
	const struct trace_event_fields narrower[] = {
		LONG_FIELD("id"),
		{ .type = "int", .name = "ret", .size = 4, .align = 4 },
		{}
	};
	/* An int before them moves both. */
	const struct trace_event_fields inserted[] = {
		{ .type = "int", .name = "flags", .size = 4, .align = 4 },
		LONG_FIELD("id"), LONG_FIELD("ret"), {}
	};
	const struct trace_event_fields fewer[] = { LONG_FIELD("id"), {} };
	const struct trace_event_fields more[] = {
		LONG_FIELD("id"), LONG_FIELD("ret"), LONG_FIELD("extra"), {}
	};
	const struct trace_event_fields by_code[] = {
		{ .type = TRACE_FUNCTION_TYPE }, {}
	};
	char why[160];

	KUNIT_EXPECT_EQ(test, check(same, why, sizeof(why)), 0);

	KUNIT_EXPECT_EQ(test, check(renamed, why, sizeof(why)), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why,
			   "field 1: the kernel's retval at 16, 8 bytes; the encoder's ret at 16, 8 bytes");
	KUNIT_EXPECT_EQ(test, check(narrower, why, sizeof(why)), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why,
			   "field 1: the kernel's ret at 16, 4 bytes; the encoder's ret at 16, 8 bytes");
	KUNIT_EXPECT_EQ(test, check(inserted, why, sizeof(why)), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why,
			   "field 0: the kernel's flags at 8, 4 bytes; the encoder's id at 8, 8 bytes");
	KUNIT_EXPECT_EQ(test, check(fewer, why, sizeof(why)), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why, "the encoder has 2 fields, the kernel 1");
	KUNIT_EXPECT_EQ(test, check(more, why, sizeof(why)), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why,
			   "field 2: the kernel's extra at 24, 8 bytes; the encoder's (none) at 0, 0 bytes");
	KUNIT_EXPECT_EQ(test, check(by_code, why, sizeof(why)), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why, "fields defined by code");
	KUNIT_EXPECT_EQ(test, check(NULL, why, sizeof(why)), -EPROTO);
	KUNIT_EXPECT_STREQ(test, why, "the encoder has 2 fields, the kernel 0");
}

/* The direct path records every hit: only sources perf samples at each. */
static void pp_direct_test_attr(struct kunit *test)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
	};
	struct perf_event_attr b;

	KUNIT_EXPECT_TRUE(test, pp_direct_attr_ok(&a));
	b = a;
	b.sample_period = 4;
	KUNIT_EXPECT_FALSE(test, pp_direct_attr_ok(&b));
	b.sample_type |= PERF_SAMPLE_PERIOD;
	KUNIT_EXPECT_TRUE(test, pp_direct_attr_ok(&b));
	b.freq = 1;
	KUNIT_EXPECT_FALSE(test, pp_direct_attr_ok(&b));
	b = a;
	b.sample_period = 0;
	KUNIT_EXPECT_FALSE(test, pp_direct_attr_ok(&b));
	b = a;
	b.exclude_kernel = 1;
	KUNIT_EXPECT_FALSE(test, pp_direct_attr_ok(&b));
	b = a;
	b.exclude_user = 1;
	KUNIT_EXPECT_TRUE(test, pp_direct_attr_ok(&b));
	b = a;
	b.type = PERF_TYPE_SOFTWARE;
	KUNIT_EXPECT_FALSE(test, pp_direct_attr_ok(&b));
}

static struct kunit_case pp_direct_test_cases[] = {
	KUNIT_CASE(pp_direct_test_table),
	KUNIT_CASE(pp_direct_test_layouts),
	KUNIT_CASE(pp_direct_test_layout_check),
	KUNIT_CASE(pp_direct_test_attr),
	{}
};

static struct kunit_suite pp_direct_test_suite = {
	.name = "perf_persistent_direct",
	.test_cases = pp_direct_test_cases,
};

kunit_test_suites(&pp_direct_test_suite);

MODULE_LICENSE("GPL");
