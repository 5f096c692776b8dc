// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the machine checks rasdaemon never saw (the one
 * that panicked the machine, those in ERST and in the boot log), written
 * into rasdaemon's database so that "ras-mc-ctl --errors" and
 * "--summary" list them beside the errors rasdaemon recorded itself.
 *
 * rasdaemon has no way in for another program's records: no file, socket
 * or option.  Its database is SQLite, with a table per tracepoint made by
 * "CREATE TABLE IF NOT EXISTS" and inserts that name their columns, so a
 * row another program adds with the same columns is read as its own.
 * The columns are those of rasdaemon's ras-record.c: 0.6.8 (Debian 12)
 * and 0.8.3 (Debian 13, which adds ppin and microcode).
 *
 * rasdaemon sets no busy timeout: an event that arrives while another
 * writer holds the database's lock is lost.  So nothing is written while
 * a rasdaemon process runs; the packaged unit runs before
 * rasdaemon.service.  libsqlite3 is loaded when needed (rasdaemon depends
 * on it; this tool does not).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-persistent.h"
#include "rasdb.h"

#define SQLITE_LIB	"libsqlite3.so.0"

/* The parts of SQLite's stable C interface used here (sqlite3.h). */
#define SQLITE_OK		0
#define SQLITE_ROW		100
#define SQLITE_DONE		101
#define SQLITE_OPEN_READWRITE	0x00000002
#define SQLITE_OPEN_CREATE	0x00000004
#define SQLITE_TRANSIENT	((void (*)(void *))-1)

struct sqlite3;
struct sqlite3_stmt;

struct sqlite_api {
	int (*open_v2)(const char *name, struct sqlite3 **db, int flags,
		       const char *vfs);
	int (*close)(struct sqlite3 *db);
	int (*busy_timeout)(struct sqlite3 *db, int ms);
	int (*exec)(struct sqlite3 *db, const char *sql, void *cb, void *arg,
		    char **err);
	int (*prepare_v2)(struct sqlite3 *db, const char *sql, int len,
			  struct sqlite3_stmt **stmt, const char **tail);
	int (*bind_int64)(struct sqlite3_stmt *stmt, int i, long long v);
	int (*bind_text)(struct sqlite3_stmt *stmt, int i, const char *s,
			 int len, void (*del)(void *));
	int (*step)(struct sqlite3_stmt *stmt);
	int (*reset)(struct sqlite3_stmt *stmt);
	int (*finalize)(struct sqlite3_stmt *stmt);
	const unsigned char *(*column_text)(struct sqlite3_stmt *stmt, int i);
	long long (*column_int64)(struct sqlite3_stmt *stmt, int i);
	const char *(*errmsg)(struct sqlite3 *db);
};

/* Load libsqlite3 once; false (with @why) if it or a function is missing. */
static bool sqlite_load(struct sqlite_api *api, char *why, size_t len)
{
	static const struct {
		const char	*name;
		size_t		at;
	} fn[] = {
#define FN(f) { "sqlite3_" #f, offsetof(struct sqlite_api, f) }
		FN(open_v2), FN(close), FN(busy_timeout), FN(exec),
		FN(prepare_v2), FN(bind_int64), FN(bind_text), FN(step),
		FN(reset), FN(finalize), FN(column_text), FN(column_int64),
		FN(errmsg),
#undef FN
	};
	static void *lib;
	size_t i;
	void *sym;

	if (!lib)
		lib = dlopen(SQLITE_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, len, "no SQLite library (%s, Debian: libsqlite3-0)",
			 SQLITE_LIB);
		return false;
	}
	for (i = 0; i < sizeof(fn) / sizeof(fn[0]); i++) {
		sym = dlsym(lib, fn[i].name);
		if (!sym) {
			snprintf(why, len, "%s has no %s", SQLITE_LIB,
				 fn[i].name);
			return false;
		}
		memcpy((char *)api + fn[i].at, &sym, sizeof(sym));
	}
	return true;
}

/*
 * mce_record's columns in rasdaemon 0.6.8, in its order: the table made
 * when there is none, and the columns a table must have to be written.
 */
