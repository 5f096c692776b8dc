// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the direct path's generated encoders (module/direct.c,
 * module/direct_events.c built with PP_DIRECT_NO_PROBES): the table covers
 * the tracepoints it names and no other; each encoder's payload has every
 * field of the kernel's own definition of its event, with its name, offset
 * and size (the kernel under test is the one the layouts were generated
 * from: the same TRACE_EVENT()s, read by other macros); the check that
 * guards the direct path refuses each kind of difference; which source
 * attrs may take the direct path; and the lookup of a tracepoint's
 * cgroup-scoped events by the running task's cgroup.
 */
#include <kunit/test.h>

#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/overflow.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/trace_events.h>

#include "../module/direct_rec.h"

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
#ifdef CONFIG_RAS
	{ "ras", "non_standard_event" },
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

/*
 * The hub of a tracepoint's cgroup-scoped events (direct.h): a lookup
 * from a cgroup finds the events scoped to it and to its ancestors, in the
 * order of their depth, whatever shares their bucket; the depths from the
 * hub's last level down share its bit.  Fake cgroups: a level, the
 * ancestors and a kernfs node for the id.
 */
static struct cgroup *hub_cgroup(struct kunit *test, struct cgroup *parent,
				 u64 id)
{
	int level = parent ? parent->level + 1 : 0;
	struct cgroup *cg = kunit_kzalloc(test, struct_size(cg, ancestors,
							      level + 1),
					  GFP_KERNEL);
	struct kernfs_node *kn = kunit_kzalloc(test, sizeof(*kn), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cg);
	KUNIT_ASSERT_NOT_NULL(test, kn);
	kn->id = id;
	cg->kn = kn;
	cg->level = level;
	if (parent)
		memcpy(cg->ancestors, parent->ancestors,
		       level * sizeof(cg->ancestors[0]));
	cg->ancestors[level] = cg;
	return cg;
}

static struct pp_event *hub_event(struct kunit *test, struct pp_direct_hub *hub,
				  struct cgroup *cg)
{
	struct pp_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->scope.kind = PERF_PERSISTENT_SCOPE_CGROUP;
	ev->scope.cgrp = cg;
	ev->dx.cgrp = cg;
	pp_direct_hub_insert(hub, &ev->dx);
	return ev;
}

/* The events a hit in @cg records into, in order, as a string of indexes. */
static const char *hub_lookup(struct kunit *test, struct pp_direct_hub *hub,
			      struct cgroup *cg, struct pp_event **evs,
			      unsigned int nr)
{
	char *out = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct pp_direct_hub_iter it;
	struct pp_event *ev;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, out);
	rcu_read_lock();
	for (ev = pp_direct_hub_first(hub, cg, &it); ev;
	     ev = pp_direct_hub_next(&it, ev))
		for (i = 0; i < nr; i++)
			if (evs[i] == ev)
				snprintf(out + strlen(out), 64 - strlen(out),
					 "%s%u", *out ? " " : "", i);
	rcu_read_unlock();
	return out;
}

static void pp_direct_test_hub(struct kunit *test)
{
	const unsigned int buckets = 1 << PP_DIRECT_HUB_BITS;
	struct pp_direct_hub *hub = kunit_kzalloc(test, sizeof(*hub), GFP_KERNEL);
	struct cgroup *root, *a, *b, *c, *d;
	struct pp_event *evs[5];

	KUNIT_ASSERT_NOT_NULL(test, hub);
	root = hub_cgroup(test, NULL, 1);
	a = hub_cgroup(test, root, 10);
	b = hub_cgroup(test, a, 11);
	c = hub_cgroup(test, root, 12);
	/* d shares a's bucket. */
	d = hub_cgroup(test, root, 10 + buckets);
	evs[0] = hub_event(test, hub, a);
	evs[1] = hub_event(test, hub, b);
	evs[2] = hub_event(test, hub, c);
	evs[3] = hub_event(test, hub, b);
	evs[4] = hub_event(test, hub, d);
	KUNIT_EXPECT_EQ(test, hub->levels, BIT(1) | BIT(2));

	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, root, evs, 5), "");
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, a, evs, 5), "0");
	/* The ancestor's first, then both of b's (the newest first). */
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, b, evs, 5), "0 3 1");
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, c, evs, 5), "2");
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, d, evs, 5), "4");

	pp_direct_hub_remove(hub, &evs[1]->dx);
	pp_direct_hub_remove(hub, &evs[3]->dx);
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, b, evs, 5), "0");
	KUNIT_EXPECT_EQ(test, hub->levels, BIT(1));
	pp_direct_hub_remove(hub, &evs[0]->dx);
	pp_direct_hub_remove(hub, &evs[2]->dx);
	pp_direct_hub_remove(hub, &evs[4]->dx);
	KUNIT_EXPECT_EQ(test, hub->levels, 0UL);
	KUNIT_EXPECT_EQ(test, hub->nr, 0U);
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, b, evs, 5), "");
}

/* Cgroups deeper than the hub's levels: the last bit stands for them all. */
static void pp_direct_test_hub_deep(struct kunit *test)
{
	struct pp_direct_hub *hub = kunit_kzalloc(test, sizeof(*hub), GFP_KERNEL);
	const int last = PP_DIRECT_HUB_LEVELS - 1;
	struct cgroup *chain[PP_DIRECT_HUB_LEVELS + 8];
	struct pp_event *evs[4];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, hub);
	chain[0] = hub_cgroup(test, NULL, 1);
	for (i = 1; i < ARRAY_SIZE(chain); i++)
		chain[i] = hub_cgroup(test, chain[i - 1], 100 + i);
	evs[0] = hub_event(test, hub, chain[2]);
	evs[1] = hub_event(test, hub, chain[last]);
	evs[2] = hub_event(test, hub, chain[last + 2]);
	evs[3] = hub_event(test, hub, chain[last + 6]);
	KUNIT_EXPECT_EQ(test, hub->levels, BIT(2) | BIT(last));

	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, chain[last + 7], evs, 4),
			   "0 1 2 3");
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, chain[last + 3], evs, 4),
			   "0 1 2");
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, chain[last], evs, 4),
			   "0 1");
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, chain[last - 1], evs, 4),
			   "0");
	/* The last bit stays while any of the deep ones is left. */
	pp_direct_hub_remove(hub, &evs[1]->dx);
	pp_direct_hub_remove(hub, &evs[2]->dx);
	KUNIT_EXPECT_EQ(test, hub->levels, BIT(2) | BIT(last));
	KUNIT_EXPECT_STREQ(test, hub_lookup(test, hub, chain[last + 7], evs, 4),
			   "0 3");
	pp_direct_hub_remove(hub, &evs[3]->dx);
	KUNIT_EXPECT_EQ(test, hub->levels, BIT(2));
	pp_direct_hub_remove(hub, &evs[0]->dx);
}

static struct kunit_case pp_direct_test_cases[] = {
	KUNIT_CASE(pp_direct_test_table),
	KUNIT_CASE(pp_direct_test_layouts),
	KUNIT_CASE(pp_direct_test_layout_check),
	KUNIT_CASE(pp_direct_test_attr),
	KUNIT_CASE(pp_direct_test_hub),
	KUNIT_CASE(pp_direct_test_hub_deep),
	{}
};

static struct kunit_suite pp_direct_test_suite = {
	.name = "perf_persistent_direct",
	.test_cases = pp_direct_test_cases,
};

kunit_test_suites(&pp_direct_test_suite);

MODULE_LICENSE("GPL");
