// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: what "perf persistent archive" writes besides the
 * exports, from counts it is given: the severity of a hardware error
 * record, the summary text, node_exporter's textfile, the journal entry,
 * and the pruning of older archives.  No control device here: the unit
 * tests call these on made-up counts (tests/unit.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "perf-persistent.h"
#include "archive.h"

/* MCi_STATUS: uncorrected (UC), processor context corrupt (PCC). */
#define MCI_STATUS_UC	(1ULL << 61)
#define MCI_STATUS_PCC	(1ULL << 57)


const char *const hwerr_severity_names[HWERR_SEV_NR] = {
	[HWERR_CORRECTED]	= "corrected",
	[HWERR_UNCORRECTED]	= "uncorrected",
	[HWERR_FATAL]		= "fatal",
};

const char *const hwerr_origin_names[HWERR_ORIGIN_NR] = {
	[HWERR_TRACED]		= "traced",
	[HWERR_PANIC]		= "panic",
	[HWERR_ERST]		= "erst",
	[HWERR_BOOT_LOG]	= "boot_log",
	[HWERR_BERT]		= "bert",
	[HWERR_GHES]		= "ghes",
};

enum hwerr_origin hwerr_origin_of(int origin_pid)
{
	switch (origin_pid) {
	case PERF_PERSISTENT_ORIGIN_PANIC:
		return HWERR_PANIC;
	case PERF_PERSISTENT_ORIGIN_ERST:
		return HWERR_ERST;
	case PERF_PERSISTENT_ORIGIN_BOOT_LOG:
		return HWERR_BOOT_LOG;
	case PERF_PERSISTENT_ORIGIN_BERT:
		return HWERR_BERT;
	case PERF_PERSISTENT_ORIGIN_GHES:
		return HWERR_GHES;
	}
	return HWERR_TRACED;
}

/*
 * A machine check: fatal when the processor's context was corrupt or the
 * kernel panicked on it (the records the module took at the panic); else
 * uncorrected or corrected by its UC bit.
 */
enum hwerr_severity hwerr_mce_severity(unsigned long long status,
				       enum hwerr_origin origin)
{
	if ((status & MCI_STATUS_PCC) || origin == HWERR_PANIC)
		return HWERR_FATAL;
	return status & MCI_STATUS_UC ? HWERR_UNCORRECTED : HWERR_CORRECTED;
}

/*
 * A firmware's error section (ras:non_standard_event): the GHES driver's
 * severity, which the tracepoint's "sev" has (not CPER's); the section the
 * kernel panicked on (GHES at the panic) is fatal whatever it says.
 * Informational sections count as corrected; a severity above the
 * driver's is fatal, as rasdaemon reads it.
 */
enum hwerr_severity hwerr_cper_severity(unsigned int sev,
					enum hwerr_origin origin)
{
	if (sev >= GHES_SEV_PANIC || origin == HWERR_GHES)
		return HWERR_FATAL;
	return sev == GHES_SEV_RECOVERABLE ? HWERR_UNCORRECTED : HWERR_CORRECTED;
}

void hwerr_count(struct archive *a, enum hwerr_severity sev,
		 enum hwerr_origin origin)
{
	a->hwerr[sev][origin]++;
}

unsigned long long hwerr_total(const struct archive *a, int sev)
{
	unsigned long long n = 0;
	int s, o;

	for (s = 0; s < HWERR_SEV_NR; s++)
		for (o = 0; o < HWERR_ORIGIN_NR; o++)
			if (sev < 0 || s == sev)
				n += a->hwerr[s][o];
	return n;
}

/*
 * The fatal error the journal names is the one the boot ended on (taken
 * at the panic: the machine check, GHES's error), else the first: does a
 * fatal error of @origin take the name?
 */
bool archive_fatal_wanted(const struct archive *a, enum hwerr_origin origin)
{
	bool at_panic = origin == HWERR_PANIC || origin == HWERR_GHES;

	return !*a->first_fatal || (at_panic && !a->first_fatal_at_panic);
}

/* Name a fatal error of @origin, in @words, as archive_fatal_wanted() let. */
void archive_set_fatal(struct archive *a, const char *words,
		       enum hwerr_origin origin)
{
	snprintf(a->first_fatal, sizeof(a->first_fatal), "%s", words);
	a->first_fatal_at_panic = origin == HWERR_PANIC ||
				  origin == HWERR_GHES;
}

/* The journal's priority: err, warning or info (syslog's 3, 4, 6). */
int archive_priority(const struct archive *a)
{
	if (hwerr_total(a, HWERR_FATAL))
		return 3;
	return hwerr_total(a, -1) ? 4 : 6;
}

static unsigned long long records_total(const struct archive *a)
{
	unsigned long long n = 0;
	size_t i;

	for (i = 0; i < a->nr_events; i++)
		n += a->events[i].records;
	return n;
}

/* The one line the journal gets, also the summary's first. */
void archive_message(const struct archive *a, char *buf, size_t len)
{
	unsigned long long fatal = hwerr_total(a, HWERR_FATAL);
	unsigned long long all = hwerr_total(a, -1);

	snprintf(buf, len,
		 "previous boot %s (%s) ended by %s: %llu records of %zu events archived in %s; %llu hardware errors, %llu fatal",
		 a->boot_id, a->release, a->end, records_total(a),
		 a->nr_events, a->path, all, fatal);
	if (*a->first_fatal)
		snprintf(buf + strlen(buf), len - strlen(buf), " (%s%s)",
			 a->first_fatal, fatal > 1 ? ", and more" : "");
}

int archive_write_summary(const struct archive *a, FILE *out)
{
	char msg[1024];
	size_t i;
	int s, o;

	archive_message(a, msg, sizeof(msg));
	fprintf(out, "%s\n\n", msg);
	fprintf(out, "boot id:      %s\nkernel:       %s\nended by:     %s\n",
		a->boot_id, a->release, a->end);
	fprintf(out, "archived:     %s\n", a->when);
	fprintf(out, "\n%-20s %-28s %12s %12s %10s\n", "EVENT", "SOURCE",
		"RECORDS", "OVERWRITTEN", "DROPPED");
	for (i = 0; i < a->nr_events; i++) {
		const struct archive_event *e = &a->events[i];

		fprintf(out, "%-20s %-28s %12llu %12llu %10llu\n", e->name,
			e->source, e->records, e->overwritten, e->dropped);
	}
	fprintf(out, "\nhardware errors: %llu\n", hwerr_total(a, -1));
	for (s = HWERR_SEV_NR - 1; s >= 0; s--)
		for (o = 0; o < HWERR_ORIGIN_NR; o++)
			if (a->hwerr[s][o])
				fprintf(out, "  %-12s %-9s %llu\n",
					hwerr_severity_names[s],
					hwerr_origin_names[o], a->hwerr[s][o]);
	if (a->fatal_text && *a->fatal_text)
		fprintf(out, "\nthe fatal ones:\n%s", a->fatal_text);
	fprintf(out, "\nfiles: %s\n", a->files);
	return ferror(out) ? -1 : 0;
}

/* A label value: backslash, double quote and newline escaped. */
static void prom_label(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n') {
			fputs("\\n", out);
			continue;
		}
		fputc(*s, out);
	}
}

