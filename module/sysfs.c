// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: sysfs of the persistent PMU device
 *
 *   format/<term>       the term in perf's spelling ("config:0-31"); perf 6.1
 *                       reads these and drops the PMU on one it cannot parse
 *   attr_format/<term>  the same term in the attr<num>:<mask> spelling, in a
 *                       directory perf does not read
 *   events/<name>       one alias per persistent event, "id=<id>,period=1"
 *   instances/<name>/   read-only facts and statistics of each event
 *   instances/previous.<name>/  the same of each previous boot's event
 *   previous_boot/      what the reserved region said of the previous boot
 *   cpumask             the CPUs readers may open on: all online CPUs
 *
 * The format attributes are built from the PMU's term table once, at module
 * init, before the PMU registers; afterwards they are only read.
 *
 * events/ and instances/ change as events come and go.  pp_sysfs_event_add()
 * and pp_sysfs_event_del() run under the registry lock, which serialises
 * them and the events/ attribute list.  No show() here takes that lock,
 * because removing a file waits for the show() calls in progress.  Each
 * show() reads only what stays valid until its file is removed.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/lockdep.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <uapi/linux/perf_persistent.h>

#include "attr_list.h"
#include "buffer.h"
#include "event.h"
#include "filter.h"
#include "maps.h"
#include "pmu.h"
#include "previous.h"
#include "sysfs.h"

/* Upper bound of the term table, checked at init. */
#define PP_MAX_TERMS	8

struct pp_format_attr {
	struct device_attribute attr;
	const struct pp_format_term *term;
};

static ssize_t pp_format_show(struct device *dev, struct device_attribute *da,
			      char *buf,
			      int (*spell)(const struct pp_format_term *,
					   char *, size_t))
{
	struct pp_format_attr *fa = container_of(da, struct pp_format_attr,
						 attr);
	int n;

	n = spell(fa->term, buf, PAGE_SIZE - 1);
	if (n < 0)
		return n;
	buf[n++] = '\n';
	return n;
}

static ssize_t pp_perf_format_show(struct device *dev,
				   struct device_attribute *da, char *buf)
{
	return pp_format_show(dev, da, buf, pp_format_perf_spelling);
}

static ssize_t pp_attr_format_show(struct device *dev,
				   struct device_attribute *da, char *buf)
{
	return pp_format_show(dev, da, buf, pp_format_attr_spelling);
}

static struct pp_format_attr pp_perf_format_attrs[PP_MAX_TERMS];
static struct pp_format_attr pp_attr_format_attrs[PP_MAX_TERMS];
static struct attribute *pp_perf_format_list[PP_MAX_TERMS + 1];
static struct attribute *pp_attr_format_list[PP_MAX_TERMS + 1];

static const struct attribute_group pp_perf_format_group = {
	.name = "format",
	.attrs = pp_perf_format_list,
};

static const struct attribute_group pp_attr_format_group = {
	.name = "attr_format",
	.attrs = pp_attr_format_list,
};

/* One alias per persistent event; .attrs follows pp_event_attrs. */
static struct pp_attr_list pp_event_attrs;

static struct attribute_group pp_events_group = {
	.name = "events",
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *da,
			    char *buf)
{
	return sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(cpu_online_mask));
}

static DEVICE_ATTR_RO(cpumask);

/* Bytes every buffer takes, against the memory_limit_mb parameter. */
static ssize_t memory_used_show(struct device *dev,
				struct device_attribute *da, char *buf)
{
	return sysfs_emit(buf, "%lu\n", pp_buffer_memory_used());
}

static DEVICE_ATTR_RO(memory_used);

/*
 * maps/: the profiles' mappings table (maps.c), one figure a file, as
 * PERF_PERSISTENT_IOC_MAPS gives them.
 */
struct pp_maps_attr {
	struct device_attribute	attr;
	size_t			off;
};

static ssize_t pp_maps_show(struct device *dev, struct device_attribute *da,
			    char *buf)
{
	const struct pp_maps_attr *a = container_of(da, struct pp_maps_attr,
						    attr);
	struct perf_persistent_maps m = {};

	pp_maps_read(&m);
	return sysfs_emit(buf, "%llu\n", *(u64 *)((void *)&m + a->off));
}

