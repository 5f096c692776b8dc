// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: sysfs of the persistent PMU device
 *
 *   format/<term>       the term in perf's spelling ("config:0-31"); perf 6.1
 *                       reads these and drops the PMU on one it cannot parse
 *   attr_format/<term>  the same term in the attr<num>:<mask> spelling, in a
 *                       directory perf does not read
 *   events/<name>       one alias per persistent event
 *   cpumask             the CPUs readers may open on: all online CPUs
 *
 * The attributes are built from the PMU's term table once, at module init,
 * before the PMU registers; afterwards they are only read.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "perf_persistent/pmu.h"
#include "perf_persistent/sysfs.h"

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

/* Persistent events add their aliases here (none exist yet). */
static struct attribute *pp_event_list[] = {
	NULL,
};

static const struct attribute_group pp_events_group = {
	.name = "events",
	.attrs = pp_event_list,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *da,
			    char *buf)
{
	return cpumap_print_to_pagebuf(true, buf, cpu_online_mask);
}

static DEVICE_ATTR_RO(cpumask);

static struct attribute *pp_pmu_list[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group pp_pmu_group = {
	.attrs = pp_pmu_list,
};

const struct attribute_group *pp_sysfs_groups[] = {
	&pp_pmu_group,
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

	for (i = 0; i < pp_pmu_nr_terms; i++) {
		const struct pp_format_term *term = pp_pmu_terms[i];

		ret = pp_format_perf_spelling(term, spelling, sizeof(spelling));
		if (ret < 0) {
			pr_err("format term %s cannot be published: %d\n",
			       term->name, ret);
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
