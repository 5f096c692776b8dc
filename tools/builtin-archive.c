// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent archive", the previous boot's
 * history written to a directory of its own, once: every event of that
 * boot in one perf.data, its tracepoints in one trace.dat, its hardware
 * errors as JSON and a summary; node_exporter's textfile and one journal
 * entry say what it held.  Run at boot by perf-persistent-archive.service.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "builtin.h"
#include "archive.h"
#include "rasdb.h"
#include "perf_persistent/cper.h"

#define ARCHIVE_DIR		"/var/lib/perf-persistent"
/* node_exporter's textfile directory on Debian (prometheus-node-exporter). */
#define TEXTFILE_DIR		"/var/lib/prometheus/node-exporter"
#define JOURNAL_SOCKET		"/run/systemd/journal/socket"

/* previous_boot/@file, without its newline, into @buf; false if none. */
static bool previous_file(const char *file, char *buf, size_t len)
{
	char rel[64], *v;

	snprintf(rel, sizeof(rel), "previous_boot/%s", file);
	v = pmu_file(rel);
	if (!v)
		return false;
	v[strcspn(v, "\n")] = '\0';
	snprintf(buf, len, "%s", v);
	free(v);
	return true;
}

/* A boot id as the kernel gives it: hex digits and dashes, nothing else. */
static bool boot_id_ok(const char *id)
{
	return *id && strspn(id, "0123456789abcdef-") == strlen(id);
}

/* A numeric field of a tracepoint record, 0 if it has none. */
static unsigned long long field_value(struct pp_printer *p,
				      const struct pp_decoded *d,
				      const char *name)
{
	struct tep_event *event = printer_tep_event(p);
	struct tep_format_field *f;
	unsigned long long v = 0;

	f = event ? tep_find_field(event, name) : NULL;
	if (!f || !d->raw || tep_read_number_field(f, d->raw, &v))
		return 0;
	return v;
}

enum hwerr_kind { NOT_HWERR, HWERR_MCE, HWERR_CPER };

static enum hwerr_kind hwerr_kind(const struct pp_event_desc *desc)
{
	char src[256];

	format_desc_source(desc, src, sizeof(src));
	if (!strcmp(src, "mce:mce_record"))
		return HWERR_MCE;
	if (!strcmp(src, "ras:non_standard_event"))
		return HWERR_CPER;
	return NOT_HWERR;
}

/* Where the module found a hardware error, in rasdaemon's messages. */
static const char *const origin_words[HWERR_ORIGIN_NR] = {
	[HWERR_TRACED]		= "traced",
	[HWERR_PANIC]		= "at the panic",
	[HWERR_ERST]		= "from ERST",
	[HWERR_BOOT_LOG]	= "from the boot log",
	[HWERR_BERT]		= "from BERT",
	[HWERR_GHES]		= "from GHES at the panic",
};

/**
 * struct ras_rows - the hardware errors rasdaemon never saw, as rows of
 *	its tables (rasdb.h)
 * @mce: mce_record's
 * @mem: mc_event's
 * @sec: non_standard_event's (their payloads point into the snapshot)
 * @nr: how many of each (enum rasdb_table)
 * @cap: room in each
 */
struct ras_rows {
	struct rasdb_mce	*mce;
	struct rasdb_mem	*mem;
	struct rasdb_section	*sec;
	size_t			nr[RASDB_TABLES], cap[RASDB_TABLES];
};

/*
 * A new zeroed row of table @t in @rows: its address, or NULL out of
 * memory (reported).
 */
static void *ras_new_row(struct ras_rows *rows, enum rasdb_table t)
{
	static const size_t size[RASDB_TABLES] = {
		[RASDB_MCE_RECORD]	= sizeof(struct rasdb_mce),
		[RASDB_MC_EVENT]	= sizeof(struct rasdb_mem),
		[RASDB_NON_STANDARD]	= sizeof(struct rasdb_section),
	};
	void **arr = t == RASDB_MCE_RECORD ? (void **)&rows->mce :
		     t == RASDB_MC_EVENT ? (void **)&rows->mem :
		     (void **)&rows->sec;
	char *row;

	if (rows->nr[t] == rows->cap[t]) {
		size_t cap = rows->cap[t] ? 2 * rows->cap[t] : 8;
		void *m = reallocarray(*arr, cap, size[t]);

		if (!m) {
			pp_error("out of memory");
			return NULL;
		}
		*arr = m;
		rows->cap[t] = cap;
	}
	row = (char *)*arr + rows->nr[t]++ * size[t];
	memset(row, 0, size[t]);
	return row;
}

