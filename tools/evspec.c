// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: event names as perf spells them, sizes, sample
 * fields.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/hw_breakpoint.h>

#include "perf-persistent.h"

struct named {
	const char		*name;
	unsigned long long	config;
};

static const struct named sw_events[] = {
	{ "cpu-clock",		PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock",		PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults",	PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults",		PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches",	PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs",			PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",	PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations",		PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults",	PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults",	PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults",	PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults",	PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy",		PERF_COUNT_SW_DUMMY },
};

static const struct named hw_events[] = {
	{ "cycles",		PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles",		PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",	PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references",	PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",	PERF_COUNT_HW_CACHE_MISSES },
	{ "branches",		PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",	PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",		PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles",		PERF_COUNT_HW_REF_CPU_CYCLES },
};

static const struct named fields[] = {
	{ "identifier",	PERF_SAMPLE_IDENTIFIER },
	{ "ip",		PERF_SAMPLE_IP },
	{ "tid",	PERF_SAMPLE_TID },
	{ "time",	PERF_SAMPLE_TIME },
	{ "addr",	PERF_SAMPLE_ADDR },
	{ "id",		PERF_SAMPLE_ID },
	{ "cpu",	PERF_SAMPLE_CPU },
	{ "period",	PERF_SAMPLE_PERIOD },
	{ "callchain",	PERF_SAMPLE_CALLCHAIN },
	{ "raw",	PERF_SAMPLE_RAW },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *tracefs_override;

void tracefs_set_dir(const char *dir)
{
	tracefs_override = dir;
}

static bool has_events(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", dir);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

const char *tracefs_dir(void)
{
	static char found[PATH_MAX];
	static int said;
	char line[PATH_MAX + 64];
	FILE *mounts;

	if (tracefs_override)
		return tracefs_override;
	if (found[0])
		return found;
	mounts = fopen("/proc/mounts", "r");
	while (mounts && fgets(line, sizeof(line), mounts)) {
		char dev[64], dir[PATH_MAX], type[64];

		if (sscanf(line, "%63s %4095s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "tracefs") && has_events(dir)) {
			snprintf(found, sizeof(found), "%s", dir);
			break;
		}
	}
	if (mounts)
		fclose(mounts);
	if (found[0])
		return found;
	/* Say it once, however many callers ask. */
	if (!said++)
		pp_error("tracefs is not mounted; mount it with: mount -t tracefs nodev /sys/kernel/tracing");
	return NULL;
}

char *tracefs_read(const char *rel, size_t *len)
{
	const char *dir = tracefs_dir();
	char path[PATH_MAX], *buf = NULL, *grown;
	size_t n = 0, cap = 0, got;
	FILE *f;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/events/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	/* tracefs files report no size, so read until EOF. */
	do {
		if (n + 4096 + 1 > cap) {
			cap = (cap + 4096) * 2;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * Read the number in tracefs file events/@rel, an event's id.  Returns
 * false if there is none.
 */
static bool read_event_id(const char *rel, unsigned long long *id)
{
	size_t len;
	char *buf = tracefs_read(rel, &len), *end;
	bool ok;

	if (!buf)
		return false;
	*id = strtoull(buf, &end, 10);
	ok = end != buf;
	free(buf);
	return ok;
}

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/*
 * Make a default persistent event name from @s.  It is made of [a-z0-9_]
 * and starts with a letter.
 */
static void default_name(const char *s, char *name)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s))
		n = snprintf(name, PERF_PERSISTENT_NAME_MAX, "ev_");
	for (; *s && n < PERF_PERSISTENT_NAME_MAX - 1; s++) {
		char c = tolower((unsigned char)*s);

		name[n++] = name_char_ok(c) ? c : '_';
	}
	name[n] = '\0';
}

static int parse_tracepoint(const char *spec, struct perf_event_attr *attr,
			    char *name)
{
	const char *colon = strchr(spec, ':');
	unsigned long long id;
	char rel[512];

	if (strchr(colon + 1, ':') || strchr(spec, '/') || strchr(spec, '.') ||
	    colon == spec || !colon[1])
		return pp_error("unknown event '%s'", spec);
	snprintf(rel, sizeof(rel), "%.*s/%s/id", (int)(colon - spec), spec,
		 colon + 1);
	if (!tracefs_dir())
		return -1;
	if (!read_event_id(rel, &id))
		return pp_error("unknown tracepoint '%s' (no events/%.*s/%s in tracefs)",
				spec, (int)(colon - spec), spec, colon + 1);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	default_name(colon + 1, name);
	return 0;
}

/*
 * Is @spec system:name, rather than perf's event:modifiers (cycles:u,
 * cpu-clock:k)?  A modifier part is made of perf's modifier letters only,
 * and it follows the name of a hardware or software event or rNNN.
 */
static bool has_tracepoint_shape(const char *spec)
{
	const char *colon = strchr(spec, ':');
	size_t i, len = colon - spec;

	if (strspn(colon + 1, "ukhHGIpPSDWeb") != strlen(colon + 1))
		return true;
	for (i = 0; i < ARRAY_SIZE(sw_events); i++)
		if (strlen(sw_events[i].name) == len &&
		    !strncmp(spec, sw_events[i].name, len))
			return false;
	for (i = 0; i < ARRAY_SIZE(hw_events); i++)
		if (strlen(hw_events[i].name) == len &&
		    !strncmp(spec, hw_events[i].name, len))
			return false;
	return !(spec[0] == 'r' && len > 1 &&
		 strspn(spec + 1, "0123456789abcdefABCDEF") == len - 1);
}

/* Parse a breakpoint, spelled mem:ADDR[/LEN][:rwx]. */
static int parse_breakpoint(const char *spec, struct perf_event_attr *attr,
			    char *name)
{
	const char *p = spec + 4;
	unsigned long long addr, len = 0;
	unsigned int type = 0;
	char *end;

	errno = 0;
	addr = strtoull(p, &end, 0);
	if (end == p || errno)
		return pp_error("bad breakpoint '%s': expected mem:ADDR[/LEN][:rwx]",
				spec);
	p = end;
	if (*p == '/') {
		len = strtoull(p + 1, &end, 0);
		if (end == p + 1 || (len != 1 && len != 2 && len != 4 && len != 8))
			return pp_error("bad breakpoint length in '%s': 1, 2, 4 or 8",
					spec);
		p = end;
	}
	if (*p == ':') {
		for (p++; *p; p++) {
			unsigned int bit = *p == 'r' ? HW_BREAKPOINT_R :
					   *p == 'w' ? HW_BREAKPOINT_W :
					   *p == 'x' ? HW_BREAKPOINT_X : 0;

			if (!bit || (type & bit))
				return pp_error("bad breakpoint access in '%s': r, w and x, each once",
						spec);
			type |= bit;
		}
	} else if (*p) {
		return pp_error("bad breakpoint '%s': expected mem:ADDR[/LEN][:rwx]",
				spec);
	}
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if ((type & HW_BREAKPOINT_X) && type != HW_BREAKPOINT_X)
		return pp_error("bad breakpoint access in '%s': x cannot be combined with r or w",
				spec);
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->bp_addr = addr;
	attr->bp_type = type;
	attr->bp_len = type == HW_BREAKPOINT_X ? sizeof(long) : len ? len : 4;
	snprintf(name, PERF_PERSISTENT_NAME_MAX, "mem_%llx", addr);
	name[PERF_PERSISTENT_NAME_MAX - 1] = '\0';
	return 0;
}

int parse_event(const char *spec, struct perf_event_attr *attr, char *name)
{
	size_t i;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if (!*spec)
		return pp_error("no event given");
	if (!strncmp(spec, "mem:", 4))
		return parse_breakpoint(spec, attr, name);
	/*
	 * Refuse perf's spellings that do not name one event in every mode.  A
	 * pattern names many events, and a modifier limits the modes.
	 */
	if (strpbrk(spec, "*?{["))
		return pp_error("'%s': a pattern names many events; a persistent event records one (create one per event)",
				spec);
	if (strchr(spec, ':') && !has_tracepoint_shape(spec))
		return pp_error("'%s': event modifiers (:u, :k, :p, ...) are not supported: a persistent event records what its source sees in every mode",
				spec);
	if (strchr(spec, ':'))
		return parse_tracepoint(spec, attr, name);
	for (i = 0; i < ARRAY_SIZE(sw_events); i++) {
		if (!strcmp(spec, sw_events[i].name)) {
			attr->type = PERF_TYPE_SOFTWARE;
			attr->config = sw_events[i].config;
			default_name(spec, name);
			return 0;
		}
	}
	for (i = 0; i < ARRAY_SIZE(hw_events); i++) {
		if (!strcmp(spec, hw_events[i].name)) {
			attr->type = PERF_TYPE_HARDWARE;
			attr->config = hw_events[i].config;
			default_name(spec, name);
			return 0;
		}
	}
	if (spec[0] == 'r' && spec[1] && strspn(spec + 1, "0123456789abcdefABCDEF") ==
	    strlen(spec + 1) && strlen(spec + 1) <= 16) {
		attr->type = PERF_TYPE_RAW;
		attr->config = strtoull(spec + 1, NULL, 16);
		default_name(spec, name);
		return 0;
	}
	return pp_error("unknown event '%s' (a tracepoint is spelled system:name, e.g. mce:mce_record)",
			spec);
}

int parse_size(const char *s, unsigned long long *bytes)
{
	unsigned long long v, mult = 1;
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno)
		goto bad;
	switch (toupper((unsigned char)*end)) {
	case '\0':
		break;
	case 'K':
		mult = 1ULL << 10;
		break;
	case 'M':
		mult = 1ULL << 20;
		break;
	case 'G':
		mult = 1ULL << 30;
		break;
	default:
		goto bad;
	}
	if (*end && end[1] && strcasecmp(end + 1, "B") && strcasecmp(end + 1, "iB"))
		goto bad;
	if (v > PERF_PERSISTENT_BUFFER_MAX / mult)
		goto bad;
	v *= mult;
	if (v < 4096 || (v & (v - 1)))
		goto bad;
	*bytes = v;
	return 0;
bad:
	return pp_error("bad buffer size '%s': a power of two from 4K to %lluM",
			s, PERF_PERSISTENT_BUFFER_MAX >> 20);
}

int parse_fields(const char *s, unsigned long long *sample_type)
{
	unsigned long long st = 0;
	const char *p = s;

	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < ARRAY_SIZE(fields); i++)
			if (strlen(fields[i].name) == len &&
			    !strncmp(p, fields[i].name, len))
				break;
		if (i == ARRAY_SIZE(fields))
			return pp_error("unknown sample field '%.*s' (known: identifier,ip,tid,time,addr,id,cpu,period,callchain,raw)",
					(int)len, p);
		st |= fields[i].config;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!st)
		return pp_error("no sample fields given");
	*sample_type = st;
	return 0;
}

void format_fields(unsigned long long sample_type, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(fields) && n < len; i++)
		if (sample_type & fields[i].config)
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      fields[i].name);
}

