// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the pure parts of the profiles' mappings table: the
 * build-id among ELF notes (include/perf_persistent/elfnote.h, shared with
 * the tool) and the look-up of an address in a process's mappings
 * (module/maps.c).
 */
#include <kunit/test.h>

#include <linux/kernel.h>
#include <linux/string.h>

#include "perf_persistent/elfnote.h"
#include "../module/maps.h"

/* Append a note of @type named @name with @desc to @p at @off. */
static size_t put_note(u8 *p, size_t off, u32 type, const char *name,
		       const u8 *desc, u32 descsz)
{
	u32 namesz = strlen(name) + 1;

	memcpy(p + off, &namesz, 4);
	memcpy(p + off + 4, &descsz, 4);
	memcpy(p + off + 8, &type, 4);
	off += 12;
	memcpy(p + off, name, namesz);
	off += ALIGN(namesz, 4);
	memcpy(p + off, desc, descsz);
	return off + ALIGN(descsz, 4);
}

/* The build-id note found after another note, whatever comes after it. */
static void pp_maps_test_build_id(struct kunit *test)
{
	u8 notes[128] = {}, id[PP_BUILD_ID_MAX], want[20], other[6] = "Linux";
	size_t len;
	int i;

	for (i = 0; i < 20; i++)
		want[i] = 0xa0 + i;
	len = put_note(notes, 0, 6, "Linux", other, 6);
	len = put_note(notes, len, PP_NT_GNU_BUILD_ID, "GNU", want, 20);
	len = put_note(notes, len, 1, "GNU", other, 4);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, len, id), 20);
	KUNIT_EXPECT_EQ(test, memcmp(id, want, 20), 0);
	/* A shorter (MD5-sized) build-id is one too. */
	len = put_note(notes, 0, PP_NT_GNU_BUILD_ID, "GNU", want, 16);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, len, id), 16);
}

/* Notes without one, or cut short, or lying about their sizes: none. */
static void pp_maps_test_build_id_rejects(struct kunit *test)
{
	u8 notes[128] = {}, id[PP_BUILD_ID_MAX], desc[32] = {};
	size_t len;
	u32 huge = 0xfffffff0;

	len = put_note(notes, 0, PP_NT_GNU_BUILD_ID, "GNUX", desc, 20);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, len, id), 0);
	len = put_note(notes, 0, 2, "GNU", desc, 20);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, len, id), 0);
	/* Longer than perf keeps. */
	len = put_note(notes, 0, PP_NT_GNU_BUILD_ID, "GNU", desc, 32);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, len, id), 0);
	/* Cut one byte short of its descriptor. */
	len = put_note(notes, 0, PP_NT_GNU_BUILD_ID, "GNU", desc, 20);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, len - 1, id), 0);
	/* Sizes that would wrap round. */
	memcpy(notes + 4, &huge, 4);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, sizeof(notes), id), 0);
	memcpy(notes, &huge, 4);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, sizeof(notes), id), 0);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, 11, id), 0);
	KUNIT_EXPECT_EQ(test, pp_elfnote_build_id(notes, 0, id), 0);
}

/* An address is in a mapping from its start up to, not at, its end. */
static void pp_maps_test_covers(struct kunit *test)
{
	static const struct pp_range r[] = {
		{ 0x1000, 0x2000 }, { 0x5000, 0x7000 }, { 0x9000, 0x9001 },
	};
	const size_t s = sizeof(r[0]);

	KUNIT_EXPECT_TRUE(test, pp_maps_covers(r, s, 3, 0x1000));
	KUNIT_EXPECT_TRUE(test, pp_maps_covers(r, s, 3, 0x1fff));
	KUNIT_EXPECT_FALSE(test, pp_maps_covers(r, s, 3, 0x2000));
	KUNIT_EXPECT_FALSE(test, pp_maps_covers(r, s, 3, 0xfff));
	KUNIT_EXPECT_TRUE(test, pp_maps_covers(r, s, 3, 0x6000));
	KUNIT_EXPECT_FALSE(test, pp_maps_covers(r, s, 3, 0x8000));
	KUNIT_EXPECT_TRUE(test, pp_maps_covers(r, s, 3, 0x9000));
	KUNIT_EXPECT_FALSE(test, pp_maps_covers(r, s, 3, 0x9001));
	KUNIT_EXPECT_FALSE(test, pp_maps_covers(r, s, 0, 0x1000));
	KUNIT_EXPECT_TRUE(test, pp_maps_covers(r, s, 1, 0x1800));
	KUNIT_EXPECT_FALSE(test, pp_maps_covers(r, s, 1, 0x5000));
}

/*
 * The range found is the one that holds the address, in a table whose
 * entries are larger than a range (as the mappings are).
 */
static void pp_maps_test_find(struct kunit *test)
{
	static const struct {
		struct pp_range r;
		u64 tag;
	} m[] = {
		{ { 0x1000, 0x2000 }, 1 }, { { 0x2000, 0x3000 }, 2 },
		{ { 0x8000, 0x9000 }, 3 }, { { 0xa000, 0xb000 }, 4 },
	};
	const size_t s = sizeof(m[0]);

	KUNIT_EXPECT_PTR_EQ(test, pp_maps_find(m, s, 4, 0x1fff), &m[0].r);
	KUNIT_EXPECT_PTR_EQ(test, pp_maps_find(m, s, 4, 0x2000), &m[1].r);
	KUNIT_EXPECT_PTR_EQ(test, pp_maps_find(m, s, 4, 0x8abc), &m[2].r);
	KUNIT_EXPECT_PTR_EQ(test, pp_maps_find(m, s, 4, 0xafff), &m[3].r);
	KUNIT_EXPECT_NULL(test, pp_maps_find(m, s, 4, 0x3000));
	KUNIT_EXPECT_NULL(test, pp_maps_find(m, s, 4, 0xb000));
	KUNIT_EXPECT_NULL(test, pp_maps_find(m, s, 3, 0xa000));
}

static struct kunit_case pp_maps_test_cases[] = {
	KUNIT_CASE(pp_maps_test_build_id),
	KUNIT_CASE(pp_maps_test_find),
	KUNIT_CASE(pp_maps_test_build_id_rejects),
	KUNIT_CASE(pp_maps_test_covers),
	{}
};

static struct kunit_suite pp_maps_test_suite = {
	.name = "perf_persistent_maps",
	.test_cases = pp_maps_test_cases,
};

kunit_test_suites(&pp_maps_test_suite);

MODULE_LICENSE("GPL");
