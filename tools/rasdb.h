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
 * struct rasdb_result - what rasdb_write() did
 * @written: rows added
 * @present: records that had their row already
 * @reason: when nothing could be written, why (for the log); else empty
 */
struct rasdb_result {
	size_t	written, present;
	char	reason[256];
};

/*
 * The text columns of @m from its registers: @severity's name, @origin's
 * words ("at the panic", "from ERST", ...).
 */
void rasdb_mce_text(struct rasdb_mce *m, const char *severity,
		    const char *origin);

/*
 * Write @nr rows into the database @path, once each, in one transaction.
 * 0 with @res filled, including when the database is left alone (@reason
 * says why: another schema, rasdaemon running, no SQLite library); -1 on
 * a failure while writing (reported), with nothing written.
 */
int rasdb_write(const char *path, const struct rasdb_mce *m, size_t nr,
		struct rasdb_result *res);

/* Is a rasdaemon process running (it sets no busy timeout)? */
bool rasdb_rasdaemon_running(const char *proc);

#endif /* PERF_PERSISTENT_RASDB_H */
