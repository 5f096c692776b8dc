// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the records of a fatal machine check, written at the
 * panic (fatal.h)
 *
 * x86's mce_record tracepoint fires from the work that hands the queued
 * machine-check records to the decoder chain (mce_gen_pool_process()),
 * never from the #MC handler.  An error that panics the machine goes to
 * mce_panic() instead, which prints the records still queued and the
 * fatal one, writes them to ERST and panics before any work runs: no
 * mce_record event sees them.
 *
 * At the panic, before the crash dump and the region's last write (the
 * panic notifier, dump.c), this reads the kernel log back
 * (kmsg_dump_get_line()), takes the records printed right before the
 * panic's first line (hwerr.c), and writes each one the tracepoint has not
 * had into every mce_record event on the direct path, through the event's
 * own encoder.  So they are in its buffers (the region's too), in the
 * crash dump and in the next boot's --previous, laid out as the
 * tracepoint's records are; their common_pid is
 * PERF_PERSISTENT_ORIGIN_PANIC.
 *
 * Which records the tracepoint has had: a notifier on the decoder chain,
 * after the one that fires mce_record, keeps the keys (CPU, bank, status,
 * TSC) of the last PP_FATAL_SEEN records.  A corrected error printed by
 * the chain's last notifier just before the fatal one is in the same run
 * of lines; its key says it is recorded already.
 *
 * What the log does not give: MCG_CAP, which the kernel does not print
 * (the records have 0); SYND, IPID, SYND1 and SYND2 on a machine without
 * SMCA (they are 0 there anyway); the records of a run that another
 * message cut (those before the cut), or beyond the last
 * PP_HWERR_PANIC_MAX; a panic that is not mce_panic()'s but follows
 * records printed by the decoder chain, which the notifier saw.  An event
 * recording through perf's path (PERF_PERSISTENT_CREATE_PERF_PATH) or
 * scoped to a cgroup gets no record.
 *
 * Contexts: pp_fatal_panic() runs on the panicking CPU, in the #MC
 * handler, the other CPUs stopped (or stopping): no lock, no allocation;
 * its state is static, and runs once.  The decoder notifier runs in
 * process context (the chain is a blocking one), one record at a time
 * (the work is not reentrant).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kmsg_dump.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <asm/mce.h>
#include <uapi/linux/perf_persistent.h>

#include "direct.h"
#include "event.h"
#include "fatal.h"
#include "hwerr.h"

/* The records whose keys the decoder notifier keeps. */
#define PP_FATAL_SEEN	64

/* What tells a record from another: the kernel prints no sequence number. */
struct pp_fatal_key {
	u64	status;
	u64	tsc;
	u32	cpu;
	u32	bank;
};

static struct pp_fatal_key pp_fatal_seen[PP_FATAL_SEEN];
static atomic_t pp_fatal_seen_next = ATOMIC_INIT(0);

/* mce_record's encoder, or NULL if the direct path does not have it. */
static const struct pp_direct_desc *pp_fatal_desc;

/* The panic's state: its size is no stack's, and one CPU panics. */
static atomic_t pp_fatal_done = ATOMIC_INIT(0);
static struct pp_hwerr_panic pp_fatal_log;
static char pp_fatal_text[1024];
static struct pp_mce_arg pp_fatal_arg;
static unsigned int pp_fatal_written;

/* The decoder chain's record @data has been traced.  Process context. */
static int pp_fatal_seen_notify(struct notifier_block *nb, unsigned long val,
				void *data)
{
	const struct mce *m = data;
	struct pp_fatal_key *k;

	if (!m)
		return NOTIFY_DONE;
	k = &pp_fatal_seen[(unsigned int)atomic_inc_return(&pp_fatal_seen_next) %
			   PP_FATAL_SEEN];
	/* The panic may read it half written: a key that matches nothing. */
	WRITE_ONCE(k->status, m->status);
	WRITE_ONCE(k->tsc, m->tsc);
	WRITE_ONCE(k->cpu, m->extcpu);
	WRITE_ONCE(k->bank, m->bank);
	return NOTIFY_DONE;
}

static struct notifier_block pp_fatal_seen_nb = {
	.notifier_call	= pp_fatal_seen_notify,
	/* After mce_early_notifier(), which fires mce_record. */
	.priority	= MCE_PRIO_LOWEST,
};

/* Whether the decoder chain has had @r, so mce_record has. */
static bool pp_fatal_was_seen(const struct pp_hwerr *r)
{
	unsigned int i;

	for (i = 0; i < PP_FATAL_SEEN; i++) {
		const struct pp_fatal_key *k = &pp_fatal_seen[i];

		if (READ_ONCE(k->status) == r->status &&
		    READ_ONCE(k->tsc) == r->tsc &&
		    READ_ONCE(k->cpu) == r->cpu &&
		    READ_ONCE(k->bank) == r->bank)
			return true;
	}
	return false;
}

/**
 * pp_mce_fill - mce_record's argument, as the kernel had it
 * @arg: out
 * @r: what the kernel printed or wrote to ERST of it
 *
 * Any context.
 */
void pp_mce_fill(struct pp_mce_arg *arg, const struct pp_hwerr *r)
{
	struct mce *m;

	memset(arg, 0, sizeof(*arg));
#if PP_HAVE_MCE_HW_ERR
	m = &arg->m;
	arg->vendor.amd.synd1 = r->synd1;
	arg->vendor.amd.synd2 = r->synd2;
#else
	m = arg;
#endif
	m->mcgcap = r->mcgcap;
	m->mcgstatus = r->mcgstatus;
	m->status = r->status;
	m->addr = r->addr;
	m->misc = r->misc;
	m->synd = r->synd;
	m->ipid = r->ipid;
	m->ip = r->ip;
	m->tsc = r->tsc;
	m->ppin = r->ppin;
	m->time = r->walltime;
	m->cpu = r->cpu;
	m->extcpu = r->cpu;
	m->cpuid = r->cpuid;
	m->apicid = r->apicid;
	m->socketid = r->socketid;
	m->microcode = r->microcode;
	m->cs = r->cs;
	m->bank = r->bank;
	m->cpuvendor = r->cpuvendor;
}

/* Write pp_fatal_arg into @ev if it records mce_record's hits itself. */
static void pp_fatal_write(struct pp_event *ev)
{
	pp_mce_one_t one = pp_fatal_desc->one;

	if (ev->direct != pp_fatal_desc || !READ_ONCE(ev->dx.tp) ||
	    ev->scope.kind != PERF_PERSISTENT_SCOPE_CPUS)
		return;
	one(ev, _THIS_IP_, PERF_PERSISTENT_ORIGIN_PANIC, &pp_fatal_arg);
	pp_fatal_written++;
}

/**
 * pp_fatal_panic - write the records of a fatal machine check
 *
 * On the panicking CPU, from the panic notifier, before the crash dump.
 */
void pp_fatal_panic(void)
{
	struct kmsg_dump_iter iter;
	unsigned int i, known = 0, writes = 0;
	size_t len;

	if (!pp_fatal_desc || atomic_xchg(&pp_fatal_done, 1))
		return;
	pp_hwerr_panic_init(&pp_fatal_log);
	kmsg_dump_rewind(&iter);
	while (kmsg_dump_get_line(&iter, false, pp_fatal_text,
				  sizeof(pp_fatal_text), &len))
		pp_hwerr_panic_line(&pp_fatal_log, pp_fatal_text, len);

	for (i = 0; i < pp_fatal_log.nr_taken; i++) {
		const struct pp_hwerr *r = &pp_fatal_log.taken[i];

		if (pp_fatal_was_seen(r)) {
			known++;
			continue;
		}
		pp_mce_fill(&pp_fatal_arg, r);
		pp_fatal_written = 0;
		pp_events_walk_listed(pp_fatal_write);
		writes += pp_fatal_written;
	}
	if (pp_fatal_log.nr_taken || pp_fatal_log.lost_taken)
		pr_emerg("the panic's machine-check records: %u not traced, %u traced before, %u not read; %u written into mce_record events\n",
			 pp_fatal_log.nr_taken - known, known,
			 pp_fatal_log.lost_taken, writes);
}

/* Module init: process context, after pp_direct_init(). */
void pp_fatal_init(void)
{
	pp_fatal_desc = pp_direct_find("mce", "mce_record");
	if (pp_fatal_desc)
		mce_register_decode_chain(&pp_fatal_seen_nb);
}

/* Module exit: process context. */
void pp_fatal_exit(void)
{
	if (pp_fatal_desc)
		mce_unregister_decode_chain(&pp_fatal_seen_nb);
}
