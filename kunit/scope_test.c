// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for scopes (module/scope.c): the attr rules a task scope
 * adds to perf_event_create_kernel_counter(), the targets CREATE accepts
 * and refuses, and when a target process counts as exited.
 */
#include <kunit/test.h>

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/sched.h>

#include "../module/scope.h"

/*
 * A watchpoint's address may be relative to TASK_SIZE_MAX, which is not a
 * constant where the kernel chooses 4- or 5-level paging at boot: when
 * at_top is set, bp_addr is TASK_SIZE_MAX plus top_off.
 */
struct attr_case {
	const char	*what;
	u32		kind;
	struct perf_event_attr attr;
	bool		at_top;
	int		top_off;
	int		want;
};

#define TASK	PERF_PERSISTENT_SCOPE_TASK
#define CPUS	PERF_PERSISTENT_SCOPE_CPUS
#define CGROUP	PERF_PERSISTENT_SCOPE_CGROUP

static const struct attr_case attr_cases[] = {
	{ "plain, every scope", CPUS, {}, .want = 0 },
	{ "plain task", TASK, {}, .want = 0 },
	{ "inherit", TASK, { .inherit = 1 }, .want = 0 },
	{ "inherit_thread", TASK, { .inherit = 1, .inherit_thread = 1 },
	  .want = 0 },
	{ "inherit_thread alone", TASK, { .inherit_thread = 1 },
	  .want = -EINVAL },
	{ "inherit on CPUs: ignored, as perf does", CPUS, { .inherit = 1 },
	  .want = 0 },
	{ "remove_on_exec", TASK, { .remove_on_exec = 1 }, .want = 0 },
	{ "enable_on_exec", TASK, { .enable_on_exec = 1 }, .want = 0 },
	{ "remove and enable on exec", TASK,
	  { .remove_on_exec = 1, .enable_on_exec = 1 }, .want = -EINVAL },
	{ "sigtrap with remove_on_exec", TASK,
	  { .sigtrap = 1, .remove_on_exec = 1 }, .want = 0 },
	{ "sigtrap alone", TASK, { .sigtrap = 1 }, .want = -EINVAL },
	{ "sigtrap on CPUs", CPUS, { .sigtrap = 1, .remove_on_exec = 1 },
	  .want = -EINVAL },
	{ "sigtrap in a cgroup", CGROUP, { .sigtrap = 1, .remove_on_exec = 1 },
	  .want = -EINVAL },
	{ "enable_on_exec on CPUs", CPUS, { .enable_on_exec = 1 },
	  .want = -EINVAL },
	{ "remove_on_exec in a cgroup", CGROUP, { .remove_on_exec = 1 },
	  .want = -EINVAL },
	{ "inherited user watchpoint", TASK,
	  { .type = PERF_TYPE_BREAKPOINT, .inherit = 1, .bp_addr = 0x1000,
	    .bp_len = 8 }, .want = 0 },
	{ "inherited kernel watchpoint", TASK,
	  { .type = PERF_TYPE_BREAKPOINT, .inherit = 1, .bp_len = 8 },
	  .at_top = true, .top_off = 0, .want = -EINVAL },
	{ "inherited watchpoint across the boundary", TASK,
	  { .type = PERF_TYPE_BREAKPOINT, .inherit = 1, .bp_len = 8 },
	  .at_top = true, .top_off = -4, .want = -EINVAL },
	{ "kernel watchpoint, not inherited", TASK,
	  { .type = PERF_TYPE_BREAKPOINT, .bp_len = 8 },
	  .at_top = true, .top_off = 0, .want = 0 },
};

static void pp_scope_test_attr_rules(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(attr_cases); i++) {
		const struct attr_case *c = &attr_cases[i];
		struct pp_scope s = { .kind = c->kind };
		struct perf_event_attr attr = c->attr;

		if (c->at_top)
			attr.bp_addr = TASK_SIZE_MAX + c->top_off;
		KUNIT_EXPECT_EQ_MSG(test, pp_scope_attr_check(&s, &attr),
				    c->want, "%s", c->what);
	}
}

static void pp_scope_test_resolve_refusals(struct kunit *test)
{
	struct pp_scope s = {};

	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, 3, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, CPUS, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, CPUS, 0, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, TASK, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, TASK, -1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, TASK, current->pid, 16),
			-EINVAL);
	/* Above PID_MAX_LIMIT: never a pid. */
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, TASK, PID_MAX_LIMIT + 1, 0),
			-ESRCH);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, CGROUP, -1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, CGROUP, -2, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, pp_scope_resolve(&s, CGROUP, 0, 16), -EINVAL);
	/* Nothing taken by any refusal. */
	KUNIT_EXPECT_NULL(test, s.pid);
	KUNIT_EXPECT_NULL(test, s.cgrp);
}

static void pp_scope_test_cpus(struct kunit *test)
{
	struct pp_scope s = {};
	char buf[64];

	KUNIT_ASSERT_EQ(test, pp_scope_resolve(&s, CPUS, 0, 0), 0);
	KUNIT_EXPECT_FALSE(test, pp_scope_exited(&s));
	KUNIT_EXPECT_TRUE(test, pp_scope_admits(&s));
	KUNIT_EXPECT_EQ(test, pp_scope_target_vnr(&s), 0);
	KUNIT_EXPECT_EQ(test, pp_scope_cgroup_id(&s), 0);
	pp_scope_show(&s, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "cpus\n");
	pp_scope_put(&s);
}

static int idle_thread(void *unused)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/*
 * A thread's pid names its process; the process counts as exited once
 * it is gone, and shows so.
 */
static void pp_scope_test_task_exit(struct kunit *test)
{
	struct task_struct *t;
	struct pp_scope s = {};
	char buf[64], want[64];
	int i;

	t = kthread_run(idle_thread, NULL, "pp-scope-test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	KUNIT_ASSERT_EQ(test, pp_scope_resolve(&s, TASK, task_pid_vnr(t), 0), 0);
	KUNIT_EXPECT_PTR_EQ(test, s.pid, task_tgid(t));
	KUNIT_EXPECT_EQ(test, pp_scope_target_vnr(&s), task_pid_vnr(t));
	KUNIT_EXPECT_FALSE(test, pp_scope_exited(&s));
	snprintf(want, sizeof(want), "task %d\n", task_pid_vnr(t));
	pp_scope_show(&s, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, want);

	kthread_stop(t);
	/* kthread_stop() returns before the exit is complete: wait for it. */
	for (i = 0; i < 500 && !pp_scope_exited(&s); i++)
		msleep(20);
	KUNIT_EXPECT_TRUE(test, pp_scope_exited(&s));
	snprintf(want, sizeof(want), "task %d exited\n", pp_scope_target_vnr(&s));
	pp_scope_show(&s, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, want);
	put_task_struct(t);
	pp_scope_put(&s);
	KUNIT_EXPECT_NULL(test, s.pid);
}

static struct kunit_case pp_scope_test_cases[] = {
	KUNIT_CASE(pp_scope_test_attr_rules),
	KUNIT_CASE(pp_scope_test_resolve_refusals),
	KUNIT_CASE(pp_scope_test_cpus),
	KUNIT_CASE(pp_scope_test_task_exit),
	{}
};

static struct kunit_suite pp_scope_test_suite = {
	.name = "perf_persistent_scope",
	.test_cases = pp_scope_test_cases,
};

kunit_test_suites(&pp_scope_test_suite);

MODULE_LICENSE("GPL");
