// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the perf persistent tool's pure parts: argument
 * parsing (option tables, event specs), the errno messages, record decoding and printing on recorded sample bytes, perf.data
 * writing, crash dumps (made here, and by makedumpfile where it is
 * installed).  Run from tools/tests under valgrind (make -C tools check).
 *
 * data/mce.data is what "perf persistent record mce_record" wrote in the
 * guest after one injected MCE (bank 2, status 0xbe00000000800400);
 * data/tracefs/ holds the mce_record format of that kernel.
 * data/oops-console.log is a guest's console with a crash dump.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <linux/hw_breakpoint.h>

#include "../builtin.h"
#include "../archive.h"
#include "../rasdb.h"
#include "../vmcore.h"

static int passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		passed++;						\
	} else {							\
		failed++;						\
		printf("not ok - %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

/* The argv of a command line: "verb a b ..." (the strings are copied). */
static int make_argv(char **argv, char *buf, const char *line)
{
	int argc = 0;
	char *tok;

	strcpy(buf, line);
	for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return argc;
}

static int opt_twice(const char *arg, void *value)
{
	*(int *)value = 2 * atoi(arg);
	return 0;
}

static void test_options(void)
{
	bool set = false, clear = true, seen = false;
	const char *str = NULL;
	int n = 0, argc;
	const struct pp_opt opts[] = {
		OPT_SET('s', "set", &set),
		OPT_CLEAR(0, "no-clear", &clear),
		OPT_STRING('o', "out", &str),
		OPT_CALL_SEEN(0, "twice", &n, opt_twice, &seen),
		OPT_END
	};
	char buf[256], *argv[16];

	argc = make_argv(argv, buf, "verb -s NAME --no-clear --out f --twice 21");
	optind = 1;
	CHECK(!pp_parse(argc, argv, opts), "a command line of every kind parses");
	CHECK(set && !clear && str && !strcmp(str, "f") && n == 42 && seen,
	      "each option stored: set %d clear %d str %s n %d seen %d", set,
	      clear, str ? str : "(null)", n, seen);
	CHECK(optind == argc - 1 && !strcmp(argv[optind], "NAME"),
	      "the operand is left at optind (%d of %d)", optind, argc);

	argc = make_argv(argv, buf, "verb --bogus");
	optind = 1;
	CHECK(pp_parse(argc, argv, opts) == PP_EXIT_USAGE, "an unknown option");
	argc = make_argv(argv, buf, "verb --out");
	optind = 1;
	CHECK(pp_parse(argc, argv, opts) == PP_EXIT_USAGE,
	      "a long option without its argument");
	argc = make_argv(argv, buf, "verb -o");
	optind = 1;
	CHECK(pp_parse(argc, argv, opts) == PP_EXIT_USAGE,
	      "a short option without its argument");
	argc = make_argv(argv, buf, "verb a -- b c");
	optind = 1;
	{
		char **cmd;

		CHECK(!split_command(&argc, argv, &cmd) && argc == 2 && cmd &&
		      !strcmp(cmd[0], "b"), "-- splits off the command");
	}
}

/* What pp_report() printed on stderr, into @buf. */
static void reported(enum pp_op op, int err, unsigned int when,
		     const char *name, const char *arg, char *buf, size_t len)
{
	FILE *saved = stderr, *f = tmpfile();
	size_t n;

	stderr = f;
	pp_report(op, err, when, name, arg);
	stderr = saved;
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void test_errmsg(void)
{
	char buf[512];

	reported(PP_OP_CREATE, EEXIST, 0, "ev", "cs", buf, sizeof(buf));
	CHECK(strstr(buf, "an event named 'ev' exists already"), "EEXIST: %s", buf);
	reported(PP_OP_CREATE, ESRCH, PP_WHEN_PID, "ev", "42", buf, sizeof(buf));
	CHECK(strstr(buf, "creating 'ev': no process 42"), "ESRCH with a pid: %s", buf);
	reported(PP_OP_CREATE, ESRCH, 0, "ev", "cs", buf, sizeof(buf));
	CHECK(strstr(buf, "creating 'ev' from cs: No such process"),
	      "ESRCH without a pid: the operation's default row: %s", buf);
	reported(PP_OP_ID_VERB, ENOENT, 0, "gone", NULL, buf, sizeof(buf));
	CHECK(strstr(buf, "no persistent event 'gone'"), "ENOENT: %s", buf);
	reported(PP_OP_TRIGGER, EPERM, 0, "t", NULL, buf, sizeof(buf));
	CHECK(strstr(buf, "t: setting the trigger: Operation not permitted"),
	      "EPERM: %s", buf);
}

static void test_sizes(void)
{
	unsigned long long v = 0;

	CHECK(!parse_size("64K", &v) && v == 65536, "64K");
	CHECK(!parse_size("1M", &v) && v == 1 << 20, "1M");
	CHECK(!parse_size("4096", &v) && v == 4096, "4096");
	CHECK(!parse_size("64MiB", &v) && v == 64 << 20, "64MiB");
	CHECK(parse_size("3000", &v), "3000 is no power of two");
	CHECK(parse_size("2K", &v), "below a page");
	CHECK(parse_size("128M", &v), "above the maximum");
	CHECK(parse_size("-4K", &v) && parse_size("K", &v) && parse_size("4Q", &v) &&
	      parse_size("99999999999999999999K", &v), "garbage");
}

static void test_fields(void)
{
	unsigned long long st = 0;
	char buf[128];

	CHECK(!parse_fields("ip,tid,time,raw", &st) &&
	      st == (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		     PERF_SAMPLE_RAW), "ip,tid,time,raw");
	format_fields(st, buf, sizeof(buf));
	CHECK(!strcmp(buf, "ip,tid,time,raw"), "formatted back: %s", buf);
	CHECK(parse_fields("ip,nope", &st), "unknown field");
	CHECK(parse_fields("", &st), "no field");
	CHECK(!parse_fields("ip,callchain", &st) &&
	      st == (PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN), "ip,callchain");
	CHECK(parse_fields("regs_user", &st), "unsupported field");
}

static void test_events(void)
{
	struct perf_event_attr a;
	char name[PERF_PERSISTENT_NAME_MAX], src[256];

	CHECK(!parse_event("cpu-clock", &a, name) && a.type == PERF_TYPE_SOFTWARE &&
	      a.config == PERF_COUNT_SW_CPU_CLOCK && !strcmp(name, "cpu_clock"),
	      "cpu-clock");
	CHECK(!parse_event("cs", &a, name) &&
	      a.config == PERF_COUNT_SW_CONTEXT_SWITCHES, "cs");
	format_source(&a, src, sizeof(src));
	CHECK(!strcmp(src, "context-switches"), "source %s", src);
	CHECK(!parse_event("instructions", &a, name) && a.type == PERF_TYPE_HARDWARE,
	      "instructions");
	CHECK(!parse_event("r1a2b", &a, name) && a.type == PERF_TYPE_RAW &&
	      a.config == 0x1a2b, "raw");
	CHECK(!parse_event("mem:0xffff1000/8:w", &a, name) &&
	      a.type == PERF_TYPE_BREAKPOINT && a.bp_addr == 0xffff1000 &&
	      a.bp_len == 8 && a.bp_type == HW_BREAKPOINT_W &&
	      !strcmp(name, "mem_ffff1000"), "mem:0xffff1000/8:w");
	format_source(&a, src, sizeof(src));
	CHECK(!strcmp(src, "mem:0xffff1000/8:w"), "source %s", src);
	CHECK(!parse_event("mem:0x1000:x", &a, name) && a.bp_type == HW_BREAKPOINT_X &&
	      a.bp_len == sizeof(long), "mem x");
	CHECK(!parse_event("mem:4096", &a, name) &&
	      a.bp_type == (HW_BREAKPOINT_R | HW_BREAKPOINT_W), "mem default rw");
	CHECK(parse_event("mem:0x1000:rr", &a, name), "rr");
	CHECK(parse_event("mem:0x1000:xw", &a, name), "xw");
	CHECK(parse_event("mem:0x1000/3", &a, name), "len 3");
	CHECK(parse_event("mem:zz", &a, name), "mem:zz");
	CHECK(parse_event("no-such-event", &a, name), "unknown");
	CHECK(parse_event("", &a, name), "empty");

	CHECK(!parse_event("mce:mce_record", &a, name) &&
	      a.type == PERF_TYPE_TRACEPOINT && a.config == 113 &&
	      !strcmp(name, "mce_record"), "tracepoint");
	format_source(&a, src, sizeof(src));
	CHECK(!strcmp(src, "mce:mce_record"), "source %s", src);
	CHECK(parse_event("mce:nope", &a, name), "unknown tracepoint");

	/*
	 * A tracepoint the module named (sysfs instances/<name>/tracepoint)
	 * is named without tracefs, and a described event's own name wins
	 * over its id's: a previous boot's id is that boot's.
	 */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = 987654;
	format_source(&a, src, sizeof(src));
	CHECK(!strcmp(src, "tracepoint:987654"), "an id tracefs lacks: %s", src);
	tracepoint_learn(987654, "pp:learnt");
	format_source(&a, src, sizeof(src));
	CHECK(!strcmp(src, "pp:learnt"), "a learnt id: %s", src);
	tracepoint_learn(987654, "pp:other");
	format_source(&a, src, sizeof(src));
	CHECK(!strcmp(src, "pp:learnt"), "learnt once: %s", src);
	{
		struct pp_event_desc d = { .attr = a };

		format_desc_source(&d, src, sizeof(src));
		CHECK(!strcmp(src, "pp:learnt"), "no sysfs name: by id: %s", src);
		snprintf(d.tracepoint, sizeof(d.tracepoint), "ras:mc_event");
		format_desc_source(&d, src, sizeof(src));
		CHECK(!strcmp(src, "ras:mc_event"), "sysfs's name: %s", src);
	}
	CHECK(parse_event("a:b:c", &a, name) && parse_event(":x", &a, name) &&
	      parse_event("../x:y", &a, name), "bad tracepoint spellings");

	/* perf's modifiers and patterns name no single event of every mode. */
	CHECK(parse_event("cycles:u", &a, name), "cycles:u");
	CHECK(parse_event("cpu-clock:k", &a, name), "cpu-clock:k");
	CHECK(parse_event("r1a2b:pp", &a, name), "r1a2b:pp");
	CHECK(parse_event("mce:*", &a, name), "mce:*");
	CHECK(parse_event("mce:mce_rec?rd", &a, name), "mce:mce_rec?rd");
}

/* Without -c or -F: every hit of a tracepoint, a clock per ms, counters by frequency. */
static void test_default_sampling(void)
{
	struct perf_event_attr a;
	char name[PERF_PERSISTENT_NAME_MAX];

	CHECK(!parse_event("cycles", &a, name), "cycles");
	default_sampling(&a);
	CHECK(a.freq && a.sample_freq == PP_DEFAULT_FREQ, "cycles: -F %d",
	      PP_DEFAULT_FREQ);
	CHECK(!parse_event("r1a2b", &a, name), "raw");
	default_sampling(&a);
	CHECK(a.freq && a.sample_freq == PP_DEFAULT_FREQ, "raw: by frequency");
	CHECK(!parse_event("cpu-clock", &a, name), "cpu-clock");
	default_sampling(&a);
	CHECK(!a.freq && a.sample_period == 1000000, "cpu-clock: every ms");
	CHECK(!parse_event("cs", &a, name), "cs");
	default_sampling(&a);
	CHECK(!a.freq && a.sample_period == 1, "cs: every one");
	CHECK(!parse_event("mce:mce_record", &a, name), "tracepoint");
	default_sampling(&a);
	CHECK(!a.freq && a.sample_period == 1, "tracepoint: every hit");
	CHECK(!parse_event("mem:0x1000", &a, name), "breakpoint");
	default_sampling(&a);
	CHECK(!a.freq && a.sample_period == 1, "breakpoint: every hit");
}

/* The records of a perf.data file's data section, as one image. */
static void *read_perfdata(const char *path, struct perf_event_attr *attr,
			   size_t *len)
{
	uint64_t hdr[13];
	unsigned char *data;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (fread(hdr, sizeof(hdr), 1, f) != 1 || hdr[0] != 0x32454c4946524550ULL)
		goto bad;
	fseek(f, hdr[3], SEEK_SET);
	if (fread(attr, sizeof(*attr), 1, f) != 1)
		goto bad;
	data = malloc(hdr[6] + 1);
	fseek(f, hdr[5], SEEK_SET);
	if (!data || fread(data, 1, hdr[6], f) != hdr[6]) {
		free(data);
		goto bad;
	}
	fclose(f);
	*len = hdr[6];
	return data;
bad:
	fclose(f);
	return NULL;
}

static void test_decode(void)
{
	struct perf_event_attr attr;
	struct pp_snapshot snap = { 0 };
	struct pp_printer *p;
	size_t len, off;
	unsigned char *data = read_perfdata("data/mce.data", &attr, &len), *img;
	char *text = NULL;
	size_t tlen = 0, textlen = 0;
	FILE *out;

	CHECK(data, "data/mce.data readable");
	if (!data)
		return;
	CHECK(attr.type == PERF_TYPE_TRACEPOINT && attr.config == 113,
	      "the source attr");
	/* Skip the COMM records: keep the samples, as a buffer holds them. */
	img = malloc(len);
	snap.sample_type = attr.sample_type;
	for (off = 0, tlen = 0; off < len;) {
		struct perf_event_header *h = (void *)(data + off);

		if (h->type == PERF_RECORD_SAMPLE) {
			memcpy(img + tlen, h, h->size);
			tlen += h->size;
		}
		off += h->size;
	}
	CHECK(!snapshot_add(&snap, img, tlen) && snap.nr == 1, "one record");
	CHECK(snap.nr && snap.recs[0].d.time / 1000 == 10710664, "its original time");
	p = printer_new(&attr);
	CHECK(p, "a printer for mce:mce_record");
	if (p && snap.nr) {
		printer_add_comm(p, snap.recs[0].d.tid, "kworker/0:1");
		out = open_memstream(&text, &textlen);
		print_record(p, out, &snap.recs[0].d);
		print_record_json(p, out, &snap.recs[0].d);
		fclose(out);
		CHECK(strstr(text, "kworker/0:1 ") && strstr(text, " [000]    10.710664: mce:mce_record: CPU: 0, ") &&
		      strstr(text, "MC2: be00000000800400, ") &&
		      strstr(text, "ADDR/MISC/SYND: 0000000001234000/"),
		      "printed like perf script: %s", text);
		CHECK(strstr(text, "\"status\":13690942867214697472") &&
		      strstr(text, "\"bank\":2") && strstr(text, "\"comm\":\"kworker/0:1\"") &&
		      strstr(text, "\"time\":10710664"), "JSON: %s", text);
		free(text);
	}

	/* Malformed images are refused. */
	{
		struct pp_snapshot bad = { .sample_type = attr.sample_type };
		unsigned char *cut = malloc(tlen - 8);

		memcpy(cut, img, tlen - 8);
		CHECK(snapshot_add(&bad, cut, tlen - 8) == (long)(tlen - 8) &&
		      !bad.nr, "a cut record is left out");
		snapshot_free(&bad);
	}

	/* perf.data written from it: the same samples back. */
	if (p) {
		struct perf_event_attr sw = { .type = PERF_TYPE_SOFTWARE,
					      .sample_type = attr.sample_type };
		struct perf_event_attr back;
		unsigned char *again;
		char path[] = "/tmp/pp-unit-XXXXXX";
		int fd = mkstemp(path);

		struct pp_export ex = {
			.name = "m", .attr = sw, .id = 7, .snap = &snap, .p = p,
		};
		char *argv[] = { "record", "m" };

		close(fd);
		CHECK(!perfdata_write(path, &ex, 1, 2, argv), "perfdata_write");
		again = read_perfdata(path, &back, &len);
		CHECK(again && back.type == PERF_TYPE_SOFTWARE &&
		      back.sample_type == attr.sample_type && back.sample_id_all,
		      "attr written, with sample_id_all");
		CHECK(again && len > tlen && !memcmp(again + len - tlen, img, tlen),
		      "the samples follow the COMM record unchanged");
		free(again);
		unlink(path);
		CHECK(perfdata_write("/nonexistent/x.data", &ex, 1, 2, argv),
		      "an unwritable path fails");
	}
	printer_free(p);
	snapshot_free(&snap);
	free(data);
}

/* Append a record of @type, tid @tid at @time, to @img (8-byte words). */
static size_t put_rec(uint64_t *img, size_t n, unsigned int type,
		      unsigned int tid, uint64_t time, const char *comm)
{
	struct perf_event_header *h = (void *)&img[n];
	size_t start = n++;

	h->type = type;
	h->misc = 0;
	img[n++] = (uint64_t)tid << 32 | tid;		/* pid, tid */
	if (type == PERF_RECORD_COMM) {
		memset(&img[n], 0, 16);
		strcpy((char *)&img[n], comm);
		n += 2;
		img[n++] = (uint64_t)tid << 32 | tid;	/* sample_id: TID */
		img[n++] = time;			/* TIME */
	} else {
		img[n++] = time;
	}
	h->size = (n - start) * 8;
	return n;
}

/*
 * COMM records name the samples after them: a task renamed between two
 * records shows both names, a task without one is shown by pid; the COMM
 * records themselves are not printed, and go to perf.data in their place.
 */
static void test_comm_records(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.comm = 1, .sample_id_all = 1,
	};
	struct pp_snapshot snap = { .sample_type = attr.sample_type };
	uint64_t recs[64], *img = malloc(sizeof(recs));
	size_t n = 0, starts[6], i, len, textlen = 0;
	struct perf_event_attr back;
	char path[] = "/tmp/pp-unit-XXXXXX", *text = NULL;
	unsigned char *again;
	struct pp_printer *p;
	FILE *out;
	int fd;

	/* Oldest first here; a buffer holds them newest first. */
	starts[0] = n; n = put_rec(recs, n, PERF_RECORD_COMM, 7, 1000, "alpha");
	starts[1] = n; n = put_rec(recs, n, PERF_RECORD_SAMPLE, 7, 2000, NULL);
	starts[2] = n; n = put_rec(recs, n, PERF_RECORD_COMM, 7, 3000, "beta");
	starts[3] = n; n = put_rec(recs, n, PERF_RECORD_SAMPLE, 7, 4000, NULL);
	starts[4] = n; n = put_rec(recs, n, PERF_RECORD_SAMPLE, 8, 5000, NULL);
	starts[5] = n;
	for (i = 5, len = 0; i-- > 0; len += (starts[i + 1] - starts[i]) * 8)
		memcpy((char *)img + len, &recs[starts[i]],
		       (starts[i + 1] - starts[i]) * 8);
	CHECK(!snapshot_add(&snap, img, len) && snap.nr == 5, "COMM records decode");
	/* Copied live: the image ends within its oldest record, dropped. */
	{
		struct pp_snapshot cut = { .sample_type = attr.sample_type };
		void *copy = malloc(len - 8);

		memcpy(copy, img, len - 8);
		CHECK(snapshot_add(&cut, copy, len - 8) == 40 && cut.nr == 4 &&
		      cut.recs[0].d.time == 2000,
		      "a cut record: left out, its 40 bytes counted, the newer ones kept");
		snapshot_free(&cut);
		/*
		 * A task name with no terminator (a damaged region's): the
		 * run ends there, and the newer records are shown
		 * (region-fuzz seed 20332 dropped the whole event).
		 */
		cut = (struct pp_snapshot){ .sample_type = attr.sample_type };
		copy = malloc(len);
		memcpy(copy, img, len);
		memset((char *)copy + (starts[5] - starts[3]) * 8 + 16, 'x', 16);
		CHECK(snapshot_add(&cut, copy, len) == (long)(starts[3] * 8) &&
		      cut.nr == 2 && cut.recs[0].d.time == 4000 &&
		      cut.recs[1].d.time == 5000,
		      "a malformed record: it and the older ones left out, the newer kept");
		snapshot_free(&cut);
		/* Read live, the same: said, not taken for a writer's cut. */
		cut = (struct pp_snapshot){ .sample_type = attr.sample_type, .live = true };
		copy = malloc(len);
		memcpy(copy, img, len);
		memset((char *)copy + (starts[5] - starts[3]) * 8 + 16, 'x', 16);
		CHECK(snapshot_add(&cut, copy, len) == (long)(starts[3] * 8) &&
		      cut.nr == 2,
		      "live: a malformed record's bytes are counted too");
		snapshot_free(&cut);
		cut = (struct pp_snapshot){ .sample_type = attr.sample_type, .live = true };
		copy = malloc(len - 8);
		memcpy(copy, img, len - 8);
		CHECK(!snapshot_add(&cut, copy, len - 8) && cut.nr == 4 &&
		      cut.recs[0].d.type == PERF_RECORD_SAMPLE && cut.recs[0].d.time == 2000,
		      "live: the intact records, the cut oldest one left out");
		snapshot_free(&cut);
	}
	snapshot_sort(&snap);
	CHECK(!snapshot_name_tasks(&snap, false), "named");
	CHECK(snap.nr == 5 && snap.recs[0].d.type == PERF_RECORD_COMM &&
	      !strcmp(snap.recs[0].d.comm, "alpha") && snap.recs[0].d.time == 1000,
	      "a COMM record: name and time from its sample_id");
	CHECK(snap.nr == 5 && snap.recs[1].d.comm && !strcmp(snap.recs[1].d.comm, "alpha") &&
	      snap.recs[3].d.comm && !strcmp(snap.recs[3].d.comm, "beta") &&
	      !snap.recs[4].d.comm, "each sample named as its task was then");

	p = printer_new(&attr);
	CHECK(p, "a printer");
	if (!p)
		goto out;
	out = open_memstream(&text, &textlen);
	for (i = 0; i < snap.nr; i++)
		print_record(p, out, &snap.recs[i].d);
	fclose(out);
	CHECK(strstr(text, "alpha      7") && strstr(text, "beta      7") &&
	      strstr(text, ":8      8") && !strstr(text, "\n\n"),
	      "printed: three samples, no COMM lines: %s", text);
	free(text);
	/* A name's control bytes are shown as '?': a record is one line. */
	{
		struct pp_decoded d = snap.recs[1].d;

		d.comm = "al\nph\ta";
		out = open_memstream(&text, &textlen);
		print_record(p, out, &d);
		fclose(out);
		CHECK(strstr(text, "al?ph?a      7") &&
		      strchr(text, '\n') == text + strlen(text) - 1,
		      "a newline in a name: one line: %s", text);
		free(text);
	}

	fd = mkstemp(path);
	close(fd);
	{
		struct pp_export ex = {
			.name = "c", .attr = attr, .id = 3, .snap = &snap, .p = p,
		};
		char *argv[] = { "record", "c" };

		CHECK(!perfdata_write(path, &ex, 1, 2, argv), "perfdata_write");
	}
	again = read_perfdata(path, &back, &len);
	CHECK(again && back.sample_id_all && back.comm, "sample_id_all kept");
	/*
	 * First a COMM record at time 0 for task 7, named as its oldest
	 * record names it (8 has no name: none), then the records.
	 */
	CHECK(again && len == 40 + starts[5] * 8 &&
	      ((struct perf_event_header *)again)->type == PERF_RECORD_COMM &&
	      ((struct perf_event_header *)again)->size == 40 &&
	      ((uint32_t *)again)[2] == 7 && ((uint32_t *)again)[3] == 7 &&
	      !strcmp((char *)again + 16, "alpha") &&
	      !((uint64_t *)again)[3] && !((uint64_t *)again)[4],
	      "a COMM record of task 7 at time 0");
	CHECK(again && len == 40 + starts[5] * 8 &&
	      !memcmp(again + 40, &recs[0], len - 40),
	      "then the records in time order, COMMs in place");
	free(again);
	unlink(path);
	printer_free(p);
out:
	snapshot_free(&snap);
}

/*
 * A sched_switch sample (IDENTIFIER|TID|TIME|CPU|RAW) at @img[@n], by
 * task @tid on @cpu, switching from @prev to @next; the new end.
 */
static size_t put_switch_on(uint64_t *img, size_t n, uint64_t id,
			    unsigned int tid, uint64_t time, unsigned int cpu,
			    const char *prev, int prev_pid, const char *next,
			    int next_pid)
{
	struct perf_event_header *h = (void *)&img[n];
	unsigned char *raw;
	size_t start = n++;
	int32_t v;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_KERNEL;
	img[n++] = id;
	img[n++] = (uint64_t)tid << 32 | tid;
	img[n++] = time;
	img[n++] = cpu;
	/* u32 size, then 64 bytes of payload and 4 of padding. */
	raw = (unsigned char *)&img[n];
	memset(raw, 0, 72);
	*(uint32_t *)raw = 68;
	raw += 4;
	*(uint16_t *)raw = 372;
	memcpy(raw + 4, &tid, 4);
	strncpy((char *)raw + 8, prev, 16);
	v = prev_pid;
	memcpy(raw + 24, &v, 4);
	strncpy((char *)raw + 40, next, 16);
	v = next_pid;
	memcpy(raw + 56, &v, 4);
	n += 9;
	h->size = (n - start) * 8;
	return n;
}

/* put_switch_on() CPU 0. */
static size_t put_switch(uint64_t *img, size_t n, uint64_t id,
			 unsigned int tid, uint64_t time, const char *prev,
			 int prev_pid, const char *next, int next_pid)
{
	return put_switch_on(img, n, id, tid, time, 0, prev, prev_pid, next,
			     next_pid);
}

/*
 * A tracepoint sample (IDENTIFIER|TID|TIME|CPU|RAW) at @img, of event @id
 * and tracepoint @type, by task @tid of process @pid at @time on @cpu,
 * its payload @size bytes, zero but for common_type; its length in words.
 */
static size_t put_tp_sample(uint64_t *img, uint64_t id, uint16_t type,
			    unsigned int pid, unsigned int tid, uint64_t time,
			    unsigned int cpu, uint32_t size)
{
	size_t n = 5 + (4 + size + 7) / 8;

	img[1] = id;
	img[2] = (uint64_t)tid << 32 | pid;
	img[3] = time;
	img[4] = cpu;
	*(uint32_t *)&img[5] = size;
	*(uint16_t *)((char *)&img[5] + 4) = type;
	((struct perf_event_header *)img)->type = PERF_RECORD_SAMPLE;
	((struct perf_event_header *)img)->size = n * 8;
	return n;
}

/* The printers of the two events @ex, task 300 named gamma; false if none. */
static bool two_printers(struct pp_export *ex)
{
	ex[0].p = printer_new(&ex[0].attr);
	ex[1].p = printer_new(&ex[1].attr);
	CHECK(ex[0].p && ex[1].p, "printers of both");
	if (!ex[0].p || !ex[1].p)
		return false;
	printer_add_comm(ex[1].p, 300, "gamma");
	return true;
}

/* The tracepoint samples' fields of two_events, as the tool's default. */
#define TWO_TYPES	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |		\
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW)

/* Two events to export: sched_switch (id 5) and mce_record (id 6). */
struct two_events {
	struct pp_snapshot	sw, mce;
	struct pp_export	ex[2];
};

static void two_events_init(struct two_events *t)
{
	memset(t, 0, sizeof(*t));
	t->sw.sample_type = TWO_TYPES;
	t->mce.sample_type = TWO_TYPES;
	t->ex[0] = (struct pp_export){
		.name = "sw", .id = 5, .snap = &t->sw,
		.attr = { .type = PERF_TYPE_TRACEPOINT, .config = 372,
			  .sample_type = TWO_TYPES },
	};
	t->ex[1] = (struct pp_export){
		.name = "mc", .id = 6, .snap = &t->mce,
		.attr = { .type = PERF_TYPE_TRACEPOINT, .config = 113,
			  .sample_type = TWO_TYPES },
	};
}

/* The perf.data file @path, whole, and its size; NULL if unreadable. */
static unsigned char *slurp(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	long size;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc(size);
		if (buf && fread(buf, 1, size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		*len = size;
	}
	fclose(f);
	return buf;
}

/*
 * Several events into one perf.data file: an attr each with its id and
 * sample_id_all, both tracepoints' formats, the header features perf's
 * tools read, and a COMM record for every task a sample or a payload
 * names, with the name of its oldest mention; refused without IDENTIFIER
 * or with an event twice, leaving no file.
 */
static void test_perfdata_events(void)
{
	struct two_events t;
	struct pp_export *ex = t.ex;
	uint64_t *a = calloc(64, 8), *b = calloc(32, 8), *ids, feats;
	char *argv[] = { "record", "sw", "mc" };
	char path[] = "/tmp/pp-unit-XXXXXX";
	char *comms = NULL;
	size_t n, len, comms_len = 0, i, off, end;
	unsigned char *f;
	struct file_attr_view {
		struct perf_event_attr	attr;
		uint64_t		off, size;
	} *fa;
	FILE *out;
	int fd;

	two_events_init(&t);
	/* Newest first, as a buffer holds them. */
	n = put_switch(a, 0, 5, 200, 30, "beta", 200, "alpha-new", 100);
	n = put_switch(a, n, 5, 100, 10, "alpha", 100, "beta", 200);
	CHECK(!snapshot_add(&t.sw, a, n * 8) && t.sw.nr == 2, "two switches");
	snapshot_sort(&t.sw);
	/* An mce_record sample of task 300 in process 299, at 20. */
	n = put_tp_sample(b, 6, 113, 299, 300, 20, 0, 108);
	CHECK(!snapshot_add(&t.mce, b, n * 8) && t.mce.nr == 1, "an mce record");
	if (!two_printers(ex))
		goto out;

	fd = mkstemp(path);
	close(fd);
	CHECK(!perfdata_write(path, ex, 2, 3, argv), "two events written");
	f = slurp(path, &len);
	CHECK(f && ((uint64_t *)f)[2] == sizeof(*fa) && ((uint64_t *)f)[4] == 2 * sizeof(*fa),
	      "two attrs");
	if (!f || ((uint64_t *)f)[4] != 2 * sizeof(*fa))
		goto out_file;
	fa = (void *)(f + ((uint64_t *)f)[3]);
	ids = (uint64_t *)f;
	CHECK(fa[0].attr.config == 372 && fa[1].attr.config == 113 &&
	      fa[0].attr.sample_id_all && fa[1].attr.sample_id_all &&
	      fa[0].size == 8 && ids[fa[0].off / 8] == 5 &&
	      fa[1].size == 8 && ids[fa[1].off / 8] == 6,
	      "each attr with its id and sample_id_all");
	feats = ((uint64_t *)f)[9];
	CHECK((feats & 0x200ffaULL) == 0x200ffaULL && (feats >> 29 & 1) == 0,
	      "features TRACING_DATA to CMDLINE and SAMPLE_TIME: %#llx",
	      (unsigned long long)feats);
	CHECK(memmem(f, len, "name: sched_switch", 18) &&
	      memmem(f, len, "name: mce_record", 16) &&
	      memmem(f, len, "sched\0", 6) && memmem(f, len, "mce\0", 4),
	      "both formats in the tracing data");

	/* The COMM records before the samples, by thread id. */
	out = open_memstream(&comms, &comms_len);
	off = ((uint64_t *)f)[5];
	end = off + ((uint64_t *)f)[6];
	for (i = 0; off < end; off += ((struct perf_event_header *)(f + off))->size, i++) {
		const struct perf_event_header *h = (void *)(f + off);
		const uint32_t *w = (const uint32_t *)(h + 1);

		if (!h->size)
			break;
		if (h->type == PERF_RECORD_COMM)
			fprintf(out, "%u/%u %s@%llu;", w[0], w[1], (const char *)(w + 2),
				(unsigned long long)*(const uint64_t *)((const char *)h + h->size - 32));
		else
			fprintf(out, "S;");
	}
	fclose(out);
	CHECK(comms && !strcmp(comms, "100/100 alpha@0;200/200 beta@0;299/300 gamma@0;S;S;S;"),
	      "COMM records of every task named, its oldest name, then the samples: %s",
	      comms);
	free(comms);
out_file:
	free(f);
	unlink(path);

	/* Refused, leaving no file: no IDENTIFIER, or an event twice. */
	ex[1].attr.sample_type &= ~PERF_SAMPLE_IDENTIFIER;
	CHECK(perfdata_write(path, ex, 2, 3, argv) && access(path, F_OK),
	      "an event without IDENTIFIER among several");
	ex[1].attr.sample_type = TWO_TYPES;
	ex[1].id = 5;
	CHECK(perfdata_write(path, ex, 2, 3, argv) && access(path, F_OK),
	      "an event twice");
out:
	printer_free(ex[0].p);
	printer_free(ex[1].p);
	snapshot_free(&t.sw);
	snapshot_free(&t.mce);
}

/*
 * A sched_process_exit record becomes an EXIT record too, of the sample's
 * task at the record's time, ending with the sample_id fields of its
 * event (its time, and its id as IDENTIFIER), as perf record's kernel
 * writes one when a task exits.
 */
static void test_perfdata_exit(void)
{
	const uint64_t types = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT, .config = 369, .sample_type = types,
	};
	struct pp_snapshot snap = { .sample_type = types };
	uint64_t *b = calloc(16, 8);
	struct pp_export ex = { .name = "ex", .attr = attr, .id = 7, .snap = &snap };
	char *argv[] = { "record", "ex" };
	char path[] = "/tmp/pp-unit-XXXXXX";
	const struct perf_event_header *h;
	const uint32_t *w;
	const uint64_t *trailer;
	unsigned char *f, *raw;
	size_t n, len, off, end;
	int fd, exits = 0;

	/* Task 400 of process 399 exits at 50 on CPU 1. */
	n = put_tp_sample(b, 7, 369, 399, 400, 50, 1, 36);
	raw = (unsigned char *)&b[5] + 4;
	memcpy(raw + 8, "omega", 6);
	*(int32_t *)(raw + 24) = 400;
	CHECK(!snapshot_add(&snap, b, n * 8) && snap.nr == 1, "an exit record");
	ex.p = printer_new(&attr);
	CHECK(ex.p, "its printer");
	if (!ex.p)
		goto out;
	fd = mkstemp(path);
	close(fd);
	CHECK(!perfdata_write(path, &ex, 1, 2, argv), "written");
	f = slurp(path, &len);
	if (!f)
		goto out_file;
	off = ((uint64_t *)f)[5];
	end = off + ((uint64_t *)f)[6];
	for (; off < end; off += h->size) {
		h = (const void *)(f + off);
		if (!h->size)
			break;
		if (h->type != PERF_RECORD_EXIT)
			continue;
		exits++;
		w = (const uint32_t *)(h + 1);
		trailer = (const uint64_t *)((const char *)h + h->size) - 4;
		CHECK(h->size == 8 + 24 + 32 && w[0] == 399 && w[2] == 400 &&
		      *(const uint64_t *)(w + 4) == 50,
		      "EXIT of task 400 of process 399 at 50");
		CHECK(trailer[0] == ((uint64_t)400 << 32 | 399) && trailer[1] == 50 &&
		      trailer[2] == 1 && trailer[3] == 7,
		      "... ending with its pid/tid, time, CPU and IDENTIFIER");
	}
	CHECK(exits == 1, "one EXIT record: %d", exits);
	free(f);
out_file:
	unlink(path);
out:
	printer_free(ex.p);
	snapshot_free(&snap);
}

/* Lines of @cmd's output containing @what; -1 if it could not run. */
static int count_lines(const char *cmd, const char *what, char *first,
		       size_t first_len)
{
	char line[512];
	int n = 0;
	FILE *f = popen(cmd, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, what) && n++ == 0 && first)
			snprintf(first, first_len, "%s", line);
	return pclose(f) ? -1 : n;
}

