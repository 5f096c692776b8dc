// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the machine checks from before the load, in the
 * read-only event boot_errors (boot_errors.h)
 *
 * mce_record records what the kernel traces while the module is loaded.
 * What happened before is elsewhere:
 *
 * - ERST: at a fatal machine check, x86's mce_panic() writes the records
 *   it prints to the platform's persistent error store (apei_write_mce()),
 *   which keeps them across any reset, a power cycle too, until someone
 *   clears them.  pstore shows them as mce-erst-<id> files; Debian's
 *   systemd-pstore.service moves those files to /var/lib/systemd/pstore
 *   early in boot, and so clears them from ERST: the module must be
 *   loaded before it (Documentation/incidents.rst), or the records are in
 *   that directory instead.
 * - The kernel log: the errors the MCA banks still held at boot, which the
 *   kernel reads at CPU bring-up and logs from a late initcall, before any
 *   module can load, and the corrected errors logged before the module's
 *   first load of this boot.
 *
 * At load, both are read (process context) and, if either has a machine
 * check, they go into a previous event named boot_errors: read-only,
 * listed with the previous boot's events (perf persistent list
 * --previous), with mce_record's format, each record's common_pid saying
 * where it came from (PERF_PERSISTENT_ORIGIN_ERST, _BOOT_LOG).  The
 * records are written through mce_record's own encoder, on one CPU with
 * preemption disabled, before the event is published.  Nothing is cleared
 * from ERST unless erst_clear=1.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crash_dump.h>
#include <linux/kmsg_dump.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <acpi/apei.h>
#include <uapi/linux/perf_persistent.h>

#include "boot_errors.h"
#include "direct.h"
#include "event.h"
#include "fatal.h"
#include "hwerr.h"
#include "ops.h"

static bool clear_erst;
module_param_named(erst_clear, clear_erst, bool, 0444);
MODULE_PARM_DESC(erst_clear, "clear from ERST the machine checks read into boot_errors at load (default N: rasdaemon or an operator may want them)");

/* The records boot_errors keeps; more are counted, not kept. */
#define PP_BOOT_ERRORS_MAX	64
/* ERST records looked at, at most: the store is firmware's. */
#define PP_BOOT_ERRORS_ERST_SCAN	1024
/* Its one buffer: 64 records of mce_record are about 16 KiB. */
#define PP_BOOT_ERRORS_SIZE	SZ_32K
/* The longest kernel log line read; longer ones are cut. */
#define PP_BOOT_ERRORS_LINE	1024

/**
 * struct pp_boot_errors - what the load found
 * @rec: the machine checks, ERST's first, then the log's, each in order
 * @origin: each one's PERF_PERSISTENT_ORIGIN_*
 * @nr: how many are in @rec
 * @lost: how many more there were
 * @erst: records read from ERST that held a machine check
 * @erst_other: ERST records of other kinds (pstore's log, firmware's)
 * @erst_bad: ERST records that could not be read or were damaged
 * @cleared: ERST records cleared (erst_clear=1)
 * @logged: machine checks read from the kernel log
 * @desc: mce_record's encoder
 */
struct pp_boot_errors {
	struct pp_hwerr			rec[PP_BOOT_ERRORS_MAX];
	s32				origin[PP_BOOT_ERRORS_MAX];
	unsigned int			nr;
	unsigned int			lost;
	unsigned int			erst;
	unsigned int			erst_other;
	unsigned int			erst_bad;
	unsigned int			cleared;
	unsigned int			logged;
	const struct pp_direct_desc	*desc;
};

static void pp_boot_errors_add(struct pp_boot_errors *s,
			       const struct pp_hwerr *r, s32 origin)
{
	if (s->nr == PP_BOOT_ERRORS_MAX) {
		s->lost++;
		return;
	}
	s->rec[s->nr] = *r;
	s->origin[s->nr] = origin;
	s->nr++;
}

#ifdef CONFIG_ACPI_APEI
/*
 * The machine checks in ERST.  erst_get_record_id_end() only after a
 * begin that succeeded, and no _next() after the one that says the end
 * (both are BUG_ON()s in the kernel).
 */
