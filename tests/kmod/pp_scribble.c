// SPDX-License-Identifier: GPL-2.0
/*
 * pp_scribble - a lab fixture, built for the lab kernels only and never
 * installed: writing "ADDRESS LENGTH" to /sys/kernel/debug/pp_scribble
 * overwrites LENGTH bytes of physical memory at ADDRESS with 0xa5, as a
 * stray write or a failing DIMM would.  tests/scribble.sh damages the
 * reserved region with it before a reset, to see what the next boot keeps
 * of it.  No lab kernel has /dev/mem access to a claimed range
 * (CONFIG_IO_STRICT_DEVMEM), hence this module.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static struct dentry *pp_scribble_file;

static ssize_t pp_scribble_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	unsigned long long addr, size;
	char buf[64];
	void *p;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%llx %llu", &addr, &size) != 2 || !size ||
	    size > PAGE_SIZE)
		return -EINVAL;
	p = memremap(addr, size, MEMREMAP_WB);
	if (!p)
		return -ENOMEM;
	memset(p, 0xa5, size);
	memunmap(p);
	pr_info("scribbled over %llu bytes at %#llx\n", size, addr);
	return len;
}

static const struct file_operations pp_scribble_fops = {
	.owner	= THIS_MODULE,
	.write	= pp_scribble_write,
};

static int __init pp_scribble_init(void)
{
	pp_scribble_file = debugfs_create_file("pp_scribble", 0200, NULL, NULL,
					       &pp_scribble_fops);
	return 0;
}

static void __exit pp_scribble_exit(void)
{
	debugfs_remove(pp_scribble_file);
}

module_init(pp_scribble_init);
module_exit(pp_scribble_exit);

MODULE_DESCRIPTION("lab fixture: overwrite physical memory on request");
MODULE_LICENSE("GPL");