/*
 * The records of two events as a trace.dat: Debian's trace-cmd reads
 * back every record, on its CPU, at its time (across a gap of more than
 * 2^27 ns, a TIME_EXTEND, to times of 100 s and more, which trace-cmd
 * prints against the CPU's column), with its fields and its task's last
 * name, a payload too long for a length in the record header among them,
 * over several pages of each CPU.  An event that is no tracepoint, or whose
 * records lack a field a trace.dat needs, is refused, leaving no file.
 */
static void test_tracedat(void)
{
	struct two_events t;
	struct pp_export *ex = t.ex;
	const size_t nr_switches = 700, gap_at = 350;
	const uint64_t gap = 100000000000ULL;
	uint64_t *a = calloc(nr_switches * 14, 8), *b = calloc(32, 8), at;
	char path[] = "/tmp/pp-unit-XXXXXX", cmd[256], line[512];
	size_t n = 0, i, written = 0;
	int fd;

	two_events_init(&t);
	/* Newest first, as a buffer holds them. */
	for (i = nr_switches; i-- > 0;) {
		at = 1000 + i * 1000 + (i >= gap_at ? gap : 0);
		/* Task 200 renamed before its last switch. */
		n = i % 2 ? put_switch_on(a, n, 5, 200, at, 1,
					  i + 1 == nr_switches ? "beta-new" : "beta",
					  200, "alpha", 100) :
			    put_switch_on(a, n, 5, 100, at, 0, "alpha", 100, "beta", 200);
	}
	CHECK(!snapshot_add(&t.sw, a, n * 8) && t.sw.nr == nr_switches, "the switches");
	snapshot_sort(&t.sw);
	/* An mce_record of task 300 on CPU 1, its payload 124 bytes. */
	n = put_tp_sample(b, 6, 113, 300, 300, 2500, 1, 124);
	CHECK(!snapshot_add(&t.mce, b, n * 8) && t.mce.nr == 1, "an mce record");
	if (!two_printers(ex))
		goto out;

	fd = mkstemp(path);
	close(fd);
	CHECK(!tracedat_write(path, ex, 2, &written) && written == nr_switches + 1,
	      "two events written: %zu records", written);
	/*
	 * Without plugins: each record as its format prints it, at its time
	 * in ns as the file holds it (--raw-ts), right-aligned in 11
	 * columns: 12 digits leave no space after the CPU's column (which
	 * 92-analysis's parser of these lines met in the guests, 2026-12-06).  (report -t once printed
	 * the same file's times as raw ns in about one run of 200: the heap
	 * it took for the clock's name, see the TRACECLOCK option below,
	 * named no clock it knows.)
	 */
	snprintf(cmd, sizeof(cmd), "trace-cmd report -N --raw-ts %s 2>/dev/null", path);
	CHECK(count_lines(cmd, " sched_switch: ", line, sizeof(line)) == (int)nr_switches,
	      "trace-cmd report: every switch (scripts/deps installs trace-cmd)");
	CHECK(strstr(line, "alpha-100 ") && strstr(line, "[000]") &&
	      strstr(line, " 1000: ") &&
	      strstr(line, "prev_comm=alpha prev_pid=100") &&
	      strstr(line, "next_comm=beta next_pid=200"),
	      "... the first on its CPU, at its time, with its fields: %s", line);
	CHECK(count_lines(cmd, "[000]100000351000: sched_switch: ", line, sizeof(line)) == 1 &&
	      strstr(line, "alpha-100 "),
	      "... the first after a gap of 100 s, at its time: %s", line);
	CHECK(count_lines(cmd, "[001]100000700000: sched_switch: ", line, sizeof(line)) == 1 &&
	      strstr(line, "prev_comm=beta-new "),
	      "... the last, on the other CPU, at its time");
	CHECK(count_lines(cmd, " beta-new-200 ", NULL, 0) == (int)nr_switches / 2,
	      "... each task by the name it had last, as saved_cmdlines");
	/*
	 * On perf's clock, as the file says twice: in its trace_clock
	 * section and in its TRACECLOCK option, as trace-cmd record writes
	 * them.  Reading an empty TRACECLOCK option, trace-cmd 3.1.6 parsed
	 * the heap past the block of 0 bytes it read as the clock's name,
	 * writing into it.
	 */
	snprintf(cmd, sizeof(cmd), "trace-cmd dump --clock %s 2>/dev/null", path);
	CHECK(count_lines(cmd, "[perf]", NULL, 0) == 2,
	      "... on perf's clock, as the file says");
	snprintf(cmd, sizeof(cmd), "trace-cmd dump --options %s 2>/dev/null", path);
	CHECK(count_lines(cmd, "[Option TRACECLOCK, 7 bytes]", NULL, 0) == 1 &&
	      count_lines(cmd, "[perf]", NULL, 0) == 1,
	      "... its TRACECLOCK option names the clock");
	snprintf(cmd, sizeof(cmd),
		 "valgrind -q --error-exitcode=99 trace-cmd report -N %s >/dev/null 2>&1",
		 path);
	CHECK(system(cmd) == 0,
	      "... and trace-cmd report reads no memory it did not fill (valgrind)");
	snprintf(cmd, sizeof(cmd), "trace-cmd report -N --raw-ts %s 2>/dev/null", path);
	CHECK(count_lines(cmd, " mce_record: ", line, sizeof(line)) == 1 &&
	      strstr(line, "[001]") && strstr(line, " 2500: "),
	      "... the mce record of 124 bytes, on its CPU, at its time: %s", line);
	unlink(path);

	/* Refused, leaving no file: not a tracepoint; no payloads. */
	ex[1].attr.type = PERF_TYPE_SOFTWARE;
	CHECK(tracedat_write(path, ex, 2, &written) && access(path, F_OK),
	      "an event that is not a tracepoint");
	ex[1].attr.type = PERF_TYPE_TRACEPOINT;
	t.mce.sample_type &= ~PERF_SAMPLE_RAW;
	CHECK(tracedat_write(path, ex, 2, &written) && access(path, F_OK),
	      "records without their payloads");
out:
	printer_free(ex[0].p);
	printer_free(ex[1].p);
	snapshot_free(&t.sw);
	snapshot_free(&t.mce);
}