/* rasdaemon's format of a time: local, "%Y-%m-%d %H:%M:%S %z". */
static void ras_time(char *buf, size_t len, time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S %z", &tm);
}

/*
 * A machine check the tracepoint did not see (rasdaemon records those it
 * did), as a row of rasdaemon's mce_record: 0, or -1 out of memory.
 */
static int ras_mce(struct ras_rows *rows, const struct archive *a,
		   struct pp_printer *p, const struct pp_decoded *d,
		   enum hwerr_severity sev, enum hwerr_origin origin,
		   const char *event)
{
	struct rasdb_mce *m = ras_new_row(rows, RASDB_MCE_RECORD);

	if (!m)
		return -1;
	m->mcgcap = field_value(p, d, "mcgcap");
	m->mcgstatus = field_value(p, d, "mcgstatus");
	m->status = field_value(p, d, "status");
	m->addr = field_value(p, d, "addr");
	m->misc = field_value(p, d, "misc");
	m->ip = field_value(p, d, "ip");
	m->tsc = field_value(p, d, "tsc");
	m->walltime = field_value(p, d, "walltime");
	m->ppin = field_value(p, d, "ppin");
	m->cpu = field_value(p, d, "cpu");
	m->cpuid = field_value(p, d, "cpuid");
	m->apicid = field_value(p, d, "apicid");
	m->socketid = field_value(p, d, "socketid");
	m->cs = field_value(p, d, "cs");
	m->bank = field_value(p, d, "bank");
	m->cpuvendor = field_value(p, d, "cpuvendor");
	m->microcode = field_value(p, d, "microcode");
	/* rasdaemon's format: the local time of the error. */
	ras_time(m->timestamp, sizeof(m->timestamp),
		 m->walltime ? (time_t)m->walltime : time(NULL));
	rasdb_mce_text(m, hwerr_severity_names[sev], origin_words[origin]);
	if (!strncmp(event, PP_PREVIOUS_PREFIX, strlen(PP_PREVIOUS_PREFIX)))
		event += strlen(PP_PREVIOUS_PREFIX);
	snprintf(m->user_action, sizeof(m->user_action),
		 "see event %s in %s", event, a->path);
	return 0;
}

/* The wall-clock time of record @d, else now. */
static time_t record_wall(struct pp_printer *p, const struct pp_decoded *d)
{
	const struct pp_clock *c = printer_clock(p);

	if (!c || !c->realtime_ns || !d->time)
		return time(NULL);
	return (time_t)((d->time - c->clock_ns + c->realtime_ns) / 1000000000ULL);
}

/*
 * A firmware's memory error section as ghes_edac traces one: a row of
 * mc_event, @err_type the severity in rasdaemon's words.
 */
static int ras_mem(struct ras_rows *rows, const struct pp_cper_mem *cm,
		   const char *fru_text, const char *err_type, time_t when,
		   enum hwerr_origin origin)
{
	struct rasdb_mem *m = ras_new_row(rows, RASDB_MC_EVENT);
	const char *type = NULL;
	char loc[192];

	if (!m)
		return -1;
	ras_time(m->timestamp, sizeof(m->timestamp), when);
	m->err_type = err_type;
	if (cm->valid & PP_CPER_MEM_TYPE)
		type = pp_cper_mem_type_name(cm->type);
	snprintf(m->err_msg, sizeof(m->err_msg),
		 "%s, firmware error section %s, kept by perf-persistent",
		 type ? type : "memory error", origin_words[origin]);
	snprintf(m->label, sizeof(m->label), "%s",
		 *fru_text ? fru_text : "unknown memory");
	if (cm->valid & PP_CPER_MEM_PA)
		m->address = cm->addr;
	m->grain = 1;
	if ((cm->valid & PP_CPER_MEM_PA_MASK) && cm->addr_mask)
		m->grain = ~cm->addr_mask + 1;
	cper_mem_location(cm, true, loc, sizeof(loc));
	snprintf(m->driver_detail, sizeof(m->driver_detail), "APEI location:%s",
		 loc);
	return 0;
}

