// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: what the module does when the kernel panics or oopses
 * (panic.h)
 *
 * This file owns the order of a panic's work.  The panic notifier, which
 * the kernel runs before kmsg_dump() (so that pstore keeps what the dump
 * writes) and, with crash_kexec_post_notifiers, before a kdump capture
 * kernel starts, writes in turn:
 *
 *   1. the records of a fatal machine check, which no tracepoint saw, into
 *      mce_record (fatal.c);
 *   2. the sections of a fatal GHES error into non_standard_event
 *      (fw_errors.c);
 *   3. the crash dump of the events flagged for it into the kernel log
 *      (dump.c), which then has the records of 1 and 2.
 *
 * The die notifier writes the dump on an oops.
 *
 * Context: the notifiers run on the crashing CPU, the other CPUs stopped
 * (possibly in the middle of a record) and any lock possibly held: the
 * three steps take no lock and allocate nothing.
 */

#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>

#include "perf_persistent/dump.h"
#include "fatal.h"
#include "fw_errors.h"
#include "panic.h"

static int pp_panic_notify(struct notifier_block *nb, unsigned long event,
			   void *msg)
{
	/* A fatal hardware error's records first, so the dump has them. */
	pp_fatal_panic();
	pp_fw_errors_panic(msg);
	pp_dump("panic");
	return NOTIFY_DONE;
}

static int pp_die_notify(struct notifier_block *nb, unsigned long event,
			 void *data)
{
	if (event == DIE_OOPS)
		pp_dump("oops");
	return NOTIFY_DONE;
}

static struct notifier_block pp_panic_nb = {
	.notifier_call	= pp_panic_notify,
	/* All run before kmsg_dump(); this one runs early among them. */
	.priority	= INT_MAX - 1,
};

static struct notifier_block pp_die_nb = {
	.notifier_call	= pp_die_notify,
};

/**
 * pp_panic_init - take part in the kernel's panics and oopses
 *
 * Module init, process context.  The three steps' own setup first, the
 * notifiers last.
 *
 * Return: 0, or register_die_notifier()'s error.
 */
int pp_panic_init(void)
{
	int ret = register_die_notifier(&pp_die_nb);

	if (ret)
		return ret;
	pp_fatal_init();
	pp_fw_errors_init();
	atomic_notifier_chain_register(&panic_notifier_list, &pp_panic_nb);
	return 0;
}

/* Module exit: process context.  The reverse of pp_panic_init(). */
void pp_panic_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &pp_panic_nb);
	pp_fw_errors_exit();
	pp_fatal_exit();
	unregister_die_notifier(&pp_die_nb);
}
