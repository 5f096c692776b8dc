// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the registry of persistent events (module/registry.c):
 * names, unique ids, ownership changes and every lifetime path of the
 * reference count, including destroy while readers hold references.
 *
 * Entries here are bare struct pp_entry with a release function that
 * counts; the suite does not check concurrent use.
 */
#include <kunit/test.h>

#include <linux/string.h>

#include "../module/registry.h"

struct test_entry {
	struct pp_entry entry;
	int *released;
};

static void test_release(struct pp_entry *entry)
{
	(*container_of(entry, struct test_entry, entry)->released)++;
}

/* Files are only compared by address. */
static const int file_a, file_b;
#define FA ((const void *)&file_a)
#define FB ((const void *)&file_b)

struct registry_fixture {
	struct pp_registry reg;
	int released;
};

static int registry_init(struct kunit *test)
{
	struct registry_fixture *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);

	if (!fx)
		return -ENOMEM;
	pp_registry_init(&fx->reg);
	test->priv = fx;
	return 0;
}

static void registry_exit(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	LIST_HEAD(left);

	mutex_lock(&fx->reg.lock);
	pp_registry_take_all(&fx->reg, &left);
	mutex_unlock(&fx->reg.lock);
	pp_registry_destroy(&fx->reg);
}

/* Create and publish an entry; NULL on failure with *err set. */
static struct pp_entry *add(struct kunit *test, const char *name,
			    const void *file, int *err)
{
	struct registry_fixture *fx = test->priv;
	struct test_entry *te = kunit_kzalloc(test, sizeof(*te), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, te);
	strscpy(te->entry.name, name, sizeof(te->entry.name));
	te->entry.release = test_release;
	te->released = &fx->released;
	mutex_lock(&fx->reg.lock);
	ret = pp_registry_reserve(&fx->reg, &te->entry, file);
	if (!ret)
		pp_registry_publish(&fx->reg, &te->entry);
	mutex_unlock(&fx->reg.lock);
	if (err)
		*err = ret;
	return ret ? NULL : &te->entry;
}

static int unlist(struct kunit *test, struct pp_entry *e, const void *file)
{
	struct registry_fixture *fx = test->priv;
	int ret;

	mutex_lock(&fx->reg.lock);
	ret = pp_entry_unlist(&fx->reg, e, file);
	mutex_unlock(&fx->reg.lock);
	return ret;
}