/*
 * A firmware's error section the tracepoint did not see (BERT's, GHES's
 * at the panic): a memory error as a row of mc_event, any other as one
 * of non_standard_event.  0, or -1 out of memory.
 */
static int ras_cper(struct ras_rows *rows, struct pp_printer *p,
		    const struct pp_decoded *d, enum hwerr_origin origin)
{
	/* rasdaemon's words for the tracepoint's sev, and mc_event's. */
	static const char *const sev_words[] = {
		[GHES_SEV_NO]		= "Informational",
		[GHES_SEV_CORRECTED]	= "Corrected",
		[GHES_SEV_RECOVERABLE]	= "Recoverable",
		[GHES_SEV_PANIC]	= "Fatal",
	};
	static const char *const mc_words[] = {
		[GHES_SEV_NO]		= "Info",
		[GHES_SEV_CORRECTED]	= "Corrected",
		[GHES_SEV_RECOVERABLE]	= "Uncorrected",
		[GHES_SEV_PANIC]	= "Fatal",
	};
	static const __u8 memory[] = PP_CPER_SEC_MEMORY;
	unsigned long long sev = field_value(p, d, "sev");
	struct tep_event *event = printer_tep_event(p);
	struct tep_record rec = {
		.data	= (void *)d->raw,
		.size	= d->raw_size,
	};
	struct rasdb_section *s;
	const void *type, *fru, *text, *buf;
	int type_len = 0, fru_len = 0, text_len = 0, len = 0;
	struct pp_cper_mem cm;

	type = tep_get_field_raw(NULL, event, "sec_type", &rec, &type_len, 0);
	fru = tep_get_field_raw(NULL, event, "fru_id", &rec, &fru_len, 0);
	text = tep_get_field_raw(NULL, event, "fru_text", &rec, &text_len, 0);
	buf = tep_get_field_raw(NULL, event, "buf", &rec, &len, 0);
	if (!type || type_len != 16 || !fru || fru_len != 16 || !buf || len < 0)
		return 0;
	/* At the panic, or of a severity beyond the driver's: fatal. */
	if (origin == HWERR_GHES || sev > GHES_SEV_PANIC)
		sev = GHES_SEV_PANIC;
	if (pp_cper_type_is(type, memory) && !pp_cper_mem_read(buf, len, &cm)) {
		char t[32];

		snprintf(t, sizeof(t), "%.*s", text ? text_len : 0,
			 text ? (const char *)text : "");
		return ras_mem(rows, &cm, t, mc_words[sev], record_wall(p, d),
			       origin);
	}
	s = ras_new_row(rows, RASDB_NON_STANDARD);
	if (!s)
		return -1;
	ras_time(s->timestamp, sizeof(s->timestamp), record_wall(p, d));
	memcpy(s->sec_type, type, 16);
	memcpy(s->fru_id, fru, 16);
	snprintf(s->fru_text, sizeof(s->fru_text), "%.*s",
		 text ? text_len : 0, text ? (const char *)text : "");
	s->severity = sev_words[sev];
	s->error = buf;
	s->length = len;
	return 0;
}

/* Name fatal record @d in @a->first_fatal, for the journal. */
static void name_fatal(struct archive *a, struct pp_printer *p,
		       const struct pp_decoded *d, bool mce,
		       enum hwerr_origin origin)
{
	char words[160];

	if (!archive_fatal_wanted(a, origin))
		return;
	if (mce)
		snprintf(words, sizeof(words),
			 "machine check on CPU %llu bank %llu, status 0x%llx, %s",
			 field_value(p, d, "cpu"), field_value(p, d, "bank"),
			 field_value(p, d, "status"), origin_words[origin]);
	else
		snprintf(words, sizeof(words), "firmware error section %s",
			 origin_words[origin]);
	archive_set_fatal(a, words, origin);
}

/*
 * Count event @i's hardware errors into @a, print its fatal ones to
 * @fatal and all of them, as JSON, to @json; the machine checks the
 * tracepoint did not see into @rows.  0, or -1 out of memory.
 */
