// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the anchor (module/anchor.c): what a crash dump's reader
 * finds, checked as the tool reads it: the magic, the checksum, the
 * entries, and page frames that lead to the buffers' own bytes.
 */
#include <kunit/test.h>

#include <linux/crc32.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>

#include "../module/anchor.h"
#include "../module/buffer.h"
#include "perf_persistent/anchor.h"

#define PP_ANCHOR_TEST_COPY	(64 * 1024)

/* The anchor now, copied; checked whole as the tool checks it. */
static struct pp_anchor_header *pp_anchor_test_get(struct kunit *test)
{
	struct pp_anchor_header *h = kunit_kzalloc(test, PP_ANCHOR_TEST_COPY,
						   GFP_KERNEL);
	size_t size;
	u32 crc;

	KUNIT_ASSERT_NOT_NULL(test, h);
	size = pp_anchor_current(h, PP_ANCHOR_TEST_COPY);
	if (!size)
		return NULL;
	KUNIT_ASSERT_LE(test, size, (size_t)PP_ANCHOR_TEST_COPY);
	KUNIT_EXPECT_EQ(test, h->magic[0], PP_ANCHOR_MAGIC0);
	KUNIT_EXPECT_EQ(test, h->magic[1], PP_ANCHOR_MAGIC1);
	KUNIT_EXPECT_EQ(test, h->version, (u32)PP_ANCHOR_VERSION);
	KUNIT_EXPECT_EQ(test, h->page_size, (u32)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, h->header_size, (u32)sizeof(*h));
	KUNIT_EXPECT_LE(test, h->size, (u64)h->nr_pages * PAGE_SIZE);
	crc = h->crc;
	h->crc = 0;
	memset(h->magic, 0, sizeof(h->magic));
	KUNIT_EXPECT_EQ(test, ~crc32_le(~0, (const u8 *)h, h->size), crc);
	h->crc = crc;
	return h;
}

/* Entry @i of @h. */
static struct pp_anchor_event *pp_anchor_test_entry(struct pp_anchor_header *h,
						    unsigned int i)
{
	struct pp_anchor_event *e = (void *)h + h->entries;

	while (i--)
		e = (void *)e + e->size;
	return e;
}

static struct perf_event_attr pp_anchor_test_attr = {
	.type = PERF_TYPE_TRACEPOINT,
	.size = sizeof(struct perf_event_attr),
	.config = 42,
	.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
};

/* No event, no anchor; one, and it describes it; none again. */
static void pp_anchor_test_entries(struct kunit *test)
{
	struct pp_anchor_entry a = {
		.id = 7, .name = "a", .tp_name = "sched:sched_switch",
		.attr = &pp_anchor_test_attr, .format = "name: sched_switch\n",
		.buffer_size = 4 * PAGE_SIZE,
	}, b = {
		.id = 8, .name = "b", .tp_name = "",
		.attr = &pp_anchor_test_attr, .buffer_size = PAGE_SIZE,
		.kept = true,
	};
	struct pp_anchor_header *h;
	struct pp_anchor_event *e;
	u64 gen;

	KUNIT_EXPECT_NULL(test, pp_anchor_test_get(test));
	KUNIT_ASSERT_EQ(test, pp_anchor_add(&a), 0);
	h = pp_anchor_test_get(test);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->nr_events, 1U);
	KUNIT_EXPECT_STREQ(test, h->release, init_utsname()->release);
	e = pp_anchor_test_entry(h, 0);
	KUNIT_EXPECT_EQ(test, e->id, 7U);
	KUNIT_EXPECT_STREQ(test, e->name, "a");
	KUNIT_EXPECT_STREQ(test, e->tp_name, "sched:sched_switch");
	KUNIT_EXPECT_EQ(test, e->nr_cpus, 0U);
	KUNIT_EXPECT_EQ(test, e->buffer_size, (u64)4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, e->attr_size, (u32)sizeof(pp_anchor_test_attr));
	KUNIT_EXPECT_EQ(test, ((struct perf_event_attr *)e->attr)->config, 42ULL);
	KUNIT_EXPECT_EQ(test, e->format_len, (u32)sizeof("name: sched_switch\n"));
	KUNIT_EXPECT_STREQ(test, (char *)(e + 1), "name: sched_switch\n");
	KUNIT_EXPECT_EQ(test, e->size % 8, 0U);
	gen = h->generation;

	KUNIT_ASSERT_EQ(test, pp_anchor_add(&b), 0);
	h = pp_anchor_test_get(test);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->nr_events, 2U);
	KUNIT_EXPECT_GT(test, h->generation, gen);
	e = pp_anchor_test_entry(h, 1);
	KUNIT_EXPECT_STREQ(test, e->name, "b");
	KUNIT_EXPECT_EQ(test, e->kept, 1U);
	KUNIT_EXPECT_EQ(test, e->format_len, 0U);

	pp_anchor_del(&a);
	h = pp_anchor_test_get(test);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->nr_events, 1U);
	KUNIT_EXPECT_STREQ(test, pp_anchor_test_entry(h, 0)->name, "b");
	pp_anchor_del(&b);
	KUNIT_EXPECT_NULL(test, pp_anchor_test_get(test));
	/* An entry that never made it in is taken out as a no-op. */
	pp_anchor_del(&a);
}