static void pp_boot_errors_erst(struct pp_boot_errors *s)
{
	struct pp_hwerr r;
	unsigned int n;
	ssize_t len;
	void *rec;
	u64 id;
	int pos;

	if (erst_disable)
		return;
	rec = kmalloc(PP_HWERR_ERST_MAX, GFP_KERNEL);
	if (!rec)
		return;
	if (erst_get_record_id_begin(&pos))
		goto out_free;
	for (n = 0; n < PP_BOOT_ERRORS_ERST_SCAN; n++) {
		if (erst_get_record_id_next(&pos, &id) ||
		    id == APEI_ERST_INVALID_RECORD_ID)
			break;
		len = erst_read(id, rec, PP_HWERR_ERST_MAX);
		/* Gone since listed (cleared by pstore meanwhile). */
		if (len == -ENOENT)
			continue;
		if (len < 0) {
			s->erst_bad++;
			continue;
		}
		/* Longer than any machine check's: not copied, another kind. */
		if (len > PP_HWERR_ERST_MAX) {
			s->erst_other++;
			continue;
		}
		switch (pp_hwerr_erst(rec, len, &r)) {
		case 0:
			break;
		case -ENOENT:
			s->erst_other++;
			continue;
		default:
			s->erst_bad++;
			continue;
		}
		s->erst++;
		pp_boot_errors_add(s, &r, PERF_PERSISTENT_ORIGIN_ERST);
		/* A capture kernel leaves them to the next boot. */
		if (clear_erst && !is_kdump_kernel() && !erst_clear(id))
			s->cleared++;
	}
	erst_get_record_id_end();
out_free:
	kfree(rec);
}
#else
static void pp_boot_errors_erst(struct pp_boot_errors *s) { }
#endif

/*
 * The line pp_init() logs when a load succeeds.  The errors logged after
 * the first one of this boot were for that load's mce_record to record.
 */
#define PP_BOOT_ERRORS_LOADED	KBUILD_MODNAME ": version "

/*
 * The machine checks the kernel logged before the module's first load of
 * this boot: a load after an unload finds the same ones, not the errors
 * that the module loaded then had recorded.
 */
static void pp_boot_errors_log(struct pp_boot_errors *s)
{
	struct pp_hwerr_parser p;
	struct kmsg_dump_iter iter;
	struct pp_hwerr r;
	size_t len;
	char *line;

	line = kmalloc(PP_BOOT_ERRORS_LINE, GFP_KERNEL);
	if (!line)
		return;
	pp_hwerr_parser_init(&p);
	kmsg_dump_rewind(&iter);
	while (kmsg_dump_get_line(&iter, false, line, PP_BOOT_ERRORS_LINE,
				  &len)) {
		if (strnstr(line, PP_BOOT_ERRORS_LOADED, len))
			break;
		if (!pp_hwerr_parse_line(&p, line, len, &r))
			continue;
		s->logged++;
		pp_boot_errors_add(s, &r, PERF_PERSISTENT_ORIGIN_BOOT_LOG);
	}
	kfree(line);
}

/*
 * Write @s's records into boot_errors, before it is published, on the CPU
 * this runs on, preemption disabled as the encoder needs.  Process
 * context.
 */
static void pp_boot_errors_fill(struct pp_event *ev, void *data)
{
	struct pp_boot_errors *s = data;
	pp_mce_one_t one = s->desc->one;
	struct pp_buffer *buf;
	struct pp_mce_arg arg;
	unsigned int i;

	buf = pp_ops_fill_begin(ev);
	for (i = 0; i < s->nr; i++) {
		pp_mce_fill(&arg, &s->rec[i]);
		one(ev, _THIS_IP_, s->origin[i], &arg);
	}
	pp_ops_fill_end(ev, buf);
}

/**
 * pp_boot_errors_publish - make boot_errors of the machine checks from
 *	before the load, if there are any
 *
 * Module init, process context, after the previous boot's events.
 * Failures are logged, never fatal.
 */
void pp_boot_errors_publish(void)
{
	struct pp_boot_errors *s;
	u32 id;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return;
	pp_boot_errors_erst(s);
	pp_boot_errors_log(s);
	if (s->erst || s->erst_other || s->erst_bad || s->logged)
		pr_info("boot errors: ERST: %u machine checks (%u cleared), %u other records, %u not read; kernel log: %u machine checks; %u not kept\n",
			s->erst, s->cleared, s->erst_other, s->erst_bad,
			s->logged, s->lost);
	if (!s->nr)
		goto out;

	s->desc = pp_direct_find("mce", "mce_record");
	ret = s->desc ? pp_ops_show_here(PP_BOOT_ERRORS_NAME, "mce",
					 "mce_record", PP_BOOT_ERRORS_SIZE,
					 pp_boot_errors_fill, s, &id) :
			-ENOENT;
	if (ret)
		pr_err("boot errors: %s: cannot show it: %d\n",
		       PP_BOOT_ERRORS_NAME, ret);
	else
		pr_info("boot errors: %u records in %s, event %u (instances/previous.%s)\n",
			s->nr, PP_BOOT_ERRORS_NAME, id, PP_BOOT_ERRORS_NAME);
out:
	kfree(s);
}