/*
 * A reader's sample (IP|TID|TIME|CPU|PERIOD|RAW) at @img[@n] carrying @rec
 * (@rec_words 8-byte words) after a struct perf_persistent_sample of
 * @stored_type; the new end.
 */
static size_t put_reader_sample(uint64_t *img, size_t n, const uint64_t *rec,
				size_t rec_words, uint64_t stored_type)
{
	struct perf_event_header *h = (void *)&img[n];
	size_t start = n++;
	uint32_t raw_size = 16 + rec_words * 8 + 4;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	img[n++] = 0xffffffff81000000ULL;		/* IP: the delivery */
	img[n++] = 0;					/* TID */
	img[n++] = 999999;				/* TIME */
	img[n++] = 1;					/* CPU */
	img[n++] = 1;					/* PERIOD */
	memcpy(&img[n], &raw_size, 4);
	memset((char *)&img[n] + 4, 0, 8);		/* common */
	memcpy((char *)&img[n] + 12, &stored_type, 8);
	memcpy((char *)&img[n] + 20, rec, rec_words * 8);
	memset((char *)&img[n] + 20 + rec_words * 8, 0, 4);
	n += (4 + raw_size) / 8;
	h->size = (n - start) * 8;
	return n;
}

/*
 * A perf.data of persistent readers (attr type 11, event 7): the stored
 * records come out of the readers' samples in the order they arrived, a
 * loss is counted, perf's own records are passed over; a file that is not
 * a reader's is refused with a reason.
 */
