// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the direct path's encoders, generated at build time
 * from the trace headers of the kernel being built against
 * (direct_stages.h), and the table they are found in by name.  It is the
 * only file that touches the trace macros.
 *
 * The tracepoints covered are the ones a flight recorder is left on for.
 * Every other tracepoint records through perf's path.
 */

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "direct_rec.h"

/*
 * First a normal read of each header, for the tracepoints' declarations
 * and check_trace_callback_type_<name>(), which checks each probe's
 * prototype.  Nothing here calls trace_<name>() or register_trace_<name>(),
 * so the tracepoints, which are not exported, are not referenced.
 */
#include <trace/events/syscalls.h>
#include <trace/events/sched.h>
#include <trace/events/irq.h>
#include <trace/events/timer.h>
/*
 * Machine-check events exist on x86 only: trace/events/mce.h needs
 * asm/mce.h.  Of the RAS tracepoints, which exist with CONFIG_RAS on every
 * architecture, non_standard_event has an encoder: the module writes the
 * firmware's error sections into it itself (fw_errors.c).  The others
 * record through perf's path.
 */
#ifdef CONFIG_X86_MCE
#include <trace/events/mce.h>
#endif
#ifdef CONFIG_RAS
#undef TRACE_INCLUDE_FILE
#include <ras/ras_event.h>
#endif

/*
 * sched_switch's assignment calls __trace_sched_switch_state(), which
 * sched.h defines only for the file that creates the tracepoints.  The
 * build extracts it from the same sched.h (module/sched_state.mk).
 */
#include "pp_sched_state.h"

/*
 * The syscall tracepoints fire only in a task, at a syscall's entry and
 * exit, and their probes run with preemption disabled: an event's writers
 * on a CPU never nest, and its records take the single-writer reservation
 * (buffer.h).  No other encoder's tracepoint is known to fire only in a
 * task; their writers may nest (a wakeup in an interrupt of a wakeup).
 */
#define PP_TRACE_HEADER "trace/events/syscalls.h"
#define PP_DIRECT_SINGLE true
#include "direct_stages.h"
#define PP_TRACE_HEADER "trace/events/sched.h"
#include "direct_stages.h"
#define PP_TRACE_HEADER "trace/events/irq.h"
#include "direct_stages.h"
#define PP_TRACE_HEADER "trace/events/timer.h"
#include "direct_stages.h"
#ifdef CONFIG_X86_MCE
#define PP_TRACE_HEADER "trace/events/mce.h"
#include "direct_stages.h"
#endif
#ifdef CONFIG_RAS
#define PP_TRACE_HEADER "ras/ras_event.h"
#include "direct_stages.h"
#endif

const struct pp_direct_desc *const pp_direct_descs[] = {
	&pp_direct_desc_sys_enter,
	&pp_direct_desc_sys_exit,
	&pp_direct_desc_sched_switch,
	&pp_direct_desc_sched_wakeup,
	&pp_direct_desc_sched_process_exec,
	&pp_direct_desc_sched_process_exit,
	&pp_direct_desc_sched_process_fork,
	&pp_direct_desc_irq_handler_entry,
	&pp_direct_desc_irq_handler_exit,
	&pp_direct_desc_softirq_entry,
	&pp_direct_desc_softirq_exit,
#ifdef CONFIG_X86_MCE
	&pp_direct_desc_mce_record,
#endif
#ifdef CONFIG_RAS
	&pp_direct_desc_non_standard_event,
#endif
	&pp_direct_desc_hrtimer_expire_entry,
};

const unsigned int pp_direct_nr_descs = ARRAY_SIZE(pp_direct_descs);

/**
 * pp_direct_find - the encoder of a tracepoint
 * @system: its trace system
 * @name: its name
 *
 * Return: the encoder, or NULL if the direct path does not cover it.
 */
const struct pp_direct_desc *pp_direct_find(const char *system,
					    const char *name)
{
	unsigned int i;

	for (i = 0; i < pp_direct_nr_descs; i++) {
		const struct pp_direct_desc *d = pp_direct_descs[i];

		if (!strcmp(d->system, system) && !strcmp(d->name, name))
			return d;
	}
	return NULL;
}
