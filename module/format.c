// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: format terms in the attr<num>:<mask> model
 *
 * Renders a term in the original "attr<num>:<bits>" spelling and in perf
 * 6.1's "config[N]:<bits>" spelling, parses either spelling back, and moves
 * a term's value into and out of a struct perf_event_attr the way the perf
 * tool does (value bits are scattered over the set bits of the mask, lowest
 * first).  Pure functions: callable in any context.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "format.h"

#define PP_ATTR_WORDS	(sizeof(struct perf_event_attr) / sizeof(u64))

/* struct perf_event_attr is made of naturally aligned u64 words. */
static u64 attr_word(const struct perf_event_attr *attr, unsigned int word)
{
	return ((const u64 *)attr)[word];
}

static bool term_valid(const struct pp_format_term *term)
{
	return term->word < PP_ATTR_WORDS && term->mask;
}

/* Append "<lo>[-<hi>],..." for the set bits of @mask to @buf at @pos. */
static int format_bits(u64 mask, char *buf, size_t len, size_t pos)
{
	const char *sep = "";

	while (mask) {
		unsigned int lo = __ffs64(mask), hi = lo;
		int n;

		while (hi < 63 && (mask & BIT_ULL(hi + 1)))
			hi++;
		if (hi == lo)
			n = snprintf(buf + pos, len - pos, "%s%u", sep, lo);
		else
			n = snprintf(buf + pos, len - pos, "%s%u-%u", sep, lo,
				     hi);
		if (n < 0 || n >= len - pos)
			return -ENOSPC;
		pos += n;
		mask &= ~GENMASK_ULL(hi, lo);
		sep = ",";
	}
	return pos;
}

/**
 * pp_format_attr_spelling - render @term as "attr<num>:<bits>"
 * @term: the term
 * @buf: output, NUL-terminated, no trailing newline
 * @len: size of @buf
 *
 * Return: length written, -EINVAL for an invalid term, -ENOSPC if @buf is
 * too small.
 */
int pp_format_attr_spelling(const struct pp_format_term *term, char *buf,
			    size_t len)
{
	int n;

	if (!term_valid(term))
		return -EINVAL;
	n = snprintf(buf, len, "attr%u:", term->word);
	if (n < 0 || n >= len)
		return -ENOSPC;
	return format_bits(term->mask, buf, len, n);
}

/**
 * pp_format_perf_spelling - render @term as perf 6.1 parses it
 * @term: the term
 * @buf: output, NUL-terminated, no trailing newline
 * @len: size of @buf
 *
 * perf 6.1 knows config, config1 and config2 only; one format file it cannot
 * parse makes it ignore the whole PMU, so a term in any other word is refused
 * rather than rendered.
 *
 * Return: length written, -EINVAL for an invalid term, -EOPNOTSUPP for a word
 * perf cannot name, -ENOSPC if @buf is too small.
 */
int pp_format_perf_spelling(const struct pp_format_term *term, char *buf,
			    size_t len)
{
	const char *name;
	int n;

	if (!term_valid(term))
		return -EINVAL;
	switch (term->word) {
	case PP_ATTR_WORD_CONFIG:
		name = "config";
		break;
	case PP_ATTR_WORD_CONFIG1:
		name = "config1";
		break;
	case PP_ATTR_WORD_CONFIG2:
		name = "config2";
		break;
	default:
		return -EOPNOTSUPP;
	}
	n = snprintf(buf, len, "%s:", name);
	if (n < 0 || n >= len)
		return -ENOSPC;
	return format_bits(term->mask, buf, len, n);
}