static const char *const mce_columns[] = {
	"timestamp", "mcgcap", "mcgstatus", "status", "addr", "misc", "ip",
	"tsc", "walltime", "cpu", "cpuid", "apicid", "socketid", "cs", "bank",
	"cpuvendor", "bank_name", "error_msg", "mcgstatus_msg",
	"mcistatus_msg", "mcastatus_msg", "user_action", "mc_location",
};
#define NR_MCE_COLUMNS	(sizeof(mce_columns) / sizeof(mce_columns[0]))

static const char create_mce_sql[] =
	"CREATE TABLE IF NOT EXISTS mce_record (id INTEGER PRIMARY KEY, "
	"timestamp TEXT, mcgcap INTEGER, mcgstatus INTEGER, status INTEGER, "
	"addr INTEGER, misc INTEGER, ip INTEGER, tsc INTEGER, "
	"walltime INTEGER, cpu INTEGER, cpuid INTEGER, apicid INTEGER, "
	"socketid INTEGER, cs INTEGER, bank INTEGER, cpuvendor INTEGER, "
	"bank_name TEXT, error_msg TEXT, mcgstatus_msg TEXT, "
	"mcistatus_msg TEXT, mcastatus_msg TEXT, user_action TEXT, "
	"mc_location TEXT)";

/* The same machine check: a row with these already is this record's. */
static const char find_mce_sql[] =
	"SELECT count(*) FROM mce_record WHERE cpu = ?1 AND bank = ?2 AND "
	"status = ?3 AND addr = ?4 AND misc = ?5 AND tsc = ?6";

/**
 * struct rasdb - an open database
 * @api: libsqlite3's functions
 * @db: the connection
 * @ppin: mce_record has rasdaemon 0.8.1's ppin and microcode columns
 */
struct rasdb {
	struct sqlite_api	api;
	struct sqlite3		*db;
	bool			ppin;
};

/*
 * Does mce_record have every column rasdaemon 0.6.8 gave it?  1 yes,
 * 0 no table, -1 another schema (@why says which column it lacks).
 */
static int mce_table(struct rasdb *r, char *why, size_t len)
{
	bool have[NR_MCE_COLUMNS] = { false }, any = false, ppin = false;
	bool microcode = false;
	struct sqlite3_stmt *st;
	size_t i;

	if (r->api.prepare_v2(r->db, "PRAGMA table_info(mce_record)", -1, &st,
			      NULL) != SQLITE_OK) {
		snprintf(why, len, "cannot read its tables: %s",
			 r->api.errmsg(r->db));
		return -1;
	}
	while (r->api.step(st) == SQLITE_ROW) {
		const char *name = (const char *)r->api.column_text(st, 1);

		any = true;
		if (!name)
			continue;
		ppin |= !strcmp(name, "ppin");
		microcode |= !strcmp(name, "microcode");
		for (i = 0; i < NR_MCE_COLUMNS; i++)
			if (!strcmp(name, mce_columns[i]))
				have[i] = true;
	}
	r->api.finalize(st);
	if (!any)
		return 0;
	for (i = 0; i < NR_MCE_COLUMNS; i++) {
		if (!have[i]) {
			snprintf(why, len,
				 "another schema: its mce_record has no column '%s'",
				 mce_columns[i]);
			return -1;
		}
	}
	r->ppin = ppin && microcode;
	return 1;
}

static void bind_u64(struct rasdb *r, struct sqlite3_stmt *st, int i,
		     unsigned long long v)
{
	/* As rasdaemon stores them: the 64 bits, as SQLite's signed integer. */
	r->api.bind_int64(st, i, (long long)v);
}

