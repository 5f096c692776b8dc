// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the "persistent" PMU
 *
 * Readers connect to persistent events through this PMU with
 * perf_event_open(type = <dynamic type>, config = <event id>, pid = -1,
 * cpu = N).  The PMU finds the event, checks the opener's right to its
 * records and holds a reference on it for the reader; reader.c delivers
 * the records.  The PMU has no hardware.  It is registered with a dynamic
 * type and an invalid task context, so only CPU-wide events reach it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/module.h>
#include <linux/perf_event.h>

#include <uapi/linux/perf_persistent.h>

#include "event.h"
#include "pmu.h"
#include "reader.h"

static const struct pp_format_term pp_term_id = {
	.name = "id",
	.word = PP_ATTR_WORD_CONFIG,
	.mask = PERF_PERSISTENT_CONFIG_ID_MASK,
};

static const struct pp_format_term pp_term_nohistory = {
	.name = "nohistory",
	.word = PP_ATTR_WORD_CONFIG1,
	.mask = PERF_PERSISTENT_CONFIG1_NOHISTORY,
};

const struct pp_format_term *const pp_pmu_terms[] = {
	&pp_term_id,
	&pp_term_nohistory,
};

const unsigned int pp_pmu_nr_terms = ARRAY_SIZE(pp_pmu_terms);

static struct pmu pp_pmu;

/* perf destroys a reader: free it and drop its event.  Process context. */
static void pp_pmu_event_destroy(struct perf_event *event)
{
	pp_event_put(pp_reader_free(event));
}

/*
 * May the opener of a reader receive @ev's records on @cpu?  Exactly when
 * a CPU-wide event on the source would give them to it.  The perf core has
 * applied its CPU-wide rule to the reader already: perf_event_paranoid
 * <= 0 or CAP_PERFMON, which also covers kernel-mode samples (allowed up
 * to 1).  What is left is the source PMU's own rule for RAW data (for a
 * tracepoint, perf_event_paranoid -1 or CAP_PERFMON) and the LSM's
 * verdict.  Neither the sysctl nor the LSM hook is exported, so ask perf:
 * create the source's counter, disabled, on @cpu as the opener, and its
 * PMU checks the credentials of current.  This is done whatever the
 * source's type, so that another PMU's rule for its RAW data applies too.
 * Process context.
 */
static int pp_pmu_may_receive(struct pp_event *ev, int cpu)
{
	struct perf_event_attr attr;
	struct perf_event *probe;

	if (!(ev->attr.sample_type & PERF_SAMPLE_RAW))
		return 0;
	pp_event_probe_attr(ev, &attr);
	probe = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(probe))
		return PTR_ERR(probe);
	perf_event_release_kernel(probe);
	return 0;
}

/*
 * Connect a new reader event to persistent event @id, with a reference on
 * the event that its destroy drops.  Process context, from
 * perf_event_open().
 *
 * Return: 0, -ENOENT (no such event, or being destroyed), -ENODEV (the
 * event has no buffer on that CPU because the CPU was never online),
 * -EPERM (perf would not give the opener the source's raw tracepoint
 * data), -EOPNOTSUPP (a previous boot's event, whose source this boot may
 * not have: its buffers are read through the control device), -ENOMEM.
 */
static int pp_pmu_reader_init(struct perf_event *event, u32 id, bool history)
{
	struct pp_event *ev;
	struct pp_reader_source src;
	struct pp_cpu *pc;
	int ret;

	ev = pp_event_get(id);
	if (!ev)
		return -ENOENT;
	if (ev->prev) {
		ret = -EOPNOTSUPP;
		goto err_put;
	}
	/* perf checked only that the CPU is below nr_cpu_ids. */
	if (!cpu_possible(event->cpu)) {
		ret = -ENODEV;
		goto err_put;
	}
	pc = per_cpu_ptr(ev->cpus, event->cpu);
	src.buf = pp_cpu_buf(pc);
	if (!src.buf) {
		ret = -ENODEV;
		goto err_put;
	}
	ret = pp_pmu_may_receive(ev, event->cpu);
	if (ret)
		goto err_put;
	src.sample_type = ev->fmt.sample_type;
	src.id = ev->entry.id;
	src.ev = ev;
	ret = pp_reader_event_init(event, &pc->rd, &src, history);
	if (ret)
		goto err_put;
	event->destroy = pp_pmu_event_destroy;
	return 0;

err_put:
	pp_event_put(ev);
	return ret;
}