/* Parse a decimal number no larger than @max; advance *@p past it. */
static int parse_uint(const char **p, unsigned int max, unsigned int *out)
{
	const char *s = *p;
	unsigned int v = 0;

	if (!isdigit(*s))
		return -EINVAL;
	while (isdigit(*s)) {
		v = v * 10 + (*s - '0');
		if (v > max)
			return -EINVAL;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

/**
 * pp_format_parse - parse a term definition in either spelling
 * @str: "attr<num>:<bits>" or "config[N]:<bits>", N one of 1 and 2; <bits>
 *	 is a comma-separated list of bit numbers and ranges "lo-hi"; one
 *	 trailing newline is accepted
 * @word: on success, the u64 word index into struct perf_event_attr
 * @mask: on success, the bits of that word
 *
 * Return: 0, or -EINVAL on any syntax error, a word past the end of
 * struct perf_event_attr, a bit above 63 or a range with lo > hi.
 */
int pp_format_parse(const char *str, unsigned int *word, u64 *mask)
{
	const char *p = str;
	unsigned int w, lo, hi;
	u64 m = 0;

	if (!strncmp(p, "attr", 4)) {
		p += 4;
		if (parse_uint(&p, PP_ATTR_WORDS - 1, &w))
			return -EINVAL;
	} else if (!strncmp(p, "config", 6)) {
		p += 6;
		if (*p == '1' || *p == '2')
			w = *p++ == '1' ? PP_ATTR_WORD_CONFIG1 :
					  PP_ATTR_WORD_CONFIG2;
		else
			w = PP_ATTR_WORD_CONFIG;
	} else {
		return -EINVAL;
	}
	if (*p++ != ':')
		return -EINVAL;

	for (;;) {
		if (parse_uint(&p, 63, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, 63, &hi) || hi < lo)
				return -EINVAL;
		}
		m |= GENMASK_ULL(hi, lo);
		if (*p != ',')
			break;
		p++;
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;

	*word = w;
	*mask = m;
	return 0;
}

/**
 * pp_format_get - read the value of @term from @attr
 * @attr: the attribute
 * @term: a valid term
 *
 * Return: the bits of @attr under the term's mask, gathered into the low
 * bits of the result (lowest mask bit first), as perf deposits them.
 */
u64 pp_format_get(const struct perf_event_attr *attr,
		  const struct pp_format_term *term)
{
	u64 word = attr_word(attr, term->word), mask = term->mask, v = 0;
	unsigned int out = 0;

	while (mask) {
		unsigned int bit = __ffs64(mask);

		if (word & BIT_ULL(bit))
			v |= BIT_ULL(out);
		out++;
		mask &= mask - 1;
	}
	return v;
}

/**
 * pp_format_set - store @value as the value of @term in @attr
 * @attr: the attribute
 * @term: the term
 * @value: the value; its bits are scattered over the set bits of the mask
 *
 * Bits of the word outside the mask are left alone.
 *
 * Return: 0, -EINVAL for an invalid term, -ERANGE if @value has more
 * significant bits than the mask has set bits (nothing is changed then).
 */
int pp_format_set(struct perf_event_attr *attr,
		  const struct pp_format_term *term, u64 value)
{
	u64 *word, mask = term->mask, v = 0;
	unsigned int width, in = 0;

	if (!term_valid(term))
		return -EINVAL;
	width = hweight64(mask);
	if (width < 64 && (value >> width))
		return -ERANGE;

	while (mask) {
		unsigned int bit = __ffs64(mask);

		if (value & BIT_ULL(in))
			v |= BIT_ULL(bit);
		in++;
		mask &= mask - 1;
	}
	word = (u64 *)attr + term->word;
	*word = (*word & ~term->mask) | v;
	return 0;
}

/**
 * pp_format_covers - check that @attr sets no config bit no term names
 * @attr: the attribute
 * @terms: the PMU's terms
 * @nr_terms: number of @terms
 *
 * Return: true if every set bit of config, config1 and config2 lies under
 * the mask of one of @terms.
 */
bool pp_format_covers(const struct perf_event_attr *attr,
		      const struct pp_format_term *const *terms,
		      unsigned int nr_terms)
{
	static const unsigned int words[] = {
		PP_ATTR_WORD_CONFIG, PP_ATTR_WORD_CONFIG1, PP_ATTR_WORD_CONFIG2,
	};
	unsigned int i, t;

	for (i = 0; i < ARRAY_SIZE(words); i++) {
		u64 known = 0;

		for (t = 0; t < nr_terms; t++)
			if (terms[t]->word == words[i])
				known |= terms[t]->mask;
		if (attr_word(attr, words[i]) & ~known)
			return false;
	}
	return true;
}
