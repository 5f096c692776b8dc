// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the reserved region (region.h)
 *
 * region= names the region one of two ways:
 *   LABEL          a range reserved with reserve_mem=SIZE:ALIGN:LABEL (6.11
 *                  and later), looked up with reserve_mem_find_by_name()
 *   SIZE@ADDRESS   as crashkernel= writes it ("2M@0x20000000"), for memory
 *                  the firmware map or memmap=SIZE$ADDRESS keeps out of
 *                  System RAM, as ramoops' mem_address and mem_size
 * Both the size and the address must be multiples of the page size.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/crc32.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "region.h"

/**
 * pp_region_parse - read region=
 * @s: the parameter, without a trailing newline
 * @spec: out: what it names
 *
 * Any context; pure.
 *
 * Return: 0, or -EINVAL for an empty, malformed or misaligned parameter, a
 * zero size, a range that wraps round the end of the address space, or a
 * label that is too long or holds other than letters, digits, '_' and '-'.
 */
int pp_region_parse(const char *s, struct pp_region_spec *spec)
{
	char *end;
	size_t i;

	memset(spec, 0, sizeof(*spec));
	if (!s || !*s)
		return -EINVAL;
	if (isdigit(*s)) {
		spec->size = memparse(s, &end);
		if (end == s || *end != '@')
			return -EINVAL;
		s = end + 1;
		if (!isdigit(*s))
			return -EINVAL;
		spec->start = memparse(s, &end);
		if (*end)
			return -EINVAL;
		if (!spec->size || !PAGE_ALIGNED(spec->size) ||
		    !PAGE_ALIGNED(spec->start) ||
		    spec->start + spec->size - 1 < spec->start)
			return -EINVAL;
		return 0;
	}
	for (i = 0; s[i]; i++) {
		if (i + 1 >= PP_REGION_LABEL_MAX)
			return -EINVAL;
		if (!isalnum(s[i]) && s[i] != '_' && s[i] != '-')
			return -EINVAL;
		spec->label[i] = s[i];
	}
	return 0;
}

/* Find the range reserve_mem= reserved as @label. */
static int region_find_label(struct pp_region *r, const char *label)
{
	phys_addr_t start, size;

	if (!PP_HAVE_RESERVE_MEM) {
		pr_err("region=%s: this kernel has no reserve_mem= (6.11 and later); name the region by place, SIZE@ADDRESS\n",
		       label);
		return -EOPNOTSUPP;
	}
	if (!pp_reserve_mem_find(label, &start, &size)) {
		pr_err("region=%s: no such reserve_mem label on the command line\n",
		       label);
		return -ENODEV;
	}
	if (!PAGE_ALIGNED(start) || !PAGE_ALIGNED(size)) {
		pr_err("region=%s: %pa+%pa is not page-aligned (reserve_mem=SIZE:ALIGN:%s with ALIGN a multiple of the page size)\n",
		       label, &start, &size, label);
		return -EINVAL;
	}
	r->start = start;
	r->size = size;
	return 0;
}

/* walk_iomem_res_desc()'s callback: add up the part of @r it visits. */
static int region_add_reserved(struct resource *res, void *covered)
{
	*(u64 *)covered += resource_size(res);
	return 0;
}

/*
 * Claim the range @r names by place.  It must be memory the boot kept out
 * of the kernel's hands: no System RAM (the kernel may have handed that
 * out), all of it reserved (memmap=SIZE$ADDRESS, or the legacy persistent
 * memory of memmap=SIZE!ADDRESS), not a hole or a device's registers; and
 * no driver may have claimed any of it (ramoops' range, a device's).
 * walk_iomem_res_desc() visits the matching resources in address order,
 * each clipped to the range, so their sizes add up to what is covered.
 */
