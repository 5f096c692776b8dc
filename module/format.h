/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Format terms of the persistent PMU in the attr<num>:<mask> model.
 *
 * A term names a bit field of struct perf_event_attr: <num> is the index of
 * a u64 word of the struct, <mask> the bits of that word the field occupies.
 * This is the spelling proposed with the original persistent events (seed
 * "perf, persistent: Add persistent events", v3).  perf 6.1 only parses the
 * config/config1/config2 spelling and drops the whole PMU on anything else,
 * so both spellings are derived here from one definition.
 *
 * All functions are pure: no locks, no allocation, any context.
 */
#ifndef _PERF_PERSISTENT_FORMAT_H
#define _PERF_PERSISTENT_FORMAT_H

#include <linux/types.h>

struct perf_event_attr;

/* u64 words of struct perf_event_attr that perf 6.1 can name. */
#define PP_ATTR_WORD_CONFIG	1	/* perf_event_attr::config */
#define PP_ATTR_WORD_CONFIG1	7	/* perf_event_attr::config1 */
#define PP_ATTR_WORD_CONFIG2	8	/* perf_event_attr::config2 */

/* Longest rendering of a term: "attr15:" plus 32 single bits "0,2,...". */
#define PP_FORMAT_MAX_LEN	192

/**
 * struct pp_format_term - one bit field of perf_event_attr
 * @name: term name as it appears in format/ and in perf's event syntax
 * @word: index of the u64 word of struct perf_event_attr
 * @mask: bits of that word the field occupies; need not be contiguous
 */
struct pp_format_term {
	const char *name;
	unsigned int word;
	u64 mask;
};

int pp_format_attr_spelling(const struct pp_format_term *term, char *buf,
			    size_t len);
int pp_format_perf_spelling(const struct pp_format_term *term, char *buf,
			    size_t len);
int pp_format_parse(const char *str, unsigned int *word, u64 *mask);

u64 pp_format_get(const struct perf_event_attr *attr,
		  const struct pp_format_term *term);
int pp_format_set(struct perf_event_attr *attr,
		  const struct pp_format_term *term, u64 value);
bool pp_format_covers(const struct perf_event_attr *attr,
		      const struct pp_format_term *const *terms,
		      unsigned int nr_terms);

#endif /* _PERF_PERSISTENT_FORMAT_H */
