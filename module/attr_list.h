/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A NULL-terminated array of sysfs attributes that grows and shrinks: the
 * attrs of the persistent PMU's events/ group, one per persistent event.
 */
#ifndef _PERF_PERSISTENT_ATTR_LIST_H
#define _PERF_PERSISTENT_ATTR_LIST_H

#include <linux/gfp.h>
#include <linux/types.h>

struct attribute;

/**
 * struct pp_attr_list - resizable NULL-terminated attribute array
 * @attrs: the array, @nr entries then NULL; never NULL itself
 * @nr: entries in use
 * @cap: entries allocated, not counting the terminating NULL
 * @realloc: reallocation function (krealloc); replaceable for tests
 *
 * Not locked: the owner serialises every call.
 */
struct pp_attr_list {
	struct attribute	**attrs;
	unsigned int		nr;
	unsigned int		cap;
	void			*(*realloc)(const void *p, size_t size, gfp_t gfp);
};

int pp_attr_list_init(struct pp_attr_list *list);
void pp_attr_list_free(struct pp_attr_list *list);
int pp_attr_list_add(struct pp_attr_list *list, struct attribute *attr);
int pp_attr_list_del(struct pp_attr_list *list, struct attribute *attr);

#endif /* _PERF_PERSISTENT_ATTR_LIST_H */