void format_size(unsigned long long bytes, char *buf, size_t len)
{
	if (bytes >= (1ULL << 20) && !(bytes & ((1ULL << 20) - 1)))
		snprintf(buf, len, "%lluM", bytes >> 20);
	else if (bytes >= 1024 && !(bytes & 1023))
		snprintf(buf, len, "%lluK", bytes >> 10);
	else
		snprintf(buf, len, "%llu", bytes);
}

/* Tracepoints by id: those learnt, then, once needed, all of tracefs's. */
static struct tp {
	unsigned long long id;
	char *name;
} *tps;
static size_t nr_tps;

static const char *tracepoint_known(unsigned long long id)
{
	size_t i;

	for (i = 0; i < nr_tps; i++)
		if (tps[i].id == id)
			return tps[i].name;
	return NULL;
}

void tracepoint_learn(unsigned long long id, const char *name)
{
	struct tp *grown;

	if (tracepoint_known(id))
		return;
	grown = realloc(tps, (nr_tps + 1) * sizeof(*tps));
	if (!grown)
		return;
	tps = grown;
	tps[nr_tps].id = id;
	tps[nr_tps].name = strdup(name);
	if (tps[nr_tps].name)
		nr_tps++;
}

/* Learn every tracepoint tracefs has: once, and only for an id not learnt. */
static void tracepoint_scan(void)
{
	static bool scanned;
	char path[PATH_MAX];
	struct dirent *s;
	const char *dir;
	DIR *sys;

	if (scanned)
		return;
	scanned = true;
	dir = tracefs_dir();
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/events", dir);
	sys = opendir(path);
	while (sys && (s = readdir(sys))) {
		struct dirent *e;
		DIR *evs;

		if (s->d_name[0] == '.' || s->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, s->d_name);
		evs = opendir(path);
		while (evs && (e = readdir(evs))) {
			unsigned long long id;
			char rel[600];

			if (e->d_name[0] == '.' || e->d_type != DT_DIR)
				continue;
			snprintf(rel, sizeof(rel), "%s/%s/id", s->d_name,
				 e->d_name);
			if (!read_event_id(rel, &id))
				continue;
			snprintf(rel, sizeof(rel), "%s:%s", s->d_name,
				 e->d_name);
			tracepoint_learn(id, rel);
		}
		if (evs)
			closedir(evs);
	}
	if (sys)
		closedir(sys);
}

