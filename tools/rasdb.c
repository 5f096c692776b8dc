// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the hardware errors rasdaemon never saw (the
 * machine check that panicked the machine, those in ERST and in the boot
 * log; firmware's error sections from BERT and from GHES at a panic),
 * written into rasdaemon's database so that "ras-mc-ctl --errors" and
 * "--summary" list them beside the errors rasdaemon recorded itself.
 * Machine checks go into mce_record, memory error sections into mc_event
 * (where the kernel's ghes_edac would have traced them), other sections
 * into non_standard_event (rasdaemon 0.8 and later; ras-mc-ctl 0.8.3 does
 * not list that table).
 *
 * rasdaemon has no way in for another program's records: no file, socket
 * or option.  Its database is SQLite, with a table per tracepoint made by
 * "CREATE TABLE IF NOT EXISTS" and inserts that name their columns, so a
 * row another program adds with the same columns is read as its own.
 * The columns are those of rasdaemon's ras-record.c: 0.6.8 (Debian 12)
 * and 0.8.3 (Debian 13, which adds mce_record's ppin and microcode and
 * the non_standard_event table).
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
	int (*bind_blob)(struct sqlite3_stmt *stmt, int i, const void *b,
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
		FN(prepare_v2), FN(bind_int64), FN(bind_text), FN(bind_blob),
		FN(step),
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

const char *const rasdb_table_names[RASDB_TABLES] = {
	[RASDB_MCE_RECORD]	= "mce_record",
	[RASDB_MC_EVENT]	= "mc_event",
	[RASDB_NON_STANDARD]	= "non_standard_event",
};

/*
 * Each table's columns in rasdaemon 0.6.8 (non_standard_event: 0.8.3),
 * in its order, id left out: the table made when there is none, and the
 * columns a table must have to be written.
 */
static const char *const mce_columns[] = {
	"timestamp", "mcgcap", "mcgstatus", "status", "addr", "misc", "ip",
	"tsc", "walltime", "cpu", "cpuid", "apicid", "socketid", "cs", "bank",
	"cpuvendor", "bank_name", "error_msg", "mcgstatus_msg",
	"mcistatus_msg", "mcastatus_msg", "user_action", "mc_location", NULL,
};

static const char *const mc_event_columns[] = {
	"timestamp", "err_count", "err_type", "err_msg", "label", "mc",
	"top_layer", "middle_layer", "lower_layer", "address", "grain",
	"syndrome", "driver_detail", NULL,
};

static const char *const non_standard_columns[] = {
	"timestamp", "sec_type", "fru_id", "fru_text", "severity", "error",
	NULL,
};

/**
 * struct rasdb_table_desc - a table of rasdaemon's, as written here
 * @columns: its columns, NULL-terminated
 * @create: the statement that makes it, as rasdaemon 0.6.8 does; NULL
 *	for a table only a later rasdaemon makes (not made here)
 * @find: the query that counts the rows a record has already
 */
struct rasdb_table_desc {
	const char *const	*columns;
	const char		*create;
	const char		*find;
};

static const struct rasdb_table_desc tables[RASDB_TABLES] = {
	[RASDB_MCE_RECORD] = {
		.columns = mce_columns,
		.create	= "CREATE TABLE IF NOT EXISTS mce_record (id INTEGER PRIMARY KEY, "
			  "timestamp TEXT, mcgcap INTEGER, mcgstatus INTEGER, status INTEGER, "
			  "addr INTEGER, misc INTEGER, ip INTEGER, tsc INTEGER, "
			  "walltime INTEGER, cpu INTEGER, cpuid INTEGER, apicid INTEGER, "
			  "socketid INTEGER, cs INTEGER, bank INTEGER, cpuvendor INTEGER, "
			  "bank_name TEXT, error_msg TEXT, mcgstatus_msg TEXT, "
			  "mcistatus_msg TEXT, mcastatus_msg TEXT, user_action TEXT, "
			  "mc_location TEXT)",
		.find	= "SELECT count(*) FROM mce_record WHERE cpu = ?1 AND bank = ?2 AND "
			  "status = ?3 AND addr = ?4 AND misc = ?5 AND tsc = ?6",
	},
	[RASDB_MC_EVENT] = {
		.columns = mc_event_columns,
		.create	= "CREATE TABLE IF NOT EXISTS mc_event (id INTEGER PRIMARY KEY, "
			  "timestamp TEXT, err_count INTEGER, err_type TEXT, err_msg TEXT, "
			  "label TEXT, mc INTEGER, top_layer INTEGER, middle_layer INTEGER, "
			  "lower_layer INTEGER, address INTEGER, grain INTEGER, "
			  "syndrome INTEGER, driver_detail TEXT)",
		.find	= "SELECT count(*) FROM mc_event WHERE err_type = ?1 AND "
			  "err_msg = ?2 AND label = ?3 AND address = ?4 AND "
			  "driver_detail = ?5",
	},
	[RASDB_NON_STANDARD] = {
		.columns = non_standard_columns,
		.find	= "SELECT count(*) FROM non_standard_event WHERE sec_type = ?1 "
			  "AND fru_id = ?2 AND severity = ?3 AND error = ?4",
	},
};

/**
 * struct rasdb - an open database
 * @api: libsqlite3's functions
 * @db: the connection
 * @have: which tables it has, with every column (enum rasdb_table)
 * @ppin: mce_record has rasdaemon 0.8.1's ppin and microcode columns
 */
struct rasdb {
	struct sqlite_api	api;
	struct sqlite3		*db;
	bool			have[RASDB_TABLES];
	bool			ppin;
};

/*
 * Has table @t every column rasdaemon gave it?  1 yes, 0 no table, -1
 * another schema (@why says which column it lacks).
 */
static int table_check(struct rasdb *r, enum rasdb_table t, char *why,
		       size_t len)
{
	const char *const *col = tables[t].columns;
	bool have[32] = { false }, any = false, ppin = false;
	bool microcode = false;
	struct sqlite3_stmt *st;
	char sql[64];
	size_t i;

	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)",
		 rasdb_table_names[t]);
	if (r->api.prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
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
		for (i = 0; col[i]; i++)
			if (!strcmp(name, col[i]))
				have[i] = true;
	}
	r->api.finalize(st);
	if (!any)
		return 0;
	for (i = 0; col[i]; i++) {
		if (!have[i]) {
			snprintf(why, len,
				 "another schema: its %s has no column '%s'",
				 rasdb_table_names[t], col[i]);
			return -1;
		}
	}
	if (t == RASDB_MCE_RECORD)
		r->ppin = ppin && microcode;
	return 1;
}

