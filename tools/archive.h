/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent tool: the archive of a previous boot (archive.c, and
 * "perf persistent archive" in builtin-archive.c).
 */
#ifndef PERF_PERSISTENT_ARCHIVE_H
#define PERF_PERSISTENT_ARCHIVE_H

#include <stdio.h>
#include <time.h>

/* How bad a hardware error record is. */
enum hwerr_severity {
	HWERR_CORRECTED,
	HWERR_UNCORRECTED,
	HWERR_FATAL,
	HWERR_SEV_NR,
};

/*
 * Where the module found it: traced by the kernel's tracepoint, or one of
 * the PERF_PERSISTENT_ORIGIN_* of the UAPI header.
 */
enum hwerr_origin {
	HWERR_TRACED,
	HWERR_PANIC,
	HWERR_ERST,
	HWERR_BOOT_LOG,
	HWERR_BERT,
	HWERR_GHES,
	HWERR_ORIGIN_NR,
};

extern const char *const hwerr_severity_names[HWERR_SEV_NR];
extern const char *const hwerr_origin_names[HWERR_ORIGIN_NR];

/* A record's origin from the common_pid of its payload. */
enum hwerr_origin hwerr_origin_of(int origin_pid);
/* A machine check's severity by its MCi_STATUS and origin. */
enum hwerr_severity hwerr_mce_severity(unsigned long long status,
				       enum hwerr_origin origin);
/*
 * The GHES driver's severities (drivers/acpi/apei/ghes.c), which
 * ras:non_standard_event's field "sev" holds.
 */
enum ghes_sev {
	GHES_SEV_NO,
	GHES_SEV_CORRECTED,
	GHES_SEV_RECOVERABLE,
	GHES_SEV_PANIC,
};

/* A firmware error section's by its "sev" and origin. */
enum hwerr_severity hwerr_cper_severity(unsigned int sev,
					enum hwerr_origin origin);

/**
 * struct archive_event - one event of the previous boot, as archived
 * @name: its name
 * @source: its source as perf spells it
 * @records: the records it held
 * @overwritten: the records newer ones overwrote
 * @dropped: the records it could not write
 */
struct archive_event {
	char			name[64];
	char			source[256];
	unsigned long long	records, overwritten, dropped;
};

/**
 * struct archive - what an archive of the previous boot says
 * @boot_id: that boot's id (previous_boot/boot_id)
 * @release: its kernel release
 * @end: how it ended (previous_boot/end)
 * @path: the archive's directory
 * @when: when it was made, as text (UTC)
 * @time: the same, in seconds since the epoch
 * @events: its events
 * @nr_events: how many
 * @hwerr: the hardware error records by severity and origin
 * @fatal_text: the fatal ones as "perf persistent script" prints them
 * @files: the files in the archive, as a list for the summary
 * @first_fatal: the fatal error the boot ended on (one taken at the
 *	panic), else the first, in a few words (for the journal)
 * @first_fatal_at_panic: @first_fatal was taken at the panic
 * @rasdaemon: what was written into rasdaemon's database, or why not;
 *	empty when not asked
 */
struct archive {
	char			boot_id[64];
	char			release[128];
	char			end[32];
	char			path[4096];
	char			when[64];
	time_t			time;
	struct archive_event	*events;
	size_t			nr_events;
	unsigned long long	hwerr[HWERR_SEV_NR][HWERR_ORIGIN_NR];
	char			*fatal_text;
	char			files[256];
	char			first_fatal[160];
	bool			first_fatal_at_panic;
	char			rasdaemon[384];
};

void hwerr_count(struct archive *a, enum hwerr_severity sev,
		 enum hwerr_origin origin);
/* The records of severity @sev, or of all with -1. */
unsigned long long hwerr_total(const struct archive *a, int sev);
/* The journal's priority for @a: 3 (err), 4 (warning) or 6 (info). */
int archive_priority(const struct archive *a);
bool archive_fatal_wanted(const struct archive *a, enum hwerr_origin origin);
void archive_set_fatal(struct archive *a, const char *words,
		       enum hwerr_origin origin);
/* The one line that says what was archived. */
void archive_message(const struct archive *a, char *buf, size_t len);

/* The summary file's text; 0 or -1 on a write error. */
int archive_write_summary(const struct archive *a, FILE *out);
/* node_exporter's textfile format; 0 or -1 on a write error. */
int archive_write_metrics(const struct archive *a, FILE *out);
/* DIR/perf_persistent.prom, replaced whole; 0 or -1 (reported). */
int archive_textfile(const struct archive *a, const char *dir);
/* The journal's native entry (KEY=value lines): its length, or -1. */
int archive_journal_entry(const struct archive *a, char *buf, size_t len);
/* Send it to @socket_path: 0 sent, 1 no journal there, -1 (reported). */
int archive_journal(const struct archive *a, const char *socket_path);
/* Keep the @keep newest archives in @dir: how many went, or -1. */
int archive_prune(const char *dir, unsigned int keep);

#endif /* PERF_PERSISTENT_ARCHIVE_H */
