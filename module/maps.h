/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mappings that name the samples of the profiles, kept after the
 * processes exit (module/maps.c).
 */
#ifndef _PERF_PERSISTENT_MAPS_H
#define _PERF_PERSISTENT_MAPS_H

#include <linux/types.h>

struct perf_persistent_maps;
struct pt_regs;

void pp_maps_init(void);
void pp_maps_exit(void);
void pp_maps_get(bool keep);
void pp_maps_put(bool keep);
void pp_maps_sample(const u64 *ips, unsigned int nr, struct pt_regs *regs);
int pp_maps_read(struct perf_persistent_maps *m);
/* An address range, [start, end): each mapping's, first in its struct. */
struct pp_range {
	unsigned long	start;
	unsigned long	end;
};

const struct pp_range *pp_maps_find(const void *ranges, size_t stride,
				    unsigned int nr, unsigned long ip);
bool pp_maps_covers(const void *ranges, size_t stride, unsigned int nr,
		    unsigned long ip);

#endif /* _PERF_PERSISTENT_MAPS_H */
