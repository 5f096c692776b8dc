// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the control device /dev/perf_persistent
 *
 * A misc device, mode 0600, with one ioctl per verb (see the UAPI header).
 * Each open file may own persistent events: an event created without
 * PERF_PERSISTENT_CREATE_DETACHED, or attached, is destroyed when the file
 * is released.  Structs carry their size and are copied with
 * copy_struct_from_user(), so they can grow.  mmap() maps one CPU's buffer
 * of an event read-only.  A file that watches events (notify.c) is read
 * and polled for notices of incidents.
 *
 * All of it runs in process context; the operations (ops.c) do the
 * locking.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <uapi/linux/perf_persistent.h>

#include "compat.h"
#include "control.h"
#include "event.h"
#include "filter.h"
#include "maps.h"
#include "notify.h"
#include "ops.h"

/*
 * Copy a struct that starts with its u32 size.  A size below @ver0 is
 * -EINVAL.  A struct larger than the kernel knows needs a zero tail, or
 * the copy fails with -E2BIG.
 */
static int copy_sized(void *dst, size_t ksize, const void __user *src,
		      size_t ver0, u32 *usize)
{
	u32 size;

	if (get_user(size, (const u32 __user *)src))
		return -EFAULT;
	if (size < ver0 || size > PAGE_SIZE)
		return size < ver0 ? -EINVAL : -E2BIG;
	*usize = size;
	return copy_struct_from_user(dst, ksize, src, size);
}

/* As perf_event_open() reads its attr: size 0 means the first version. */
static int copy_attr(struct perf_event_attr *attr, u64 uptr)
{
	const void __user *uattr = u64_to_user_ptr(uptr);
	u32 size;
	int ret;

	if (get_user(size, (const u32 __user *)(uattr +
			offsetof(struct perf_event_attr, size))))
		return -EFAULT;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
	if (ret)
		return ret;
	attr->size = sizeof(*attr);
	return 0;
}

static long pp_ioc_create(struct file *file, void __user *argp)
{
	struct perf_persistent_create c;
	struct pp_event_spec spec = {};
	u32 usize, id;
	int ret;

	ret = copy_sized(&c, sizeof(c), argp, PERF_PERSISTENT_CREATE_SIZE_VER0,
			 &usize);
	if (ret)
		return ret;
	if (c.flags & ~(PERF_PERSISTENT_CREATE_DETACHED |
			PERF_PERSISTENT_CREATE_CRASH_DUMP |
			PERF_PERSISTENT_CREATE_PERF_PATH |
			PERF_PERSISTENT_CREATE_KEEP) || c.__reserved)
		return -EINVAL;
	if (strnlen(c.name, sizeof(c.name)) == sizeof(c.name))
		return -EINVAL;
	ret = copy_attr(&spec.attr, c.attr);
	if (ret)
		return ret;
	spec.name = c.name;
	spec.buffer_size = c.buffer_size;
	spec.owner_file = c.flags & PERF_PERSISTENT_CREATE_DETACHED ? NULL : file;
	spec.crash_dump = c.flags & PERF_PERSISTENT_CREATE_CRASH_DUMP;
	spec.perf_path = c.flags & PERF_PERSISTENT_CREATE_PERF_PATH;
	spec.keep = c.flags & PERF_PERSISTENT_CREATE_KEEP;
	spec.scope = c.scope;
	spec.target = c.target;
	spec.cgroup_path = c.cgroup_path;

	ret = pp_ops_create(&spec, &id);
	if (ret)
		return ret;
	if (put_user(id, (u32 __user *)(argp +
			offsetof(struct perf_persistent_create, id)))) {
		/* The caller cannot learn the id: undo rather than leak. */
		pp_ops_destroy(id, file);
		return -EFAULT;
	}
	return 0;
}

/*
 * The filter of a TRIGGER argument, checked, or NULL if it has none.  The
 * text is kept for display only.
 */
static struct pp_filter *copy_filter(const struct perf_persistent_trigger *t)
{
	struct pp_filter *f;
	long len;
	int ret;

