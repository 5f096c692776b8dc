// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the reserved region's layout: what keep.c writes there
 * for a kept event, read back by previous.c as the next boot does, and
 * every way a damaged region is refused or cut short: a bad magic, another
 * layout version, a damaged header, a descriptor pointing outside the
 * region or damaged, a descriptor or the mappings area found twice, a CPU
 * table entry pointing outside or at another event's buffer, a torn newest
 * record, and a reload in the same boot.
 * The region here is kernel memory; its physical address is made up (no
 * test maps it).
 */
#include <kunit/test.h>

#include <linux/crc32.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "../module/buffer.h"
#include "../module/previous.h"
#include "../module/region.h"

#define NR_PAGES	32
#define REC		48	/* header, IDENTIFIER, IP, TID, TIME, CPU */
#define TIME_AT		32
#define EV_ID		7
/* The records' times, and the clock pair the region says came after them. */
#define T0		(20 * NSEC_PER_SEC)
#define CLOCK		(30 * NSEC_PER_SEC)

static const char pp_test_format[] = "name: x\nID: 99\nformat:\n";

struct prev_ctx {
	struct pp_region	r;
	struct pp_region_keep	k;
	struct pp_buffer	*buf;
	struct perf_event_attr	attr;
};

static void prev_reset_found(void)
{
	pp_previous_forget();
	memset(&pp_previous_boot, 0, sizeof(pp_previous_boot));
	INIT_LIST_HEAD(&pp_previous_boot.list);
}

/* Store a sample stamped @time on CPU 0's buffer, as the record path does. */
static void prev_record(struct kunit *test, struct prev_ctx *c, u64 time)
{
	u64 rec[REC / 8] = {};
	struct perf_event_header *hdr = (void *)rec;
	unsigned long pos;

	hdr->type = PERF_RECORD_SAMPLE;
	hdr->size = REC;
	rec[1] = EV_ID;
	rec[TIME_AT / 8] = time;	/* after IDENTIFIER, IP, TID */
	KUNIT_ASSERT_EQ(test, pp_buffer_reserve(c->buf, REC, &pos), 0);
	pp_buffer_write(c->buf, pos, rec, REC);
	pp_buffer_commit(c->buf);
}

/*
 * A region formatted by boot "a" holding one kept event with a buffer on
 * CPU 0 and three records in it.
 */
static int prev_init(struct kunit *test)
{
	struct prev_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct pp_region *r;
	int ret;

	if (!c)
		return -ENOMEM;
	r = &c->r;
	r->size = NR_PAGES * PAGE_SIZE;
	r->start = 0x100000000ULL;
	r->mem = vzalloc(r->size);
	if (!r->mem)
		return -ENOMEM;
	strscpy(r->boot_id, "boot-a", sizeof(r->boot_id));
	ret = pp_region_pages_init(r, NR_PAGES, 1);
	if (ret)
		return ret;
	pp_region_format(r);

	c->attr.type = PERF_TYPE_TRACEPOINT;
	c->attr.size = sizeof(c->attr);
	c->attr.config = 99;
	c->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			      PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_CPU;
	ret = pp_region_keep_begin(r, &c->k, EV_ID, "switches",
				   "sched:sched_switch", &c->attr, PAGE_SIZE,
				   pp_test_format);
	if (ret)
		return ret;
	c->buf = pp_region_keep_buffer(r, &c->k, 0);
	if (IS_ERR(c->buf))
		return PTR_ERR(c->buf);
	c->buf->ext->id = EV_ID;
	c->buf->ext->cpu = 0;
	c->buf->ext->sample_type = c->attr.sample_type;
	test->priv = c;
	prev_record(test, c, T0 + 100);
	prev_record(test, c, T0 + 200);
	prev_record(test, c, T0 + 300);
	r->hdr->clock[0].local = CLOCK;
	r->hdr->clock[1].local = CLOCK;
	prev_reset_found();
	/* The next boot. */
	strscpy(r->boot_id, "boot-b", sizeof(r->boot_id));
	return 0;
}

static void prev_exit(struct kunit *test)
{
	struct prev_ctx *c = test->priv;

	prev_reset_found();
	if (!c)
		return;
	if (!IS_ERR_OR_NULL(c->buf))
		pp_region_buffer_free(&c->r, c->buf);
	pp_region_keep_end(&c->r, &c->k);
	pp_region_pages_exit(&c->r);
	vfree(c->r.mem);
}