static struct pp_maps_attr pp_maps_attr_processes = {
	__ATTR(processes, 0444, pp_maps_show, NULL),
	offsetof(struct perf_persistent_maps, processes),
};

static struct pp_maps_attr pp_maps_attr_bytes = {
	__ATTR(bytes, 0444, pp_maps_show, NULL),
	offsetof(struct perf_persistent_maps, bytes),
};

static struct pp_maps_attr pp_maps_attr_budget = {
	__ATTR(budget, 0444, pp_maps_show, NULL),
	offsetof(struct perf_persistent_maps, budget),
};

static struct pp_maps_attr pp_maps_attr_dropped = {
	__ATTR(dropped, 0444, pp_maps_show, NULL),
	offsetof(struct perf_persistent_maps, dropped),
};

static struct pp_maps_attr pp_maps_attr_missed = {
	__ATTR(missed, 0444, pp_maps_show, NULL),
	offsetof(struct perf_persistent_maps, missed),
};

static struct pp_maps_attr pp_maps_attr_unsaved = {
	__ATTR(unsaved, 0444, pp_maps_show, NULL),
	offsetof(struct perf_persistent_maps, unsaved),
};

static struct pp_maps_attr pp_maps_attr_reads = {
	__ATTR(reads, 0444, pp_maps_show, NULL),
	offsetof(struct perf_persistent_maps, reads),
};

static struct attribute *pp_maps_list[] = {
	&pp_maps_attr_processes.attr.attr,
	&pp_maps_attr_bytes.attr.attr,
	&pp_maps_attr_budget.attr.attr,
	&pp_maps_attr_dropped.attr.attr,
	&pp_maps_attr_missed.attr.attr,
	&pp_maps_attr_unsaved.attr.attr,
	&pp_maps_attr_reads.attr.attr,
	NULL,
};

static const struct attribute_group pp_maps_group = {
	.name = "maps",
	.attrs = pp_maps_list,
};

static struct attribute *pp_pmu_list[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_memory_used.attr,
	NULL,
};

static const struct attribute_group pp_pmu_group = {
	.attrs = pp_pmu_list,
};

/*
 * previous_boot/: the previous boot whose records the region held at
 * load, from its header (previous.h).  Written once before the PMU
 * registers; only read afterwards.  Absent when none was found.
 */
static ssize_t boot_id_show(struct device *dev, struct device_attribute *da,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", pp_previous_boot.boot_id);
}

static ssize_t release_show(struct device *dev, struct device_attribute *da,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", pp_previous_boot.release);
}

static ssize_t text_delta_show(struct device *dev, struct device_attribute *da,
			       char *buf)
{
	return sysfs_emit(buf, "%ld\n", pp_previous_boot.text_delta);
}

/* How it ended: "panic", "reboot", or "reset" when no kernel path ran. */
static ssize_t end_show(struct device *dev, struct device_attribute *da,
			char *buf)
{
	static const char * const ends[] = {
		[PP_REGION_END_UNKNOWN] = "reset",
		[PP_REGION_END_PANIC] = "panic",
		[PP_REGION_END_REBOOT] = "reboot",
	};

	return sysfs_emit(buf, "%s\n", ends[pp_previous_boot.end]);
}

/* Its newest clock pair: "LOCAL_NS REALTIME_NS". */
static ssize_t clock_show(struct device *dev, struct device_attribute *da,
			  char *buf)
{
	return sysfs_emit(buf, "%llu %llu\n", pp_previous_boot.clock.local,
			  pp_previous_boot.clock.real);
}

/* Descriptors the validation dropped. */
static ssize_t dropped_descriptors_show(struct device *dev,
					struct device_attribute *da, char *buf)
{
	return sysfs_emit(buf, "%u\n", pp_previous_boot.bad);
}

