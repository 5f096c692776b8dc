// SPDX-License-Identifier: GPL-2.0
/*
 * pp_oops - a lab fixture, built for the lab kernels only and never
 * installed: a write to /sys/kernel/debug/pp_oops makes the writing task
 * hit BUG(), an oops (die(), the die notifier's DIE_OOPS), which the lab's
 * oops=panic turns into a panic.  scripts/crash-check uses it to test the
 * crash dump's oops path; Debian's kernels have no LKDTM.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>

static struct dentry *pp_oops_file;

static ssize_t pp_oops_write(struct file *file, const char __user *buf,
			     size_t len, loff_t *ppos)
{
	pr_emerg("oops on request\n");
	BUG();
	return len;
}

static const struct file_operations pp_oops_fops = {
	.owner	= THIS_MODULE,
	.write	= pp_oops_write,
};

static int __init pp_oops_init(void)
{
	pp_oops_file = debugfs_create_file("pp_oops", 0200, NULL, NULL,
					   &pp_oops_fops);
	return 0;
}

static void __exit pp_oops_exit(void)
{
	debugfs_remove(pp_oops_file);
}

module_init(pp_oops_init);
module_exit(pp_oops_exit);

MODULE_DESCRIPTION("perf-persistent lab fixture: an oops on request");
MODULE_LICENSE("GPL");
