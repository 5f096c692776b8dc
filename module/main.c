// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: module entry and exit, and the events created at load
 *
 * Persistent perf events: events that record into kernel-owned per-CPU
 * buffers with no process holding a file descriptor, which readers connect
 * to through the "persistent" PMU.
 *
 * Module parameters (also from /etc/modprobe.d):
 *   events=     comma-separated "system:tracepoint" list created detached at
 *               load, each named after its tracepoint; "?system:tracepoint"
 *               only if this kernel has it.  By default the machine's
 *               error tracepoints (default_events below), those of them
 *               this kernel has; empty creates none.  A bad entry is
 *               logged and skipped; the others still load.
 *   buffer_kb=  per-CPU buffer of the load-time events, and the default for
 *               events created with buffer size 0; a power-of-two number of
 *               pages.
 *   triggers=   comma-separated "SOURCE:TARGET[+TARGET...][/count=N][/after=M]"
 *               list set once the load-time events exist; the names are
 *               those events' ("mce_record:sched_switch"), a TARGET "*" is
 *               every load-time event but SOURCE.  A bad entry is logged
 *               and skipped.
 *   region=     memory reserved at boot for the buffers kept across a reboot:
 *               a reserve_mem label, or SIZE@ADDRESS (region.c).  Empty
 *               (the default): none.  A region that cannot be used fails
 *               the load, with the reason in the log.
 *   erst_clear= clear from ERST the machine checks that boot_errors took
 *               at load (boot_errors.c; default N).
 *   kdump_events= in a kdump capture kernel, create the events= events
 *               and set the triggers= triggers too (default N).
 *
 * In a kdump capture kernel (is_kdump_kernel(): booted by kexec after the
 * panic of another, with /proc/vmcore) the module is a reader of what the
 * crashed kernel left, never a recorder that could overwrite it: Debian's
 * kdump-tools boots the capture kernel with the crashed kernel's command
 * line, so systemd-modules-load loads the module there with the
 * administrator's region= and events=.  A SIZE@ADDRESS region is read and
 * its events shown as the previous boot's, read-only, and never formatted
 * or kept in, so that after the capture kernel's reboot the next boot
 * finds the crashed kernel's history still there; a reserve_mem label is
 * not read at all (the capture kernel reserved that range in its own
 * memory: the crashed kernel's range is in /proc/vmcore).  No load-time
 * event is created unless kdump_events=Y, and ERST is never cleared.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crash_dump.h>
#include <linux/ctype.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "anchor.h"
#include "boot_errors.h"
#include "fw_errors.h"
#include "buffer.h"
#include "callchain.h"
#include "maps.h"
#include "control.h"
#include "direct.h"
#include "perf_persistent/dump.h"
#include "event.h"
#include "notify.h"
#include "ops.h"
#include "panic.h"
#include "pmu.h"
#include "previous.h"
#include "reader.h"
#include "region.h"
#include "sysfs.h"
#include "perf_persistent/version.h"

/*
 * The machine's error tracepoints, recorded from load by default (the
 * seed, "mce, x86: Enable persistent events", recorded mce_record alone):
 * machine checks (x86), memory-controller errors (EDAC), ARM processor
 * errors and the other sections firmware reports (GHES), PCIe AER.  Each
 * is optional ("?system:name"): each this kernel has is created; one it
 * lacks (another architecture's, a subsystem not built) is passed over
 * with an info line, where a plain entry is an error.  The same "?" lets
 * one configuration (/etc/modprobe.d) serve x86 and arm64 machines.  They
 * fire on errors only: each takes buffer_kb per CPU like any load-time
 * event (five at 64 KiB: 320 KiB a CPU), an error storm's worth of
 * records, and events= names fewer.
 */
static char default_events[] =
	"?mce:mce_record,?ras:mc_event,?ras:arm_event,?ras:non_standard_event,?ras:aer_event";
static char *events = default_events;
module_param(events, charp, 0444);
MODULE_PARM_DESC(events, "tracepoints recorded from load, \"[?]system:name[/SIZE],...\": SIZE the per-CPU buffer, e.g. 256K; ? only if this kernel has it (default: ?mce:mce_record,?ras:mc_event,?ras:arm_event,?ras:non_standard_event,?ras:aer_event)");

static unsigned int buffer_kb = 64;
module_param(buffer_kb, uint, 0444);
MODULE_PARM_DESC(buffer_kb, "per-CPU buffer of load-time events in KiB, a power-of-two number of pages (default 64)");

static bool comm;
module_param(comm, bool, 0444);
MODULE_PARM_DESC(comm, "load-time events also store COMM records: readers name each task as it was when recorded (default N; always with region=)");

static char *triggers = "";
module_param(triggers, charp, 0444);
MODULE_PARM_DESC(triggers, "triggers between load-time events, \"SOURCE:TARGET[+TARGET...][/count=N][/after=M],...\", TARGET * for all (default none)");

static unsigned int memory_limit_mb;
module_param(memory_limit_mb, uint, 0444);
MODULE_PARM_DESC(memory_limit_mb, "memory all buffers together may take, in MiB (default 0: a quarter of RAM)");

static char *region = "";
module_param(region, charp, 0444);
MODULE_PARM_DESC(region, "memory reserved at boot for buffers kept across a reboot: a reserve_mem LABEL or SIZE@ADDRESS (default none)");

static bool kdump_events;
module_param(kdump_events, bool, 0444);
MODULE_PARM_DESC(kdump_events, "in a kdump capture kernel, create the events= events and triggers= too (default N: it records nothing, and reads the region without taking it)");

/* What load-time events record: everything a reader needs for perf script. */
#define PP_LOAD_SAMPLE_TYPE						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	\
	 PERF_SAMPLE_RAW)

