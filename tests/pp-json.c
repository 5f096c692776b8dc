// SPDX-License-Identifier: GPL-2.0
/*
 * pp-json - check that every line of standard input is one JSON object
 * (RFC 8259, strictly) and print, per line, the values at the given paths
 * separated by spaces ("-" where a path is absent).  A path is member
 * names joined by dots: "fields.status".  Exits 1 at the first line that
 * is not a JSON object, saying where.  The guest has no JSON parser of its
 * own; this is the one the tests use.
 *
 * pp-json [PATH...] <FILE
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p;
static int npaths;
static char **paths;
static char found[16][256];

static int fail(const char *what)
{
	fprintf(stderr, "pp-json: %s at '%.20s'\n", what, p);
	return -1;
}

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
}

/* A string; its raw text (escapes kept) into @out when non-NULL. */
static int string(char *out, size_t len)
{
	size_t n = 0;

	if (*p++ != '"')
		return fail("expected a string");
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return fail("control character in string");
		if (*p == '\\') {
			if (out && n < len - 1)
				out[n++] = *p;
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return fail("bad \\u escape");
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return fail("bad escape");
			}
		}
		if (out && n < len - 1)
			out[n++] = *p;
		p++;
	}
	p++;
	if (out)
		out[n] = '\0';
	return 0;
}

static int number(void)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return fail("bad number");
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return fail("bad fraction");
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return fail("bad exponent");
		while (isdigit((unsigned char)*p))
			p++;
	}
	return 0;
}

static int value(const char *path);

static void record(const char *path, const char *start)
{
	int i;

	for (i = 0; i < npaths; i++)
		if (!strcmp(path, paths[i]))
			snprintf(found[i], sizeof(found[i]), "%.*s",
				 (int)(p - start), start);
}

static int object(const char *path)
{
	char key[256], sub[512];

	p++;
	ws();
	if (*p == '}') {
		p++;
		return 0;
	}
	for (;;) {
		ws();
		if (string(key, sizeof(key)))
			return -1;
		ws();
		if (*p++ != ':')
			return fail("expected ':'");
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
		if (value(sub))
			return -1;
		ws();
		if (*p == '}') {
			p++;
			return 0;
		}
		if (*p++ != ',')
			return fail("expected ',' or '}'");
	}
}

static int array(void)
{
	p++;
	ws();
	if (*p == ']') {
		p++;
		return 0;
	}
	for (;;) {
		if (value(""))
			return -1;
		ws();
		if (*p == ']') {
			p++;
			return 0;
		}
		if (*p++ != ',')
			return fail("expected ',' or ']'");
	}
}

static int value(const char *path)
{
	const char *start;
	int ret;

	ws();
	start = p;
	if (*p == '{')
		ret = object(path);
	else if (*p == '[')
		ret = array();
	else if (*p == '"')
		ret = string(NULL, 0);
	else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		p += 4, ret = 0;
	else if (!strncmp(p, "false", 5))
		p += 5, ret = 0;
	else
		ret = number();
	if (!ret && *path)
		record(path, start);
	return ret;
}

int main(int argc, char **argv)
{
	static char line[1 << 16];
	int n = 0, i;

	npaths = argc - 1 < 16 ? argc - 1 : 16;
	paths = argv + 1;
	while (fgets(line, sizeof(line), stdin)) {
		n++;
		for (i = 0; i < npaths; i++)
			strcpy(found[i], "-");
		p = line;
		ws();
		if (*p != '{' || value("") || (ws(), *p)) {
			fprintf(stderr, "pp-json: line %d is not one JSON object\n", n);
			return 1;
		}
		for (i = 0; i < npaths; i++)
			printf("%s%s", i ? " " : "", found[i]);
		if (npaths)
			printf("\n");
	}
	return 0;
}