/*
 * The page frames of a CPU's buffer, vmalloc()ed or in contiguous memory
 * as the region's, lead to its own bytes, the control page first.
 */
static void pp_anchor_test_pages(struct kunit *test)
{
	struct pp_anchor_entry a = {
		.id = 1, .name = "v", .tp_name = "",
		.attr = &pp_anchor_test_attr, .buffer_size = 8 * PAGE_SIZE,
	};
	struct pp_buffer *vbuf, *cbuf;
	struct pp_anchor_header *h;
	struct pp_anchor_event *e;
	struct pp_anchor_cpu *c;
	struct pp_anchor_extent *x;
	struct page *pages;
	unsigned int k, i, n;

	vbuf = pp_buffer_alloc(8 * PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(vbuf));
	pages = alloc_pages(GFP_KERNEL, 4);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	cbuf = pp_buffer_alloc_at(page_address(pages), page_to_phys(pages),
				  8 * PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cbuf));
	/* Marks on every page, to find through the page frames. */
	for (i = 0; i < 9; i++) {
		((u8 *)vbuf->page)[i * PAGE_SIZE + 8 * i + 64] = 0xa0 + i;
		((u8 *)cbuf->page)[i * PAGE_SIZE + 8 * i + 64] = 0xc0 + i;
	}

	KUNIT_ASSERT_EQ(test, pp_anchor_add(&a), 0);
	pp_anchor_set_buffer(&a, 0, vbuf);
	if (nr_cpu_ids > 1)
		pp_anchor_set_buffer(&a, 1, cbuf);
	h = pp_anchor_test_get(test);
	KUNIT_ASSERT_NOT_NULL(test, h);
	e = pp_anchor_test_entry(h, 0);
	KUNIT_ASSERT_EQ(test, e->nr_cpus, nr_cpu_ids > 1 ? 2U : 1U);
	c = (void *)(e + 1);
	x = (void *)(c + e->nr_cpus);
	for (k = 0; k < e->nr_cpus; k++) {
		struct pp_buffer *buf = k ? cbuf : vbuf;

		KUNIT_EXPECT_EQ(test, c[k].cpu, k);
		KUNIT_EXPECT_EQ(test, c[k].pages, 9U);
		if (k)
			KUNIT_EXPECT_EQ(test, c[k].nr, 1U);
		for (n = 0, i = c[k].first; i < c[k].first + c[k].nr; i++) {
			unsigned int j;

			for (j = 0; j < x[i].nr; j++, n++) {
				u8 *p = page_address(pfn_to_page(x[i].pfn + j));

				KUNIT_EXPECT_EQ(test, p[8 * n + 64],
						(u8)((k ? 0xc0 : 0xa0) + n));
			}
		}
		KUNIT_EXPECT_EQ(test, n, 9U);
		KUNIT_EXPECT_PTR_EQ(test, page_address(pfn_to_page(x[c[k].first].pfn)),
				    k ? (void *)buf->page :
				    page_address(vmalloc_to_page(buf->page)));
	}
	/* The anchor's own pages, as its header lists them. */
	KUNIT_EXPECT_GE(test, h->nr_pages, 1U);

	pp_anchor_del(&a);
	pp_buffer_free(vbuf);
	pp_buffer_free(cbuf);
	__free_pages(pages, 4);
}

/*
 * An anchor of more pages than one list page holds, as many events on many
 * CPUs make one (each scattered page of a vmalloc()ed buffer costs an
 * extent): here a format text of 3 MiB.  Its list pages, read through
 * their page frames as a dump's reader does, lead to the anchor's pages
 * in order.
 */