static DEVICE_ATTR_RO(boot_id);
static DEVICE_ATTR_RO(release);
static DEVICE_ATTR_RO(text_delta);
static DEVICE_ATTR_RO(end);
static DEVICE_ATTR_RO(clock);
static DEVICE_ATTR_RO(dropped_descriptors);

static struct attribute *pp_previous_boot_list[] = {
	&dev_attr_boot_id.attr,
	&dev_attr_release.attr,
	&dev_attr_text_delta.attr,
	&dev_attr_end.attr,
	&dev_attr_clock.attr,
	&dev_attr_dropped_descriptors.attr,
	NULL,
};

/* Added with instances/, only when a previous boot was found. */
static const struct attribute_group pp_previous_boot_group = {
	.name = "previous_boot",
	.attrs = pp_previous_boot_list,
};

const struct attribute_group *pp_sysfs_groups[] = {
	&pp_pmu_group,
	&pp_maps_group,
	&pp_perf_format_group,
	&pp_attr_format_group,
	&pp_events_group,
	NULL,
};

static void pp_format_attr_init(struct pp_format_attr *fa,
				const struct pp_format_term *term,
				ssize_t (*show)(struct device *,
						struct device_attribute *,
						char *))
{
	sysfs_attr_init(&fa->attr.attr);
	fa->attr.attr.name = term->name;
	fa->attr.attr.mode = 0444;
	fa->attr.show = show;
	fa->term = term;
}

/*
 * Process context, module init, before the PMU registers.  Refuses a term
 * that perf 6.1 could not parse: publishing it would hide the whole PMU.
 */
int pp_sysfs_init(void)
{
	char spelling[PP_FORMAT_MAX_LEN];
	unsigned int i;
	int ret;

	if (pp_pmu_nr_terms > PP_MAX_TERMS)
		return -E2BIG;
	ret = pp_attr_list_init(&pp_event_attrs);
	if (ret)
		return ret;
	pp_events_group.attrs = pp_event_attrs.attrs;

	for (i = 0; i < pp_pmu_nr_terms; i++) {
		const struct pp_format_term *term = pp_pmu_terms[i];

		ret = pp_format_perf_spelling(term, spelling, sizeof(spelling));
		if (ret < 0) {
			pr_err("format term %s cannot be published: %d\n",
			       term->name, ret);
			pp_attr_list_free(&pp_event_attrs);
			return ret;
		}
		pp_format_attr_init(&pp_perf_format_attrs[i], term,
				    pp_perf_format_show);
		pp_format_attr_init(&pp_attr_format_attrs[i], term,
				    pp_attr_format_show);
		pp_perf_format_list[i] = &pp_perf_format_attrs[i].attr.attr;
		pp_attr_format_list[i] = &pp_attr_format_attrs[i].attr.attr;
	}
	return 0;
}

/* Module exit, after the PMU is unregistered. */
void pp_sysfs_exit(void)
{
	pp_attr_list_free(&pp_event_attrs);
}

/* instances/<name>/: one directory per event. */
static struct kobject *pp_instances;

struct pp_event_kobj {
	struct kobject		kobj;
	struct pp_event		*ev;
};

static struct pp_event *kobj_event(struct kobject *kobj)
{
	return container_of(kobj, struct pp_event_kobj, kobj)->ev;
}

static ssize_t id_show(struct kobject *kobj, struct kobj_attribute *a,
		       char *buf)
{
	return sysfs_emit(buf, "%u\n", kobj_event(kobj)->entry.id);
}

static ssize_t source_show(struct kobject *kobj, struct kobj_attribute *a,
			   char *buf)
{
	const struct perf_event_attr *attr = &kobj_event(kobj)->attr;

	return sysfs_emit(buf,
			  "type=%u,config=0x%llx,config1=0x%llx,config2=0x%llx,%s=%llu,sample_type=0x%llx\n",
			  attr->type, attr->config, attr->config1,
			  attr->config2, attr->freq ? "freq" : "period",
			  attr->sample_period, attr->sample_type);
}