static void test_readerdata(void)
{
	const uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	uint64_t *f = calloc(512, 8), rec[3], lost[4];
	struct perf_event_header hdr;
	struct perf_event_attr *attr;
	struct pp_reader_events r;
	struct pp_snapshot snap;
	char path[] = "/tmp/pp-unit-XXXXXX";
	size_t n, data;
	FILE *out;
	int fd;

	/* Header (13 words), the attr and its ids section, one id. */
	f[0] = 0x32454c4946524550ULL;
	f[1] = 104;
	f[2] = sizeof(*attr) + 16;
	f[3] = 112;					/* attrs */
	f[4] = sizeof(*attr) + 16;
	attr = (void *)&f[14];
	attr->type = 11;
	attr->config = 7;
	attr->size = sizeof(*attr);
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	f[14 + sizeof(*attr) / 8] = 104;		/* the ids: at word 13 */
	f[14 + sizeof(*attr) / 8 + 1] = 8;
	f[13] = 42;
	data = 14 + sizeof(*attr) / 8 + 2;
	n = data;
	/* perf's own records (a COMM) are passed over. */
	((struct perf_event_header *)&f[n])->type = PERF_RECORD_COMM;
	((struct perf_event_header *)&f[n])->size = 32;
	n += 4;
	/* Two stored samples (tid 5 at 300, then tid 6 at 200), a loss. */
	hdr = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .size = 24 };
	memcpy(&rec[0], &hdr, sizeof(hdr));
	rec[1] = (uint64_t)5 << 32 | 5;
	rec[2] = 300;
	n = put_reader_sample(f, n, rec, 3, st);
	rec[1] = (uint64_t)6 << 32 | 6;
	rec[2] = 200;
	n = put_reader_sample(f, n, rec, 3, st);
	memset(lost, 0, sizeof(lost));
	hdr = (struct perf_event_header){ .type = PERF_RECORD_LOST, .size = 24 };
	memcpy(&lost[0], &hdr, sizeof(hdr));
	lost[1] = 7;
	lost[2] = 4096;
	n = put_reader_sample(f, n, lost, 3, st);
	f[5] = data * 8;
	f[6] = (n - data) * 8;

	fd = mkstemp(path);
	out = fdopen(fd, "w");
	fwrite(f, 8, n, out);
	fclose(out);
	CHECK(!readerdata_read(path, 11, &r) && r.nr == 1 && r.ev[0].id == 7 &&
	      r.ev[0].nr == 2 && r.ev[0].sample_type == st &&
	      r.ev[0].losses == 1 && r.ev[0].lost_bytes == 4096,
	      "one event's two records and its loss, out of its readers' samples");
	CHECK(r.nr == 1 && !readerdata_snapshot(&r.ev[0], 0, &snap) && snap.nr == 2 &&
	      snap.recs[0].d.tid == 6 && snap.recs[0].d.time == 200 &&
	      snap.recs[1].d.tid == 5, "as a snapshot, in time order");
	snapshot_free(&snap);
	readerdata_free(&r);
	CHECK(readerdata_read(path, 12, &r) && !r.nr,
	      "no reader of the persistent PMU's type: refused");

	/* Cut in its last record; compressed; not perf.data. */
	out = fopen(path, "w");
	f[6] -= 8;
	fwrite(f, 8, n - 1, out);
	fclose(out);
	CHECK(readerdata_read(path, 11, &r), "a record past the data section");
	f[6] += 8;
	f[9] |= 1ULL << 27;
	out = fopen(path, "w");
	fwrite(f, 8, n, out);
	fclose(out);
	CHECK(readerdata_read(path, 11, &r), "compressed");
	f[9] = 0;
	f[0] = 0;
	out = fopen(path, "w");
	fwrite(f, 8, n, out);
	fclose(out);
	CHECK(readerdata_read(path, 11, &r), "not a perf.data file");
	CHECK(readerdata_read("/nonexistent/x", 11, &r), "no file");
	unlink(path);
	free(f);
}

/*
 * The UAPI can grow: a struct command's size bits are not what the module
 * matches (Documentation/uapi.rst), and the mmap offset is counted in
 * pages of whatever size the system has.
 */
/* Compile @expr for mce:mce_record; the number of ops, or -1. */
static int compile(const char *expr, struct perf_persistent_filter_op *ops)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT,
					.config = 113,
					.sample_type = PERF_SAMPLE_RAW };

	return filter_compile(&attr, expr, ops, PERF_PERSISTENT_FILTER_MAX);
}

#define OP(o, sz, off, v, fl) ((struct perf_persistent_filter_op){		.op = PERF_PERSISTENT_FILTER_##o, .size = (sz), .offset = (off),		.value = (v), .flags = (fl) })
#define LOGIC(o) ((struct perf_persistent_filter_op){ .op = PERF_PERSISTENT_FILTER_##o })

static void test_filter(void)
{
	struct perf_persistent_filter_op ops[PERF_PERSISTENT_FILTER_MAX];
	/* bank: u8 at 105; status: u64 at 24; common_pid: s32 at 4 */
	const struct perf_persistent_filter_op want[] = {
		OP(EQ, 1, 105, 4, 0), OP(BAND, 8, 24, 0x8000000000000000ULL, 0),
		OP(LT, 4, 4, (unsigned long long)-1, PERF_PERSISTENT_FILTER_SIGNED),
		LOGIC(NOT), LOGIC(OR), LOGIC(AND),
	};
	const struct perf_persistent_filter_op prec[] = {
		OP(EQ, 1, 105, 1, 0), OP(EQ, 1, 105, 2, 0), OP(EQ, 1, 105, 3, 0),
		LOGIC(AND), LOGIC(OR),
	};
	const char *bad[] = {
		"", "bank", "bank ==", "bank == x", "bnk == 1", "bank = 1",
		"bank ~ \"a*\"", "bank == \"a\"", "(bank == 1", "bank == 1)",
		"bank == 1 &&", "bank && cs", "bank == 1 cs == 2", "bank == 12z",
		"bank == 1 || || cs == 2",
	};
	char many[512] = "bank == 0";
	unsigned int i;
	int n;

	n = compile(" bank==4 && (status & 0x8000000000000000 || !(common_pid < -1))", ops);
	CHECK(n == (int)(sizeof(want) / sizeof(want[0])) &&
	      !memcmp(ops, want, sizeof(want)),
	      "fields, sizes, offsets, sign, postfix order: %d ops", n);
	n = compile("bank == 1 || bank == 2 && bank == 3", ops);
	CHECK(n == 5 && !memcmp(ops, prec, sizeof(prec)), "&& binds tighter than ||");
	n = compile("!!(cs >= 0x10)", ops);
	CHECK(n == 3 && ops[0].op == PERF_PERSISTENT_FILTER_GE && ops[0].value == 16 &&
	      ops[1].op == PERF_PERSISTENT_FILTER_NOT && ops[2].op == PERF_PERSISTENT_FILTER_NOT,
	      "! and hex numbers");
	n = compile("bank != 1 && cpu <= 3 && cpu > 0 && cpuid != 0", ops);
	CHECK(n == 7 && ops[0].op == PERF_PERSISTENT_FILTER_NE &&
	      ops[1].op == PERF_PERSISTENT_FILTER_LE && ops[1].size == 4 &&
	      ops[1].offset == 88, "!= and <= are not ! and <");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(compile(bad[i], ops) == -1, "refused: '%s'", bad[i]);
	for (i = 1; i < 16; i++)
		strcat(many, " || bank == 0");
	CHECK(compile(many, ops) == 31, "31 ops fit");
	strcat(many, " || bank == 0");
	CHECK(compile(many, ops) == -1, "33 ops do not");
}

/*
 * The lines of @path from the one after @from up to one starting with '['
 * or "====".  (This and decode_log() are noinline: inlined, gcc 12 takes
 * their open_memstream() buffers for dangling pointers.)
 */
static __attribute__((noinline)) char *section(const char *path, const char *from)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *text = NULL;
	size_t cap = 0, len = 0;
	bool in = false;
	FILE *out = open_memstream(&text, &len);

	while (f && getline(&line, &cap, f) > 0) {
		if (in && (line[0] == '[' || !strncmp(line, "====", 4)))
			break;
		if (in)
			fputs(line, out);
		in = in || !strcmp(line, from);
	}
	free(line);
	if (f)
		fclose(f);
	fclose(out);
	return text;
}

/* Decode @log's dump (the whole of it: no event name) into a string. */
static __attribute__((noinline)) char *decode_log(const char *log, size_t len,
						 struct pp_dump *d, bool json)
{
	FILE *in = fmemopen((void *)log, len, "r"), *out;
	char *text = NULL;
	size_t n = 0, i;

	memset(d, 0, sizeof(*d));
	if (!in || dump_read(in, d)) {
		if (in)
			fclose(in);
		return NULL;
	}
	fclose(in);
	out = open_memstream(&text, &n);
	for (i = 0; i < d->nr; i++)
		dump_print_event(&d->events[i], out, false, json);
	fclose(out);
	return text;
}

/*
 * data/oops-console.log is a 6.1 guest's serial console: two injected
 * MCEs, what perf persistent script printed of them, then an oops, whose
 * report the crash dump follows.
 */
static void test_crash_dump(void)
{
	const char *path = "data/oops-console.log";
	char *want = section(path, "==== script mce_record\n"), *log = NULL, *got, *p;
	size_t len = 0, cap = 0;
	struct pp_dump d;
	FILE *f = fopen(path, "r");
	char *cut, *second;

	CHECK(f && want && strlen(want) > 100, "the fixture and what script printed");
	if (!f || !want)
		return;
	log = malloc(1 << 16);
	len = fread(log, 1, (1 << 16) - 1, f);
	fclose(f);
	log[len] = '\0';
	(void)cap;

	got = decode_log(log, len, &d, false);
	CHECK(got && !strcmp(got, want), "decoded as script printed it:\n%s\nwant:\n%s", got, want);
	CHECK(d.complete && !d.lost_lines && !d.bad_lines && !strcmp(d.reason, "oops") &&
	      d.nr == 1 && !strcmp(d.events[0].name, "mce_record") &&
	      !strcmp(d.events[0].source, "mce:mce_record") && d.events[0].nr_tasks == 2,
	      "the dump: complete, an oops, mce_record with its format and 2 task names");
	free(got);
	dump_free(&d);

	got = decode_log(log, len, &d, true);
	CHECK(got && strstr(got, "\"comm\":\"kworker/0:1\"") && strstr(got, "\"bank\":5") &&
	      !strstr(got, "wallclock"), "JSON: fields, names, no wall clock: %s", got);
	free(got);
	dump_free(&d);

	/* A damaged line: CPU 0's record is lost, CPU 1's kept. */
	p = strstr(log, "ppdump 19 R 1 0 96 ");
	CHECK(p != NULL, "the fixture's CPU 0 line at offset 96");
	if (p) {
		p = strchr(p + strlen("ppdump 19 R 1 0 96 "), ' ') + 1;
		*p = *p == 'A' ? 'B' : 'A';
		got = decode_log(log, len, &d, false);
		CHECK(got && d.bad_lines == 1 && d.events[0].cpus[0].gap &&
		      !strcmp(got, strchr(want, '\n') + 1),
		      "damaged: counted, CPU 0's stream cut, CPU 1's record kept: %s", got);
		free(got);
		dump_free(&d);
		*p = *p == 'A' ? 'B' : 'A';
	}

	/* Cut before its last line: incomplete, what it holds decoded. */
	cut = strstr(log, "ppdump 26 Z");
	if (cut) {
		got = decode_log(log, cut - log, &d, false);
		CHECK(got && !d.complete && !strcmp(got, want), "cut: incomplete, decoded");
		free(got);
		dump_free(&d);
	}

	/* A later dump replaces an earlier one: the log twice, the second cut. */
	second = malloc(2 * len + 1);
	memcpy(second, log, len);
	memcpy(second + len, log, len);
	second[2 * len] = '\0';
	got = decode_log(second, len + (cut ? (size_t)(cut - log) : len), &d, false);
	CHECK(got && !d.complete && d.nr == 1, "the last dump of the log is read");
	free(got);
	dump_free(&d);
	free(second);

	CHECK(decode_log("no dump here\n", 13, &d, false) == NULL, "a log without a dump");
	free(want);
	free(log);
}

/*
 * Names in a dump.  Each CPU's records are named by that CPU's COMM
 * records, or by its T line when the CPU's records hold none of the task:
 * a task renamed on the other CPU, or whose T line is newer than some of
 * its records, stays unnamed rather than misnamed.  The first case is a
 * 6.12-rt CI failure: perf's record on CPU 0 named as it was after its
 * exec on CPU 1.
 */