	if (!t->nr_filter && !t->filter && !t->filter_text)
		return NULL;
	if (!t->nr_filter)
		return ERR_PTR(-EINVAL);
	if (t->nr_filter > PERF_PERSISTENT_FILTER_MAX)
		return ERR_PTR(-E2BIG);
	f = kzalloc(struct_size(f, ops, t->nr_filter), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->nr = t->nr_filter;
	ret = -EFAULT;
	if (copy_from_user(f->ops, u64_to_user_ptr(t->filter),
			   flex_array_size(f, ops, f->nr)))
		goto err;
	ret = pp_filter_check(f->ops, f->nr);
	if (ret)
		goto err;
	if (t->filter_text) {
		len = strncpy_from_user(f->text, u64_to_user_ptr(t->filter_text),
					sizeof(f->text));
		/* No room for the NUL: too long. */
		ret = len < 0 ? len : len == sizeof(f->text) ? -EINVAL :
		      pp_filter_text_check(f->text);
		if (ret)
			goto err;
	}
	return f;
err:
	kfree(f);
	return ERR_PTR(ret);
}

static long pp_ioc_trigger(void __user *argp)
{
	struct perf_persistent_trigger t;
	struct pp_filter *filter;
	u32 usize, *ids = NULL;
	int ret;

	ret = copy_sized(&t, sizeof(t), argp,
			 PERF_PERSISTENT_TRIGGER_SIZE_VER0, &usize);
	if (ret)
		return ret;
	if (t.flags & ~PERF_PERSISTENT_TRIGGER_FLAGS ||
	    hweight32(t.flags) > 1 || t.__reserved)
		return -EINVAL;
	/* The verbs on an existing trigger or event take nothing else. */
	if (t.flags && (t.nr_targets || t.targets || t.count || t.after ||
			t.filter || t.nr_filter || t.filter_text))
		return -EINVAL;
	if (t.flags & PERF_PERSISTENT_TRIGGER_REMOVE)
		return pp_ops_set_trigger(t.source, NULL, 0, 0, 0, NULL);
	if (t.flags)
		return pp_ops_thaw(t.source,
				   t.flags & PERF_PERSISTENT_TRIGGER_REARM);
	if (!t.nr_targets || t.nr_targets > PERF_PERSISTENT_TRIGGER_MAX)
		return -EINVAL;
	ids = memdup_array_user(u64_to_user_ptr(t.targets), t.nr_targets,
				sizeof(*ids));
	if (IS_ERR(ids))
		return PTR_ERR(ids);
	filter = copy_filter(&t);
	if (IS_ERR(filter)) {
		kfree(ids);
		return PTR_ERR(filter);
	}
	/* The trigger owns the filter from here on. */
	ret = pp_ops_set_trigger(t.source, ids, t.nr_targets, t.count,
				 t.after, filter);
	kfree(ids);
	return ret;
}

static long pp_ioc_info(struct file *file, void __user *argp)
{
	struct perf_persistent_cpu_stats *stats = NULL;
	struct perf_persistent_info in;
	struct pp_event_info *info;
	unsigned int nr;
	u32 usize;
	int ret;

	ret = copy_sized(&in, sizeof(in), argp, PERF_PERSISTENT_INFO_SIZE_VER0,
			 &usize);
	if (ret)
		return ret;
	if (in.__reserved)
		return -EINVAL;
	if (!in.id && strnlen(in.name, sizeof(in.name)) == sizeof(in.name))
		return -EINVAL;

	nr = in.cpu_stats ? min_t(u32, in.nr_cpus, num_possible_cpus()) : 0;
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (nr)
		stats = kcalloc(nr, sizeof(*stats), GFP_KERNEL);
	if (!info || (nr && !stats)) {
		ret = -ENOMEM;
		goto out;
	}

	ret = pp_ops_info(in.id, in.name, file, info, stats, nr);
	if (ret)
		goto out;

	ret = -EFAULT;
	if (in.attr && copy_to_user(u64_to_user_ptr(in.attr), &info->attr,
				    min_t(u32, in.attr_size, sizeof(info->attr))))
		goto out;
	if (nr && copy_to_user(u64_to_user_ptr(in.cpu_stats), stats,
			       min(nr, info->nr_cpus) * sizeof(*stats)))
		goto out;
	in.id = info->id;
	in.state = info->state;
	in.nr_cpus = info->nr_cpus;
	in.buffer_size = info->buffer_size;
	memset(in.name, 0, sizeof(in.name));
	strscpy(in.name, info->name, sizeof(in.name));
	/* The records' clock and the wall clock, read together. */
	in.clock_ns = local_clock();
	in.realtime_ns = ktime_get_real_ns();
	in.scope = info->scope;
	in.target = info->target;
	in.cgroup_id = info->cgroup_id;
	in.count = info->count;
	if (copy_to_user(argp, &in, min_t(u32, usize, sizeof(in))))
		goto out;
	ret = 0;
out:
	kfree(stats);
	kfree(info);
	return ret;
}

/* Bound one LIST call's kernel buffer; callers iterate with @start. */
#define PP_LIST_MAX	1024

static long pp_ioc_list(void __user *argp)
{
	struct perf_persistent_list l;
	u32 usize, *ids;
	int n, ret;

	ret = copy_sized(&l, sizeof(l), argp, PERF_PERSISTENT_LIST_SIZE_VER0,
			 &usize);
	if (ret)
		return ret;
	l.nr = min_t(u32, l.nr, PP_LIST_MAX);
	if (l.nr && !l.ids)
		return -EINVAL;
	ids = kcalloc(max_t(u32, l.nr, 1), sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return -ENOMEM;
	n = pp_ops_list(l.start, ids, l.nr, &l.total);
	ret = -EFAULT;
	if (n && copy_to_user(u64_to_user_ptr(l.ids), ids, n * sizeof(*ids)))
		goto out;
	l.nr = n;
	if (copy_to_user(argp, &l, min_t(u32, usize, sizeof(l))))
		goto out;
	ret = 0;
out:
	kfree(ids);
	return ret;
}

/*
 * MAPS: the profiles' mappings table (maps.c).  It tells where other
 * processes' code is, so it needs the right to monitor the system.
 */
static_assert(sizeof(struct perf_persistent_maps) ==
	      PERF_PERSISTENT_MAPS_SIZE_VER1);

static long pp_ioc_maps(void __user *argp)
{
	struct perf_persistent_maps m;
	u32 usize;
	int ret;

	if (!perfmon_capable())
		return -EPERM;
	ret = copy_sized(&m, sizeof(m), argp, PERF_PERSISTENT_MAPS_SIZE_VER0,
			 &usize);
	if (ret)
		return ret;
	if (m.flags & ~PERF_PERSISTENT_MAPS_PREVIOUS)
		return -EINVAL;
	ret = pp_maps_read(&m);
	if (ret && ret != -ENOSPC)
		return ret;
	if (copy_to_user(argp, &m, min_t(u32, usize, sizeof(m))))
		return -EFAULT;
	return ret;
}

/* The verbs that take an event id as the ioctl argument. */
static bool pp_id_cmd(unsigned int cmd)
{
	switch (cmd) {
	case PERF_PERSISTENT_IOC_DESTROY:
	case PERF_PERSISTENT_IOC_DETACH:
	case PERF_PERSISTENT_IOC_ATTACH:
	case PERF_PERSISTENT_IOC_PAUSE:
	case PERF_PERSISTENT_IOC_RESUME:
		return true;
	}
	return false;
}

/*
 * The commands that take a struct are matched on their type, number and
 * direction, not on their size bits: those are the size of the struct the
 * caller was built with, and the struct's own size field already says
 * which version it is (copy_struct_from_user()).  So a caller built with a
 * header whose struct grew keeps working with this module, and an older
 * caller with a newer module.
 */
static unsigned int pp_ioctl_cmd(unsigned int cmd)
{
	static const unsigned int struct_cmds[] = {
		PERF_PERSISTENT_IOC_CREATE,
		PERF_PERSISTENT_IOC_INFO,
		PERF_PERSISTENT_IOC_LIST,
		PERF_PERSISTENT_IOC_TRIGGER,
		PERF_PERSISTENT_IOC_MAPS,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(struct_cmds); i++)
		if ((cmd & ~IOCSIZE_MASK) == (struct_cmds[i] & ~IOCSIZE_MASK))
			return struct_cmds[i];
	return cmd;
}

/*
 * WATCH and WATCH_OVERFLOW.  Notices of freezes and triggers need no
 * capability.  Overflow notices tell when an event records, as its counts
 * do, so they need the right to monitor the system.
 */
static int pp_ioc_watch(struct file *file, u32 id, bool overflows)
{
	if (overflows && !perfmon_capable())
		return -EPERM;
	return pp_notify_watch(file, id, overflows);
}

static long pp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	u32 id = arg;
	bool id_cmd;

	cmd = pp_ioctl_cmd(cmd);
	id_cmd = pp_id_cmd(cmd);

	/* The verbs that change events need the right to monitor the system. */
	if ((id_cmd || cmd == PERF_PERSISTENT_IOC_CREATE ||
	     cmd == PERF_PERSISTENT_IOC_TRIGGER) && !perfmon_capable())
		return -EPERM;
	/* Ids are u32; anything above is not one. */
	if (id_cmd && arg > U32_MAX)
		return -ENOENT;

	switch (cmd) {
	case PERF_PERSISTENT_IOC_CREATE:
		return pp_ioc_create(file, argp);
	case PERF_PERSISTENT_IOC_TRIGGER:
		return pp_ioc_trigger(argp);
	case PERF_PERSISTENT_IOC_WATCH:
		if ((u64)arg & ~(PERF_PERSISTENT_WATCH_OVERFLOW | U32_MAX))
			return -EINVAL;
		return pp_ioc_watch(file, id,
				    arg & PERF_PERSISTENT_WATCH_OVERFLOW);
	case PERF_PERSISTENT_IOC_WATCH_OVERFLOW:
		if ((u64)arg > U32_MAX)
			return -EINVAL;
		return pp_ioc_watch(file, id, true);
	case PERF_PERSISTENT_IOC_DESTROY:
		return pp_ops_destroy(id, file);
	case PERF_PERSISTENT_IOC_DETACH:
		return pp_ops_detach(id, file);
	case PERF_PERSISTENT_IOC_ATTACH:
		return pp_ops_attach(id, file);
	case PERF_PERSISTENT_IOC_PAUSE:
		return pp_ops_pause(id, true);
	case PERF_PERSISTENT_IOC_RESUME:
		return pp_ops_pause(id, false);
	case PERF_PERSISTENT_IOC_INFO:
		return pp_ioc_info(file, argp);
	case PERF_PERSISTENT_IOC_LIST:
		return pp_ioc_list(argp);
	case PERF_PERSISTENT_IOC_MAPS:
		return pp_ioc_maps(argp);
	}
	return -ENOTTY;
}

/*
 * A mapping of a buffer holds a reference on its event, so a mapped event
 * that is destroyed frees the buffer at the last unmap.  ->open() runs
 * when a mapping is split or copied by fork.
 */
static void pp_vm_open(struct vm_area_struct *vma)
{
	struct pp_event *ev = vma->vm_private_data;

	pp_entry_get(&ev->entry);
}

static void pp_vm_close(struct vm_area_struct *vma)
{
	pp_event_put(vma->vm_private_data);
}

static const struct vm_operations_struct pp_vm_ops = {
	.open	= pp_vm_open,
	.close	= pp_vm_close,
};

/**
 * pp_mmap - map one CPU's buffer of a persistent event, read-only
 * @file: the control file
 * @vma: offset PERF_PERSISTENT_MMAP_OFFSET(id, cpu, PAGE_SIZE), length one
 *	page plus the buffer size
 *
 * Zero copy: the mapping shows the control page and the very data pages
 * that the writers write.  Any number of processes may map the same
 * buffer.  Process context.
 *
 * Reading needs no capability: whoever could open the device may read the
 * records (read access suffices for a shared read-only mapping).  The
 * device's mode is the policy: root alone by default, or an operator group
 * through a udev rule, as tracefs' mode and gid= decide who reads trace
 * buffers.  Every verb that changes something needs CAP_PERFMON
 * (pp_ioctl()).
 *
 * Return: 0; -EACCES for a writable mapping; -EINVAL for a wrong length
 * or CPU; -ENOENT for an unknown (or destroyed) event; -ENODEV if the
 * event has no buffer on that CPU (it was never online).
 */
static int pp_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned long id = vma->vm_pgoff >> 16, cpu = vma->vm_pgoff & 0xffff;
	struct pp_buffer *buf;
	struct pp_event *ev;
	int ret;