static ssize_t buffer_size_show(struct kobject *kobj,
				struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%lu\n", kobj_event(kobj)->buffer_size);
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *a,
			  char *buf)
{
	u32 state = pp_event_state(kobj_event(kobj), NULL);

	return sysfs_emit(buf, "%s%s%s%s\n",
			  state & PERF_PERSISTENT_STATE_ATTACHED ? "attached" :
								  "detached",
			  state & PERF_PERSISTENT_STATE_PAUSED ? " paused" : "",
			  state & PERF_PERSISTENT_STATE_FROZEN ? " frozen" : "",
			  state & PERF_PERSISTENT_STATE_EXITED ? " exited" : "");
}

/* Whose activity it records: "cpus", "task PID[ exited]", "cgroup PATH". */
static ssize_t scope_show(struct kobject *kobj, struct kobj_attribute *a,
			  char *buf)
{
	return pp_scope_show(&kobj_event(kobj)->scope, buf, PAGE_SIZE);
}

/*
 * "targets=ID,... count=N after=M fired=0|1[ filter=TEXT]", or empty if
 * the event has no trigger.  The filter comes last and runs to the end of
 * the line: its text as set, or "(N ops)" if it was set without one.
 */
static ssize_t trigger_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	struct pp_event *ev = kobj_event(kobj);
	struct pp_trigger *trig;
	unsigned int i;
	int len = 0;

	rcu_read_lock();
	trig = rcu_dereference(ev->trigger);
	if (trig) {
		for (i = 0; i < trig->nr; i++) {
			struct pp_event *t = trig->targets[i].owner;

			len += sysfs_emit_at(buf, len, "%s%u", i ? "," : "targets=",
					     t->entry.id);
		}
		len += sysfs_emit_at(buf, len, " count=%llu after=%llu fired=%d",
				     trig->count, trig->after,
				     pp_trigger_fired(trig));
		if (trig->filter && trig->filter->text[0])
			len += sysfs_emit_at(buf, len, " filter=%s",
					     trig->filter->text);
		else if (trig->filter)
			len += sysfs_emit_at(buf, len, " filter=(%u ops)",
					     trig->filter->nr);
	}
	rcu_read_unlock();
	return len + sysfs_emit_at(buf, len, "\n");
}

static ssize_t freezes_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  (long long)atomic64_read(&kobj_event(kobj)->freeze.freezes));
}

static ssize_t crash_dump_show(struct kobject *kobj, struct kobj_attribute *a,
			       char *buf)
{
	return sysfs_emit(buf, "%d\n", kobj_event(kobj)->crash_dump);
}

/* How the event records: "direct" (its own probe) or "perf" (counters). */
static ssize_t path_show(struct kobject *kobj, struct kobj_attribute *a,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", kobj_event(kobj)->direct ? "direct" : "perf");
}

/*
 * The tracefs format of the source as the event keeps it for crash dumps;
 * empty for other sources, or when it would not fit a page.
 */
static ssize_t format_show(struct kobject *kobj, struct kobj_attribute *a,
			   char *buf)
{
	const char *format = kobj_event(kobj)->format;
	size_t len = format ? strlen(format) : 0;

	/* It ends with the print fmt line's newline. */
	if (!len || len >= PAGE_SIZE)
		return 0;
	return sysfs_emit(buf, "%.*s\n", (int)len - 1, format);
}

/*
 * A previous boot's event: per CPU of that boot that had a buffer, one
 * line "CPU VERDICT RECORDS UNTRUSTED": why the records kept stop where
 * they do (pp_found_stop_name()), how many were kept, and how many bytes
 * of what that boot published were not.
 */
static ssize_t found_show(struct kobject *kobj, struct kobj_attribute *a,
			  char *buf)
{
	struct pp_event *ev = kobj_event(kobj);
	const struct pp_found_event *fe = ev->prev;
	unsigned int i;
	int len = 0;

	for (i = 0; i < fe->nr; i++) {
		const struct pp_found_cpu *fc = &fe->cpus[i];
		struct pp_buffer_stats st = {};
		struct pp_buffer *kept = NULL;

		if (fc->cpu < nr_cpu_ids && cpu_possible(fc->cpu))
			kept = per_cpu_ptr(ev->cpus, fc->cpu)->buf;
		if (kept)
			pp_buffer_stats(kept, &st);
		len += sysfs_emit_at(buf, len, "%u %s %llu %llu\n", fc->cpu,
				     pp_found_stop_name(fc->stop), st.written,
				     fc->untrusted);
	}
	return len;
}