static void pp_registry_test_names(struct kunit *test)
{
	static const char *const good[] = {
		"mce_record", "a", "sched_switch", "x86_tlb", "r", "rxyz",
		"abcdefghijklmnopqrstuvwxyz01234",
	};
	static const char *const bad[] = {
		"", "Mce", "mce-record", "1abc", "_abc", "a b", "a.b", "period",
		"config", "config1", "name", "id", "r1", "rab", "read",
		"abcdefghijklmnopqrstuvwxyz012345", "caf\xc3\xa9", "caf\xe9",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_TRUE_MSG(test, pp_name_valid(good[i]), "%s", good[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_FALSE_MSG(test, pp_name_valid(bad[i]), "%s", bad[i]);
}

/* Ids count up from 1 and are never handed out twice. */
static void pp_registry_test_ids_unique(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *a, *b, *c;

	a = add(test, "a", NULL, NULL);
	b = add(test, "b", NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, a->id, 1U);
	KUNIT_EXPECT_EQ(test, b->id, 2U);
	KUNIT_EXPECT_EQ(test, unlist(test, b, NULL), 0);
	pp_entry_put(b);
	KUNIT_EXPECT_EQ(test, fx->released, 1);
	/* the freed id 2 and its name come back only as a new id */
	c = add(test, "b", NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->id, 3U);
}

/*
 * A cancelled reservation was never visible: its id goes back, unless a
 * later id was handed out meanwhile, and published ids never come back.
 */
static void pp_registry_test_cancel(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry e = { .name = "x" }, g = { .name = "y" }, *f;

	mutex_lock(&fx->reg.lock);
	KUNIT_EXPECT_EQ(test, pp_registry_reserve(&fx->reg, &e, NULL), 0);
	/* reserved, not published: invisible */
	KUNIT_EXPECT_NULL(test, pp_registry_find(&fx->reg, e.id, NULL));
	KUNIT_EXPECT_NULL(test, pp_registry_find(&fx->reg, 0, "x"));
	pp_registry_cancel(&fx->reg, &e);
	mutex_unlock(&fx->reg.lock);
	KUNIT_EXPECT_NULL(test, pp_registry_get(&fx->reg, e.id));
	f = add(test, "x", NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->id, e.id);

	/* reserve g, publish another, cancel g: g's id stays used up */
	mutex_lock(&fx->reg.lock);
	KUNIT_EXPECT_EQ(test, pp_registry_reserve(&fx->reg, &g, NULL), 0);
	mutex_unlock(&fx->reg.lock);
	f = add(test, "z", NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	mutex_lock(&fx->reg.lock);
	pp_registry_cancel(&fx->reg, &g);
	mutex_unlock(&fx->reg.lock);
	f = add(test, "w", NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->id, g.id + 2);
}

/*
 * A reservation holds its name while its creator allocates unlocked: a
 * second creation of the name fails at once; publish or cancel ends it.
 */
static void pp_registry_test_reserved_name(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry e = { .name = "x" }, d = { .name = "x" };
	int err;

	mutex_lock(&fx->reg.lock);
	KUNIT_EXPECT_EQ(test, pp_registry_reserve(&fx->reg, &e, NULL), 0);
	KUNIT_EXPECT_EQ(test, pp_registry_reserve(&fx->reg, &d, NULL), -EEXIST);
	mutex_unlock(&fx->reg.lock);
	KUNIT_EXPECT_NULL(test, add(test, "x", NULL, &err));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);

	mutex_lock(&fx->reg.lock);
	pp_registry_cancel(&fx->reg, &e);
	mutex_unlock(&fx->reg.lock);
	KUNIT_EXPECT_NOT_NULL(test, add(test, "x", NULL, NULL));
	/* published: still taken */
	KUNIT_EXPECT_NULL(test, add(test, "x", NULL, &err));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
}

static void pp_registry_test_ids_exhausted(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *a;
	int err;

	fx->reg.next_id = U32_MAX;
	a = add(test, "last", NULL, &err);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->id, U32_MAX);
	KUNIT_EXPECT_NULL(test, add(test, "more", NULL, &err));
	KUNIT_EXPECT_EQ(test, err, -ENOSPC);
}

static void pp_registry_test_duplicate_and_bad_names(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, add(test, "dup", NULL, NULL));
	KUNIT_EXPECT_NULL(test, add(test, "dup", FA, &err));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	KUNIT_EXPECT_NULL(test, add(test, "Bad", NULL, &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_EXPECT_EQ(test, fx->reg.count, 1U);
}

static void pp_registry_test_find(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *a = add(test, "alpha", NULL, NULL);
	struct pp_entry *b = add(test, "beta", FA, NULL);

	mutex_lock(&fx->reg.lock);
	KUNIT_EXPECT_PTR_EQ(test, pp_registry_find(&fx->reg, a->id, NULL), a);
	KUNIT_EXPECT_PTR_EQ(test, pp_registry_find(&fx->reg, 0, "beta"), b);
	KUNIT_EXPECT_NULL(test, pp_registry_find(&fx->reg, 0, "gamma"));
	KUNIT_EXPECT_NULL(test, pp_registry_find(&fx->reg, 99, NULL));
	mutex_unlock(&fx->reg.lock);
}

/* Detach and attach move ownership; each wrong move has its errno. */
static void pp_registry_test_detach_attach(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *e = add(test, "e", FA, NULL);
	struct pp_registry *reg = &fx->reg;

	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->owner, PP_OWNER_FILE);
	mutex_lock(&reg->lock);
	KUNIT_EXPECT_EQ(test, pp_entry_detach(reg, e, FB), -EBUSY);
	KUNIT_EXPECT_EQ(test, pp_entry_attach(reg, e, FA), -EALREADY);
	KUNIT_EXPECT_EQ(test, pp_entry_attach(reg, e, FB), -EBUSY);
	KUNIT_EXPECT_EQ(test, pp_entry_detach(reg, e, FA), 0);
	KUNIT_EXPECT_EQ(test, e->owner, PP_OWNER_REGISTRY);
	KUNIT_EXPECT_EQ(test, pp_entry_detach(reg, e, FA), -EALREADY);
	KUNIT_EXPECT_EQ(test, pp_entry_detach(reg, e, FB), -EALREADY);
	KUNIT_EXPECT_EQ(test, pp_entry_attach(reg, e, FB), 0);
	KUNIT_EXPECT_EQ(test, e->owner, PP_OWNER_FILE);
	KUNIT_EXPECT_PTR_EQ(test, e->owner_file, FB);
	mutex_unlock(&reg->lock);
	/* ownership moves never touch the count */
	KUNIT_EXPECT_EQ(test, kref_read(&e->ref), 1U);
	KUNIT_EXPECT_EQ(test, fx->released, 0);
}

/* Only the owner (or anyone, once detached) may destroy. */
static void pp_registry_test_unlist_owner(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *e = add(test, "e", FA, NULL);

	KUNIT_EXPECT_EQ(test, unlist(test, e, FB), -EBUSY);
	KUNIT_EXPECT_EQ(test, unlist(test, e, NULL), -EBUSY);
	KUNIT_EXPECT_TRUE(test, e->listed);
	KUNIT_EXPECT_EQ(test, unlist(test, e, FA), 0);
	KUNIT_EXPECT_FALSE(test, e->listed);
	KUNIT_EXPECT_EQ(test, fx->reg.count, 0U);
	pp_entry_put(e);
	KUNIT_EXPECT_EQ(test, fx->released, 1);
}

/* Destroy with readers: unlisted at once, freed with the last reader. */
static void pp_registry_test_destroy_with_readers(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *e = add(test, "e", NULL, NULL), *r1, *r2;

	r1 = pp_registry_get(&fx->reg, e->id);
	r2 = pp_registry_get(&fx->reg, e->id);
	KUNIT_ASSERT_PTR_EQ(test, r1, e);
	KUNIT_ASSERT_PTR_EQ(test, r2, e);
	KUNIT_EXPECT_EQ(test, kref_read(&e->ref), 3U);

	KUNIT_EXPECT_EQ(test, unlist(test, e, NULL), 0);
	/* no lookup finds it any more, by id or by name */
	KUNIT_EXPECT_NULL(test, pp_registry_get(&fx->reg, e->id));
	mutex_lock(&fx->reg.lock);
	KUNIT_EXPECT_NULL(test, pp_registry_find(&fx->reg, 0, "e"));
	mutex_unlock(&fx->reg.lock);
	/* and its name is free again */
	KUNIT_EXPECT_NOT_NULL(test, add(test, "e", NULL, NULL));

	pp_entry_put(e);		/* the owner reference */
	KUNIT_EXPECT_EQ(test, fx->released, 0);
	pp_entry_put(r1);
	KUNIT_EXPECT_EQ(test, fx->released, 0);
	pp_entry_put(r2);
	KUNIT_EXPECT_EQ(test, fx->released, 1);
}

/* A reader of a live entry keeps it across many get/put pairs. */
static void pp_registry_test_reader_refs_balance(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *e = add(test, "e", NULL, NULL);
	unsigned int i;

	for (i = 0; i < 100; i++)
		KUNIT_ASSERT_NOT_NULL(test, pp_registry_get(&fx->reg, e->id));
	for (i = 0; i < 100; i++)
		pp_entry_put(e);
	KUNIT_EXPECT_EQ(test, kref_read(&e->ref), 1U);
	KUNIT_EXPECT_EQ(test, fx->released, 0);
	/* a count of zero is final: tryget refuses */
	KUNIT_EXPECT_EQ(test, unlist(test, e, NULL), 0);
	pp_entry_put(e);
	KUNIT_EXPECT_EQ(test, fx->released, 1);
	KUNIT_EXPECT_FALSE(test, pp_entry_tryget(e));
}

/* Releasing a file destroys what it owns and nothing else. */
static void pp_registry_test_take_file(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *a1 = add(test, "a1", FA, NULL);
	struct pp_entry *a2 = add(test, "a2", FA, NULL);
	struct pp_entry *b1 = add(test, "b1", FB, NULL);
	struct pp_entry *d = add(test, "d", NULL, NULL), *e, *tmp;
	LIST_HEAD(taken);

	mutex_lock(&fx->reg.lock);
	KUNIT_EXPECT_EQ(test, pp_registry_take_file(&fx->reg, FA, &taken), 2U);
	mutex_unlock(&fx->reg.lock);
	KUNIT_EXPECT_FALSE(test, a1->listed);
	KUNIT_EXPECT_FALSE(test, a2->listed);
	KUNIT_EXPECT_TRUE(test, b1->listed);
	KUNIT_EXPECT_TRUE(test, d->listed);
	list_for_each_entry_safe(e, tmp, &taken, node)
		pp_entry_put(e);
	KUNIT_EXPECT_EQ(test, fx->released, 2);
	KUNIT_EXPECT_EQ(test, fx->reg.count, 2U);
}

/* Module exit: detached entries are all taken and freed. */
static void pp_registry_test_teardown_detached(struct kunit *test)
{
	struct registry_fixture *fx = test->priv;
	struct pp_entry *e, *tmp, *reader;
	LIST_HEAD(all);
	unsigned int i;
	char name[8];

	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "e%u", i);
		KUNIT_ASSERT_NOT_NULL(test, add(test, name, NULL, NULL));
	}
	reader = pp_registry_get(&fx->reg, 5);
	KUNIT_ASSERT_NOT_NULL(test, reader);
	mutex_lock(&fx->reg.lock);
	KUNIT_EXPECT_EQ(test, pp_registry_take_all(&fx->reg, &all), 10U);
	mutex_unlock(&fx->reg.lock);
	KUNIT_EXPECT_EQ(test, fx->reg.count, 0U);
	list_for_each_entry_safe(e, tmp, &all, node)
		pp_entry_put(e);
	KUNIT_EXPECT_EQ(test, fx->released, 9);
	pp_entry_put(reader);
	KUNIT_EXPECT_EQ(test, fx->released, 10);
}

static struct kunit_case pp_registry_test_cases[] = {
	KUNIT_CASE(pp_registry_test_names),
	KUNIT_CASE(pp_registry_test_ids_unique),
	KUNIT_CASE(pp_registry_test_cancel),
	KUNIT_CASE(pp_registry_test_reserved_name),
	KUNIT_CASE(pp_registry_test_ids_exhausted),
	KUNIT_CASE(pp_registry_test_duplicate_and_bad_names),
	KUNIT_CASE(pp_registry_test_find),
	KUNIT_CASE(pp_registry_test_detach_attach),
	KUNIT_CASE(pp_registry_test_unlist_owner),
	KUNIT_CASE(pp_registry_test_destroy_with_readers),
	KUNIT_CASE(pp_registry_test_reader_refs_balance),
	KUNIT_CASE(pp_registry_test_take_file),
	KUNIT_CASE(pp_registry_test_teardown_detached),
	{}
};

static struct kunit_suite pp_registry_test_suite = {
	.name = "perf_persistent_registry",
	.init = registry_init,
	.exit = registry_exit,
	.test_cases = pp_registry_test_cases,
};

kunit_test_suites(&pp_registry_test_suite);

MODULE_LICENSE("GPL");
