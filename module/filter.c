// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: trigger filters
 *
 * The tool compiles perf's tracepoint filter syntax against the source's
 * tracefs format into a postfix program (struct perf_persistent_filter_op);
 * the module checks the program once, when the trigger is set, so that
 * running it needs no check beyond each field's bounds.  The program's
 * stack of truth values is a bit mask, which is enough because
 * PERF_PERSISTENT_FILTER_MAX ops never push more than that many values.
 */

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "filter.h"
#include "record.h"

static_assert(PERF_PERSISTENT_FILTER_MAX <= 64);

static bool is_compare(u8 op)
{
	return op >= PERF_PERSISTENT_FILTER_EQ && op <= PERF_PERSISTENT_FILTER_BAND;
}

/**
 * pp_filter_check - is this a program pp_filter_match() may run?
 * @ops: the program, from the caller
 * @nr: number of @ops
 *
 * Process context.
 *
 * Return: 0; -E2BIG above PERF_PERSISTENT_FILTER_MAX ops; -EINVAL for no
 * op, an unknown op or flag, a field size other than 1, 2, 4 or 8, a
 * field that cannot lie in any RAW payload, a non-zero member an op does
 * not use, or a program that pops an empty stack or does not leave
 * exactly one value.
 */
int pp_filter_check(const struct perf_persistent_filter_op *ops,
		    unsigned int nr)
{
	unsigned int i, depth = 0;

	if (nr > PERF_PERSISTENT_FILTER_MAX)
		return -E2BIG;
	if (!nr)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		const struct perf_persistent_filter_op *o = &ops[i];

		if (o->__reserved)
			return -EINVAL;
		if (is_compare(o->op)) {
			if (o->flags & ~PERF_PERSISTENT_FILTER_SIGNED)
				return -EINVAL;
			if (o->size != 1 && o->size != 2 && o->size != 4 &&
			    o->size != 8)
				return -EINVAL;
			if (o->offset > PP_RECORD_RAW_MAX - o->size)
				return -EINVAL;
			depth++;
			continue;
		}
		if (o->flags || o->size || o->offset || o->value)
			return -EINVAL;
		switch (o->op) {
		case PERF_PERSISTENT_FILTER_AND:
		case PERF_PERSISTENT_FILTER_OR:
			if (depth < 2)
				return -EINVAL;
			depth--;
			break;
		case PERF_PERSISTENT_FILTER_NOT:
			if (!depth)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	return depth == 1 ? 0 : -EINVAL;
}

/**
 * pp_filter_text_check - may @text be shown as a filter?
 * @text: NUL-terminated
 *
 * Return: 0; -EINVAL if it holds a character that is not printable (a
 * newline would split the sysfs line it is shown in).
 */
int pp_filter_text_check(const char *text)
{
	for (; *text; text++)
		if (!isprint(*text))
			return -EINVAL;
	return 0;
}

/* The field @o compares, widened to 64 bits as its sign says. */
static u64 load_field(const struct perf_persistent_filter_op *o,
		      const u8 *p)
{
	bool sign = o->flags & PERF_PERSISTENT_FILTER_SIGNED;
	u16 v16;
	u32 v32;
	u64 v64;

	switch (o->size) {
	case 1:
		return sign ? (u64)(s8)*p : *p;
	case 2:
		memcpy(&v16, p, sizeof(v16));
		return sign ? (u64)(s16)v16 : v16;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		return sign ? (u64)(s32)v32 : v32;
	default:
		memcpy(&v64, p, sizeof(v64));
		return v64;
	}
}

static bool compare(const struct perf_persistent_filter_op *o, u64 field)
{
	bool sign = o->flags & PERF_PERSISTENT_FILTER_SIGNED;
	s64 a = (s64)field, b = (s64)o->value;

	switch (o->op) {
	case PERF_PERSISTENT_FILTER_EQ:
		return field == o->value;
	case PERF_PERSISTENT_FILTER_NE:
		return field != o->value;
	case PERF_PERSISTENT_FILTER_LT:
		return sign ? a < b : field < o->value;
	case PERF_PERSISTENT_FILTER_LE:
		return sign ? a <= b : field <= o->value;
	case PERF_PERSISTENT_FILTER_GT:
		return sign ? a > b : field > o->value;
	case PERF_PERSISTENT_FILTER_GE:
		return sign ? a >= b : field >= o->value;
	default:	/* BAND */
		return field & o->value;
	}
}

/**
 * pp_filter_match - does a record's RAW payload match the filter?
 * @f: a filter whose ops pp_filter_check() accepted
 * @raw: the payload
 * @size: its bytes
 *
 * Any context, NMI included.
 */
bool pp_filter_match(const struct pp_filter *f, const void *raw, u32 size)
{
	u64 stack = 0;	/* bit 0: the top */
	unsigned int i;
	bool v;

	for (i = 0; i < f->nr; i++) {
		const struct perf_persistent_filter_op *o = &f->ops[i];

		switch (o->op) {
		case PERF_PERSISTENT_FILTER_AND:
			v = (stack & 1) && (stack & 2);
			stack = (stack >> 2) << 1 | v;
			break;
		case PERF_PERSISTENT_FILTER_OR:
			v = (stack & 1) || (stack & 2);
			stack = (stack >> 2) << 1 | v;
			break;
		case PERF_PERSISTENT_FILTER_NOT:
			stack ^= 1;
			break;
		default:
			v = o->offset + o->size <= size &&
			    compare(o, load_field(o, (const u8 *)raw + o->offset));
			stack = stack << 1 | v;
			break;
		}
	}
	return stack & 1;
}