static void bind_u64(struct rasdb *r, struct sqlite3_stmt *st, int i,
		     unsigned long long v)
{
	/* As rasdaemon stores them: the 64 bits, as SQLite's signed integer. */
	r->api.bind_int64(st, i, (long long)v);
}

static void bind_str(struct rasdb *r, struct sqlite3_stmt *st, int i,
		     const char *v)
{
	r->api.bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

static void bind_mce(struct rasdb *r, struct sqlite3_stmt *ins,
		     const struct rasdb_mce *m)
{
	int i = 1;

	bind_str(r, ins, i++, m->timestamp);
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
	bind_str(r, ins, i++, m->bank_name);
	bind_str(r, ins, i++, m->error_msg);
	bind_str(r, ins, i++, m->mcgstatus_msg);
	bind_str(r, ins, i++, m->mcistatus_msg);
	bind_str(r, ins, i++, "");
	bind_str(r, ins, i++, m->user_action);
	bind_str(r, ins, i++, "");
	if (r->ppin) {
		bind_u64(r, ins, i++, m->ppin);
		bind_u64(r, ins, i++, m->microcode);
	}
}

static void find_mce(struct rasdb *r, struct sqlite3_stmt *find,
		     const struct rasdb_mce *m)
{
	bind_u64(r, find, 1, m->cpu);
	bind_u64(r, find, 2, m->bank);
	bind_u64(r, find, 3, m->status);
	bind_u64(r, find, 4, m->addr);
	bind_u64(r, find, 5, m->misc);
	bind_u64(r, find, 6, m->tsc);
}

static void bind_mem(struct rasdb *r, struct sqlite3_stmt *ins,
		     const struct rasdb_mem *m)
{
	bind_str(r, ins, 1, m->timestamp);
	bind_u64(r, ins, 2, 1);
	bind_str(r, ins, 3, m->err_type);
	bind_str(r, ins, 4, m->err_msg);
	bind_str(r, ins, 5, m->label);
	bind_u64(r, ins, 6, 0);
	r->api.bind_int64(ins, 7, -1);
	r->api.bind_int64(ins, 8, -1);
	r->api.bind_int64(ins, 9, -1);
	bind_u64(r, ins, 10, m->address);
	bind_u64(r, ins, 11, m->grain);
	bind_u64(r, ins, 12, 0);
	bind_str(r, ins, 13, m->driver_detail);
}

static void find_mem(struct rasdb *r, struct sqlite3_stmt *find,
		     const struct rasdb_mem *m)
{
	bind_str(r, find, 1, m->err_type);
	bind_str(r, find, 2, m->err_msg);
	bind_str(r, find, 3, m->label);
	bind_u64(r, find, 4, m->address);
	bind_str(r, find, 5, m->driver_detail);
}

static void bind_sec(struct rasdb *r, struct sqlite3_stmt *ins,
		     const struct rasdb_section *s)
{
	bind_str(r, ins, 1, s->timestamp);
	r->api.bind_blob(ins, 2, s->sec_type, 16, SQLITE_TRANSIENT);
	r->api.bind_blob(ins, 3, s->fru_id, 16, SQLITE_TRANSIENT);
	bind_str(r, ins, 4, s->fru_text);
	bind_str(r, ins, 5, s->severity);
	r->api.bind_blob(ins, 6, s->error, (int)s->length, SQLITE_TRANSIENT);
}

static void find_sec(struct rasdb *r, struct sqlite3_stmt *find,
		     const struct rasdb_section *s)
{
	r->api.bind_blob(find, 1, s->sec_type, 16, SQLITE_TRANSIENT);
	r->api.bind_blob(find, 2, s->fru_id, 16, SQLITE_TRANSIENT);
	bind_str(r, find, 3, s->severity);
	r->api.bind_blob(find, 4, s->error, (int)s->length, SQLITE_TRANSIENT);
}

/* Row @i of table @t: its find query's and its insert's values bound. */
static void bind_row(struct rasdb *r, enum rasdb_table t,
		     const struct rasdb_rows *rows, size_t i,
		     struct sqlite3_stmt *find, struct sqlite3_stmt *ins)
{
	switch (t) {
	case RASDB_MCE_RECORD:
		find_mce(r, find, &rows->mce[i]);
		bind_mce(r, ins, &rows->mce[i]);
		break;
	case RASDB_MC_EVENT:
		find_mem(r, find, &rows->mem[i]);
		bind_mem(r, ins, &rows->mem[i]);
		break;
	default:
		find_sec(r, find, &rows->sec[i]);
		bind_sec(r, ins, &rows->sec[i]);
		break;
	}
}

/* Table @t's insert, its columns named: into @sql. */
static void insert_sql(const struct rasdb *r, enum rasdb_table t, char *sql,
		       size_t len)
{
	const char *const *col = tables[t].columns;
	bool ppin = t == RASDB_MCE_RECORD && r->ppin;
	size_t j, n;

	n = snprintf(sql, len, "INSERT INTO %s (", rasdb_table_names[t]);
	for (j = 0; col[j]; j++)
		n += snprintf(sql + n, len - n, "%s%s", j ? ", " : "", col[j]);
	n += snprintf(sql + n, len - n, "%s) VALUES (",
		      ppin ? ", ppin, microcode" : "");
	for (j = 0; col[j]; j++)
		n += snprintf(sql + n, len - n, "%s?", j ? ", " : "");
	snprintf(sql + n, len - n, "%s)", ppin ? ", ?, ?" : "");
}

/* Table @t's rows, in the open transaction.  0, or -1 (errmsg says why). */
static int insert_all(struct rasdb *r, enum rasdb_table t,
		      const struct rasdb_rows *rows, struct rasdb_result *res)
{
	struct sqlite3_stmt *find = NULL, *ins = NULL;
	char sql[1024];
	int ret = -1;
	size_t i;

	insert_sql(r, t, sql, sizeof(sql));
	if (r->api.prepare_v2(r->db, tables[t].find, -1, &find, NULL) ||
	    r->api.prepare_v2(r->db, sql, -1, &ins, NULL))
		goto out;
	for (i = 0; i < rows->nr[t]; i++) {
		r->api.reset(find);
		r->api.reset(ins);
		bind_row(r, t, rows, i, find, ins);
		if (r->api.step(find) != SQLITE_ROW)
			goto out;
		if (r->api.column_int64(find, 0) > 0) {
			res->present[t]++;
			continue;
		}
		if (r->api.step(ins) != SQLITE_DONE)
			goto out;
		res->written[t]++;
	}
	ret = 0;
out:
	r->api.finalize(find);
	r->api.finalize(ins);
	return ret;
}

/*
 * Which tables the database has: 0, or -1 with @why when it is left
 * alone (a table of another schema, or no database at all).
 */
static int tables_check(struct rasdb *r, char *why, size_t len)
{
	int t, have;

	for (t = 0; t < RASDB_TABLES; t++) {
		have = table_check(r, t, why, len);
		if (have < 0)
			return -1;
		r->have[t] = have;
	}
	return 0;
}

/* Make the tables rasdaemon 0.6.8 makes and the database lacks; 0 or -1. */
static int tables_make(struct rasdb *r)
{
	int t;

	for (t = 0; t < RASDB_TABLES; t++) {
		if (r->have[t] || !tables[t].create)
			continue;
		if (r->api.exec(r->db, tables[t].create, NULL, NULL, NULL))
			return -1;
		r->have[t] = true;
	}
	return 0;
}

int rasdb_write(const char *path, const struct rasdb_rows *rows,
		struct rasdb_result *res)
{
	struct rasdb r = { 0 };
	size_t all = 0;
	char why[256];
	int t;

	memset(res, 0, sizeof(*res));
	for (t = 0; t < RASDB_TABLES; t++)
		all += rows->nr[t];
	if (!all)
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
	if (tables_check(&r, res->reason, sizeof(res->reason))) {
		r.api.close(r.db);
		return 0;
	}
	if (r.api.exec(r.db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(res->reason, sizeof(res->reason), "cannot lock it: %s",
			 r.api.errmsg(r.db));
		r.api.close(r.db);
		return 0;
	}
	if (tables_make(&r))
		goto fail;
	for (t = 0; t < RASDB_TABLES; t++) {
		if (!r.have[t])
			res->left[t] = rows->nr[t];
		else if (rows->nr[t] && insert_all(&r, t, rows, res))
			goto fail;
	}
	if (r.api.exec(r.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	r.api.close(r.db);
	return 0;
fail:
	snprintf(why, sizeof(why), "%s", r.api.errmsg(r.db));
	r.api.exec(r.db, "ROLLBACK", NULL, NULL, NULL);
	r.api.close(r.db);
	memset(res, 0, sizeof(*res));
	return pp_error("%s: cannot write: %s", path, why);
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