/* The one event found, or NULL. */
static struct pp_found_event *prev_found(struct kunit *test)
{
	struct pp_previous_boot *pb = &pp_previous_boot;

	if (list_empty(&pb->list))
		return NULL;
	return list_first_entry(&pb->list, struct pp_found_event, node);
}

static void prev_test_roundtrip(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_found_event *fe;
	struct pp_buffer_stats st;

	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_TRUE(test, pp_previous_boot.found);
	KUNIT_EXPECT_STREQ(test, pp_previous_boot.boot_id, "boot-a");
	KUNIT_EXPECT_EQ(test, pp_previous_boot.text_delta, 0L);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.bad, 0U);
	fe = prev_found(test);
	KUNIT_ASSERT_NOT_NULL(test, fe);
	KUNIT_EXPECT_STREQ(test, fe->name, "switches");
	KUNIT_EXPECT_STREQ(test, fe->tp_name, "sched:sched_switch");
	KUNIT_EXPECT_STREQ(test, fe->format, pp_test_format);
	KUNIT_EXPECT_EQ(test, fe->id, (u32)EV_ID);
	KUNIT_EXPECT_EQ(test, fe->attr.config, 99ULL);
	KUNIT_EXPECT_EQ(test, fe->attr.sample_type, c->attr.sample_type);
	KUNIT_ASSERT_EQ(test, fe->nr, 1U);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].untrusted, 0ULL);
	KUNIT_ASSERT_NOT_NULL(test, fe->cpus[0].buf);
	pp_buffer_stats(fe->cpus[0].buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 3ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 3ULL * REC);
	/* The copy is a buffer of its own, holding the same bytes. */
	KUNIT_EXPECT_PTR_NE(test, fe->cpus[0].buf->data, c->buf->data);
	KUNIT_EXPECT_EQ(test, memcmp(fe->cpus[0].buf->data, c->buf->data,
				     PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].buf->page->data_head,
			c->buf->page->data_head);
}

/* The region was written by this very boot: a reload, not a reboot. */
static void prev_test_same_boot(struct kunit *test)
{
	struct prev_ctx *c = test->priv;

	strscpy(c->r.boot_id, "boot-a", sizeof(c->r.boot_id));
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_FALSE(test, pp_previous_boot.found);
	KUNIT_EXPECT_NULL(test, prev_found(test));
}

static void prev_test_header(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_region_header *h = c->r.mem;
	const char *why;

	KUNIT_EXPECT_EQ(test, pp_region_header_check(h, c->r.size, &why), 0);
	/* Another region's size. */
	KUNIT_EXPECT_EQ(test, pp_region_header_check(h, c->r.size * 2, &why),
			-EBADMSG);
	h->release[0] ^= 1;
	KUNIT_EXPECT_EQ(test, pp_region_header_check(h, c->r.size, &why),
			-EBADMSG);
	h->release[0] ^= 1;
	h->version++;
	KUNIT_EXPECT_EQ(test, pp_region_header_check(h, c->r.size, &why),
			-EPROTO);
	h->version--;
	h->magic = 0;
	KUNIT_EXPECT_EQ(test, pp_region_header_check(h, c->r.size, &why),
			-ENODATA);
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_FALSE(test, pp_previous_boot.found);
	KUNIT_EXPECT_NULL(test, prev_found(test));
}