static void test_dump_names(void)
{
	struct pp_dump_task tasks[] = {
		{ 0, 0, "swapper/0" }, { 1, 0, "swapper/1" },
		{ 1, 186, "perf-persistent" },	/* CPU 0 lost its slot */
		{ 0, 77, "new" },		/* its COMM record is in the dump */
		{ 1, 50, "sh" },		/* older than the dump */
	};
	struct pp_dump_event ev = { .tasks = tasks, .nr_tasks = 5 };
	static const struct { unsigned int type, cpu, tid; const char *comm, *want; } r[] = {
		{ PERF_RECORD_SAMPLE, 0, 186, NULL, NULL },	/* "perf", before the exec */
		{ PERF_RECORD_SAMPLE, 0, 0, NULL, "swapper/0" },
		{ PERF_RECORD_SAMPLE, 1, 0, NULL, "swapper/1" },
		{ PERF_RECORD_SAMPLE, 0, 77, NULL, NULL },	/* "old", lost */
		{ PERF_RECORD_COMM, 1, 60, "x", "x" },
		{ PERF_RECORD_SAMPLE, 1, 50, NULL, "sh" },
		{ PERF_RECORD_COMM, 1, 186, "perf-persistent", "perf-persistent" },
		{ PERF_RECORD_SAMPLE, 1, 186, NULL, "perf-persistent" },
		{ PERF_RECORD_COMM, 0, 77, "new", "new" },
		{ PERF_RECORD_SAMPLE, 0, 77, NULL, "new" },
		{ PERF_RECORD_SAMPLE, 0, 60, NULL, NULL },	/* named on CPU 1 only */
		{ PERF_RECORD_SAMPLE, 1, 60, NULL, "x" },
	};
	struct pp_record recs[(sizeof(r) / sizeof(r[0]))];
	struct pp_snapshot snap = { .recs = recs, .nr = (sizeof(r) / sizeof(r[0])) };
	size_t i, wrong = 0;

	memset(recs, 0, sizeof(recs));
	for (i = 0; i < (sizeof(r) / sizeof(r[0])); i++) {
		recs[i].d.type = r[i].type;
		recs[i].d.cpu = r[i].cpu;
		recs[i].d.tid = r[i].tid;
		recs[i].d.time = 1000 * (i + 1);
		recs[i].d.comm = r[i].comm;
	}
	CHECK(!dump_name_tasks(&ev, &snap), "named");
	for (i = 0; i < (sizeof(r) / sizeof(r[0])); i++) {
		const char *got = recs[i].d.comm;

		if (r[i].want ? !got || strcmp(got, r[i].want) : got != NULL) {
			wrong++;
			CHECK(0, "record %zu (CPU %u, tid %u): %s, want %s", i, r[i].cpu,
			      r[i].tid, got ? got : "unnamed", r[i].want ? r[i].want : "unnamed");
		}
	}
	CHECK(!wrong, "every record named rightly or not at all");
}

static void test_uapi(void)
{
	CHECK(_IOC_NR(PERF_PERSISTENT_IOC_CREATE) == 1 &&
	      _IOC_SIZE(PERF_PERSISTENT_IOC_CREATE) == sizeof(struct perf_persistent_create),
	      "CREATE: number 1, the struct's size bits");
	CHECK(PERF_PERSISTENT_MMAP_OFFSET(3, 1, 4096) == ((3ULL << 16) | 1) * 4096 &&
	      PERF_PERSISTENT_MMAP_OFFSET(3, 1, 65536) == ((3ULL << 16) | 1) * 65536,
	      "mmap offset in pages of any size");
	CHECK(sizeof(struct perf_persistent_page_ext) == PERF_PERSISTENT_PAGE_EXT_SIZE_VER1 &&
	      offsetof(struct perf_persistent_page_ext, reserve_head) ==
	      PERF_PERSISTENT_PAGE_EXT_SIZE_VER0 &&
	      PERF_PERSISTENT_PAGE_EXT_OFFSET + PERF_PERSISTENT_PAGE_EXT_SIZE_VER1 <= 4096,
	      "page_ext: versioned by size (VER1 appends reserve_head), within the smallest page");
}

/* A made-up previous boot: two events, a fatal machine check among three. */
static void fill_archive(struct archive *a, struct archive_event *ev)
{
	memset(a, 0, sizeof(*a));
	strcpy(a->boot_id, "0123abcd-4567-89ef-0123-456789abcdef");
	strcpy(a->release, "6.1.0-57-amd64");
	strcpy(a->end, "panic");
	strcpy(a->path, "/var/lib/perf-persistent/boot-0123abcd");
	strcpy(a->when, "2026-12-06 10:00:00 UTC");
	a->time = 1796551200;
	memset(ev, 0, 2 * sizeof(*ev));
	strcpy(ev[0].name, "mce_record");
	strcpy(ev[0].source, "mce:mce_record");
	ev[0].records = 3;
	strcpy(ev[1].name, "sw\"it\\ch");
	strcpy(ev[1].source, "sched:sched_switch");
	ev[1].records = 100;
	ev[1].overwritten = 7;
	ev[1].dropped = 2;
	a->events = ev;
	a->nr_events = 2;
	hwerr_count(a, HWERR_CORRECTED, HWERR_TRACED);
	hwerr_count(a, HWERR_CORRECTED, HWERR_TRACED);
	hwerr_count(a, HWERR_FATAL, HWERR_PANIC);
}

static void test_archive(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[] = "/tmp/pp-unit-archive.XXXXXX", path[PATH_MAX];
	char *text = NULL, buf[4096], got[4096];
	struct archive_event ev[2];
	struct timespec ts[2];
	struct archive a;
	size_t len = 0;
	struct stat st;
	FILE *f;
	int fd, n, i;

	/* Severity: MCi_STATUS's UC and PCC, and where the module found it. */
	CHECK(hwerr_mce_severity(0x9c00000000010151ULL, HWERR_TRACED) == HWERR_CORRECTED,
	      "a corrected machine check");
	CHECK(hwerr_mce_severity(0xbd00000000010151ULL, HWERR_TRACED) == HWERR_UNCORRECTED,
	      "UC without PCC: uncorrected");
	CHECK(hwerr_mce_severity(0xb600000000070f0fULL, HWERR_ERST) == HWERR_FATAL,
	      "PCC: fatal");
	CHECK(hwerr_mce_severity(0x9c00000000010151ULL, HWERR_PANIC) == HWERR_FATAL,
	      "taken at the panic: fatal");
	/* ras:non_standard_event's sev: the GHES driver's, not CPER's. */
	CHECK(hwerr_cper_severity(0, HWERR_BERT) == HWERR_CORRECTED &&
	      hwerr_cper_severity(1, HWERR_BERT) == HWERR_CORRECTED &&
	      hwerr_cper_severity(2, HWERR_BERT) == HWERR_UNCORRECTED &&
	      hwerr_cper_severity(3, HWERR_BERT) == HWERR_FATAL &&
	      hwerr_cper_severity(7, HWERR_BERT) == HWERR_FATAL &&
	      hwerr_cper_severity(1, HWERR_GHES) == HWERR_FATAL,
	      "the tracepoint's severities, and GHES at the panic");
	CHECK(hwerr_origin_of(0) == HWERR_TRACED &&
	      hwerr_origin_of(1234) == HWERR_TRACED &&
	      hwerr_origin_of(PERF_PERSISTENT_ORIGIN_PANIC) == HWERR_PANIC &&
	      hwerr_origin_of(PERF_PERSISTENT_ORIGIN_ERST) == HWERR_ERST &&
	      hwerr_origin_of(PERF_PERSISTENT_ORIGIN_BOOT_LOG) == HWERR_BOOT_LOG &&
	      hwerr_origin_of(PERF_PERSISTENT_ORIGIN_BERT) == HWERR_BERT &&
	      hwerr_origin_of(PERF_PERSISTENT_ORIGIN_GHES) == HWERR_GHES,
	      "origins from the payload's common_pid");

	fill_archive(&a, ev);
	CHECK(hwerr_total(&a, -1) == 3 && hwerr_total(&a, HWERR_FATAL) == 1,
	      "hardware errors counted: %llu", hwerr_total(&a, -1));
	CHECK(archive_priority(&a) == 3, "a fatal error: the journal's err");
	a.hwerr[HWERR_FATAL][HWERR_PANIC] = 0;
	CHECK(archive_priority(&a) == 4, "corrected errors only: warning");
	memset(a.hwerr, 0, sizeof(a.hwerr));
	CHECK(archive_priority(&a) == 6, "no hardware error: info");
	fill_archive(&a, ev);

	/* The summary and the metrics. */
	f = open_memstream(&text, &len);
	archive_write_summary(&a, f);
	fclose(f);
	CHECK(strstr(text, "previous boot 0123abcd-4567-89ef-0123-456789abcdef (6.1.0-57-amd64) ended by panic: 103 records of 2 events archived in /var/lib/perf-persistent/boot-0123abcd; 3 hardware errors, 1 fatal\n") == text,
	      "summary's first line: %.200s", text);
	CHECK(strstr(text, "  fatal        panic     1\n") &&
	      strstr(text, "  corrected    traced    2\n"),
	      "summary: the errors by severity and origin");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	archive_write_metrics(&a, f);
	fclose(f);
	CHECK(strstr(text, "perf_persistent_previous_boot_info{boot_id=\"0123abcd-4567-89ef-0123-456789abcdef\",release=\"6.1.0-57-amd64\",end=\"panic\"} 1\n") != NULL,
	      "metrics: the boot");
	CHECK(strstr(text, "perf_persistent_previous_boot_records_lost{event=\"sw\\\"it\\\\ch\",reason=\"overwritten\"} 7\n") != NULL,
	      "metrics: a label's quote and backslash escaped");
	CHECK(strstr(text, "perf_persistent_previous_boot_hardware_errors{severity=\"fatal\",origin=\"panic\"} 1\n") != NULL &&
	      strstr(text, "perf_persistent_previous_boot_hardware_errors{severity=\"uncorrected\",origin=\"erst\"} 0\n") != NULL,
	      "metrics: every severity and origin, zeros too");
	CHECK(strstr(text, "perf_persistent_archive_timestamp_seconds 1796551200\n") != NULL,
	      "metrics: the archive's time");

	/* The textfile, replaced whole, readable by node_exporter's user. */
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	CHECK(archive_textfile(&a, dir) == 0, "textfile written");
	snprintf(path, sizeof(path), "%s/perf_persistent.prom", dir);
	CHECK(!stat(path, &st) && (st.st_mode & 0777) == 0644 &&
	      (size_t)st.st_size == strlen(text),
	      "textfile: mode 0644, the metrics whole");
	free(text);

	/* The journal entry, sent as one datagram. */
	n = archive_journal_entry(&a, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "PRIORITY=3\n") &&
	      strstr(buf, "SYSLOG_IDENTIFIER=perf-persistent\n") &&
	      strstr(buf, "PERF_PERSISTENT_FATAL_ERRORS=1\n") &&
	      !strncmp(buf, "MESSAGE=previous boot 0123abcd", 30),
	      "journal entry: %.*s", n, buf);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/journal", dir);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	CHECK(fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)), "bind");
	CHECK(archive_journal(&a, sa.sun_path) == 0, "journal: sent");
	CHECK(recv(fd, got, sizeof(got), MSG_DONTWAIT) == n && !memcmp(got, buf, n),
	      "journal: one datagram, the entry");
	close(fd);
	unlink(sa.sun_path);
	CHECK(archive_journal(&a, sa.sun_path) == 1, "journal: none there, no error");

	/* The first fatal error named, rasdaemon's part said. */
	snprintf(a.first_fatal, sizeof(a.first_fatal), "machine check X");
	snprintf(a.rasdaemon, sizeof(a.rasdaemon), "1 written");
	n = archive_journal_entry(&a, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, " 1 fatal (machine check X); rasdaemon: 1 written\n") &&
	      strstr(buf, "\nPERF_PERSISTENT_RASDAEMON=1 written\n"),
	      "journal entry with the fatal error and rasdaemon: %.*s", n, buf);
	a.first_fatal[0] = a.rasdaemon[0] = '\0';

	/*
	 * The error the boot ended on is named, whatever came before it: a
	 * fatal section from BERT first, then the machine check at the
	 * panic; a later one from ERST does not take the name again.
	 */
	CHECK(archive_fatal_wanted(&a, HWERR_BERT), "the first fatal is named");
	archive_set_fatal(&a, "section from BERT", HWERR_BERT);
	CHECK(!archive_fatal_wanted(&a, HWERR_ERST) &&
	      archive_fatal_wanted(&a, HWERR_PANIC),
	      "after BERT's: not ERST's, the panic's");
	archive_set_fatal(&a, "machine check at the panic", HWERR_PANIC);
	CHECK(!archive_fatal_wanted(&a, HWERR_GHES) &&
	      !archive_fatal_wanted(&a, HWERR_BERT) &&
	      !strcmp(a.first_fatal, "machine check at the panic"),
	      "the panic's stays named: %s", a.first_fatal);
	a.first_fatal[0] = '\0';
	a.first_fatal_at_panic = false;

	/* Pruning: the newest by their summary's time; the others removed. */
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/boot-%c", dir, 'c' - i);
		mkdir(path, 0700);
		strcat(path, "/summary");
		close(open(path, O_WRONLY | O_CREAT, 0600));
		ts[0].tv_sec = ts[1].tv_sec = 1000 + i;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
		utimensat(AT_FDCWD, path, ts, 0);
	}
	CHECK(archive_prune(dir, 2) == 1, "prune: one of three removed");
	snprintf(path, sizeof(path), "%s/boot-c", dir);
	CHECK(stat(path, &st) && errno == ENOENT, "prune: the oldest went");
	snprintf(path, sizeof(path), "%s/boot-a/summary", dir);
	CHECK(!stat(path, &st), "prune: the newest stays");
	CHECK(archive_prune(dir, 2) == 0, "prune: again, nothing");
	CHECK(remove_tree(dir) == 0, "remove the tree");
}

/* @sql's output from the sqlite3 shell on database @db, into @out. */
static int sqlite_shell(const char *db, const char *sql, char *out,
			size_t len)
{
	char cmd[2048];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "sqlite3 '%s' \"%s\" 2>&1", db, sql);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	out[0] = '\0';
	while (n + 1 < len && fgets(out + n, len - n, p))
		n += strlen(out + n);
	return pclose(p);
}

/*
 * rasdaemon's database: the tables made when there are none, rows written
 * once, 0.8.3's columns and its non_standard_event, another schema and a
 * file that is no database left as they were.  The tables are made as
 * rasdaemon's ras-record.c makes them, by the sqlite3 shell.
 */