static int region_claim(struct pp_region *r)
{
	u64 end = r->start + r->size - 1, covered = 0;

	if (region_intersects(r->start, r->size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("region=%llx@%pa: holds System RAM in use; reserve it at boot (memmap=SIZE$ADDRESS on x86)\n",
		       r->size, &r->start);
		return -EBUSY;
	}
	walk_iomem_res_desc(IORES_DESC_RESERVED, IORESOURCE_MEM, r->start, end,
			    &covered, region_add_reserved);
	walk_iomem_res_desc(IORES_DESC_PERSISTENT_MEMORY_LEGACY, IORESOURCE_MEM,
			    r->start, end, &covered, region_add_reserved);
	if (covered != r->size) {
		pr_err("region=%llx@%pa: only %llu bytes of it are memory reserved at boot (see /proc/iomem)\n",
		       r->size, &r->start, covered);
		return -ENXIO;
	}
	/*
	 * A claim of another driver is a busy resource anywhere in the tree
	 * (ramoops' in the "Reserved" range memmap= made).  Looked for first,
	 * because request_mem_region() fails the same way when it has no
	 * memory for the claim.
	 */
	covered = 0;
	walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_MEM | IORESOURCE_BUSY,
			    r->start, end, &covered, region_add_reserved);
	if (covered) {
		pr_err("region=%llx@%pa: overlaps memory another driver claimed (see /proc/iomem)\n",
		       r->size, &r->start);
		return -EBUSY;
	}
	r->res = request_mem_region(r->start, r->size, "perf_persistent region");
	if (!r->res) {
		pr_err("region=%llx@%pa: cannot claim it: out of memory\n",
		       r->size, &r->start);
		return -ENOMEM;
	}
	return 0;
}

/**
 * pp_region_setup - find, check, claim and map the region region= names
 * @r: out: the region
 * @param: region=
 *
 * Module init, process context.  On failure nothing is left claimed or
 * mapped, and the log says why.
 *
 * Return: 0; -EINVAL for a malformed or misaligned parameter; -EOPNOTSUPP
 * for a label on a kernel without reserve_mem=; -ENODEV for an unknown
 * label (not -ENOENT, which modprobe reports as an unknown symbol); -EBUSY
 * for a range that holds System RAM or that a driver claimed; -ENXIO for a
 * range not all reserved at boot (a hole, a device's registers); -ENOSPC
 * for a region smaller than PP_REGION_MIN; -ENOMEM if it cannot be claimed
 * or mapped.
 */
int pp_region_setup(struct pp_region *r, const char *param)
{
	struct pp_region_spec spec;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = pp_region_parse(param, &spec);
	if (ret) {
		pr_err("region=%s: not LABEL or SIZE@ADDRESS with both multiples of the page size\n",
		       param);
		return ret;
	}
	if (spec.label[0]) {
		ret = region_find_label(r, spec.label);
		if (ret)
			return ret;
	} else {
		r->start = spec.start;
		r->size = spec.size;
	}
	if (r->size < PP_REGION_MIN) {
		pr_err("region=%s: %llu bytes, too small to hold one buffer (at least %lu)\n",
		       param, r->size, PP_REGION_MIN);
		return -ENOSPC;
	}
	if (!spec.label[0]) {
		ret = region_claim(r);
		if (ret)
			return ret;
	}
	r->mem = memremap(r->start, r->size, MEMREMAP_WB);
	if (!r->mem) {
		pr_err("region=%s: cannot map %pa+%llx\n", param, &r->start,
		       r->size);
		ret = -ENOMEM;
		goto err_release;
	}
	pr_info("region: %llu KiB at %pa\n", r->size >> 10, &r->start);
	return 0;

err_release:
	if (r->res)
		release_mem_region(r->start, r->size);
	r->res = NULL;
	return ret;
}

/* Module exit, process context: no buffer lives in the region any more. */
void pp_region_teardown(struct pp_region *r)
{
	if (r->mem)
		memunmap(r->mem);
	if (r->res)
		release_mem_region(r->start, r->size);
	memset(r, 0, sizeof(*r));
}