static void bind_mce(struct rasdb *r, struct sqlite3_stmt *ins,
		     const struct rasdb_mce *m)
{
	int i = 1;

	r->api.bind_text(ins, i++, m->timestamp, -1, SQLITE_TRANSIENT);
	bind_u64(r, ins, i++, m->mcgcap);
	bind_u64(r, ins, i++, m->mcgstatus);
	bind_u64(r, ins, i++, m->status);
	bind_u64(r, ins, i++, m->addr);
	bind_u64(r, ins, i++, m->misc);
	bind_u64(r, ins, i++, m->ip);
	bind_u64(r, ins, i++, m->tsc);
	bind_u64(r, ins, i++, m->walltime);
	bind_u64(r, ins, i++, m->cpu);
	bind_u64(r, ins, i++, m->cpuid);
	bind_u64(r, ins, i++, m->apicid);
	bind_u64(r, ins, i++, m->socketid);
	bind_u64(r, ins, i++, m->cs);
	bind_u64(r, ins, i++, m->bank);
	bind_u64(r, ins, i++, m->cpuvendor);
	r->api.bind_text(ins, i++, m->bank_name, -1, SQLITE_TRANSIENT);
	r->api.bind_text(ins, i++, m->error_msg, -1, SQLITE_TRANSIENT);
	r->api.bind_text(ins, i++, m->mcgstatus_msg, -1, SQLITE_TRANSIENT);
	r->api.bind_text(ins, i++, m->mcistatus_msg, -1, SQLITE_TRANSIENT);
	r->api.bind_text(ins, i++, "", -1, SQLITE_TRANSIENT);
	r->api.bind_text(ins, i++, m->user_action, -1, SQLITE_TRANSIENT);
	r->api.bind_text(ins, i++, "", -1, SQLITE_TRANSIENT);
	if (r->ppin) {
		bind_u64(r, ins, i++, m->ppin);
		bind_u64(r, ins, i++, m->microcode);
	}
}

/* Is @m's machine check in the table already?  1, 0, or -1 on an error. */
static int mce_present(struct rasdb *r, struct sqlite3_stmt *find,
		       const struct rasdb_mce *m)
{
	int ret;

	r->api.reset(find);
	bind_u64(r, find, 1, m->cpu);
	bind_u64(r, find, 2, m->bank);
	bind_u64(r, find, 3, m->status);
	bind_u64(r, find, 4, m->addr);
	bind_u64(r, find, 5, m->misc);
	bind_u64(r, find, 6, m->tsc);
	if (r->api.step(find) != SQLITE_ROW)
		return -1;
	ret = r->api.column_int64(find, 0) > 0;
	r->api.reset(find);
	return ret;
}

/* The rows, in the open transaction.  0, or -1 (errmsg says why). */
static int insert_all(struct rasdb *r, const struct rasdb_mce *m, size_t nr,
		      struct rasdb_result *res)
{
	struct sqlite3_stmt *find = NULL, *ins = NULL;
	char sql[1024];
	size_t i, j;
	int n, ret = -1;

	n = snprintf(sql, sizeof(sql), "INSERT INTO mce_record (");
	for (j = 0; j < NR_MCE_COLUMNS; j++)
		n += snprintf(sql + n, sizeof(sql) - n, "%s%s", j ? ", " : "",
			      mce_columns[j]);
	n += snprintf(sql + n, sizeof(sql) - n, "%s) VALUES (",
		      r->ppin ? ", ppin, microcode" : "");
	for (j = 0; j < NR_MCE_COLUMNS + (r->ppin ? 2 : 0); j++)
		n += snprintf(sql + n, sizeof(sql) - n, "%s?", j ? ", " : "");
	snprintf(sql + n, sizeof(sql) - n, ")");

	if (r->api.prepare_v2(r->db, find_mce_sql, -1, &find, NULL) ||
	    r->api.prepare_v2(r->db, sql, -1, &ins, NULL))
		goto out;
	for (i = 0; i < nr; i++) {
		int present = mce_present(r, find, &m[i]);

		if (present < 0)
			goto out;
		if (present) {
			res->present++;
			continue;
		}
		r->api.reset(ins);
		bind_mce(r, ins, &m[i]);
		if (r->api.step(ins) != SQLITE_DONE)
			goto out;
		res->written++;
	}
	ret = 0;
out:
	r->api.finalize(find);
	r->api.finalize(ins);
	return ret;
}

int rasdb_write(const char *path, const struct rasdb_mce *m, size_t nr,
		struct rasdb_result *res)
{
	struct rasdb r = { 0 };
	char why[256];
	int have;