static void test_rasdb(void)
{
	char dir[] = "/tmp/pp-unit-rasdb.XXXXXX", db[PATH_MAX], out[4096];
	static const unsigned char payload[] = { 8, 7, 6, 5, 4, 3, 2, 1 };
	struct rasdb_mce m[2] = { 0 };
	struct rasdb_mem mem = { 0 };
	struct rasdb_section sec = { 0 };
	struct rasdb_rows rows = { .mce = m, .mem = &mem, .sec = &sec };
	struct rasdb_result res;
	struct stat st;
	int fd;

	CHECK(mkdtemp(dir), "rasdb: a directory");
	m[0].status = 0xb200000000070f0fULL;
	m[0].mcgstatus = 0x5;
	m[0].addr = 0x5678000;
	m[0].bank = 2;
	m[0].tsc = 123456789;
	m[0].walltime = 1796000000;
	m[0].ppin = 0x1234;
	m[0].microcode = 0x10;
	snprintf(m[0].timestamp, sizeof(m[0].timestamp),
		 "2026-12-06 12:00:00 +0000");
	rasdb_mce_text(&m[0], "fatal", "at the panic");
	snprintf(m[0].user_action, sizeof(m[0].user_action), "see it");
	CHECK(!strcmp(m[0].error_msg,
		      "fatal machine check at the panic, kept by perf-persistent"),
	      "rasdb: error_msg '%s'", m[0].error_msg);
	CHECK(!strcmp(m[0].mcistatus_msg,
		      "Uncorrected_error,Error_enabled,Processor_context_corrupt MCACOD=0x0f0f MSCOD=0x0007"),
	      "rasdb: mcistatus_msg '%s'", m[0].mcistatus_msg);
	CHECK(!strcmp(m[0].mcgstatus_msg, "RIPV,MCIP"),
	      "rasdb: mcgstatus_msg '%s'", m[0].mcgstatus_msg);
	CHECK(!strcmp(m[0].bank_name, "2"), "rasdb: bank_name");
	m[1] = m[0];
	m[1].cpu = 1;
	snprintf(mem.timestamp, sizeof(mem.timestamp),
		 "2026-12-06 12:00:01 +0000");
	mem.err_type = "Fatal";
	snprintf(mem.err_msg, sizeof(mem.err_msg), "single-bit ECC, from BERT");
	snprintf(mem.label, sizeof(mem.label), "DIMM A1");
	mem.address = 0x1234000;
	mem.grain = 4096;
	snprintf(mem.driver_detail, sizeof(mem.driver_detail),
		 "APEI location: node:0 card:1");
	snprintf(sec.timestamp, sizeof(sec.timestamp),
		 "2026-12-06 12:00:02 +0000");
	memcpy(sec.sec_type, "pp_sec_type_0003", 16);
	sec.severity = "Informational";
	sec.error = payload;
	sec.length = sizeof(payload);

	/*
	 * No database yet: made, with rasdaemon 0.6.8's mce_record and
	 * mc_event; no non_standard_event (only 0.8's rasdaemon makes it).
	 */
	snprintf(db, sizeof(db), "%s/new.db", dir);
	rows.nr[RASDB_MCE_RECORD] = 2;
	rows.nr[RASDB_MC_EVENT] = 1;
	rows.nr[RASDB_NON_STANDARD] = 1;
	CHECK(rasdb_write(db, &rows, &res) == 0 &&
	      res.written[RASDB_MCE_RECORD] == 2 &&
	      res.written[RASDB_MC_EVENT] == 1 &&
	      res.written[RASDB_NON_STANDARD] == 0 &&
	      res.left[RASDB_NON_STANDARD] == 1 &&
	      res.present[RASDB_MCE_RECORD] == 0 && !*res.reason,
	      "rasdb: a new database, 2 + 1 rows, the section left (%zu %zu %zu, '%s')",
	      res.written[0], res.written[1], res.left[2], res.reason);
	CHECK(sqlite_shell(db, "SELECT cpu, bank, printf('0x%x', status), addr, timestamp, error_msg FROM mce_record ORDER BY id",
			   out, sizeof(out)) == 0 &&
	      !strcmp(out, "0|2|0xb200000000070f0f|90669056|2026-12-06 12:00:00 +0000|fatal machine check at the panic, kept by perf-persistent\n"
			   "1|2|0xb200000000070f0f|90669056|2026-12-06 12:00:00 +0000|fatal machine check at the panic, kept by perf-persistent\n"),
	      "rasdb: the rows as written: %s", out);
	CHECK(sqlite_shell(db, "SELECT timestamp, err_count, err_type, err_msg, label, mc, top_layer, middle_layer, lower_layer, address, grain, syndrome, driver_detail FROM mc_event",
			   out, sizeof(out)) == 0 &&
	      !strcmp(out, "2026-12-06 12:00:01 +0000|1|Fatal|single-bit ECC, from BERT|DIMM A1|0|-1|-1|-1|19087360|4096|0|APEI location: node:0 card:1\n"),
	      "rasdb: mc_event's row, as ghes_edac's: %s", out);
	CHECK(sqlite_shell(db, "SELECT count(*) FROM sqlite_master WHERE name = 'non_standard_event'",
			   out, sizeof(out)) == 0 && !strcmp(out, "0\n"),
	      "rasdb: no non_standard_event made: %s", out);
	CHECK(rasdb_write(db, &rows, &res) == 0 &&
	      !res.written[RASDB_MCE_RECORD] && !res.written[RASDB_MC_EVENT] &&
	      res.present[RASDB_MCE_RECORD] == 2 &&
	      res.present[RASDB_MC_EVENT] == 1,
	      "rasdb: again: nothing twice (%zu, %zu)",
	      res.written[0], res.present[0]);
	memset(rows.nr, 0, sizeof(rows.nr));
	CHECK(rasdb_write(db, &rows, &res) == 0 && !res.written[0],
	      "rasdb: no rows, nothing");

	/* rasdaemon 0.8.3's tables: ppin and microcode, non_standard_event. */
	snprintf(db, sizeof(db), "%s/083.db", dir);
	CHECK(sqlite_shell(db, "CREATE TABLE IF NOT EXISTS mce_record (id INTEGER PRIMARY KEY, timestamp TEXT, mcgcap INTEGER, mcgstatus INTEGER, status INTEGER, addr INTEGER, misc INTEGER, ip INTEGER, tsc INTEGER, walltime INTEGER, ppin INTEGER, cpu INTEGER, cpuid INTEGER, apicid INTEGER, socketid INTEGER, cs INTEGER, bank INTEGER, cpuvendor INTEGER, microcode INTEGER, bank_name TEXT, error_msg TEXT, mcgstatus_msg TEXT, mcistatus_msg TEXT, mcastatus_msg TEXT, user_action TEXT, mc_location TEXT); INSERT INTO mce_record (timestamp, cpu, bank, status, error_msg) VALUES ('x', 3, 4, 5, 'rasdaemon own');"
			   "CREATE TABLE IF NOT EXISTS non_standard_event (id INTEGER PRIMARY KEY, timestamp TEXT, sec_type BLOB, fru_id BLOB, fru_text TEXT, severity TEXT, error BLOB);",
			   out, sizeof(out)) == 0, "rasdb: a 0.8.3 table: %s", out);
	rows.nr[RASDB_MCE_RECORD] = 1;
	rows.nr[RASDB_NON_STANDARD] = 1;
	CHECK(rasdb_write(db, &rows, &res) == 0 &&
	      res.written[RASDB_MCE_RECORD] == 1 &&
	      res.written[RASDB_NON_STANDARD] == 1,
	      "rasdb: 0.8.3: written ('%s')", res.reason);
	CHECK(sqlite_shell(db, "SELECT id, ppin, microcode, user_action FROM mce_record ORDER BY id",
			   out, sizeof(out)) == 0 &&
	      !strcmp(out, "1|||\n2|4660|16|see it\n"),
	      "rasdb: 0.8.3: after rasdaemon's own row, with ppin: %s", out);
	CHECK(sqlite_shell(db, "SELECT timestamp, hex(sec_type), hex(fru_id), fru_text, severity, hex(error) FROM non_standard_event",
			   out, sizeof(out)) == 0 &&
	      !strcmp(out, "2026-12-06 12:00:02 +0000|70705F7365635F747970655F30303033|00000000000000000000000000000000||Informational|0807060504030201\n"),
	      "rasdb: 0.8.3: non_standard_event's row: %s", out);
	CHECK(rasdb_write(db, &rows, &res) == 0 &&
	      res.present[RASDB_NON_STANDARD] == 1 &&
	      !res.written[RASDB_NON_STANDARD],
	      "rasdb: 0.8.3: the section again: nothing twice");

	/* Another schema: left alone, and why. */
	snprintf(db, sizeof(db), "%s/other.db", dir);
	CHECK(sqlite_shell(db, "CREATE TABLE mce_record (id INTEGER PRIMARY KEY, timestamp TEXT, status INTEGER);",
			   out, sizeof(out)) == 0, "rasdb: another schema made");
	rows.nr[RASDB_MCE_RECORD] = 2;
	CHECK(rasdb_write(db, &rows, &res) == 0 && !res.written[0] &&
	      !strcmp(res.reason, "another schema: its mce_record has no column 'mcgcap'"),
	      "rasdb: another schema: '%s'", res.reason);
	CHECK(sqlite_shell(db, "SELECT count(*) FROM mce_record", out,
			   sizeof(out)) == 0 && !strcmp(out, "0\n"),
	      "rasdb: another schema: untouched: %s", out);
	/* One table of another schema leaves the others alone too. */
	snprintf(db, sizeof(db), "%s/other2.db", dir);
	CHECK(sqlite_shell(db, "CREATE TABLE mc_event (id INTEGER PRIMARY KEY, timestamp TEXT);",
			   out, sizeof(out)) == 0, "rasdb: another mc_event made");
	CHECK(rasdb_write(db, &rows, &res) == 0 && !res.written[0] &&
	      !strcmp(res.reason, "another schema: its mc_event has no column 'err_count'"),
	      "rasdb: another mc_event: '%s'", res.reason);
	CHECK(sqlite_shell(db, "SELECT count(*) FROM sqlite_master", out,
			   sizeof(out)) == 0 && !strcmp(out, "1\n"),
	      "rasdb: another mc_event: no table made: %s", out);

	/* Not a database at all. */
	snprintf(db, sizeof(db), "%s/junk.db", dir);
	fd = open(db, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "not sqlite, not at all, no.......", 33) == 33,
	      "rasdb: a junk file");
	close(fd);
	CHECK(rasdb_write(db, &rows, &res) == 0 && !res.written[0] &&
	      strstr(res.reason, "not a database"),
	      "rasdb: junk: '%s'", res.reason);
	CHECK(!stat(db, &st) && st.st_size == 33, "rasdb: junk: untouched");

	/* A directory where the database would be: cannot open it. */
	CHECK(rasdb_write(dir, &rows, &res) == 0 && !res.written[0] &&
	      !strncmp(res.reason, "cannot open it: ", 16),
	      "rasdb: a directory: '%s'", res.reason);

	/* rasdaemon running, as /proc shows it. */
	snprintf(db, sizeof(db), "%s/proc", dir);
	mkdir(db, 0700);
	snprintf(db, sizeof(db), "%s/proc/42", dir);
	CHECK(!mkdir(db, 0700), "rasdb: a fake /proc");
	snprintf(db, sizeof(db), "%s/proc", dir);
	CHECK(!rasdb_rasdaemon_running(db), "rasdb: no rasdaemon there");
	snprintf(db, sizeof(db), "%s/proc/42/comm", dir);
	fd = open(db, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "rasdaemon\n", 10) == 10, "rasdb: comm");
	close(fd);
	snprintf(db, sizeof(db), "%s/proc", dir);
	CHECK(rasdb_rasdaemon_running(db), "rasdb: rasdaemon seen running");
	CHECK(!rasdb_rasdaemon_running("/nonexistent"), "rasdb: no /proc");
	CHECK(remove_tree(dir) == 0, "rasdb: remove the tree");
}

/* ---- vmcore.c: crash dumps ------------------------------------------ */

#define VM_MAGIC	"PPMAGIC!"
#define VM_A		0x100000ULL	/* 3 pages, the 2nd zero */
#define VM_B		0x200000ULL	/* 4 pages, 2 of them in the file */

static FILE *vm_saved;

/* Send pp_error()'s messages to a file until vm_said(). */
static void vm_hush(void)
{
	vm_saved = stderr;
	stderr = tmpfile();
}

/* What was said since vm_hush(), into @buf. */
static void vm_said(char *buf, size_t len)
{
	size_t n;

	rewind(stderr);
	n = fread(buf, 1, len - 1, stderr);
	buf[n] = '\0';
	fclose(stderr);
	stderr = vm_saved;
}

/* vmcore_open(@path), which must fail: what it said, into @buf. */
static void vm_open_fails(const char *path, char *buf, size_t len)
{
	struct vmcore *vc;

	vm_hush();
	vc = vmcore_open(path);
	vm_said(buf, len);
	CHECK(!vc, "vmcore: %s opens", path);
	vmcore_close(vc);
}

