/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reserved region: memory set aside at boot (reserve_mem= or, on x86,
 * memmap=) that the module parameter region= names, where the buffers of
 * the events kept across a reboot live.  Work in progress (issue 28): the
 * parser and the setup; the layout comes next.
 */
#ifndef _PERF_PERSISTENT_REGION_H
#define _PERF_PERSISTENT_REGION_H

#include <linux/mutex.h>
#include <linux/types.h>

/* reserve_mem's own limit on a name, with its NUL (RESERVE_MEM_NAME_SIZE). */
#define PP_REGION_LABEL_MAX	16

/**
 * struct pp_region_spec - what region= says
 * @label: a reserve_mem label, or "" when the region is given by place
 * @start: the physical address of its first byte (by place)
 * @size: its size in bytes (by place)
 */
struct pp_region_spec {
	char		label[PP_REGION_LABEL_MAX];
	phys_addr_t	start;
	u64		size;
};

/*
 * The least region worth having: its header page, one descriptor page and
 * one CPU's buffer of one page with its control page.
 */
#define PP_REGION_MIN		(4 * PAGE_SIZE)

/**
 * struct pp_region - the reserved region of this boot
 * @start: physical address of its first byte
 * @size: its size in bytes
 * @mem: where it is mapped, cached (memremap(MEMREMAP_WB))
 * @res: the claim on it in iomem_resource, NULL for reserve_mem's memory,
 *	which lies inside System RAM and is claimed by memblock
 * @lock: protects @used
 * @used: one bit per page of the region, set where something lives (the
 *	header, a descriptor, a buffer); in normal memory, made anew each
 *	boot
 * @nr_pages: pages in the region
 */
struct pp_region {
	phys_addr_t	start;
	u64		size;
	void		*mem;
	struct resource	*res;
	struct mutex	lock;		/* protects @used */
	unsigned long	*used;
	unsigned long	nr_pages;
};

int pp_region_parse(const char *s, struct pp_region_spec *spec);
int pp_region_setup(struct pp_region *r, const char *param);
void pp_region_teardown(struct pp_region *r);

int pp_region_pages_init(struct pp_region *r, unsigned long nr_pages,
			 unsigned long reserved);
void pp_region_pages_exit(struct pp_region *r);
long pp_region_pages_alloc(struct pp_region *r, unsigned long nr);
void pp_region_pages_free(struct pp_region *r, unsigned long first,
			  unsigned long nr);

#endif /* _PERF_PERSISTENT_REGION_H */