bool tracepoint_name(unsigned long long id, char *buf, size_t len)
{
	const char *name = tracepoint_known(id);

	if (!name) {
		tracepoint_scan();
		name = tracepoint_known(id);
	}
	if (!name)
		return false;
	snprintf(buf, len, "%s", name);
	return true;
}

void format_source(const struct perf_event_attr *attr, char *buf, size_t len)
{
	const struct named *table = NULL;
	size_t i, n = 0;

	switch (attr->type) {
	case PERF_TYPE_TRACEPOINT:
		if (!tracepoint_name(attr->config, buf, len))
			snprintf(buf, len, "tracepoint:%llu",
				 (unsigned long long)attr->config);
		return;
	case PERF_TYPE_SOFTWARE:
		table = sw_events;
		n = ARRAY_SIZE(sw_events);
		break;
	case PERF_TYPE_HARDWARE:
		table = hw_events;
		n = ARRAY_SIZE(hw_events);
		break;
	case PERF_TYPE_BREAKPOINT: {
		char acc[4] = "";
		int k = 0;

		if (attr->bp_type & HW_BREAKPOINT_R)
			acc[k++] = 'r';
		if (attr->bp_type & HW_BREAKPOINT_W)
			acc[k++] = 'w';
		if (attr->bp_type & HW_BREAKPOINT_X)
			acc[k++] = 'x';
		acc[k] = '\0';
		if (attr->bp_type & HW_BREAKPOINT_X)
			snprintf(buf, len, "mem:0x%llx:%s",
				 (unsigned long long)attr->bp_addr, acc);
		else
			snprintf(buf, len, "mem:0x%llx/%llu:%s",
				 (unsigned long long)attr->bp_addr,
				 (unsigned long long)attr->bp_len, acc);
		return;
	}
	case PERF_TYPE_RAW:
		snprintf(buf, len, "r%llx", (unsigned long long)attr->config);
		return;
	}
	for (i = 0; i < n; i++) {
		if (table[i].config == attr->config) {
			snprintf(buf, len, "%s", table[i].name);
			return;
		}
	}
	snprintf(buf, len, "type=%u,config=0x%llx", attr->type,
		 (unsigned long long)attr->config);
}

void format_desc_source(const struct pp_event_desc *desc, char *buf,
			size_t len)
{
	if (desc->tracepoint[0])
		snprintf(buf, len, "%s", desc->tracepoint);
	else
		format_source(&desc->attr, buf, len);
}

/*
 * What perf persistent create samples when given neither -c nor -F: every
 * tracepoint hit, breakpoint hit and software event, a clock every
 * millisecond, and hardware, cache and raw counters (billions of events a
 * second) at PP_DEFAULT_FREQ samples a second, as perf record does.
 */
void default_sampling(struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_SOFTWARE:
		/* perf's clocks count nanoseconds. */
		attr->sample_period = attr->config == PERF_COUNT_SW_CPU_CLOCK ||
				      attr->config == PERF_COUNT_SW_TASK_CLOCK ?
				      1000000 : 1;
		break;
	case PERF_TYPE_TRACEPOINT:
	case PERF_TYPE_BREAKPOINT:
		attr->sample_period = 1;
		break;
	default:
		attr->freq = 1;
		attr->sample_freq = PP_DEFAULT_FREQ;
		break;
	}
}