static int vm_write(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	bool ok = fd >= 0 && write(fd, buf, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/*
 * The test memory at @paddr: a pattern, the magic at the start of A's
 * 3rd page and of B, a decoy half way into A's 1st, A's 2nd page zero.
 */
static void vm_fill(unsigned char *p, uint64_t paddr, size_t len,
		    size_t page)
{
	const uint64_t magic[] = { VM_A + 2 * page, VM_B, VM_A + page / 2 };
	uint64_t a;
	size_t i, k;

	for (i = 0; i < len; i++) {
		a = paddr + i;
		p[i] = (a - VM_A) / page == 1 ? 0 : ((a >> 4) * 7 + 3) & 0xff;
		for (k = 0; k < 3; k++)
			if (a >= magic[k] && a < magic[k] + 8)
				p[i] = VM_MAGIC[a - magic[k]];
	}
}

/*
 * An ELF core of the test memory with @page-byte pages: B's PT_LOAD
 * first, a PT_NOTE with a CORE note and (if @info) VMCOREINFO, A's.
 */
static void vm_elf(const char *path, size_t page, bool info,
		   unsigned char cls, unsigned char data)
{
	const char text[] = "OSRELEASE=6.1.0\nPAGESIZE=16384\nCRASHTIME=1\n";
	size_t off = 4096, size = off + 5 * page, n;
	unsigned char *f = calloc(1, size), *p;
	Elf64_Ehdr *eh = (Elf64_Ehdr *)f;
	Elf64_Phdr *ph = (Elf64_Phdr *)(f + sizeof(*eh));
	Elf64_Nhdr *nh;

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = cls;
	eh->e_ident[EI_DATA] = data;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 3;
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = off + 3 * page,
		.p_vaddr = 0xffff888000000000ULL + VM_B, .p_paddr = VM_B,
		.p_filesz = 2 * page, .p_memsz = 4 * page };
	ph[2] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = off,
		.p_vaddr = 0xffff888000000000ULL + VM_A, .p_paddr = VM_A,
		.p_filesz = 3 * page, .p_memsz = 3 * page };
	p = (unsigned char *)&ph[3];
	nh = (Elf64_Nhdr *)p;
	*nh = (Elf64_Nhdr){ 5, 8, NT_PRSTATUS };
	memcpy(p + sizeof(*nh), "CORE", 5);
	n = sizeof(*nh) + 8 + 8;
	if (info) {
		nh = (Elf64_Nhdr *)(p + n);
		*nh = (Elf64_Nhdr){ 11, sizeof(text) - 1, 0 };
		memcpy(p + n + sizeof(*nh), "VMCOREINFO", 11);
		memcpy(p + n + sizeof(*nh) + 12, text, sizeof(text) - 1);
		n += sizeof(*nh) + 12 + (sizeof(text) + 2) / 4 * 4;
	}
	ph[1] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = p - f,
			      .p_filesz = n };
	vm_fill(f + off, VM_A, 3 * page, page);
	vm_fill(f + off + 3 * page, VM_B, 2 * page, page);
	CHECK(!vm_write(path, f, size), "vmcore: write %s", path);
	free(f);
}

/**
 * struct vm_found - what a scan found
 * @at: the pages, in the order found
 * @stop_at: return 7 at the n-th
 * @read_ok: each page read through vmcore_read() in the call, with @other
 *	too (which changes the page the reader keeps)
 */
struct vm_found {
	struct vmcore	*vc;
	uint64_t	at[16], other;
	int		n, stop_at;
	bool		read_ok;
};

static int vm_found(void *arg, uint64_t paddr)
{
	struct vm_found *f = arg;
	unsigned char buf[64];

	f->read_ok &= vmcore_read(f->vc, paddr, buf, sizeof(buf)) == 0 &&
		      !memcmp(buf, VM_MAGIC, 8) &&
		      vmcore_read(f->vc, f->other, buf, sizeof(buf)) >= 0;
	if (f->n < 16)
		f->at[f->n++] = paddr;
	return f->n == f->stop_at ? 7 : 0;
}

/* Scan @vc for the magic, stopping at the @stop_at-th page found. */
static int vm_scan(struct vmcore *vc, struct vm_found *f, int stop_at,
		   uint64_t other)
{
	memset(f, 0, sizeof(*f));
	f->vc = vc;
	f->stop_at = stop_at;
	f->other = other;
	f->read_ok = true;
	return vmcore_scan(vc, VM_MAGIC, 8, vm_found, f);
}

/*
 * An ELF core: two PT_LOAD segments, out of order, one with less in the
 * file than in memory; the page size from VMCOREINFO (16K, not the
 * host's); ELF files that are no little-endian 64-bit core refused.
 */
static void test_vmcore_elf(const char *dir)
{
	const size_t page = 16384;
	unsigned char buf[3 * 16384], want[3 * 16384];
	char path[PATH_MAX], msg[512];
	struct vm_found f = { 0 };
	struct vmcore *vc;

	snprintf(path, sizeof(path), "%s/elf", dir);
	vm_elf(path, page, true, ELFCLASS64, ELFDATA2LSB);
	vc = vmcore_open(path);
	CHECK(vc, "vmcore: ELF opens");
	if (!vc)
		return;
	CHECK(!strcmp(vmcore_kind(vc), "ELF") && vmcore_page_size(vc) == page,
	      "vmcore: ELF: %s, %zu", vmcore_kind(vc), vmcore_page_size(vc));
	vm_fill(want, VM_A, sizeof(want), page);
	CHECK(vmcore_read(vc, VM_A, buf, sizeof(buf)) == 0 &&
	      !memcmp(buf, want, sizeof(buf)), "vmcore: ELF: A whole");
	/* Past A's end: in no segment. */
	CHECK(vmcore_read(vc, VM_A + 3 * page - 100, buf, 200) == 1 &&
	      !memcmp(buf, want + 3 * page - 100, 100) &&
	      !memcmp(buf + 100, want + page, 100),
	      "vmcore: ELF: across A's end, the rest zero");
	/* Past B's p_filesz: zero, and in the dump. */
	vm_fill(want, VM_B + 2 * page - 8, 8, page);
	CHECK(vmcore_read(vc, VM_B + 2 * page - 8, buf, 16) == 0 &&
	      !memcmp(buf, want, 8) && !memcmp(buf + 8, want + page, 8),
	      "vmcore: ELF: across B's p_filesz");
	memset(buf, 1, 64);
	CHECK(vmcore_read(vc, 0x300000, buf, 64) == 1 &&
	      !memcmp(buf, want + page, 64), "vmcore: ELF: no segment");
	CHECK(vm_scan(vc, &f, 0, VM_A) == 0 && f.n == 2 &&
	      f.at[0] == VM_A + 2 * page && f.at[1] == VM_B && f.read_ok,
	      "vmcore: ELF: scan: %d: %#llx %#llx", f.n,
	      (unsigned long long)f.at[0], (unsigned long long)f.at[1]);
	CHECK(vm_scan(vc, &f, 1, VM_A) == 7 && f.n == 1,
	      "vmcore: ELF: scan stops");
	vmcore_close(vc);

	vm_elf(path, page, false, ELFCLASS64, ELFDATA2LSB);
	vc = vmcore_open(path);
	CHECK(vc && vmcore_page_size(vc) == (size_t)sysconf(_SC_PAGESIZE),
	      "vmcore: ELF without VMCOREINFO: the host's page size");
	vmcore_close(vc);
	vm_elf(path, page, true, ELFCLASS64, ELFDATA2MSB);
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/elf: a big-endian ELF file: only little-endian dumps are read"),
	      "vmcore: big-endian ELF: %s", msg);
	vm_elf(path, page, true, ELFCLASS32, ELFDATA2LSB);
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/elf: a 32-bit ELF file: only 64-bit dumps are read"),
	      "vmcore: 32-bit ELF: %s", msg);
	CHECK(!vm_write(path, ELFMAG "\2\1\1", 40), "vmcore: a short ELF");
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/elf: truncated: its ELF header is cut short"),
	      "vmcore: short ELF: %s", msg);
}

/* makedumpfile's kdump-compressed format, made here: pages of 4K. */
#define KD_PAGE		4096
#define KD_MAPNR	20
#define KD_ZERO		0xffu
#define KD_DESCS	(4 * KD_PAGE)	/* header, sub-header, 2 bitmaps */

/* The dumped pages: pfn, how (raw, a DH_* compression, the zero page). */
static const struct { unsigned int pfn, how; } kd_pages[] = {
	{ 1, 0 }, { 2, 1 }, { 3, 0 }, { 5, 1 }, { 6, 2 }, { 7, 4 },
	{ 8, 0x20 }, { 10, KD_ZERO }, { 11, KD_ZERO }, { 19, 0 },
};
#define KD_NR	(sizeof(kd_pages) / sizeof(kd_pages[0]))
static const unsigned int kd_magic[] = { 3, 5, 7, 8, 19 };

static unsigned char kd_mem[KD_MAPNR][KD_PAGE];

/* The function @fn of @lib, loaded with dlopen(): no -dev package needed. */
static void *vm_lib(const char *lib, const char *fn)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	return h ? dlsym(h, fn) : NULL;
}