/*
 * A kept event: where in the reserved region its descriptor and each
 * CPU's buffer (its control page, then the data) are, as physical
 * addresses, "descriptor ADDR" then "cpuN ADDR" lines; empty for other
 * events.  Root only: physical addresses are no one else's business.
 */
static ssize_t region_show(struct kobject *kobj, struct kobj_attribute *a,
			   char *buf)
{
	struct pp_event *ev = kobj_event(kobj);
	const struct pp_region_desc *d = ev->keep.desc;
	unsigned int cpu;
	phys_addr_t at;
	int len;

	if (!d)
		return 0;
	at = pp_region.start + ev->keep.first * PAGE_SIZE;
	len = sysfs_emit(buf, "descriptor %pa\n", &at);
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		u32 first = READ_ONCE(d->cpus[cpu]);

		if (!first)
			continue;
		at = pp_region.start + (phys_addr_t)first * PAGE_SIZE;
		len += sysfs_emit_at(buf, len, "cpu%u %pa\n", cpu, &at);
	}
	return len;
}

/* Its tracepoint's "system:name", or empty (any event, this boot's too). */
static ssize_t tracepoint_show(struct kobject *kobj, struct kobj_attribute *a,
			       char *buf)
{
	return sysfs_emit(buf, "%s\n", kobj_event(kobj)->tp_name);
}

/* A previous boot's event: its id in that boot, which its records carry. */
static ssize_t previous_id_show(struct kobject *kobj, struct kobj_attribute *a,
				char *buf)
{
	return sysfs_emit(buf, "%u\n", kobj_event(kobj)->prev->id);
}

/*
 * A previous boot's event: the clock pair "LOCAL_NS REALTIME_NS" that
 * turns its records' times into wall-clock times (previous_boot/clock for
 * the region's events; this boot's for boot_errors, written at load).
 */
static ssize_t previous_clock_show(struct kobject *kobj,
				   struct kobj_attribute *a, char *buf)
{
	const struct pp_found_event *fe = kobj_event(kobj)->prev;

	return sysfs_emit(buf, "%llu %llu\n", fe->clock.local, fe->clock.real);
}

static ssize_t frozen_at_show(struct kobject *kobj, struct kobj_attribute *a,
			      char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(kobj_event(kobj)->freeze.time));
}

static ssize_t stat_show(struct kobject *kobj, char *buf, size_t offset)
{
	struct pp_buffer_stats sum;

	pp_event_sum_stats(kobj_event(kobj), &sum);
	return sysfs_emit(buf, "%llu\n", *(u64 *)((void *)&sum + offset));
}

static ssize_t written_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	return stat_show(kobj, buf, offsetof(struct pp_buffer_stats, written));
}

static ssize_t overwritten_show(struct kobject *kobj,
				struct kobj_attribute *a, char *buf)
{
	return stat_show(kobj, buf,
			 offsetof(struct pp_buffer_stats, overwritten));
}

static ssize_t dropped_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	return stat_show(kobj, buf, offsetof(struct pp_buffer_stats, dropped));
}

static ssize_t bytes_show(struct kobject *kobj, struct kobj_attribute *a,
			  char *buf)
{
	return stat_show(kobj, buf, offsetof(struct pp_buffer_stats, bytes));
}

static ssize_t readers_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", pp_event_nr_readers(kobj_event(kobj)));
}

static ssize_t lost_show(struct kobject *kobj, struct kobj_attribute *a,
			 char *buf)
{
	return sysfs_emit(buf, "%lu\n", pp_event_reader_lost(kobj_event(kobj)));
}

static ssize_t backlog_show(struct kobject *kobj, struct kobj_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%lu\n", pp_event_backlog(kobj_event(kobj)));
}

