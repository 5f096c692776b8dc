/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent tool: the machine checks rasdaemon never saw, written
 * into rasdaemon's database (rasdb.c).
 */
#ifndef PERF_PERSISTENT_RASDB_H
#define PERF_PERSISTENT_RASDB_H

#include <stdbool.h>
#include <stddef.h>

/* rasdaemon's database, as Debian's rasdaemon.service has it write it. */
#define RASDB_DIR	"/var/lib/rasdaemon"
#define RASDB_PATH	RASDB_DIR "/ras-mc_event.db"

/**
 * struct rasdb_mce - one row of rasdaemon's mce_record table
 * @timestamp: local time, "%Y-%m-%d %H:%M:%S %z", as rasdaemon writes it
 * @mcgcap..@microcode: the registers, as the mce:mce_record tracepoint
 *	has them (@ppin and @microcode only where the table has them:
 *	rasdaemon 0.8.1 and later)
 * @bank_name: the bank's number, as text
 * @error_msg: what the error was and where perf-persistent found it
 *	(ras-mc-ctl --summary groups by it)
 * @mcgstatus_msg: MCG_STATUS's flags, as text
 * @mcistatus_msg: MCi_STATUS's flags, as text
 * @user_action: what to do
 *
 * The same machine check found twice (at the panic, and in ERST at the
 * next boot; in ERST again at every boot until it is cleared) is one
 * row: rasdb_write() skips a record whose CPU, bank, status, address,
 * misc and TSC a row has already.
 */
struct rasdb_mce {
	char			timestamp[64];
	unsigned long long	mcgcap, mcgstatus, status, addr, misc, ip, tsc;
	unsigned long long	walltime, ppin;
	unsigned int		cpu, cpuid, apicid, socketid, cs, bank;
	unsigned int		cpuvendor, microcode;
	char			bank_name[32];
	char			error_msg[160];
	char			mcgstatus_msg[64];
	char			mcistatus_msg[160];
	char			user_action[160];
};

/**
 * struct rasdb_mem - one row of rasdaemon's mc_event table: a firmware's
 *	memory error section (BERT's, or GHES's at the panic), as the
 *	kernel's ghes_edac traces the memory errors GHES hands it
 * @timestamp: as in struct rasdb_mce
 * @err_type: rasdaemon's word for the severity: "Corrected",
 *	"Uncorrected", "Fatal" or "Info"
 * @err_msg: the memory error's type, and where perf-persistent found it
 * @label: the section's FRU text, else "unknown memory"
 * @address: the physical address (0 if the section has none)
 * @grain: the bytes the address stands for (its mask's), else 1
 * @driver_detail: the location fields the section has, as ghes_edac
 *	words them ("APEI location: node:0 card:1 ...")
 *
 * mc is 0 and the three layers -1, as ghes_edac's one "memory
 * controller" with no layout has them.  The same section found twice
 * (firmware keeps BERT's errors across boots) is one row: rasdb_write()
 * skips a row whose type, message, label, address and detail a row has.
 */
struct rasdb_mem {
	char			timestamp[64];
	const char		*err_type;
	char			err_msg[160];
	char			label[64];
	unsigned long long	address, grain;
	char			driver_detail[256];
};

/**
 * struct rasdb_section - one row of rasdaemon's non_standard_event table
 *	(rasdaemon 0.8 and later): a firmware's error section of another
 *	type, as rasdaemon stores the ras:non_standard_event tracepoint's
 * @timestamp: as in struct rasdb_mce
 * @sec_type: the section type's 16 bytes, as stored in the section
 * @fru_id: the FRU id's 16 bytes
 * @fru_text: the FRU text
 * @severity: rasdaemon's word for it: "Informational", "Corrected",
 *	"Recoverable" or "Fatal"
 * @error: the section's payload (the caller's memory)
 * @length: its bytes
 *
 * The table has no column for where the section came from.  The same
 * section twice is one row (its type, FRU id, severity and payload).
 */
struct rasdb_section {
	char			timestamp[64];
	unsigned char		sec_type[16], fru_id[16];
	char			fru_text[32];
	const char		*severity;
	const void		*error;
	size_t			length;
};

/* The tables rasdb_write() writes, in the order of its arrays. */
enum rasdb_table {
	RASDB_MCE_RECORD,
	RASDB_MC_EVENT,
	RASDB_NON_STANDARD,
	RASDB_TABLES
};

/**
 * struct rasdb_rows - what to write
 * @mce: rows of mce_record
 * @mem: rows of mc_event
 * @sec: rows of non_standard_event
 * @nr: how many of each (enum rasdb_table)
 */
struct rasdb_rows {
	const struct rasdb_mce		*mce;
	const struct rasdb_mem		*mem;
	const struct rasdb_section	*sec;
	size_t				nr[RASDB_TABLES];
};

/**
 * struct rasdb_result - what rasdb_write() did, per table
 * @written: rows added
 * @present: rows whose record had its row already
 * @left: rows not written because the database has no such table and
 *	rasdaemon's version makes none (non_standard_event before 0.8)
 * @reason: when nothing could be written, why (for the log); else empty
 */
struct rasdb_result {
	size_t	written[RASDB_TABLES];
	size_t	present[RASDB_TABLES];
	size_t	left[RASDB_TABLES];
	char	reason[256];
};

/* The table's name in rasdaemon's database. */
extern const char *const rasdb_table_names[RASDB_TABLES];

/*
 * The text columns of @m from its registers: @severity's name, @origin's
 * words ("at the panic", "from ERST", ...).
 */
void rasdb_mce_text(struct rasdb_mce *m, const char *severity,
		    const char *origin);

/*
 * Write @rows into the database @path, once each, in one transaction.
 * mce_record and mc_event are made when the database has neither (as
 * rasdaemon 0.6.8 makes them); non_standard_event only where rasdaemon
 * made it.  0 with @res filled, including when the database is left
 * alone (@reason says why: another schema, no SQLite library); -1 on a
 * failure while writing (reported), with nothing written.
 */
int rasdb_write(const char *path, const struct rasdb_rows *rows,
		struct rasdb_result *res);

/* Is a rasdaemon process running (it sets no busy timeout)? */
bool rasdb_rasdaemon_running(const char *proc);

#endif /* PERF_PERSISTENT_RASDB_H */