/* Compress a page as makedumpfile does for @how; the size, 0 on failure. */
static size_t kd_compress(unsigned int how, const void *src, void *dst,
			  size_t cap)
{
	/* lzo1x_1's dictionary, initialized for valgrind's sake. */
	static uint64_t wrk[16384];
	/* Room for what snappy may need. */
	static unsigned char out[2 * KD_PAGE];
	union {
		void *p;
		int (*zlib)(void *dst, unsigned long *dlen, const void *src,
			    unsigned long slen, int level);
		int (*lzo)(const void *src, unsigned long slen, void *dst,
			   unsigned long *dlen, void *wrkmem);
		int (*snappy)(const void *src, size_t slen, void *dst,
			      size_t *dlen);
		size_t (*zstd)(void *dst, size_t dlen, const void *src,
			       size_t slen, int level);
	} f;
	unsigned long n = sizeof(out);
	size_t sn = sizeof(out);
	int err = -1;

	switch (how) {
	case 1:
		f.p = vm_lib("libz.so.1", "compress2");
		err = f.p ? f.zlib(out, &n, src, KD_PAGE, 1) : -1;
		break;
	case 2:
		f.p = vm_lib("liblzo2.so.2", "lzo1x_1_compress");
		err = f.p ? f.lzo(src, KD_PAGE, out, &n, wrk) : -1;
		break;
	case 4:
		f.p = vm_lib("libsnappy.so.1", "snappy_compress");
		err = f.p ? f.snappy(src, KD_PAGE, out, &sn) : -1;
		n = sn;
		break;
	case 0x20:
		f.p = vm_lib("libzstd.so.1", "ZSTD_compress");
		n = f.p ? f.zstd(out, sizeof(out), src, KD_PAGE, 1) : 0;
		err = n > sizeof(out);
		break;
	}
	if (err || n > cap)
		return 0;
	memcpy(dst, out, n);
	return n;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/*
 * Make kd_mem, and the kdump file of it into a malloc()ed @*file; its
 * size.  Laid out as makedumpfile does: the zero page first, then each
 * page in pfn order.
 */
static size_t kd_build(unsigned char **file)
{
	size_t cap = KD_DESCS + 24 * KD_NR + (KD_NR + 1) * KD_PAGE;
	unsigned char *b = calloc(1, cap), *d;
	size_t data = KD_DESCS + 24 * KD_NR, i, n;
	unsigned int pfn;

	for (pfn = 0; pfn < KD_MAPNR; pfn++)
		vm_fill(kd_mem[pfn], VM_B + pfn * KD_PAGE, KD_PAGE, KD_PAGE);
	for (i = 0; i < sizeof(kd_magic) / sizeof(kd_magic[0]); i++)
		memcpy(kd_mem[kd_magic[i]], VM_MAGIC, 8);
	memcpy(b, "KDUMP   ", 8);
	put32(b + 8, 6);			/* header_version */
	memcpy(b + 12 + 4 * 65, "x86_64", 6);	/* utsname.machine */
	put32(b + 424, 1);			/* status: zlib */
	put32(b + 428, KD_PAGE);		/* block_size */
	put32(b + 432, 1);			/* sub_hdr_size */
	put32(b + 436, 2);			/* bitmap_blocks */
	put32(b + 440, KD_MAPNR);
	put32(b + 460, 2);			/* nr_cpus */
	put64(b + KD_PAGE + 96, KD_MAPNR);	/* max_mapnr_64 */
	memset(b + 2 * KD_PAGE, 0xff, KD_MAPNR / 8);
	b[2 * KD_PAGE + KD_MAPNR / 8] = (1 << KD_MAPNR % 8) - 1;
	data += KD_PAGE;			/* the zero page */
	for (i = 0; i < KD_NR; i++) {
		pfn = kd_pages[i].pfn;
		d = b + KD_DESCS + 24 * i;
		b[3 * KD_PAGE + pfn / 8] |= 1 << pfn % 8;
		if (kd_pages[i].how == KD_ZERO) {
			memset(kd_mem[pfn], 0, KD_PAGE);
			put64(d, KD_DESCS + 24 * KD_NR);
			put32(d + 8, KD_PAGE);
			continue;
		}
		put64(d, data);
		n = 0;
		if (kd_pages[i].how)
			n = kd_compress(kd_pages[i].how, kd_mem[pfn], b + data,
					KD_PAGE - 1);
		/* A build host may lack liblzo2-2 or libsnappy1v5. */
		if (kd_pages[i].how && !n)
			printf("# vmcore: pfn %u stored raw: its compressor failed or is missing\n",
			       pfn);
		if (n) {
			put32(d + 12, kd_pages[i].how);
		} else {
			n = KD_PAGE;
			memcpy(b + data, kd_mem[pfn], KD_PAGE);
		}
		put32(d + 8, n);
		data += n;
	}
	for (pfn = 0; pfn < KD_MAPNR; pfn++)
		if (!(b[3 * KD_PAGE + pfn / 8] >> pfn % 8 & 1))
			memset(kd_mem[pfn], 0, KD_PAGE);
	*file = b;
	return data;
}

/* Append a flattened block of @len bytes at @off, @data, to @f at *@n. */
static void flat_put(unsigned char *f, size_t *n, uint64_t off,
		     const void *data, size_t len)
{
	int i;

	for (i = 0; i < 8; i++) {
		f[*n + i] = off >> (56 - 8 * i);
		f[*n + 8 + i] = (uint64_t)len >> (56 - 8 * i);
	}
	memcpy(f + *n + 16, data, len);
	*n += 16 + len;
}

/*
 * The kdump file @k (@len bytes) flattened, its blocks out of order: a
 * header of junk that the real one replaces later, the pages with junk in
 * the middle that a later block puts right, the descriptors, the rest.
 */
static size_t kd_flatten(const unsigned char *k, size_t len,
			 unsigned char **file)
{
	size_t n = 4096, data = KD_DESCS + 24 * KD_NR, x = data + 5000;
	unsigned char *f = calloc(1, 4096 + 7 * 16 + 2 * len);
	unsigned char junk[8192];

	memset(junk, 0xaa, sizeof(junk));
	memcpy(f, "makedumpfile", 12);
	f[23] = 1;				/* type, big-endian */
	f[31] = 1;				/* version */
	flat_put(f, &n, 0, junk, 464);
	flat_put(f, &n, data, k + data, len - data);
	memset(f + n - (len - data) + 5000, 0xaa, 3000);
	flat_put(f, &n, x, k + x, 3000);
	flat_put(f, &n, KD_DESCS, k + KD_DESCS, data - KD_DESCS);
	flat_put(f, &n, KD_PAGE, k + KD_PAGE, KD_DESCS - KD_PAGE);
	flat_put(f, &n, 0, k, KD_PAGE);
	memset(f + n, 0xff, 16);
	*file = f;
	return n + 16;
}

/* Read @vc as kd_mem says it holds, and scan it. */
static void kd_check(struct vmcore *vc, const char *kind)
{
	static unsigned char buf[4 * KD_PAGE];
	struct vm_found f;
	unsigned int pfn;
	int i;

	CHECK(!strcmp(vmcore_kind(vc), kind) &&
	      vmcore_page_size(vc) == KD_PAGE, "vmcore: %s: %s", kind,
	      vmcore_kind(vc));
	for (pfn = 0; pfn < KD_MAPNR; pfn++) {
		int held = 0, r;
		size_t j;

		for (j = 0; j < KD_NR; j++)
			held |= kd_pages[j].pfn == pfn;
		memset(buf, 0x55, KD_PAGE);
		r = vmcore_read(vc, pfn * KD_PAGE, buf, KD_PAGE);
		CHECK(r == !held && !memcmp(buf, kd_mem[pfn], KD_PAGE),
		      "vmcore: %s: pfn %u: %d", kind, pfn, r);
	}
	/* Across pages: raw, zlib, raw. */
	CHECK(vmcore_read(vc, KD_PAGE + 100, buf, 2 * KD_PAGE) == 0 &&
	      !memcmp(buf, kd_mem[1] + 100, KD_PAGE - 100) &&
	      !memcmp(buf + KD_PAGE - 100, kd_mem[2], KD_PAGE) &&
	      !memcmp(buf + 2 * KD_PAGE - 100, kd_mem[3], 100),
	      "vmcore: %s: pages 1-3", kind);
	CHECK(vmcore_read(vc, 3 * KD_PAGE + 4000, buf, 200) == 1 &&
	      !memcmp(buf, kd_mem[3] + 4000, 96) &&
	      !memcmp(buf + 96, kd_mem[4], 104),
	      "vmcore: %s: into a page left out", kind);
	CHECK(vmcore_read(vc, 5 * KD_PAGE, buf, 4 * KD_PAGE) == 0 &&
	      !memcmp(buf, kd_mem[5], 4 * KD_PAGE),
	      "vmcore: %s: pages 5-8: zlib, lzo, snappy, zstd", kind);
	memset(buf, 1, 64);
	CHECK(vmcore_read(vc, KD_MAPNR * KD_PAGE + 64, buf, 64) == 1 &&
	      !memcmp(buf, kd_mem[0], 64), "vmcore: %s: past max_mapnr",
	      kind);
	CHECK(vm_scan(vc, &f, 0, KD_PAGE) == 0 && f.n == 5 && f.read_ok,
	      "vmcore: %s: scan: %d found", kind, f.n);
	for (i = 0; i < f.n && i < 5; i++)
		CHECK(f.at[i] == kd_magic[i] * KD_PAGE,
		      "vmcore: %s: scan: %d: %#llx", kind, i,
		      (unsigned long long)f.at[i]);
	CHECK(vm_scan(vc, &f, 2, 0) == 7 && f.n == 2 &&
	      f.at[1] == 5 * KD_PAGE, "vmcore: %s: scan stops", kind);
}

/* Write @len bytes of @buf to @dir/@name, open it, check it as kd_check(). */
static void kd_open_check(const char *dir, const char *name,
			  const void *buf, size_t len, const char *kind)
{
	char path[PATH_MAX];
	struct vmcore *vc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK(!vm_write(path, buf, len), "vmcore: write %s", name);
	vc = vmcore_open(path);
	CHECK(vc, "vmcore: %s opens", name);
	if (vc)
		kd_check(vc, kind);
	vmcore_close(vc);
}

/* Where the file is changed for a test, and what it said after. */
static void kd_broken(const char *path, unsigned char *k, size_t len,
		      size_t at, const void *bytes, size_t n, char *msg,
		      size_t cap)
{
	unsigned char old[8];

	memcpy(old, k + at, n);
	memcpy(k + at, bytes, n);
	CHECK(!vm_write(path, k, len), "vmcore: write");
	vm_open_fails(path, msg, cap);
	memcpy(k + at, old, n);
}

/*
 * kdump-compressed pages: raw, each compression, the zero page, left
 * out; flattened; the same read wrong or refused.
 */
static void test_vmcore_kdump(const char *dir)
{
	unsigned char *k, *fl, *r = NULL, buf[KD_PAGE];
	char path[PATH_MAX], cmd[2 * PATH_MAX], msg[512];
	size_t len, flen, rlen = 0;
	struct vmcore *vc;
	uint64_t off;
	uint32_t v;

	len = kd_build(&k);
	kd_open_check(dir, "kdump", k, len, "kdump-compressed (zlib)");
	flen = kd_flatten(k, len, &fl);
	kd_open_check(dir, "flat", fl, flen,
		      "flattened kdump-compressed (zlib)");
	/* makedumpfile -R puts the blocks back as the reader did. */
	if (!system("command -v makedumpfile >/dev/null")) {
		snprintf(cmd, sizeof(cmd),
			 "makedumpfile -R %s/r <%s/flat >/dev/null 2>&1", dir,
			 dir);
		snprintf(path, sizeof(path), "%s/r", dir);
		CHECK(!system(cmd) && (r = slurp(path, &rlen)) &&
		      rlen == len && !memcmp(r, k, len),
		      "vmcore: makedumpfile -R: the kdump file (%zu)", rlen);
		free(r);
	} else {
		printf("# vmcore: no makedumpfile: -R not compared\n");
	}

	/* Not there: the library of lzo, at open and at a read. */
	snprintf(path, sizeof(path), "%s/kdump", dir);
	CHECK(!vmcore_test_library("lzo", "libpp-no-lzo.so.2"),
	      "vmcore: lzo replaced");
	/* pfn 6 (descriptor 4) is lzo's, unless the host has no liblzo2. */
	if (k[KD_DESCS + 24 * 4 + 12] == 2) {
		vc = vmcore_open(path);
		vm_hush();
		CHECK(vc && vmcore_read(vc, 6 * KD_PAGE, buf, 8) == -1 &&
		      vmcore_read(vc, 5 * KD_PAGE, buf, 8) == 0,
		      "vmcore: no lzo: only its page fails");
		vm_said(msg, sizeof(msg));
		CHECK(strstr(msg, "/kdump: its pages are compressed with lzo, and libpp-no-lzo.so.2 is not installed (Debian: liblzo2-2)"),
		      "vmcore: no lzo: %s", msg);
		vmcore_close(vc);
	}
	v = 2;
	kd_broken(path, k, len, 424, &v, 4, msg, sizeof(msg));
	CHECK(strstr(msg, "with lzo, and libpp-no-lzo.so.2 is not installed"),
	      "vmcore: no lzo at open: %s", msg);
	vmcore_test_library("lzo", NULL);

	/* Refused: split, big-endian, damaged. */
	v = 1;
	kd_broken(path, k, len, KD_PAGE + 12, &v, 4, msg, sizeof(msg));
	CHECK(strstr(msg, "/kdump: one part of a dump split by makedumpfile --split"),
	      "vmcore: split: %s", msg);
	v = 6 << 24;
	kd_broken(path, k, len, 8, &v, 4, msg, sizeof(msg));
	CHECK(strstr(msg, "a big-endian kdump file"),
	      "vmcore: big-endian kdump: %s", msg);
	v = 40000;
	kd_broken(path, k, len, KD_PAGE + 96, &v, 4, msg, sizeof(msg));
	CHECK(strstr(msg, "damaged: a bitmap of 2 blocks for 40000 pages"),
	      "vmcore: max_mapnr past the bitmap: %s", msg);

	/* A page whose compression is not known, or that does not inflate. */
	v = 0x40;
	memcpy(k + KD_DESCS + 24 + 12, &v, 4);
	memcpy(&off, k + KD_DESCS + 24 * 3, 8);
	k[off + 10] ^= 0xff;
	CHECK(!vm_write(path, k, len), "vmcore: write");
	vc = vmcore_open(path);
	vm_hush();
	CHECK(vc && vmcore_read(vc, 2 * KD_PAGE, buf, 8) == -1 &&
	      vmcore_read(vc, 5 * KD_PAGE, buf, 8) == -1,
	      "vmcore: bad pages");
	vm_said(msg, sizeof(msg));
	CHECK(strstr(msg, "the page at pfn 0x2 is compressed in a way this reader does not know (flags 0x40)") &&
	      strstr(msg, "damaged: the page at pfn 0x5 does not decompress with zlib"),
	      "vmcore: bad pages: %s", msg);
	vmcore_close(vc);

	/* Cut short: refused; marked incomplete, what is there is read. */
	CHECK(!vm_write(path, k, 300), "vmcore: write");
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/kdump: truncated: it ends at byte 300, before the end of the kdump header"),
	      "vmcore: truncated header: %s", msg);
	k[424] |= 8;
	CHECK(!vm_write(path, k, len - 10), "vmcore: write");
	vc = vmcore_open(path);
	CHECK(vc && !strcmp(vmcore_kind(vc), "kdump-compressed (zlib, incomplete)") &&
	      vmcore_read(vc, 19 * KD_PAGE, buf, 8) == 1 &&
	      vmcore_read(vc, 1 * KD_PAGE, buf, 8) == 0,
	      "vmcore: incomplete: the last page is not there");
	vmcore_close(vc);
	snprintf(path, sizeof(path), "%s/flat", dir);
	CHECK(!vm_write(path, fl, 4096 + 16 + 100), "vmcore: write");
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/flat: truncated: the flattened block at byte 4096 ends past its end"),
	      "vmcore: truncated flattened: %s", msg);
	free(fl);
	free(k);
}

/*
 * What makedumpfile itself writes of an ELF core (-d 1: zero pages left
 * out; -c zlib, -l lzo, -F flattened) reads as the core does.  Debian's
 * makedumpfile has neither snappy nor zstd (-p, -z write raw pages).
 */
static void test_vmcore_makedumpfile(const char *dir)
{
	static const char *const opt[] = { "-c", "-l", "-F -c" };
	static const char *const kind[] = { "kdump-compressed (zlib)",
		"kdump-compressed (lzo)", "flattened kdump-compressed (zlib)" };
	size_t page = sysconf(_SC_PAGESIZE), i, k;
	unsigned char *a = malloc(page), *b = malloc(page);
	char elf[PATH_MAX], out[PATH_MAX], cmd[3 * PATH_MAX];
	struct vmcore *ve, *vk;
	struct vm_found f, g;
	uint64_t paddr;
	int ra, rb;

	if (system("command -v makedumpfile >/dev/null")) {
		printf("# vmcore: no makedumpfile: its dumps not read\n");
		goto out;
	}
	snprintf(elf, sizeof(elf), "%s/elf4k", dir);
	vm_elf(elf, page, false, ELFCLASS64, ELFDATA2LSB);
	ve = vmcore_open(elf);
	CHECK(ve && vm_scan(ve, &f, 0, VM_A) == 0 && f.n == 2,
	      "vmcore: makedumpfile: the core");
	for (k = 0; ve && k < 3; k++) {
		snprintf(out, sizeof(out), "%s/md%zu", dir, k);
		snprintf(cmd, sizeof(cmd),
			 "makedumpfile %s -d 1 %s %s%s 2>/dev/null%s", opt[k],
			 elf, k == 2 ? "> " : "", out,
			 k == 2 ? "" : " >/dev/null");
		CHECK(!system(cmd), "vmcore: %s", cmd);
		vk = vmcore_open(out);
		CHECK(vk && !strcmp(vmcore_kind(vk), kind[k]),
		      "vmcore: makedumpfile %s opens", opt[k]);
		if (!vk)
			continue;
		for (i = 0; i < 7; i++) {
			paddr = i < 3 ? VM_A + i * page : VM_B + (i - 3) * page;
			memset(b, 1, page);
			ra = vmcore_read(ve, paddr, a, page);
			rb = vmcore_read(vk, paddr, b, page);
			/*
			 * Left out: those past p_filesz.  Pages of zeros
			 * are the zero page's.
			 */
			CHECK(!ra && !memcmp(a, b, page) &&
			      rb == (paddr >= VM_B + 2 * page),
			      "vmcore: makedumpfile %s: page %#llx: %d", opt[k],
			      (unsigned long long)paddr, rb);
		}
		CHECK(vm_scan(vk, &g, 0, VM_B) == 0 && g.n == f.n &&
		      !memcmp(f.at, g.at, sizeof(f.at)) && g.read_ok,
		      "vmcore: makedumpfile %s: scan", opt[k]);
		vmcore_close(vk);
	}
	vmcore_close(ve);
out:
	free(a);
	free(b);
}

/* Crash dumps: every format and compression, and what is refused. */
static void test_vmcore(void)
{
	char dir[] = "/tmp/pp-unit-vmcore.XXXXXX", path[PATH_MAX], msg[512];

	CHECK(mkdtemp(dir), "vmcore: a directory");
	test_vmcore_elf(dir);
	test_vmcore_kdump(dir);
	test_vmcore_makedumpfile(dir);

	snprintf(path, sizeof(path), "%s/text", dir);
	CHECK(!vm_write(path, "hello, world, this is no dump\n", 30),
	      "vmcore: a text");
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/text: not a crash dump: neither an ELF core nor what makedumpfile writes"),
	      "vmcore: not a dump: %s", msg);
	CHECK(!vm_write(path, "", 0), "vmcore: empty");
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/text: not a crash dump: it is empty"),
	      "vmcore: empty: %s", msg);
	snprintf(path, sizeof(path), "%s/none", dir);
	vm_open_fails(path, msg, sizeof(msg));
	CHECK(strstr(msg, "/none: No such file or directory"),
	      "vmcore: no file: %s", msg);
	CHECK(remove_tree(dir) == 0, "vmcore: remove the tree");
}

int main(void)
{
	tracefs_set_dir("data/tracefs");
	test_options();
	test_errmsg();
	test_sizes();
	test_fields();
	test_events();
	test_default_sampling();
	test_decode();
	test_comm_records();
	test_perfdata_events();
	test_perfdata_exit();
	test_tracedat();
	test_readerdata();
	test_filter();
	test_crash_dump();
	test_dump_names();
	test_uapi();
	test_archive();
	test_rasdb();
	test_vmcore();
	printf("tools unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