static int create_load_event(char *entry)
{
	struct pp_event_spec spec = {
		.attr = {
			.type		= PERF_TYPE_TRACEPOINT,
			.size		= sizeof(struct perf_event_attr),
			.sample_period	= 1,
			.sample_type	= PP_LOAD_SAMPLE_TYPE,
		},
	};
	char *system = strim(entry), *size, *name, *end;
	bool optional = *system == '?';
	u32 id;
	int ret;

	/* ?system:name: only if this kernel has the tracepoint. */
	if (optional)
		system++;
	size = strchr(system, '/');

	/* system:name/SIZE: this event's own per-CPU buffer size. */
	if (size) {
		*size++ = '\0';
		spec.buffer_size = memparse(size, &end);
		if (!*size || *end || pp_buffer_size_check(spec.buffer_size)) {
			pr_err("events: %s: bad buffer size '%s' (a power-of-two number of pages up to %llu KiB); skipped\n",
			       system, size, PERF_PERSISTENT_BUFFER_MAX >> 10);
			return -EINVAL;
		}
	}
	name = strchr(system, ':');
	if (!name || !name[1]) {
		pr_err("events: '%s' is not system:tracepoint; skipped\n", system);
		return -EINVAL;
	}
	*name++ = '\0';
	ret = pp_tracepoint_lookup(system, name, &spec.attr.config, NULL);
	if (ret == -ENOENT && optional) {
		pr_info("events: %s:%s: not on this kernel, not recorded\n",
			system, name);
		return ret;
	}
	if (ret) {
		pr_err("events: no tracepoint %s:%s (%d); skipped\n", system, name, ret);
		return ret;
	}
	/*
	 * COMM records carry the sample_id fields (pp_event_attr_check()).
	 * Records kept across a reboot always have them: the next boot has
	 * no other way to name the tasks.
	 */
	if (comm || pp_region.hdr) {
		spec.attr.comm = 1;
		spec.attr.sample_id_all = 1;
	}
	spec.name = name;
	spec.crash_dump = true;
	/* With region=, the load-time events are kept across a reboot. */
	spec.keep = !!pp_region.hdr;
	ret = pp_ops_create(&spec, &id);
	/* A region too small for it: record anyway, in memory of our own. */
	if (ret == -ENOSPC && spec.keep) {
		pr_warn("events: %s:%s: no room left in the region; recording it, but not across a reboot\n",
			system, name);
		spec.keep = false;
		ret = pp_ops_create(&spec, &id);
	}
	if (ret) {
		pr_err("events: %s:%s: cannot create: %d; skipped\n", system, name, ret);
		return ret;
	}
	pr_info("%s: recording %s:%s as persistent event %u\n", name, system, name, id);
	return 0;
}

/*
 * Call @fn on each non-empty entry of the comma-separated list @list (a
 * module parameter called @param), on a copy it may cut up.
 */
static void take_entries(const char *list, const char *param,
			 int (*fn)(char *entry))
{
	char *copy, *cur, *entry;

	if (!list || !*list)
		return;
	copy = kstrdup(list, GFP_KERNEL);
	if (!copy) {
		pr_err("%s: out of memory; none taken\n", param);
		return;
	}
	cur = copy;
	while ((entry = strsep(&cur, ",")))
		if (*strim(entry))
			fn(entry);
	kfree(copy);
}