	memset(res, 0, sizeof(*res));
	if (!nr)
		return 0;
	if (!sqlite_load(&r.api, res->reason, sizeof(res->reason)))
		return 0;
	if (r.api.open_v2(path, &r.db, SQLITE_OPEN_READWRITE |
			  SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		snprintf(res->reason, sizeof(res->reason), "cannot open it: %s",
			 r.db ? r.api.errmsg(r.db) : "out of memory");
		r.api.close(r.db);
		return 0;
	}
	/* Run by hand while something reads it: wait for it, briefly. */
	r.api.busy_timeout(r.db, 5000);
	/* Not a database (SQLITE_NOTADB) shows here, before any write. */
	have = mce_table(&r, res->reason, sizeof(res->reason));
	if (have < 0) {
		r.api.close(r.db);
		return 0;
	}
	if (r.api.exec(r.db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(res->reason, sizeof(res->reason), "cannot lock it: %s",
			 r.api.errmsg(r.db));
		r.api.close(r.db);
		return 0;
	}
	if ((!have && r.api.exec(r.db, create_mce_sql, NULL, NULL, NULL)) ||
	    insert_all(&r, m, nr, res) ||
	    r.api.exec(r.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(why, sizeof(why), "%s", r.api.errmsg(r.db));
		r.api.exec(r.db, "ROLLBACK", NULL, NULL, NULL);
		r.api.close(r.db);
		res->written = 0;
		res->present = 0;
		return pp_error("%s: cannot write: %s", path, why);
	}
	r.api.close(r.db);
	return 0;
}

bool rasdb_rasdaemon_running(const char *proc)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(proc);

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char path[512], comm[32] = "";
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", proc, de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f))
			found = !strcmp(comm, "rasdaemon\n");
		fclose(f);
	}
	closedir(d);
	return found;
}

/* MCG_STATUS's and MCi_STATUS's flags, and MCi_STATUS's error codes. */
#define MCG_RIPV	(1ULL << 0)
#define MCG_EIPV	(1ULL << 1)
#define MCG_MCIP	(1ULL << 2)
#define MCG_LMCE	(1ULL << 3)
#define MCI_OVER	(1ULL << 62)
#define MCI_UC		(1ULL << 61)
#define MCI_EN		(1ULL << 60)
#define MCI_MISCV	(1ULL << 59)
#define MCI_ADDRV	(1ULL << 58)
#define MCI_PCC		(1ULL << 57)
#define MCI_S		(1ULL << 56)
#define MCI_AR		(1ULL << 55)

static void flags(char *buf, size_t len, unsigned long long v,
		  const unsigned long long *bit, const char *const *name,
		  size_t nr)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < nr && n < len; i++)
		if (v & bit[i])
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      name[i]);
}

void rasdb_mce_text(struct rasdb_mce *m, const char *severity,
		    const char *origin)
{
	static const unsigned long long gbit[] = {
		MCG_RIPV, MCG_EIPV, MCG_MCIP, MCG_LMCE,
	};
	static const char *const gname[] = {
		"RIPV", "EIPV", "MCIP", "LMCE",
	};
	static const unsigned long long ibit[] = {
		MCI_OVER, MCI_UC, MCI_EN, MCI_MISCV, MCI_ADDRV, MCI_PCC, MCI_S,
		MCI_AR,
	};
	static const char *const iname[] = {
		"Error_overflow", "Uncorrected_error", "Error_enabled",
		"MISC_valid", "ADDR_valid", "Processor_context_corrupt",
		"Signaled", "Action_required",
	};
	size_t n;

	/* ras-mc-ctl --errors prints ", bank " and this. */
	snprintf(m->bank_name, sizeof(m->bank_name), "%u", m->bank);
	flags(m->mcgstatus_msg, sizeof(m->mcgstatus_msg), m->mcgstatus, gbit,
	      gname, sizeof(gbit) / sizeof(gbit[0]));
	flags(m->mcistatus_msg, sizeof(m->mcistatus_msg), m->status, ibit,
	      iname, sizeof(ibit) / sizeof(ibit[0]));
	n = strlen(m->mcistatus_msg);
	snprintf(m->mcistatus_msg + n, sizeof(m->mcistatus_msg) - n,
		 "%sMCACOD=0x%04llx MSCOD=0x%04llx", n ? " " : "",
		 m->status & 0xffff, (m->status >> 16) & 0xffff);
	snprintf(m->error_msg, sizeof(m->error_msg),
		 "%s machine check %s, kept by perf-persistent", severity,
		 origin);
}