/* A metric's HELP and TYPE lines: every one here is a gauge. */
static void metric(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* NAME{event="EVENT"[,reason="REASON"]} VALUE */
static void event_value(FILE *out, const char *name, const char *event,
			const char *reason, unsigned long long v)
{
	fprintf(out, "%s{event=\"", name);
	prom_label(out, event);
	if (reason)
		fprintf(out, "\",reason=\"%s", reason);
	fprintf(out, "\"} %llu\n", v);
}

#define M_INFO		"perf_persistent_previous_boot_info"
#define M_RECORDS	"perf_persistent_previous_boot_records"
#define M_LOST		"perf_persistent_previous_boot_records_lost"
#define M_HWERR		"perf_persistent_previous_boot_hardware_errors"
#define M_TIME		"perf_persistent_archive_timestamp_seconds"

int archive_write_metrics(const struct archive *a, FILE *out)
{
	const struct archive_event *e;
	size_t i;
	int s, o;

	metric(out, M_INFO, "The previous boot the last archive was made of.");
	fputs(M_INFO "{boot_id=\"", out);
	prom_label(out, a->boot_id);
	fputs("\",release=\"", out);
	prom_label(out, a->release);
	fputs("\",end=\"", out);
	prom_label(out, a->end);
	fputs("\"} 1\n", out);

	metric(out, M_RECORDS, "The records each event of the previous boot kept.");
	for (i = 0; i < a->nr_events; i++)
		event_value(out, M_RECORDS, a->events[i].name, NULL,
			    a->events[i].records);
	metric(out, M_LOST,
	       "The records each event of the previous boot lost, overwritten by newer ones or dropped.");
	for (i = 0; i < a->nr_events; i++) {
		e = &a->events[i];
		event_value(out, M_LOST, e->name, "overwritten", e->overwritten);
		event_value(out, M_LOST, e->name, "dropped", e->dropped);
	}
	metric(out, M_HWERR,
	       "The hardware errors among the previous boot's records, by severity and by where the module found them.");
	for (s = 0; s < HWERR_SEV_NR; s++)
		for (o = 0; o < HWERR_ORIGIN_NR; o++)
			fprintf(out, M_HWERR "{severity=\"%s\",origin=\"%s\"} %llu\n",
				hwerr_severity_names[s], hwerr_origin_names[o],
				a->hwerr[s][o]);
	metric(out, M_TIME, "When the last archive was made.");
	fprintf(out, M_TIME " %lld\n", (long long)a->time);
	return ferror(out) ? -1 : 0;
}

/*
 * Write @a's metrics to DIR/perf_persistent.prom through a temporary file
 * renamed over it, so that node_exporter never reads half of one.
 */
int archive_textfile(const struct archive *a, const char *dir)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	FILE *f;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/perf_persistent.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s/.perf_persistent.prom.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0)
		return pp_error("cannot write in '%s': %s", dir, strerror(errno));
	/* Read by node_exporter's user. */
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return pp_error("cannot write '%s': %s", tmp, strerror(errno));
	}
	ret = archive_write_metrics(a, f);
	if (fflush(f) || fsync(fileno(f)))
		ret = -1;
	if (fclose(f))
		ret = -1;
	if (!ret && rename(tmp, path))
		ret = -1;
	if (ret) {
		pp_error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Append "KEY=value\n" to @buf at @*pos; the values hold no newline. */
static void field(char *buf, size_t len, size_t *pos, const char *key,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void field(char *buf, size_t len, size_t *pos, const char *key,
		  const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return;
	n = snprintf(buf + *pos, len - *pos, "%s=", key);
	if (n < 0 || (size_t)n >= len - *pos) {
		*pos = len;
		return;
	}
	*pos += n;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= len - *pos) {
		*pos = len;
		return;
	}
	*pos += n;
	buf[(*pos)++] = '\n';
}

int archive_journal_entry(const struct archive *a, char *buf, size_t len)
{
	char msg[1024];
	size_t pos = 0;

	archive_message(a, msg, sizeof(msg));
	if (*a->rasdaemon)
		field(buf, len, &pos, "MESSAGE", "%s; rasdaemon: %s", msg,
		      a->rasdaemon);
	else
		field(buf, len, &pos, "MESSAGE", "%s", msg);
	field(buf, len, &pos, "PRIORITY", "%d", archive_priority(a));
	field(buf, len, &pos, "SYSLOG_IDENTIFIER", "%s", "perf-persistent");
	field(buf, len, &pos, "PERF_PERSISTENT_BOOT_ID", "%s", a->boot_id);
	field(buf, len, &pos, "PERF_PERSISTENT_RELEASE", "%s", a->release);
	field(buf, len, &pos, "PERF_PERSISTENT_END", "%s", a->end);
	field(buf, len, &pos, "PERF_PERSISTENT_ARCHIVE", "%s", a->path);
	field(buf, len, &pos, "PERF_PERSISTENT_RECORDS", "%llu",
	      records_total(a));
	field(buf, len, &pos, "PERF_PERSISTENT_HARDWARE_ERRORS", "%llu",
	      hwerr_total(a, -1));
	field(buf, len, &pos, "PERF_PERSISTENT_FATAL_ERRORS", "%llu",
	      hwerr_total(a, HWERR_FATAL));
	if (*a->rasdaemon)
		field(buf, len, &pos, "PERF_PERSISTENT_RASDAEMON", "%s",
		      a->rasdaemon);
	if (pos >= len)
		return -1;
	return pos;
}

/*
 * Send the entry to journald's native socket @socket_path (one datagram
 * of KEY=value lines).  0 when sent, 1 when there is no journal to send
 * to, -1 (reported) when the send failed.
 */
int archive_journal(const struct archive *a, const char *socket_path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[4096];
	int fd, n;

	n = archive_journal_entry(a, buf, sizeof(buf));
	if (n < 0)
		return pp_error("the journal entry is too long");
	if (strlen(socket_path) >= sizeof(sa.sun_path))
		return pp_error("'%s': too long for a socket's path", socket_path);
	strcpy(sa.sun_path, socket_path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pp_error("socket: %s", strerror(errno));
	if (sendto(fd, buf, n, 0, (struct sockaddr *)&sa, sizeof(sa)) != n) {
		int err = errno;

		close(fd);
		if (err == ENOENT || err == ECONNREFUSED)
			return 1;
		return pp_error("sending to the journal: %s", strerror(err));
	}
	close(fd);
	return 0;
}

struct dated {
	char	*name;
	long long when;
};

static int by_when(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;

	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * Keep the @keep newest archives "boot-*" of @dir, by the time their
 * summary was written (the last file an archive gets); remove the others.
 * Returns how many were removed, or -1 (reported).
 */
int archive_prune(const char *dir, unsigned int keep)
{
	struct dated *all = NULL, *grown;
	size_t nr = 0, i;
	struct dirent *de;
	int removed = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return pp_error("cannot read '%s': %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (strncmp(de->d_name, "boot-", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s/summary", dir, de->d_name);
		if (stat(path, &st))
			continue;
		grown = realloc(all, (nr + 1) * sizeof(*all));
		if (!grown)
			break;
		all = grown;
		all[nr].name = strdup(de->d_name);
		if (!all[nr].name)
			break;
		all[nr].when = (long long)st.st_mtim.tv_sec * 1000000000LL +
			       st.st_mtim.tv_nsec;
		nr++;
	}
	closedir(d);
	qsort(all, nr, sizeof(*all), by_when);
	for (i = 0; i < nr; i++) {
		char path[PATH_MAX];

		if (i + keep < nr) {
			snprintf(path, sizeof(path), "%s/%s", dir, all[i].name);
			if (remove_tree(path))
				pp_error("cannot remove '%s': %s", path,
					 strerror(errno));
			else
				removed++;
		}
		free(all[i].name);
	}
	free(all);
	return removed;
}