static int hardware_errors(struct archive *a, const struct exports *x,
			   size_t i, FILE *fatal, FILE *json,
			   struct ras_rows *rows)
{
	enum hwerr_kind kind = hwerr_kind(&x->desc[i]);
	const struct pp_snapshot *snap = &x->snap[i];
	struct pp_printer *p = x->ev[i].p;
	size_t r;

	if (kind == NOT_HWERR)
		return 0;
	for (r = 0; r < snap->nr; r++) {
		const struct pp_decoded *d = &snap->recs[r].d;
		enum hwerr_origin origin;
		enum hwerr_severity sev;

		if (d->type != PERF_RECORD_SAMPLE || !d->raw)
			continue;
		origin = hwerr_origin_of(record_origin_pid(d));
		/* ras:non_standard_event's severity is its field "sev". */
		if (kind == HWERR_MCE)
			sev = hwerr_mce_severity(field_value(p, d, "status"),
						 origin);
		else
			sev = hwerr_cper_severity(field_value(p, d, "sev"),
						  origin);
		hwerr_count(a, sev, origin);
		if (sev == HWERR_FATAL) {
			print_record(p, fatal, d);
			name_fatal(a, p, d, kind == HWERR_MCE, origin);
		}
		print_record_json(p, json, d);
		if (origin == HWERR_TRACED)
			continue;
		if (kind == HWERR_MCE ?
		    ras_mce(rows, a, p, d, sev, origin, x->ev[i].name) :
		    ras_cper(rows, p, d, origin))
			return -1;
	}
	return 0;
}

