// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: a resizable NULL-terminated attribute array
 *
 * The original persistent-events patches resized the events/ group's array
 * as events came and went ("dynamically resize list of sysfs entries"):
 * there is no fixed maximum.  The array doubles when full and halves when a
 * quarter full, so adding and removing cost amortised O(1) reallocation; a
 * failed reallocation leaves the list exactly as it was.  Removal keeps the
 * order of the remaining entries, so the listing stays in creation order.
 *
 * Process context; the caller serialises all calls (the registry lock).
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "attr_list.h"

#define PP_ATTR_LIST_MIN	4

/* krealloc() is a macro since 6.10 (memory allocation profiling). */
static void *attr_list_krealloc(const void *p, size_t size, gfp_t gfp)
{
	return krealloc(p, size, gfp);
}

static int resize(struct pp_attr_list *list, unsigned int cap)
{
	struct attribute **attrs;

	attrs = list->realloc(list->attrs, (cap + 1) * sizeof(*attrs),
			      GFP_KERNEL);
	if (!attrs)
		return -ENOMEM;
	list->attrs = attrs;
	list->cap = cap;
	return 0;
}

/* An empty list: room for PP_ATTR_LIST_MIN entries and the NULL terminator. */
int pp_attr_list_init(struct pp_attr_list *list)
{
	if (!list->realloc)
		list->realloc = attr_list_krealloc;
	list->attrs = NULL;
	list->nr = 0;
	if (resize(list, PP_ATTR_LIST_MIN))
		return -ENOMEM;
	list->attrs[0] = NULL;
	return 0;
}

void pp_attr_list_free(struct pp_attr_list *list)
{
	kfree(list->attrs);
	list->attrs = NULL;
	list->nr = 0;
	list->cap = 0;
}

/**
 * pp_attr_list_add - append @attr
 * @list: the list
 * @attr: attribute not yet in the list
 *
 * Return: 0, or -ENOMEM with the list unchanged.
 */
int pp_attr_list_add(struct pp_attr_list *list, struct attribute *attr)
{
	if (list->nr == list->cap && resize(list, list->cap * 2))
		return -ENOMEM;
	list->attrs[list->nr++] = attr;
	list->attrs[list->nr] = NULL;
	return 0;
}

/**
 * pp_attr_list_del - remove @attr, keeping the order of the others
 * @list: the list
 * @attr: attribute in the list
 *
 * Shrinking is best effort: if it fails the list keeps its larger array.
 *
 * Return: 0, or -ENOENT if @attr is not in the list.
 */
int pp_attr_list_del(struct pp_attr_list *list, struct attribute *attr)
{
	unsigned int i;

	for (i = 0; i < list->nr; i++)
		if (list->attrs[i] == attr)
			break;
	if (i == list->nr)
		return -ENOENT;

	/* Move the rest, terminating NULL included, down by one. */
	memmove(&list->attrs[i], &list->attrs[i + 1],
		(list->nr - i) * sizeof(*list->attrs));
	list->nr--;
	if (list->cap > PP_ATTR_LIST_MIN && list->nr <= list->cap / 4)
		resize(list, list->cap / 2);
	return 0;
}