/* Parse SOURCE's targets, "T1+T2" or "*".  Return the number of ids or -errno. */
static int load_trigger_targets(char *list, u32 source, u32 *ids)
{
	char *name;
	u32 total;
	int n = 0, i, ret;

	if (!strcmp(list, "*")) {
		ret = pp_ops_list(0, ids, PERF_PERSISTENT_TRIGGER_MAX, &total);
		if (ret < 0)
			return ret;
		for (i = 0; i < ret; i++)
			if (ids[i] != source)
				ids[n++] = ids[i];
		return n;
	}
	while ((name = strsep(&list, "+"))) {
		if (n == PERF_PERSISTENT_TRIGGER_MAX)
			return -E2BIG;
		ret = pp_ops_id(name, &ids[n++]);
		if (ret) {
			pr_err("triggers: no event '%s'; skipped\n", name);
			return ret;
		}
	}
	return n;
}

/* One "SOURCE:TARGETS[/count=N][/after=M]" of triggers=. */
static int set_load_trigger(char *entry)
{
	char *src = strim(entry), *targets, *opt, *opts;
	u64 count = 0, after = 0;
	u32 *ids, source;
	int nr, ret;

	opts = strchr(src, '/');
	if (opts)
		*opts++ = '\0';
	targets = strchr(src, ':');
	if (!targets || !targets[1]) {
		pr_err("triggers: '%s' is not SOURCE:TARGET[+TARGET...]; skipped\n", src);
		return -EINVAL;
	}
	*targets++ = '\0';
	while ((opt = strsep(&opts, "/"))) {
		if (!strncmp(opt, "count=", 6))
			ret = kstrtou64(opt + 6, 0, &count);
		else if (!strncmp(opt, "after=", 6))
			ret = kstrtou64(opt + 6, 0, &after);
		else
			ret = -EINVAL;
		if (ret) {
			pr_err("triggers: %s: bad option '%s' (count=N or after=M); skipped\n",
			       src, opt);
			return ret;
		}
	}
	ret = pp_ops_id(src, &source);
	if (ret) {
		pr_err("triggers: no event '%s'; skipped\n", src);
		return ret;
	}
	ids = kcalloc(PERF_PERSISTENT_TRIGGER_MAX, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return -ENOMEM;
	nr = load_trigger_targets(targets, source, ids);
	ret = nr;
	if (nr == 0) {
		pr_err("triggers: %s: no event to freeze; skipped\n", src);
		ret = -ENOENT;
	} else if (nr > 0) {
		ret = pp_ops_set_trigger(source, ids, nr, count, after, NULL);
		if (ret)
			pr_err("triggers: %s: cannot set: %d; skipped\n", src, ret);
		else
			pr_info("%s: freezes %d event%s on its record %llu, after %llu more\n",
				src, nr, nr == 1 ? "" : "s", count ?: 1, after);
	} else if (nr == -E2BIG) {
		pr_err("triggers: %s: more than %d targets; skipped\n", src,
		       PERF_PERSISTENT_TRIGGER_MAX);
	}
	kfree(ids);
	return ret;
}

/*
 * Make an event of each the previous boot kept (previous.h).  Memory too
 * short for one fails the load (-ENOMEM), before the region is formatted
 * (pp_region_commit()): the next load finds them all again.  An event
 * this kernel cannot show for another reason is logged and passed over.
 */
static int publish_previous(void)
{
	struct pp_found_event *fe, *tmp;
	u32 id;
	int ret;

	char name[PERF_PERSISTENT_NAME_MAX];

	list_for_each_entry_safe(fe, tmp, &pp_previous_boot.list, node) {
		list_del(&fe->node);
		strscpy(name, fe->name, sizeof(name));
		/* The event takes @fe, or frees it. */
		ret = pp_ops_create_previous(fe, NULL, NULL, &id);
		if (ret == -ENOMEM) {
			pr_err("previous boot: %s: no memory to show it: not loading, the region left as it is\n",
			       name);
			return ret;
		}
		if (ret) {
			/* Dropped as a damaged descriptor is: counted. */
			pp_previous_boot.bad++;
			pr_err("previous boot: %s: cannot show it: %d\n", name,
			       ret);
		} else {
			pr_info("previous boot: %s is event %u (instances/previous.%s)\n",
				name, id, name);
		}
	}
	return 0;
}

static int __init pp_init(void)
{
	u64 size = (u64)buffer_kb * 1024;
	int ret;

	if (pp_buffer_size_check(size)) {
		pr_warn("buffer_kb=%u is not a power-of-two number of pages up to %llu KiB; using %lu\n",
			buffer_kb, PERF_PERSISTENT_BUFFER_MAX >> 10,
			pp_default_buffer_size >> 10);
	} else {
		pp_default_buffer_size = size;
	}

	if (!memory_limit_mb)
		memory_limit_mb = max(1UL, (totalram_pages() >> (20 - PAGE_SHIFT)) / 4);
	pp_buffer_limit = (unsigned long)memory_limit_mb << 20;

	/*
	 * A region that cannot be used stops the load before anything
	 * exists.  What the previous boot left in it is copied out before it
	 * is formatted for this boot.  A capture kernel only reads it, and
	 * not at all a reserve_mem range, which is its own memory.
	 */
	if (*region && is_kdump_kernel() && !isdigit(*region)) {
		pr_info("kdump capture kernel: region=%s is this kernel's reserve_mem range, not the crashed kernel's: not read (that one is in /proc/vmcore)\n",
			region);
	} else if (*region) {
		ret = pp_region_setup(&pp_region, region);
		if (ret)
			return ret;
		ret = pp_region_start(&pp_region);
		if (ret)
			goto err_teardown;
	}
	/* Where the events' notices go, before any event exists. */
	pp_notify_init();
	pp_maps_init();
	ret = pp_readers_init();
	if (ret)
		goto err_region;
	ret = pp_direct_init();
	if (ret)
		goto err_readers;
	ret = pp_callchain_init();
	if (ret)
		goto err_direct;
	/* The registry first, because the PMU's event_init looks events up in it. */
	ret = pp_events_init();
	if (ret)
		goto err_callchain;
	ret = pp_sysfs_init();
	if (ret)
		goto err_events;
	ret = pp_pmu_register(pp_sysfs_groups);
	if (ret) {
		pr_err("cannot register the %s PMU: %d\n", PP_PMU_NAME, ret);
		goto err_sysfs;
	}
	/* instances/ hangs off the PMU's device, which exists only now. */
	ret = pp_sysfs_instances_init();
	if (ret)
		goto err_pmu;
	ret = pp_control_init();
	if (ret)
		goto err_instances;
	ret = pp_panic_init();
	if (ret)
		goto err_control;

	ret = publish_previous();
	if (ret)
		goto err_previous;
	/*
	 * Nothing can fail the load from here: this boot takes the region,
	 * unless it is a capture kernel's, which leaves it to the next boot.
	 */
	if (is_kdump_kernel() && pp_region.mem)
		pr_info("kdump capture kernel: the region is read, not taken: the next boot finds the crashed kernel's history there\n");
	if (is_kdump_kernel())
		pr_info("kdump capture kernel: %s\n", kdump_events ?
			"events= and triggers= taken (kdump_events=Y)" :
			"no load-time event (kdump_events=Y makes them)");
	else if (pp_region.mem)
		pp_region_commit(&pp_region);
	pp_boot_errors_publish();
	pp_fw_errors_publish();
	if (!is_kdump_kernel() || kdump_events) {
		take_entries(events, "events", create_load_event);
		take_entries(triggers, "triggers", set_load_trigger);
	}
	/* boot_errors.c reads this line back at a later load: keep its words. */
	pr_info("version %s loaded\n", PP_VERSION);
	return 0;

err_previous:
	/* The previous boot's events made so far; the rest are forgotten. */
	pp_ops_destroy_all();
	pp_panic_exit();
err_control:
	pp_control_exit();
err_instances:
	pp_sysfs_instances_exit();
err_pmu:
	pp_pmu_unregister();
err_sysfs:
	pp_sysfs_exit();
err_events:
	pp_events_exit();
err_callchain:
	pp_callchain_exit();
err_direct:
	pp_direct_exit();
err_readers:
	pp_readers_exit();
err_region:
	pp_previous_forget();
	pp_region_stop(&pp_region);
err_teardown:
	pp_region_teardown(&pp_region);
	return ret;
}

static void __exit pp_exit(void)
{
	pp_panic_exit();
	pp_control_exit();
	pp_notify_exit();
	pp_ops_destroy_all();
	pp_sysfs_instances_exit();
	pp_pmu_unregister();
	pp_sysfs_exit();
	pp_events_exit();
	pp_anchor_exit();
	pp_maps_exit();
	/* The previous boot's mappings table, read until now. */
	pp_previous_forget();
	pp_callchain_exit();
	pp_direct_exit();
	pp_readers_exit();
	pp_region_stop(&pp_region);
	pp_region_teardown(&pp_region);
	pr_info("unloaded\n");
}

module_init(pp_init);
module_exit(pp_exit);

MODULE_DESCRIPTION("Persistent perf events: kernel-owned per-CPU recording without a controlling process");
MODULE_AUTHOR("perf-persistent developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(PP_VERSION);