/* Open @dir/@name for writing (mode 0600). */
static FILE *create_in(const char *dir, const char *name)
{
	char path[PATH_MAX];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		pp_error("cannot write '%s': %s", path, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		pp_error("cannot write '%s': %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Flush, sync and close @f; 0, or -1 (reported) for @name. */
static int finish(FILE *f, const char *name)
{
	int ret = 0;

	if (fflush(f) || fsync(fileno(f)))
		ret = -1;
	if (fclose(f))
		ret = -1;
	if (ret)
		pp_error("cannot write '%s': %s", name, strerror(errno));
	return ret;
}

/*
 * Every event of the previous boot, described and read into @x; their
 * counts into @a.  0, or non-zero (reported).
 */
static int read_previous(struct exports *x, struct archive *a)
{
	char name[PERF_PERSISTENT_NAME_MAX + sizeof(PP_PREVIOUS_PREFIX)];
	unsigned int *ids = NULL;
	int fd, n, i, ret = 0;

	fd = ctl_open(false);
	if (fd < 0)
		return 1;
	n = ctl_list(fd, &ids);
	if (n < 0 || exports_alloc(x, n)) {
		free(ids);
		close(fd);
		return 1;
	}
	a->events = calloc(n ? n : 1, sizeof(*a->events));
	if (!a->events) {
		ret = pp_error("out of memory");
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		struct pp_event_desc desc;
		struct archive_event *e;
		struct pp_export *ev;
		struct totals t;
		bool prev;

		/* An event destroyed since it was listed is not one. */
		if (ctl_describe(fd, ids[i], NULL, &desc))
			continue;
		prev = desc.info.state & PERF_PERSISTENT_STATE_PREVIOUS;
		snprintf(name, sizeof(name), "%s%.*s", PP_PREVIOUS_PREFIX,
			 PERF_PERSISTENT_NAME_MAX, desc.info.name);
		ctl_desc_free(&desc);
		if (!prev)
			continue;
		ret = exports_add(x, fd, name, true);
		if (ret)
			break;
		ev = &x->ev[x->nr - 1];
		e = &a->events[a->nr_events++];
		snprintf(e->name, sizeof(e->name), "%s", ev->name);
		format_desc_source(&x->desc[x->nr - 1], e->source,
				   sizeof(e->source));
		sum(&x->desc[x->nr - 1], &t);
		e->records = snapshot_samples(ev->snap);
		e->overwritten = t.overwritten;
		e->dropped = t.dropped;
	}
out:
	free(ids);
	close(fd);
	return ret;
}

/* The tracepoints a trace.dat can hold: time, CPU and payload recorded. */
static bool tracedat_can(const struct pp_export *ev)
{
	const unsigned long long need = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
					PERF_SAMPLE_RAW;

	return ev->attr.type == PERF_TYPE_TRACEPOINT &&
	       (ev->attr.sample_type & need) == need;
}

/* Write the archive's files into the directory @tmp.  0, or 1 (reported). */
static int write_files(struct archive *a, const struct exports *x,
		       const char *tmp, struct ras_rows *rows)
{
	char path[PATH_MAX], *fatal_buf = NULL, *cmdline[] = {
		"perf", "persistent", "archive",
	};
	struct pp_export *tev = NULL;
	size_t i, nr_tev = 0, fatal_len = 0, written;
	FILE *json, *fatal, *sf;
	int ret = 1;

	json = create_in(tmp, "hardware-errors.json");
	if (!json)
		return 1;
	fatal = open_memstream(&fatal_buf, &fatal_len);
	if (!fatal) {
		fclose(json);
		return pp_error("out of memory");
	}
	for (i = 0; i < x->nr; i++)
		if (hardware_errors(a, x, i, fatal, json, rows))
			break;
	fclose(fatal);
	a->fatal_text = fatal_buf;
	if (finish(json, "hardware-errors.json") || i < x->nr)
		return 1;
	snprintf(a->files, sizeof(a->files), "hardware-errors.json");

	if (x->nr) {
		snprintf(path, sizeof(path), "%s/perf.data", tmp);
		perfdata_set_buildid_cache(false);
		if (perfdata_write(path, x->ev, x->nr, 3, cmdline))
			return 1;
		strcat(a->files, ", perf.data");
	}
	tev = calloc(x->nr ? x->nr : 1, sizeof(*tev));
	if (!tev)
		return pp_error("out of memory");
	for (i = 0; i < x->nr; i++)
		if (tracedat_can(&x->ev[i]))
			tev[nr_tev++] = x->ev[i];
	/* trace-cmd's library is a suggestion of the package, not a need. */
	if (nr_tev && tracedat_available()) {
		snprintf(path, sizeof(path), "%s/trace.dat", tmp);
		if (tracedat_write(path, tev, nr_tev, &written))
			goto out;
		strcat(a->files, ", trace.dat");
	}
	strcat(a->files, ", summary");
	/* The summary last: an archive with one is whole (archive_prune()). */
	sf = create_in(tmp, "summary");
	if (!sf)
		goto out;
	archive_write_summary(a, sf);
	if (finish(sf, "summary"))
		goto out;
	ret = 0;
out:
	free(tev);
	return ret;
}

/*
 * Whether standard output is the journal: systemd sets JOURNAL_STREAM to
 * its "device:inode" when a service's output goes there.
 */
static bool stdout_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	return js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 &&
	       !fstat(STDOUT_FILENO, &st) && st.st_dev == dev && st.st_ino == ino;
}

static int opt_keep(const char *arg, void *value)
{
	return parse_count(arg, "number of archives to keep", false, value);
}

/*
 * The hardware errors rasdaemon never saw, into its database @db: what
 * was done goes into @a->rasdaemon for the journal, e.g. "2 rows written
 * to DB (1 mce_record, 1 mc_event), 0 there already; 1
 * non_standard_event not written: its rasdaemon has no such table".  0,
 * or -1 on a failed write (reported; the database is as it was).
 */
static int to_rasdaemon(struct archive *a, const struct ras_rows *rows,
			const char *db)
{
	const struct rasdb_rows want = {
		.mce = rows->mce, .mem = rows->mem, .sec = rows->sec,
		.nr = { rows->nr[0], rows->nr[1], rows->nr[2] },
	};
	size_t all = 0, written = 0, present = 0, left = 0, n, len;
	char *out = a->rasdaemon;
	struct rasdb_result res;
	const char *sep = "";
	int t;

	len = sizeof(a->rasdaemon);
	for (t = 0; t < RASDB_TABLES; t++)
		all += rows->nr[t];
	if (!all) {
		snprintf(out, len, "no hardware error it did not see");
		return 0;
	}
	if (rasdb_rasdaemon_running("/proc")) {
		/* It sets no busy timeout: our lock would lose its events. */
		snprintf(out, len,
			 "%zu rows not written to %s: rasdaemon is running (this runs before rasdaemon.service)",
			 all, db);
		return 0;
	}
	if (rasdb_write(db, &want, &res))
		return -1;
	if (*res.reason) {
		snprintf(out, len, "%zu rows not written to %s: %s", all, db,
			 res.reason);
		return 0;
	}
	for (t = 0; t < RASDB_TABLES; t++) {
		written += res.written[t];
		present += res.present[t];
		left += res.left[t];
	}
	n = snprintf(out, len, "%zu row%s written to %s", written,
		     written == 1 ? "" : "s", db);
	for (t = 0; t < RASDB_TABLES && n < len; t++) {
		if (!res.written[t])
			continue;
		n += snprintf(out + n, len - n, "%s%zu %s", *sep ? sep : " (",
			      res.written[t], rasdb_table_names[t]);
		sep = ", ";
	}
	if (n < len)
		n += snprintf(out + n, len - n, "%s, %zu there already",
			      *sep ? ")" : "", present);
	for (t = 0; t < RASDB_TABLES && n < len; t++)
		if (res.left[t])
			n += snprintf(out + n, len - n,
				      "; %zu %s not written: its rasdaemon has no such table",
				      res.left[t], rasdb_table_names[t]);
	return 0;
}

static int archive_run(int argc, char **argv)
{
	const char *dir = ARCHIVE_DIR, *textfile = NULL, *rasdb = NULL;
	bool journal = true, no_textfile = false, no_rasdaemon = false;
	unsigned long long keep = 10;
	const struct pp_opt opts[] = {
		OPT_STRING('d', "dir", &dir),
		OPT_CALL(0, "keep", &keep, opt_keep),
		OPT_STRING(0, "textfile", &textfile),
		OPT_SET(0, "no-textfile", &no_textfile),
		OPT_CLEAR(0, "no-journal", &journal),
		OPT_STRING(0, "rasdaemon", &rasdb),
		OPT_SET(0, "no-rasdaemon", &no_rasdaemon),
		OPT_END
	};
	char path[PATH_MAX], tmp[PATH_MAX], lock[PATH_MAX];
	struct archive a = { 0 };
	struct exports x = { 0 };
	struct ras_rows rows = { 0 };
	struct stat st;
	struct tm tm;
	int ret, lfd, sent;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 0, 0))
		return PP_EXIT_USAGE;
	if (textfile && no_textfile)
		return usage_error("--textfile and --no-textfile exclude each other");
	if (rasdb && no_rasdaemon)
		return usage_error("--rasdaemon and --no-rasdaemon exclude each other");
	/* No module is not "no previous boot": say which it is. */
	lfd = ctl_open(false);
	if (lfd < 0)
		return lfd;
	close(lfd);
	if (!previous_file("boot_id", a.boot_id, sizeof(a.boot_id))) {
		printf("no previous boot in a reserved region: nothing to archive\n");
		return 0;
	}
	/*
	 * A capture kernel sees part of the crashed kernel's history (its
	 * CPUs: nr_cpus=1) and leaves the region as it was: an archive made
	 * here would stand for that boot, and the next boot's whole one
	 * would be "archived already".
	 */
	if (capture_kernel()) {
		printf("a kdump capture kernel: the next boot archives the crashed kernel's history whole\n");
		return 0;
	}
	if (!boot_id_ok(a.boot_id))
		return pp_error("previous_boot/boot_id: not a boot id: '%s'",
				a.boot_id);
	previous_file("release", a.release, sizeof(a.release));
	previous_file("end", a.end, sizeof(a.end));

	if (mkdir(dir, 0700) && errno != EEXIST)
		return pp_error("cannot make '%s': %s", dir, strerror(errno));
	/* One archive at a time: a second run waits, then finds it made. */
	snprintf(lock, sizeof(lock), "%s/.lock", dir);
	lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lfd < 0 || flock(lfd, LOCK_EX))
		return pp_error("cannot lock '%s': %s", lock, strerror(errno));
	snprintf(path, sizeof(path), "%s/boot-%s", dir, a.boot_id);
	snprintf(a.path, sizeof(a.path), "%s", path);
	if (!stat(path, &st)) {
		/* As a service, the journal has its one entry already. */
		if (!stdout_is_journal())
			printf("previous boot %s: archived already in %s\n",
			       a.boot_id, path);
		close(lfd);
		return 0;
	}
	/* What a run that stopped half-way left is made again. */
	snprintf(tmp, sizeof(tmp), "%s/.boot-%s.tmp", dir, a.boot_id);
	if (!stat(tmp, &st) && remove_tree(tmp)) {
		ret = pp_error("cannot remove '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (mkdir(tmp, 0700)) {
		ret = pp_error("cannot make '%s': %s", tmp, strerror(errno));
		goto out;
	}
	a.time = time(NULL);
	gmtime_r(&a.time, &tm);
	strftime(a.when, sizeof(a.when), "%Y-%m-%d %H:%M:%S UTC", &tm);

	ret = read_previous(&x, &a);
	if (!ret)
		ret = write_files(&a, &x, tmp, &rows);
	/*
	 * Written through before the rename, and the rename itself after:
	 * a power cut then must not lose the archive, since the next boot's
	 * region holds that boot, not this one's previous.
	 */
	if (!ret && sync_dir(tmp, true))
		ret = pp_error("cannot sync '%s': %s", tmp, strerror(errno));
	if (!ret && rename(tmp, path))
		ret = pp_error("cannot rename '%s' to '%s': %s", tmp, path,
			       strerror(errno));
	if (ret) {
		remove_tree(tmp);
		goto out;
	}
	/* Made, if not yet durable: the rest is said all the same. */
	if (sync_dir(dir, false))
		ret = pp_error("cannot sync '%s': %s", dir, strerror(errno));
	archive_prune(dir, keep);

	/* rasdaemon's directory is there when it is installed. */
	if (!rasdb && !no_rasdaemon && !stat(RASDB_DIR, &st) &&
	    S_ISDIR(st.st_mode))
		rasdb = RASDB_PATH;
	if (rasdb && to_rasdaemon(&a, &rows, rasdb))
		ret = 1;

	if (!textfile && !no_textfile && !stat(TEXTFILE_DIR, &st) &&
	    S_ISDIR(st.st_mode))
		textfile = TEXTFILE_DIR;
	if (textfile && archive_textfile(&a, textfile))
		ret = 1;
	sent = journal ? archive_journal(&a, JOURNAL_SOCKET) : 1;
	if (sent < 0)
		ret = 1;
	/* Once in the journal: the line again from the unit's output is not. */
	if (sent || !stdout_is_journal()) {
		archive_message(&a, tmp, sizeof(tmp));
		printf("%s\n", tmp);
		if (*a.rasdaemon)
			printf("rasdaemon: %s\n", a.rasdaemon);
	}
out:
	exports_free(&x);
	free(a.events);
	free(a.fatal_text);
	free(rows.mce);
	free(rows.mem);
	free(rows.sec);
	close(lfd);
	return ret;
}