static void prev_test_descriptor(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_region_header *h = c->r.mem;
	struct pp_region_desc *d = c->k.desc;
	const char *why;
	u32 page = h->slots[c->k.slot];

	KUNIT_EXPECT_PTR_EQ(test, pp_region_desc_check(c->r.mem, c->r.size,
						       page, &why),
			    (const struct pp_region_desc *)d);
	/* Pointing outside the region, or at the header. */
	KUNIT_EXPECT_NULL(test, pp_region_desc_check(c->r.mem, c->r.size,
						     NR_PAGES, &why));
	KUNIT_EXPECT_NULL(test, pp_region_desc_check(c->r.mem, c->r.size,
						     U32_MAX, &why));
	KUNIT_EXPECT_NULL(test, pp_region_desc_check(c->r.mem, c->r.size, 0,
						     &why));
	/* A size that runs past the end, or overflows. */
	d->size = NR_PAGES * PAGE_SIZE;
	KUNIT_EXPECT_NULL(test, pp_region_desc_check(c->r.mem, c->r.size, page,
						     &why));
	d->size = struct_size(d, cpus, d->nr_cpus) + d->format_len;
	d->nr_cpus = U32_MAX;
	KUNIT_EXPECT_NULL(test, pp_region_desc_check(c->r.mem, c->r.size, page,
						     &why));
	d->nr_cpus = nr_cpu_ids;
	/* A damaged name: the checksum. */
	d->name[0] ^= 1;
	KUNIT_EXPECT_NULL(test, pp_region_desc_check(c->r.mem, c->r.size, page,
						     &why));
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_TRUE(test, pp_previous_boot.found);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.bad, 1U);
	KUNIT_EXPECT_NULL(test, prev_found(test));
	d->name[0] ^= 1;
	/* A slot pointing outside: dropped, counted. */
	prev_reset_found();
	h->slots[c->k.slot] = NR_PAGES + 5;
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.bad, 1U);
	KUNIT_EXPECT_NULL(test, prev_found(test));
	h->slots[c->k.slot] = page;
}

static void prev_test_cpu_table(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_region_desc *d = c->k.desc;
	struct pp_found_event *fe;
	u32 first = d->cpus[0];

	/* A buffer running past the end of the region. */
	d->cpus[0] = NR_PAGES - 1;
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	fe = prev_found(test);
	KUNIT_ASSERT_NOT_NULL(test, fe);
	KUNIT_ASSERT_EQ(test, fe->nr, 1U);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].stop, PP_FOUND_PAGE);
	KUNIT_EXPECT_NULL(test, fe->cpus[0].buf);
	/* How much it held cannot be known: all it could hold is lost. */
	KUNIT_EXPECT_EQ(test, fe->cpus[0].untrusted, (u64)PAGE_SIZE);
	d->cpus[0] = first;

	/* Another event's control page. */
	prev_reset_found();
	c->buf->ext->id = EV_ID + 1;
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	fe = prev_found(test);
	KUNIT_ASSERT_NOT_NULL(test, fe);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].stop, PP_FOUND_PAGE);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].untrusted, (u64)PAGE_SIZE);
	c->buf->ext->id = EV_ID;
}

/*
 * Two slots leading to the same event, as when damage copies one
 * descriptor's page over another's (region-fuzz seed 20131): the second
 * is dropped and counted, not left for the load to fail to show.
 */
static void prev_test_twice(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_region_header *h = c->r.mem;
	u32 other = (c->k.slot + 1) % h->nr_slots;

	KUNIT_ASSERT_NE(test, other, c->k.slot);
	KUNIT_ASSERT_EQ(test, h->slots[other], 0U);
	h->slots[other] = h->slots[c->k.slot];
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.events, 1U);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.bad, 1U);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&pp_previous_boot.list));
	h->slots[other] = 0;
}

/*
 * The mappings area's page copied over a descriptor's (region-fuzz seed
 * 60031): two slots lead to a mappings area, and the event whose page it
 * was is lost.  The second area is dropped and counted as a descriptor,
 * so the loss is not silent.
 */
static void prev_test_maps_twice(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_region_keep mk = {};
	struct pp_region_maps *m;
	void *desc = c->k.desc;
	void *saved;

	saved = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	m = pp_region_maps_begin(&c->r, &mk, 64);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m));
	/* One whole copy, empty. */
	m->crc[0] = crc32_le(~0, m->data, 0);
	m->seq = 1;
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_NOT_NULL(test, pp_previous_boot.maps);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.events, 1U);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.bad, 0U);

	prev_reset_found();
	memcpy(saved, desc, PAGE_SIZE);
	memcpy(desc, m, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_NOT_NULL(test, pp_previous_boot.maps);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.events, 0U);
	KUNIT_EXPECT_EQ(test, pp_previous_boot.bad, 1U);
	memcpy(desc, saved, PAGE_SIZE);
	pp_region_maps_end(&c->r, &mk);
}