static struct kobj_attribute pp_written_attr = __ATTR_RO(written);
static struct kobj_attribute pp_overwritten_attr = __ATTR_RO(overwritten);
static struct kobj_attribute pp_dropped_attr = __ATTR_RO(dropped);
static struct kobj_attribute pp_bytes_attr = __ATTR_RO(bytes);
static struct kobj_attribute pp_readers_attr = __ATTR_RO(readers);
static struct kobj_attribute pp_backlog_attr = __ATTR_RO(backlog);
static struct kobj_attribute pp_lost_attr = __ATTR_RO(lost);

static struct kobj_attribute pp_id_attr = __ATTR_RO(id);
static struct kobj_attribute pp_source_attr = __ATTR_RO(source);
static struct kobj_attribute pp_buffer_size_attr = __ATTR_RO(buffer_size);
static struct kobj_attribute pp_state_attr = __ATTR_RO(state);
static struct kobj_attribute pp_trigger_attr = __ATTR_RO(trigger);
static struct kobj_attribute pp_freezes_attr = __ATTR_RO(freezes);
static struct kobj_attribute pp_frozen_at_attr = __ATTR_RO(frozen_at);
static struct kobj_attribute pp_crash_dump_attr = __ATTR_RO(crash_dump);
static struct kobj_attribute pp_format_attr = __ATTR_RO(format);
static struct kobj_attribute pp_path_attr = __ATTR_RO(path);
static struct kobj_attribute pp_scope_attr = __ATTR_RO(scope);
static struct kobj_attribute pp_found_attr = __ATTR_RO(found);
static struct kobj_attribute pp_previous_id_attr = __ATTR_RO(previous_id);
static struct kobj_attribute pp_previous_clock_attr =
	__ATTR(clock, 0444, previous_clock_show, NULL);
static struct kobj_attribute pp_tracepoint_attr = __ATTR_RO(tracepoint);
static struct kobj_attribute pp_region_attr = __ATTR(region, 0400, region_show,
						     NULL);

static struct attribute *pp_instance_attrs[] = {
	&pp_id_attr.attr,
	&pp_source_attr.attr,
	&pp_buffer_size_attr.attr,
	&pp_state_attr.attr,
	&pp_written_attr.attr,
	&pp_overwritten_attr.attr,
	&pp_dropped_attr.attr,
	&pp_bytes_attr.attr,
	&pp_readers_attr.attr,
	&pp_backlog_attr.attr,
	&pp_lost_attr.attr,
	&pp_trigger_attr.attr,
	&pp_freezes_attr.attr,
	&pp_frozen_at_attr.attr,
	&pp_crash_dump_attr.attr,
	&pp_format_attr.attr,
	&pp_tracepoint_attr.attr,
	&pp_path_attr.attr,
	&pp_scope_attr.attr,
	&pp_region_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(pp_instance);

/* A previous boot's event: what it was, and what was kept of it. */
static struct attribute *pp_previous_attrs[] = {
	&pp_id_attr.attr,
	&pp_previous_id_attr.attr,
	&pp_source_attr.attr,
	&pp_buffer_size_attr.attr,
	&pp_state_attr.attr,
	&pp_written_attr.attr,
	&pp_bytes_attr.attr,
	&pp_readers_attr.attr,
	&pp_format_attr.attr,
	&pp_tracepoint_attr.attr,
	&pp_found_attr.attr,
	&pp_previous_clock_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(pp_previous);

static void pp_event_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct pp_event_kobj, kobj));
}

static const struct kobj_type pp_event_ktype = {
	.release	= pp_event_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= pp_instance_groups,
};

static const struct kobj_type pp_previous_ktype = {
	.release	= pp_event_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= pp_previous_groups,
};