/* The exit status: pp_error()'s -1 is 1. */
static int cmd_archive(int argc, char **argv)
{
	int ret = archive_run(argc, argv);

	return ret < 0 ? 1 : ret;
}

const struct pp_cmd pp_cmd_archive = {
	.name = "archive",
	.fn = cmd_archive,
	.usage = "[-d DIR] [--keep N] [--textfile DIR | --no-textfile] [--no-journal]\n"
		 "    [--rasdaemon DB | --no-rasdaemon]",
	.help = "write the previous boot's history, once, to DIR/boot-ID (ID: that\n"
		"    boot's id): every event in perf.data, the tracepoints in trace.dat,\n"
		"    the hardware errors in hardware-errors.json, and a summary; keep\n"
		"    the newest N archives; say what it held in node_exporter's\n"
		"    textfile and in one journal entry (err for a fatal error); the\n"
		"    machine checks rasdaemon did not see into its database\n"
		"    -d, --dir DIR   where the archives go (default " ARCHIVE_DIR ")\n"
		"    --keep N        the archives kept (default 10)\n"
		"    --textfile DIR  node_exporter's textfile directory (default\n"
		"                    " TEXTFILE_DIR " if there is one)\n"
		"    --no-textfile   no textfile\n"
		"    --no-journal    no journal entry\n"
		"    --rasdaemon DB  rasdaemon's database, into which the machine checks it\n"
		"                    did not see go, once each (default " RASDB_PATH "\n"
		"                    if rasdaemon is installed; never while it runs)\n"
		"    --no-rasdaemon  nothing into rasdaemon's database",
};
