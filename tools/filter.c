// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: trigger filters in perf's tracepoint filter syntax
 * ("bank == 4 && status & 0x8000000000000000"), compiled against the
 * source's tracefs format into the module's postfix program (struct
 * perf_persistent_filter_op).
 *
 *   expr    := and ( "||" and )*
 *   and     := unary ( "&&" unary )*
 *   unary   := "!" unary | "(" expr ")" | FIELD OP NUMBER
 *   OP      := "==" | "!=" | "<" | "<=" | ">" | ">=" | "&"
 *   NUMBER  := C integer syntax, optionally negative
 *
 * Fields are the tracepoint's numeric fields, common_* included.  String
 * and array fields are refused, because the module compares numbers only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "perf-persistent.h"

struct parser {
	const char				*text;
	const char				*pos;
	struct tep_event			*event;
	struct perf_persistent_filter_op	*ops;
	unsigned int				nr, max;
	bool					failed;
};

static int fail(struct parser *p, const char *fmt, const char *what)
{
	if (!p->failed)
		pp_error("filter '%s', column %d: %s%s", p->text,
			 (int)(p->pos - p->text) + 1, fmt, what);
	p->failed = true;
	return -1;
}

static void skip_space(struct parser *p)
{
	while (isspace((unsigned char)*p->pos))
		p->pos++;
}

/* Consume @tok if it comes next. */
static bool take(struct parser *p, const char *tok)
{
	size_t n = strlen(tok);

	skip_space(p);
	if (strncmp(p->pos, tok, n))
		return false;
	p->pos += n;
	return true;
}

static int emit(struct parser *p, struct perf_persistent_filter_op op)
{
	if (p->nr == p->max)
		return fail(p, "too complex: more than 32 steps", "");
	p->ops[p->nr++] = op;
	return 0;
}

static int emit_logic(struct parser *p, unsigned char op)
{
	return emit(p, (struct perf_persistent_filter_op){ .op = op });
}

static const struct {
	const char	*tok;
	unsigned char	op;
} compare_ops[] = {	/* longest first: "<=" before "<" */
	{ "==", PERF_PERSISTENT_FILTER_EQ },
	{ "!=", PERF_PERSISTENT_FILTER_NE },
	{ "<=", PERF_PERSISTENT_FILTER_LE },
	{ ">=", PERF_PERSISTENT_FILTER_GE },
	{ "<",	PERF_PERSISTENT_FILTER_LT },
	{ ">",	PERF_PERSISTENT_FILTER_GT },
	{ "&",	PERF_PERSISTENT_FILTER_BAND },
};

static int parse_compare(struct parser *p)
{
	struct perf_persistent_filter_op op = { 0 };
	struct tep_format_field *field;
	char name[64], *end;
	size_t n = 0, i;

	skip_space(p);
	while ((isalnum((unsigned char)p->pos[n]) || p->pos[n] == '_') &&
	       n < sizeof(name) - 1)
		n++;
	if (!n)
		return fail(p, "expected a field name, '(' or '!'", "");
	memcpy(name, p->pos, n);
	name[n] = '\0';
	field = tep_find_any_field(p->event, name);
	if (!field)
		return fail(p, "no such field in the source's format: ", name);
	if (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
			    TEP_FIELD_IS_DYNAMIC) ||
	    (field->size != 1 && field->size != 2 && field->size != 4 &&
	     field->size != 8))
		return fail(p, "only numeric fields can be compared, not ", name);
	p->pos += n;
	for (i = 0; i < sizeof(compare_ops) / sizeof(compare_ops[0]); i++)
		if (take(p, compare_ops[i].tok))
			break;
	/* "&&" is not a bit test, so "a && b" lacks a comparison. */
	if (i == sizeof(compare_ops) / sizeof(compare_ops[0]) ||
	    (compare_ops[i].op == PERF_PERSISTENT_FILTER_BAND && *p->pos == '&')) {
		skip_space(p);
		if (*p->pos == '~')
			return fail(p, "string matching is not supported", "");
		return fail(p, "expected ==, !=, <, <=, >, >= or & after ", name);
	}
	op.op = compare_ops[i].op;
	skip_space(p);
	if (*p->pos == '"')
		return fail(p, "only numbers can be compared, not strings", "");
	errno = 0;
	op.value = *p->pos == '-' ? (unsigned long long)strtoll(p->pos, &end, 0) :
				    strtoull(p->pos, &end, 0);
	if (end == p->pos || errno || isalnum((unsigned char)*end) || *end == '_')
		return fail(p, "expected a number", "");
	p->pos = end;
	op.size = field->size;
	op.offset = field->offset;
	if (field->flags & TEP_FIELD_IS_SIGNED)
		op.flags = PERF_PERSISTENT_FILTER_SIGNED;
	return emit(p, op);
}

static int parse_or(struct parser *p);

static int parse_unary(struct parser *p)
{
	/*
	 * Here "!" is a negation.  "!=" only follows a field name, where
	 * parse_compare() takes it; a "!=" here fails at its "=", which
	 * cannot start a field name.
	 */
	if (take(p, "!"))
		return parse_unary(p) ?: emit_logic(p, PERF_PERSISTENT_FILTER_NOT);
	if (take(p, "(")) {
		if (parse_or(p))
			return -1;
		if (!take(p, ")"))
			return fail(p, "expected ')'", "");
		return 0;
	}
	return parse_compare(p);
}

static int parse_and(struct parser *p)
{
	if (parse_unary(p))
		return -1;
	while (take(p, "&&"))
		if (parse_unary(p) || emit_logic(p, PERF_PERSISTENT_FILTER_AND))
			return -1;
	return 0;
}

static int parse_or(struct parser *p)
{
	if (parse_and(p))
		return -1;
	while (take(p, "||"))
		if (parse_and(p) || emit_logic(p, PERF_PERSISTENT_FILTER_OR))
			return -1;
	return 0;
}

int filter_compile(const struct perf_event_attr *attr, const char *expr,
		   struct perf_persistent_filter_op *ops, unsigned int max)
{
	struct parser p = { .text = expr, .pos = expr, .ops = ops, .max = max };
	struct pp_printer *printer;
	int ret = -1;

	if (attr->type != PERF_TYPE_TRACEPOINT ||
	    !(attr->sample_type & PERF_SAMPLE_RAW))
		return pp_error("--filter needs a tracepoint source that records its fields (raw)");
	if (strlen(expr) >= PERF_PERSISTENT_FILTER_TEXT_MAX)
		return pp_error("filter longer than %d characters",
				PERF_PERSISTENT_FILTER_TEXT_MAX - 1);
	printer = printer_new(attr);
	if (!printer)
		return -1;
	p.event = printer_tep_event(printer);
	if (!parse_or(&p)) {
		skip_space(&p);
		if (*p.pos)
			fail(&p, "expected &&, || or the end", "");
		else
			ret = p.nr;
	}
	printer_free(printer);
	return ret;
}