/* instances/previous.<name>/ of a previous boot's event. */
static int pp_sysfs_previous_add(struct pp_event *ev)
{
	struct pp_event_kobj *ek;
	int ret;

	ek = kzalloc(sizeof(*ek), GFP_KERNEL);
	if (!ek)
		return -ENOMEM;
	ek->ev = ev;
	ret = kobject_init_and_add(&ek->kobj, &pp_previous_ktype, pp_instances,
				   "previous.%s", ev->entry.name);
	if (ret) {
		kobject_put(&ek->kobj);
		return ret;
	}
	ev->sysfs.kobj = &ek->kobj;
	return 0;
}

/* Module init, after the PMU registered. */
int pp_sysfs_instances_init(void)
{
	int ret;

	pp_instances = kobject_create_and_add("instances",
					      &pp_pmu_device()->kobj);
	if (!pp_instances)
		return -ENOMEM;
	if (!pp_previous_boot.found)
		return 0;
	ret = sysfs_create_group(&pp_pmu_device()->kobj,
				 &pp_previous_boot_group);
	if (ret)
		kobject_put(pp_instances);
	return ret;
}

/* Module exit, every event gone. */
void pp_sysfs_instances_exit(void)
{
	if (pp_previous_boot.found)
		sysfs_remove_group(&pp_pmu_device()->kobj,
				   &pp_previous_boot_group);
	kobject_put(pp_instances);
}

/**
 * pp_sysfs_event_add - publish events/<name> and instances/<name>/, or
 *	instances/previous.<name>/ of a previous boot's event
 * @ev: a new event with its id
 *
 * Process context, registry lock held.
 *
 * Return: 0, or a negative errno with nothing published.
 */
int pp_sysfs_event_add(struct pp_event *ev)
{
	struct device_attribute *da = &ev->sysfs.alias_attr.attr;
	struct pp_event_kobj *ek;
	int ret;

	lockdep_assert_held(&pp_registry.lock);
	/* perf cannot open it: no alias in events/. */
	if (ev->prev)
		return pp_sysfs_previous_add(ev);
	snprintf(ev->sysfs.alias, sizeof(ev->sysfs.alias), "id=%u,period=1", ev->entry.id);
	sysfs_attr_init(&da->attr);
	da->attr.name = ev->entry.name;
	da->attr.mode = 0444;
	da->show = perf_event_sysfs_show;
	ev->sysfs.alias_attr.event_str = ev->sysfs.alias;

	ret = pp_attr_list_add(&pp_event_attrs, &da->attr);
	if (ret)
		return ret;
	pp_events_group.attrs = pp_event_attrs.attrs;
	ret = sysfs_add_file_to_group(&pp_pmu_device()->kobj, &da->attr,
				      pp_events_group.name);
	if (ret)
		goto err_list;

	ek = kzalloc(sizeof(*ek), GFP_KERNEL);
	if (!ek) {
		ret = -ENOMEM;
		goto err_file;
	}
	ek->ev = ev;
	ret = kobject_init_and_add(&ek->kobj, &pp_event_ktype, pp_instances,
				   "%s", ev->entry.name);
	if (ret) {
		kobject_put(&ek->kobj);
		goto err_file;
	}
	ev->sysfs.kobj = &ek->kobj;
	return 0;

err_file:
	sysfs_remove_file_from_group(&pp_pmu_device()->kobj, &da->attr,
				     pp_events_group.name);
err_list:
	pp_attr_list_del(&pp_event_attrs, &da->attr);
	pp_events_group.attrs = pp_event_attrs.attrs;
	return ret;
}

/*
 * Remove what pp_sysfs_event_add() published.  Process context, registry
 * lock held.  Returns once no show() of the event is running.
 */
void pp_sysfs_event_del(struct pp_event *ev)
{
	struct attribute *attr = &ev->sysfs.alias_attr.attr.attr;

	lockdep_assert_held(&pp_registry.lock);
	kobject_del(ev->sysfs.kobj);
	kobject_put(ev->sysfs.kobj);
	ev->sysfs.kobj = NULL;
	if (ev->prev)
		return;
	sysfs_remove_file_from_group(&pp_pmu_device()->kobj, attr,
				     pp_events_group.name);
	pp_attr_list_del(&pp_event_attrs, attr);
	pp_events_group.attrs = pp_event_attrs.attrs;
}