static void prev_test_records(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_region_header *h = c->r.mem;
	struct pp_found_event *fe;
	struct pp_buffer_stats st;
	u64 bad = U64_MAX - 1;
	unsigned long head = c->buf->page->data_head;

	/* The newest record's time, torn: it alone is dropped. */
	pp_buffer_write(c->buf, head + TIME_AT, &bad, sizeof(bad));
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	fe = prev_found(test);
	KUNIT_ASSERT_NOT_NULL(test, fe);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].stop, PP_FOUND_WHOLE);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].torn, 1U);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].untrusted, (u64)REC);
	pp_buffer_stats(fe->cpus[0].buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 2ULL);

	/* The oldest record's size, torn: the two newer ones are kept. */
	prev_reset_found();
	pp_buffer_write(c->buf, head + TIME_AT, &(u64){ T0 + 300 }, sizeof(u64));
	pp_buffer_write(c->buf, head + 2 * REC + 6, &(u16){ 12 }, sizeof(u16));
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	fe = prev_found(test);
	KUNIT_ASSERT_NOT_NULL(test, fe);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].stop, PP_FOUND_SIZE);
	pp_buffer_stats(fe->cpus[0].buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 2ULL);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].untrusted, (u64)REC);

	/*
	 * A clock pair older than the records by more than the slack: the
	 * newest is dropped as torn, and the walk stops at the next.
	 */
	prev_reset_found();
	pp_buffer_write(c->buf, head + 2 * REC + 6, &(u16){ REC }, sizeof(u16));
	h->clock[0].local = T0 - PP_REGION_CLOCK_SLACK - 1;
	h->clock[1].local = h->clock[0].local;
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	fe = prev_found(test);
	KUNIT_ASSERT_NOT_NULL(test, fe);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].stop, PP_FOUND_TIME);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].torn, 1U);
	KUNIT_EXPECT_EQ(test, fe->cpus[0].untrusted, 3ULL * REC);
	pp_buffer_stats(fe->cpus[0].buf, &st);
	KUNIT_EXPECT_EQ(test, st.written, 0ULL);
}

/* Descriptors come and go: a slot cleared at destroy is not found. */
static void prev_test_keep_end(struct kunit *test)
{
	struct prev_ctx *c = test->priv;

	pp_region_keep_end(&c->r, &c->k);
	KUNIT_ASSERT_EQ(test, pp_previous_find(&c->r), 0);
	KUNIT_EXPECT_TRUE(test, pp_previous_boot.found);
	KUNIT_EXPECT_NULL(test, prev_found(test));
	KUNIT_EXPECT_EQ(test, pp_previous_boot.bad, 0U);
}

/* A region too full for a kept event's buffer. */
static void prev_test_full(struct kunit *test)
{
	struct prev_ctx *c = test->priv;
	struct pp_region_keep k = {};
	struct pp_buffer *big;

	KUNIT_ASSERT_EQ(test, pp_region_keep_begin(&c->r, &k, EV_ID + 1, "big",
						   "", &c->attr,
						   NR_PAGES * PAGE_SIZE, NULL), 0);
	big = pp_region_keep_buffer(&c->r, &k, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(big), -ENOSPC);
	pp_region_keep_end(&c->r, &k);
	/* What the refusal took is back: the same descriptor fits again. */
	KUNIT_EXPECT_EQ(test, pp_region_keep_begin(&c->r, &k, EV_ID + 1, "big",
						   "", &c->attr, PAGE_SIZE, NULL),
			0);
	pp_region_keep_end(&c->r, &k);
}

static struct kunit_case prev_test_cases[] = {
	KUNIT_CASE(prev_test_roundtrip),
	KUNIT_CASE(prev_test_same_boot),
	KUNIT_CASE(prev_test_header),
	KUNIT_CASE(prev_test_descriptor),
	KUNIT_CASE(prev_test_cpu_table),
	KUNIT_CASE(prev_test_twice),
	KUNIT_CASE(prev_test_maps_twice),
	KUNIT_CASE(prev_test_records),
	KUNIT_CASE(prev_test_keep_end),
	KUNIT_CASE(prev_test_full),
	{}
};

static struct kunit_suite prev_test_suite = {
	.name = "perf_persistent_previous",
	.init = prev_init,
	.exit = prev_exit,
	.test_cases = prev_test_cases,
};

kunit_test_suite(prev_test_suite);

MODULE_LICENSE("GPL");
