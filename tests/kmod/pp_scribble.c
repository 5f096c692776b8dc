// SPDX-License-Identifier: GPL-2.0
/*
 * pp_scribble - a lab fixture, built for the lab kernels only and never
 * installed: physical memory, read and written on request.
 *
 *   /sys/kernel/debug/pp_scribble         writing "ADDRESS LENGTH" overwrites
 *                                         LENGTH bytes (at most a page) at
 *                                         ADDRESS with 0xa5, as a stray write
 *                                         or a failing DIMM would
 *   /sys/kernel/debug/pp_scribble_window  "ADDRESS LENGTH": the range that
 *                                         pp_scribble_mem shows; reads back
 *                                         as the same
 *   /sys/kernel/debug/pp_scribble_mem     the window's bytes, file offset 0
 *                                         at ADDRESS: read, write, pread,
 *                                         pwrite, lseek
 *
 * tests/scribble.sh damages the reserved region with the first before a
 * reset, to see what the next boot keeps of it.  tests/region-damage.sh
 * saves a previous boot's region through the window before the module
 * reads it, then writes it back and damages it again and again.  No lab
 * kernel has /dev/mem access to a claimed range (CONFIG_IO_STRICT_DEVMEM),
 * hence this module.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/* The largest window: more than any region the lab reserves. */
#define PP_SCRIBBLE_WINDOW_MAX	SZ_64M

static struct dentry *pp_scribble_file;
static struct dentry *pp_scribble_window_file;
static struct dentry *pp_scribble_mem_file;

/* The window pp_scribble_mem shows, mapped while it is set. */
static DEFINE_MUTEX(pp_scribble_lock);
static phys_addr_t pp_scribble_start;
static size_t pp_scribble_len;
static void *pp_scribble_map;

/* "ADDRESS LENGTH" from userspace into @addr and @size; process context. */
static int pp_scribble_parse(const char __user *ubuf, size_t len,
			     unsigned long long *addr, unsigned long long *size)
{
	char buf[64];

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%llx %llu", addr, size) != 2 || !*size)
		return -EINVAL;
	return 0;
}

static ssize_t pp_scribble_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	unsigned long long addr, size;
	void *p;
	int ret;

	ret = pp_scribble_parse(ubuf, len, &addr, &size);
	if (ret)
		return ret;
	if (size > PAGE_SIZE)
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

/*
 * Set the window: the old mapping goes, the new one is made at once so
 * that a range memremap() refuses is refused here.  Process context.
 */
static ssize_t pp_scribble_window_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	unsigned long long addr, size;
	void *p;
	int ret;

	ret = pp_scribble_parse(ubuf, len, &addr, &size);
	if (ret)
		return ret;
	if (size > PP_SCRIBBLE_WINDOW_MAX)
		return -EINVAL;
	p = memremap(addr, size, MEMREMAP_WB);
	if (!p)
		return -ENOMEM;
	mutex_lock(&pp_scribble_lock);
	if (pp_scribble_map)
		memunmap(pp_scribble_map);
	pp_scribble_map = p;
	pp_scribble_start = addr;
	pp_scribble_len = size;
	mutex_unlock(&pp_scribble_lock);
	pr_info("window: %llu bytes at %#llx\n", size, addr);
	return len;
}

static ssize_t pp_scribble_window_read(struct file *file, char __user *ubuf,
				       size_t len, loff_t *ppos)
{
	char buf[64];
	int n;

	mutex_lock(&pp_scribble_lock);
	n = scnprintf(buf, sizeof(buf), "%llx %zu\n",
		      (unsigned long long)pp_scribble_start, pp_scribble_len);
	mutex_unlock(&pp_scribble_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations pp_scribble_window_fops = {
	.owner	= THIS_MODULE,
	.read	= pp_scribble_window_read,
	.write	= pp_scribble_window_write,
	.llseek	= default_llseek,
};

static ssize_t pp_scribble_mem_read(struct file *file, char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&pp_scribble_lock);
	ret = -ENXIO;
	if (pp_scribble_map)
		ret = simple_read_from_buffer(ubuf, len, ppos, pp_scribble_map,
					      pp_scribble_len);
	mutex_unlock(&pp_scribble_lock);
	return ret;
}

/* A write past the window's end is cut short there, then refused. */
static ssize_t pp_scribble_mem_write(struct file *file,
				     const char __user *ubuf, size_t len,
				     loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&pp_scribble_lock);
	ret = -ENXIO;
	if (pp_scribble_map)
		ret = simple_write_to_buffer(pp_scribble_map, pp_scribble_len,
					     ppos, ubuf, len);
	if (ret == 0 && len)
		ret = -ENOSPC;
	mutex_unlock(&pp_scribble_lock);
	return ret;
}

static loff_t pp_scribble_mem_llseek(struct file *file, loff_t offset,
				     int whence)
{
	loff_t ret;

	mutex_lock(&pp_scribble_lock);
	ret = fixed_size_llseek(file, offset, whence, pp_scribble_len);
	mutex_unlock(&pp_scribble_lock);
	return ret;
}

static const struct file_operations pp_scribble_mem_fops = {
	.owner	= THIS_MODULE,
	.read	= pp_scribble_mem_read,
	.write	= pp_scribble_mem_write,
	.llseek	= pp_scribble_mem_llseek,
};

static int __init pp_scribble_init(void)
{
	pp_scribble_file = debugfs_create_file("pp_scribble", 0200, NULL, NULL,
					       &pp_scribble_fops);
	pp_scribble_window_file = debugfs_create_file("pp_scribble_window",
						      0600, NULL, NULL,
						      &pp_scribble_window_fops);
	pp_scribble_mem_file = debugfs_create_file("pp_scribble_mem", 0600,
						   NULL, NULL,
						   &pp_scribble_mem_fops);
	return 0;
}

static void __exit pp_scribble_exit(void)
{
	debugfs_remove(pp_scribble_mem_file);
	debugfs_remove(pp_scribble_window_file);
	debugfs_remove(pp_scribble_file);
	if (pp_scribble_map)
		memunmap(pp_scribble_map);
}

module_init(pp_scribble_init);
module_exit(pp_scribble_exit);

MODULE_DESCRIPTION("lab fixture: read and overwrite physical memory on request");
MODULE_LICENSE("GPL");
