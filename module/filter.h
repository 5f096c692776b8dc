/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trigger filters: a postfix program of comparisons on the fields of a
 * record's RAW payload (struct perf_persistent_filter_op in the UAPI
 * header), checked once when it is set and run by the record path.
 *
 * pp_filter_match() runs in any context, NMI included, so it takes no
 * lock, allocates nothing and runs at most PERF_PERSISTENT_FILTER_MAX steps.
 */
#ifndef _PERF_PERSISTENT_FILTER_H
#define _PERF_PERSISTENT_FILTER_H

#include <linux/types.h>

#include <uapi/linux/perf_persistent.h>

/**
 * struct pp_filter - a checked filter
 * @nr: number of @ops, 1 to PERF_PERSISTENT_FILTER_MAX
 * @text: the filter as its user wrote it, for display ("" if not given)
 * @ops: the program
 */
struct pp_filter {
	unsigned int				nr;
	char					text[PERF_PERSISTENT_FILTER_TEXT_MAX];
	struct perf_persistent_filter_op	ops[];
};

int pp_filter_check(const struct perf_persistent_filter_op *ops,
		    unsigned int nr);
int pp_filter_text_check(const char *text);
bool pp_filter_match(const struct pp_filter *f, const void *raw, u32 size);

#endif /* _PERF_PERSISTENT_FILTER_H */
