// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: module entry and exit
 *
 * Persistent perf events: events that record into kernel-owned per-CPU
 * buffers with no process holding a file descriptor, which readers connect
 * to through the "persistent" PMU.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "perf_persistent/pmu.h"
#include "perf_persistent/sysfs.h"
#include "perf_persistent/version.h"

static int __init pp_init(void)
{
	int ret;

	ret = pp_sysfs_init();
	if (ret)
		return ret;
	ret = pp_pmu_register();
	if (ret) {
		pr_err("cannot register the %s PMU: %d\n", PP_PMU_NAME, ret);
		return ret;
	}
	pr_info("version %s loaded\n", PP_VERSION);
	return 0;
}

static void __exit pp_exit(void)
{
	pp_pmu_unregister();
	pr_info("unloaded\n");
}

module_init(pp_init);
module_exit(pp_exit);

MODULE_DESCRIPTION("Persistent perf events: kernel-owned per-CPU recording without a controlling process");
MODULE_AUTHOR("perf-persistent developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(PP_VERSION);