	if (pp_vma_writable(vma))
		return -EACCES;
	if (id > U32_MAX || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return id > U32_MAX ? -ENOENT : -EINVAL;

	ev = pp_event_get(id);
	if (!ev)
		return -ENOENT;
	buf = pp_cpu_buf(per_cpu_ptr(ev->cpus, cpu));
	ret = -ENODEV;
	if (!buf)
		goto err_put;
	ret = -EINVAL;
	if (vma->vm_end - vma->vm_start != PAGE_SIZE + buf->size)
		goto err_put;

	/* Read-only for good: a later mprotect(PROT_WRITE) must fail. */
	pp_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, VM_MAYWRITE);
	ret = pp_buffer_mmap(buf, vma);
	if (ret)
		goto err_put;
	vma->vm_private_data = ev;
	vma->vm_ops = &pp_vm_ops;
	return 0;

err_put:
	pp_event_put(ev);
	return ret;
}

/*
 * misc_open() left the miscdevice in private_data.  From here on that
 * field holds the file's watcher (notify.c), and there is none yet.
 */
static int pp_open(struct inode *inode, struct file *file)
{
	file->private_data = NULL;
	return nonseekable_open(inode, file);
}

/* Closing the file destroys the events it owns; open took nothing else. */
static int pp_release(struct inode *inode, struct file *file)
{
	pp_ops_release_file(file);
	pp_notify_release(file);
	return 0;
}

static ssize_t pp_read(struct file *file, char __user *buf, size_t len,
		       loff_t *pos)
{
	return pp_notify_read(file, buf, len);
}

static const struct file_operations pp_fops = {
	.owner		= THIS_MODULE,
	.open		= pp_open,
	.release	= pp_release,
	.read		= pp_read,
	.poll		= pp_notify_poll,
	.fasync		= pp_notify_fasync,
	.unlocked_ioctl	= pp_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= pp_mmap,
};

static struct miscdevice pp_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "perf_persistent",
	.fops	= &pp_fops,
	.mode	= 0600,
};

int pp_control_init(void)
{
	return misc_register(&pp_miscdev);
}

void pp_control_exit(void)
{
	misc_deregister(&pp_miscdev);
}