/*
 * The region's pages.  Buffers come and go with their events, each a
 * control page and a power-of-two number of data pages, so the region is
 * handed out page by page, first fit, from a bitmap kept in normal memory.
 * What the next boot needs to find them is in the region's own header and
 * descriptors, not here.
 */

/**
 * pp_region_pages_init - set up the page map of @r
 * @r: the region
 * @nr_pages: its pages
 * @reserved: pages at its start that are never handed out (the header)
 *
 * Process context.  Return: 0, -EINVAL if @reserved is not below
 * @nr_pages, -ENOMEM.
 */
int pp_region_pages_init(struct pp_region *r, unsigned long nr_pages,
			 unsigned long reserved)
{
	if (reserved >= nr_pages)
		return -EINVAL;
	r->used = bitmap_zalloc(nr_pages, GFP_KERNEL);
	if (!r->used)
		return -ENOMEM;
	mutex_init(&r->lock);
	r->nr_pages = nr_pages;
	bitmap_set(r->used, 0, reserved);
	return 0;
}

/* Process context; nothing is handed out any more. */
void pp_region_pages_exit(struct pp_region *r)
{
	bitmap_free(r->used);
	r->used = NULL;
	r->nr_pages = 0;
}

/**
 * pp_region_pages_alloc - hand out @nr contiguous pages of @r
 * @r: the region
 * @nr: pages wanted, at least 1
 *
 * Process context; takes r->lock.
 *
 * Return: the index of the first page, -EINVAL for @nr 0, or -ENOSPC when
 * no run of @nr free pages is left.
 */
long pp_region_pages_alloc(struct pp_region *r, unsigned long nr)
{
	unsigned long first;

	if (!nr)
		return -EINVAL;
	mutex_lock(&r->lock);
	first = bitmap_find_next_zero_area(r->used, r->nr_pages, 0, nr, 0);
	if (first >= r->nr_pages || nr > r->nr_pages - first) {
		mutex_unlock(&r->lock);
		return -ENOSPC;
	}
	bitmap_set(r->used, first, nr);
	mutex_unlock(&r->lock);
	return first;
}

/**
 * pp_region_pages_free - give back pages pp_region_pages_alloc() handed out
 * @r: the region
 * @first: the first page's index
 * @nr: how many
 *
 * Process context; takes r->lock.
 */
void pp_region_pages_free(struct pp_region *r, unsigned long first,
			  unsigned long nr)
{
	if (WARN_ON_ONCE(first >= r->nr_pages || nr > r->nr_pages - first))
		return;
	mutex_lock(&r->lock);
	/* Every page given back was handed out: no double free. */
	WARN_ON_ONCE(find_next_zero_bit(r->used, first + nr, first) <
		     first + nr);
	bitmap_clear(r->used, first, nr);
	mutex_unlock(&r->lock);
}

/**
 * pp_boot_id_read - this boot's id
 * @buf: out: /proc/sys/kernel/random/boot_id, as text, the same as
 *	journalctl --list-boots shows
 * @len: room in @buf
 *
 * Process context.
 *
 * Return: 0, or the error of opening or reading the file (no /proc where
 * the module loads): @buf is then empty.
 */
int pp_boot_id_read(char *buf, size_t len)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	buf[0] = '\0';
	f = filp_open("/proc/sys/kernel/random/boot_id", O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		return n ? n : -ENODATA;
	buf[n] = '\0';
	strim(buf);
	return 0;
}

/**
 * pp_region_crc - the checksum a descriptor carries
 * @d: the descriptor
 * @format: its format text, @d->format_len bytes
 *
 * Any context; pure.
 */
u32 pp_region_crc(const struct pp_region_desc *d, const char *format)
{
	u32 crc = crc32_le(~0, (const void *)&d->id,
			   offsetof(struct pp_region_desc, cpus) -
			   offsetof(struct pp_region_desc, id));

	return crc32_le(crc, format, d->format_len);
}