static void pp_anchor_test_big(struct kunit *test)
{
	const size_t text = 3 << 20;
	struct pp_anchor_entry a = {
		.id = 3, .name = "big", .tp_name = "sched:sched_switch",
		.attr = &pp_anchor_test_attr, .buffer_size = PAGE_SIZE,
	};
	struct pp_anchor_header *h;
	char *format, *copy;
	u64 *list;
	size_t size, i;
	u32 crc;

	format = vmalloc(text);
	KUNIT_ASSERT_NOT_NULL(test, format);
	memset(format, 'f', text - 1);
	format[text - 1] = '\0';
	a.format = format;
	copy = vmalloc(text + (1 << 20));
	KUNIT_ASSERT_NOT_NULL(test, copy);
	list = vmalloc(4 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, list);

	KUNIT_ASSERT_EQ(test, pp_anchor_add(&a), 0);
	size = pp_anchor_current(copy, text + (1 << 20));
	h = (void *)copy;
	KUNIT_ASSERT_GT(test, size, text);
	KUNIT_EXPECT_EQ(test, h->version, (u32)PP_ANCHOR_VERSION);
	KUNIT_EXPECT_EQ(test, (size_t)h->nr_pages, DIV_ROUND_UP(size, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, (size_t)h->nr_lists,
			DIV_ROUND_UP(h->nr_pages, PAGE_SIZE / sizeof(u64)));
	KUNIT_ASSERT_GT(test, h->nr_lists, 1U);
	KUNIT_ASSERT_LE(test, h->nr_lists, 4U);
	for (i = 0; i < h->nr_lists; i++)
		memcpy((void *)list + i * PAGE_SIZE,
		       page_address(pfn_to_page(h->pfn[i])), PAGE_SIZE);
	for (i = 0; i < h->nr_pages; i++) {
		size_t n = min_t(size_t, PAGE_SIZE, size - i * PAGE_SIZE);

		KUNIT_EXPECT_EQ_MSG(test, memcmp(page_address(pfn_to_page(list[i])),
						 copy + i * PAGE_SIZE, n), 0,
				    "page %zu", i);
	}
	crc = h->crc;
	h->crc = 0;
	memset(h->magic, 0, sizeof(h->magic));
	KUNIT_EXPECT_EQ(test, ~crc32_le(~0, (const u8 *)h, size), crc);
	KUNIT_EXPECT_STREQ(test, pp_anchor_test_entry(h, 0)->name, "big");

	pp_anchor_del(&a);
	vfree(list);
	vfree(copy);
	vfree(format);
}

/*
 * Additions wait for the work item, several together; a removal rewrites
 * the anchor at once, with the additions still waiting: the anchor it
 * leaves has every buffer set before it.
 */
static void pp_anchor_test_batched(struct kunit *test)
{
	struct pp_anchor_entry a = {
		.id = 1, .name = "a", .tp_name = "",
		.attr = &pp_anchor_test_attr, .buffer_size = PAGE_SIZE,
	}, b = {
		.id = 2, .name = "b", .tp_name = "",
		.attr = &pp_anchor_test_attr, .buffer_size = PAGE_SIZE,
	};
	struct pp_anchor_header *h;
	struct pp_buffer *buf;
	unsigned int cpu, n = 0;
	u64 gen;

	buf = pp_buffer_alloc(PAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(buf));
	KUNIT_ASSERT_EQ(test, pp_anchor_add(&a), 0);
	KUNIT_ASSERT_EQ(test, pp_anchor_add(&b), 0);
	h = pp_anchor_test_get(test);
	KUNIT_ASSERT_NOT_NULL(test, h);
	gen = h->generation;
	for (n = 0; n < 64; n++)
		for_each_possible_cpu(cpu)
			pp_anchor_set_buffer(&a, cpu, buf);
	pp_anchor_del(&b);
	h = pp_anchor_test_get(test);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, h->nr_events, 1U);
	KUNIT_EXPECT_EQ(test, pp_anchor_test_entry(h, 0)->nr_cpus,
			num_possible_cpus());
	kunit_info(test, "%u additions on %u CPUs: %llu anchors written\n",
		   64 * num_possible_cpus(), num_possible_cpus(),
		   h->generation - gen);
	pp_anchor_del(&a);
	pp_buffer_free(buf);
}

static struct kunit_case pp_anchor_test_cases[] = {
	KUNIT_CASE(pp_anchor_test_entries),
	KUNIT_CASE(pp_anchor_test_pages),
	KUNIT_CASE(pp_anchor_test_big),
	KUNIT_CASE(pp_anchor_test_batched),
	{}
};

static struct kunit_suite pp_anchor_test_suite = {
	.name = "perf_persistent_anchor",
	.test_cases = pp_anchor_test_cases,
};

kunit_test_suite(pp_anchor_test_suite);
