// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: its messages on stderr, and the verb running, which
 * they name.  Every other file may call this one; it calls none.
 */
#include <stdarg.h>
#include <stdio.h>

#include "perf-persistent.h"

static const char *pp_verb;

void pp_set_verb(const char *verb)
{
	pp_verb = verb;
}

const char *pp_get_verb(void)
{
	return pp_verb;
}

int pp_error(const char *fmt, ...)
{
	va_list ap;

	fputs("perf persistent: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}