/*
 * Process context, from perf_event_open().  Each rejection has its own
 * errno, because the perf tool chooses its error message by the errno.
 */
static int pp_pmu_event_init(struct perf_event *event)
{
	u32 id;

	if (event->attr.type != pp_pmu.type)
		return -ENOENT;

	/* Persistent events are system-wide; so is every reader of them. */
	if (event->attach_state & PERF_ATTACH_TASK) {
		dev_dbg(pp_pmu.dev, "per-task open refused\n");
		return -EINVAL;
	}
	if (event->cpu < 0) {
		dev_dbg(pp_pmu.dev, "open without a CPU refused\n");
		return -EINVAL;
	}
	if (has_branch_stack(event)) {
		dev_dbg(pp_pmu.dev, "branch stack sampling not supported\n");
		return -EOPNOTSUPP;
	}
	/*
	 * The module delivers records in kernel mode, so the perf core
	 * would drop every one of them for an exclude_kernel reader.
	 */
	if (event->attr.exclude_kernel) {
		dev_dbg(pp_pmu.dev, "exclude_kernel would exclude every record\n");
		return -EINVAL;
	}
	if (!pp_format_covers(&event->attr, pp_pmu_terms, pp_pmu_nr_terms)) {
		dev_dbg(pp_pmu.dev, "config bits outside the format terms\n");
		return -EINVAL;
	}

	id = pp_format_get(&event->attr, &pp_term_id);
	return pp_pmu_reader_init(event, id,
				  !pp_format_get(&event->attr, &pp_term_nohistory));
}

/*
 * add/del/start/stop run with IRQs off on the event's CPU, and often: every
 * change to the CPU's event list reschedules all of them.  start/stop keep
 * hw.state, which the core checks before delivering to the event; add/del
 * put the reader on and off its persistent event's delivery lists.
 */
static void pp_pmu_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void pp_pmu_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static int pp_pmu_add(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	/*
	 * This is what perf_swevent_set_period(), which is not exported,
	 * does for software events.  Without it the first delivery to a
	 * freq-mode reader overflows several times.
	 */
	if (is_sampling_event(event)) {
		hwc->last_period = hwc->sample_period;
		if (local64_read(&hwc->period_left) >= 0)
			local64_set(&hwc->period_left, -(s64)hwc->sample_period);
	}
	hwc->state = PERF_HES_STOPPED;
	pp_reader_add(event);
	if (flags & PERF_EF_START)
		pp_pmu_start(event, flags);
	return 0;
}

static void pp_pmu_del(struct perf_event *event, int flags)
{
	pp_pmu_stop(event, flags);
	pp_reader_del(event);
}

/* The count is kept in event->count by the core as records arrive. */
static void pp_pmu_read(struct perf_event *event)
{
}

static struct pmu pp_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.event_init	= pp_pmu_event_init,
	.add		= pp_pmu_add,
	.del		= pp_pmu_del,
	.start		= pp_pmu_start,
	.stop		= pp_pmu_stop,
	.read		= pp_pmu_read,
};

/* The dynamic type perf gave the PMU; valid after pp_pmu_register(). */
int pp_pmu_type(void)
{
	return pp_pmu.type;
}

/* The PMU's device: /sys/bus/event_source/devices/persistent. */
struct device *pp_pmu_device(void)
{
	return pp_pmu.dev;
}

/**
 * pp_pmu_register - register the PMU with perf
 * @groups: the attribute groups of its device (sysfs.c's), NULL-terminated
 *
 * Process context, module init.
 *
 * Return: 0 or the errno of perf_pmu_register().
 */
int pp_pmu_register(const struct attribute_group **groups)
{
	int ret;

	pp_pmu.attr_groups = groups;
	ret = perf_pmu_register(&pp_pmu, PP_PMU_NAME, -1);
	if (ret)
		return ret;
	pr_debug("PMU %s registered as type %d\n", PP_PMU_NAME, pp_pmu.type);
	return 0;
}

/* Process context, module exit.  No reader exists: each pins the module. */
void pp_pmu_unregister(void)
{
	perf_pmu_unregister(&pp_pmu);
}
