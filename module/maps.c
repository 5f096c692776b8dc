// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the mappings that name the samples of the profiles
 *
 * perf names a sample's user addresses through the MMAP2 records the
 * kernel sends to each perf ring (perf_event_mmap()), and names its task
 * through COMM records.  A kernel counter has no ring, so it gets none,
 * and what the export could read from /proc when it is written is gone
 * for a process that has exited, or a library that was unmapped, before
 * then.  So the module keeps, beside the rings, a table of the
 * executable mappings of the processes the profiles sampled.
 *
 * How it learns of mappings: from the samples.  No tracepoint of the
 * kernels the module runs on gives a mapping's file, and the module may
 * not hook mmap().  A sample of a profile (pp_record_fmt::want_maps),
 * taken in user mode, looks its process up in the table (RCU, any context
 * including NMI) and checks that each of its user IPs falls in a mapping
 * the table holds.  If one does not, or the process is not there, it
 * queues a task_work on the task (task_work_add() is lock-free, perf's
 * own sigtrap uses it from NMI), which runs as the interrupt returns to
 * user mode, in the task's own context, before the task runs on: it reads
 * the process's executable mappings under the mmap lock, the files'
 * paths and build-ids, and installs them.  A library is so read before
 * the process can unmap it, a process before it can exit.  A process is
 * read at most once in PP_MAPS_REFRESH when the sample's own IP is not
 * covered (code it mapped since: a read names it), and at most once in
 * PP_MAPS_REFRESH_CALLER when only a caller is not: a frame chain broken
 * by code built without frame pointers gives addresses no mapping holds,
 * sample after sample, which no read can name.
 *
 * What it costs: nothing while no profile exists, and for processes no
 * profile samples; for a sampled process, one read of its mappings when
 * it is first sampled and when a sample meets code it mapped since.  An
 * mmap-heavy or exec-heavy workload costs a read per new process sampled
 * and per new code mapping sampled, not per mmap() or exec.
 *
 * Whose context: the task_work runs as the sampled task, with its
 * credentials, on its own mm; it reads only the files the task has
 * mapped, through the task's own open files (kernel_read() of
 * vma->vm_file), and nothing it does is a sample that asks for another
 * read (a read happens only for a user-mode sample).  Its memory is the
 * module's, bounded by maps_kb.
 *
 * Lifetimes: the table exists while a profile does (pp_maps_get() and
 * pp_maps_put() from the events).  Processes are kept after they exit,
 * until the budget needs room: those sampled longest ago go first.  A
 * process's set of mappings is replaced whole (RCU) and the old set freed
 * after a grace period; the files (struct pp_dso) are counted by the sets
 * that name them and freed with the last, under the lock.
 *
 * The previous boot: while a profile is kept across a reboot
 * (--keep-across-reboot), the table has an area in the reserved region
 * (struct pp_region_maps), where a work copies its records
 * PP_MAPS_COPY_DELAY after each change, into the older of two copies, so
 * that a reset in the middle of one leaves the other whole.  The next
 * boot's previous.c takes the newest whole copy, and MAPS with
 * PERF_PERSISTENT_MAPS_PREVIOUS reads it.
 *
 * Lock order: pp_maps.lock (a mutex: process context) is innermost but
 * for the region's lock, taken under it for the area; the
 * mmap lock is never held with it.  The sample path takes no lock.  The
 * request slots are claimed with cmpxchg and released by the task_work;
 * the module's exit waits for every slot, then for every task to leave
 * the task_work's code (synchronize_rcu_tasks() where the kernel has it,
 * else a grace period, which covers a kernel that does not preempt).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/elf.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <uapi/linux/perf_persistent.h>

#include "perf_persistent/elfnote.h"
#include "compat.h"
#include "maps.h"
#include "previous.h"
#include "region.h"

static unsigned int maps_kb = 4096;
module_param(maps_kb, uint, 0444);
MODULE_PARM_DESC(maps_kb,
		 "Memory for the mappings of the processes the profiles sampled, in KiB (default 4096)");

#define PP_MAPS_HASH_BITS	8
/* Processes with a read queued at once; more are counted as missed. */
#define PP_MAPS_REQS		32
/* Executable mappings kept of one process. */
#define PP_MAPS_MAX_VMAS	1024
/* A process's mappings are read at most once in this long... */
#define PP_MAPS_REFRESH		(HZ / 20)
/* ... or this, when only the callers of the sample's IP are not covered. */
#define PP_MAPS_REFRESH_CALLER	HZ
/* Mappings kept of one process after it unmapped them. */
#define PP_MAPS_MAX_GONE	64
/* Program headers and note bytes looked at for a build-id. */
#define PP_MAPS_MAX_PHDRS	64
#define PP_MAPS_MAX_NOTES	4096
/* A change reaches the region's copy this long after (the copy work). */
#define PP_MAPS_COPY_DELAY	(HZ / 10)
/* The largest copy the region keeps. */
#define PP_MAPS_COPY_MAX	SZ_1M

/* A file (or "[vdso]", "//anon") that mappings name. */
struct pp_dso {
	struct list_head	node;
	dev_t			dev;
	unsigned long		ino;
	unsigned int		users;
	u8			build_id[PP_BUILD_ID_MAX];
	u8			build_id_len;
	u16			path_size;
	char			path[];
};

struct pp_map {
	struct pp_range	r;
	u64		pgoff;
	u64		time;
	struct pp_dso	*dso;
	u32		prot;
	u32		flags;
};

/*
 * A process's executable mappings, replaced whole: @nr mapped at the last
 * read, by address, then @gone that earlier reads saw and the last did not
 * (a library closed since), kept for the samples made while they were
 * mapped.  @cap is the room allocated, which the budget counts.
 */
struct pp_map_set {
	struct rcu_head	rcu;
	unsigned int	nr;
	unsigned int	gone;
	unsigned int	cap;
	struct pp_map	map[];
};

/*
 * A process: its thread group from one exec on, told apart from a later
 * one with the same pid by its leader's start time and its exec count.
 */
struct pp_proc {
	struct hlist_node	node;
	struct list_head	all;
	struct rcu_head		rcu;
	u32			tgid;
	u64			start_time;
	u64			exec_id;
	u64			time;
	u64			miss;
	unsigned long		used;
	unsigned long		refreshed;
	size_t			bytes;
	char			comm[TASK_COMM_LEN];
	struct pp_map_set __rcu	*set;
};

/* A read of a process's mappings, queued on one of its tasks. */
struct pp_maps_req {
	struct callback_head	work;
	atomic_t		busy;
	u32			tgid;
	u64			time;
};

static struct {
	struct mutex		lock;	/* the table and its files; see above */
	DECLARE_HASHTABLE(procs, PP_MAPS_HASH_BITS);
	struct list_head	all;
	struct list_head	dsos;
	size_t			bytes;
	u64			processes;
	unsigned int		users;
	atomic_t		on;
	atomic_long_t		dropped;
	atomic_long_t		missed;
	atomic_long_t		reads;
	struct pp_maps_req	reqs[PP_MAPS_REQS];
	unsigned int		keepers;
	unsigned long		changes;
	unsigned long		saved;
	struct pp_region_maps	*area;
	struct pp_region_keep	keep;
	struct delayed_work	copy_work;
} pp_maps;

static u32 pp_proc_key(u32 tgid, u64 start_time, u64 exec_id)
{
	return tgid ^ (u32)start_time ^ (u32)(start_time >> 32) ^
	       (u32)exec_id;
}

/* The process of @tgid, @start_time, @exec_id; RCU or the lock held. */
static struct pp_proc *pp_proc_find(u32 tgid, u64 start_time, u64 exec_id)
{
	struct pp_proc *p;

	hash_for_each_possible_rcu(pp_maps.procs, p, node,
				   pp_proc_key(tgid, start_time, exec_id),
				   lockdep_is_held(&pp_maps.lock))
		if (p->tgid == tgid && p->start_time == start_time &&
		    p->exec_id == exec_id)
			return p;
	return NULL;
}

/**
 * pp_maps_find - the range that holds @ip
 * @ranges: @nr structs, @stride bytes apart, each starting with its
 *	struct pp_range; ascending and disjoint
 * @stride: their size
 * @nr: how many
 * @ip: the address
 *
 * Pure; any context.  A binary search.
 *
 * Return: the range, or NULL if none holds @ip.
 */
const struct pp_range *pp_maps_find(const void *ranges, size_t stride,
				    unsigned int nr, unsigned long ip)
{
	unsigned int lo = 0, hi = nr, mid;
	const struct pp_range *r;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = ranges + mid * stride;
		if (ip < r->start)
			hi = mid;
		else if (ip >= r->end)
			lo = mid + 1;
		else
			return r;
	}
	return NULL;
}

bool pp_maps_covers(const void *ranges, size_t stride, unsigned int nr,
		    unsigned long ip)
{
	return pp_maps_find(ranges, stride, nr, ip);
}

/*
 * Does @set hold @ip?  *@last is the range that held the sample's
 * previous address, tried first: a chain's frames are mostly in one
 * binary.  It is updated to the range that holds @ip.
 */
static bool pp_set_covers(const struct pp_map_set *set, unsigned long ip,
			  const struct pp_range **last)
{
	const struct pp_range *r = *last;

	if (r && ip >= r->start && ip < r->end)
		return true;
	r = pp_maps_find(set->map, sizeof(set->map[0]), set->nr, ip);
	if (r)
		*last = r;
	return r;
}

static void pp_maps_work(struct callback_head *head);
static void pp_dso_gc(void);

/*
 * Queue a read of the current process's mappings, unless one is queued.
 * Any context including NMI: cmpxchg and task_work_add() only.
 */
static void pp_maps_request(u32 tgid)
{
	struct pp_maps_req *r;
	unsigned int i;

	for (i = 0; i < PP_MAPS_REQS; i++) {
		r = &pp_maps.reqs[i];
		if (atomic_read(&r->busy) && READ_ONCE(r->tgid) == tgid)
			return;
	}
	for (i = 0; i < PP_MAPS_REQS; i++) {
		r = &pp_maps.reqs[i];
		if (atomic_cmpxchg(&r->busy, 0, 1))
			continue;
		WRITE_ONCE(r->tgid, tgid);
		r->time = local_clock();
		init_task_work(&r->work, pp_maps_work);
		if (task_work_add(current, &r->work, TWA_RESUME))
			atomic_set_release(&r->busy, 0);
		return;
	}
	atomic_long_inc(&pp_maps.missed);
}

/**
 * pp_maps_sample - a profile's sample: are its user IPs named?
 * @ips: the sample's call chain, perf's layout, or NULL
 * @nr: its entries
 * @regs: the registers the handler got
 *
 * Only a sample taken in user mode asks for a read: its task_work then
 * runs as the interrupt returns.  Any context including NMI; no lock, no
 * allocation; at most @nr binary searches.
 */
void pp_maps_sample(const u64 *ips, unsigned int nr, struct pt_regs *regs)
{
	struct task_struct *task = current;
	const struct pp_range *last = NULL;
	const struct pp_map_set *set;
	bool user = false, known, ip_known;
	u64 start_time, exec_id;
	struct pp_proc *p;
	unsigned int i;
	u32 tgid;

	if (!atomic_read(&pp_maps.on) || !regs || !user_mode(regs) ||
	    (task->flags & (PF_KTHREAD | PF_EXITING)) || !task->mm)
		return;
	tgid = task_tgid_nr(task);
	exec_id = READ_ONCE(task->self_exec_id);

	/* The leader may change under an exec; RCU keeps the old one. */
	rcu_read_lock();
	start_time = READ_ONCE(task->group_leader)->start_time;
	p = pp_proc_find(tgid, start_time, exec_id);
	if (p) {
		WRITE_ONCE(p->used, jiffies);
		set = rcu_dereference(p->set);
		ip_known = set && pp_set_covers(set, instruction_pointer(regs),
						&last);
		known = ip_known;
		for (i = 0; known && i < nr; i++) {
			if (ips[i] >= PERF_CONTEXT_MAX) {
				user = ips[i] == PERF_CONTEXT_USER;
				continue;
			}
			if (user)
				known = pp_set_covers(set, ips[i], &last);
		}
		if (known)
			goto out;
		/* The first sample it could not name, for the new maps' time. */
		cmpxchg64(&p->miss, 0, local_clock());
		if (time_before(jiffies, READ_ONCE(p->refreshed) +
				(ip_known ? PP_MAPS_REFRESH_CALLER :
					    PP_MAPS_REFRESH)))
			goto out;
	}
	pp_maps_request(tgid);
out:
	rcu_read_unlock();
}

/* What a snapshot takes of one mapping, under the mmap lock. */
struct pp_vma_copy {
	unsigned long	start;
	unsigned long	end;
	u64		pgoff;
	u32		prot;
	u32		flags;
	bool		exec;
	struct file	*file;
	const char	*name;
};

/* The build-id of an ELF file, from its PT_NOTE segments; 0 if none. */
static int pp_file_build_id(struct file *file, u8 *id)
{
	struct elf64_hdr eh;
	struct elf64_phdr *ph = NULL;
	unsigned char *notes = NULL;
	loff_t pos = 0;
	int i, len = 0;

	if (kernel_read(file, &eh, sizeof(eh), &pos) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(*ph) || !eh.e_phnum ||
	    eh.e_phnum > PP_MAPS_MAX_PHDRS)
		return 0;
	ph = kmalloc_array(eh.e_phnum, sizeof(*ph), GFP_KERNEL);
	notes = kmalloc(PP_MAPS_MAX_NOTES, GFP_KERNEL);
	if (!ph || !notes)
		goto out;
	pos = eh.e_phoff;
	if (kernel_read(file, ph, eh.e_phnum * sizeof(*ph), &pos) !=
	    eh.e_phnum * sizeof(*ph))
		goto out;
	for (i = 0; i < eh.e_phnum && !len; i++) {
		if (ph[i].p_type != PT_NOTE || !ph[i].p_filesz ||
		    ph[i].p_filesz > PP_MAPS_MAX_NOTES)
			continue;
		pos = ph[i].p_offset;
		if (kernel_read(file, notes, ph[i].p_filesz, &pos) !=
		    ph[i].p_filesz)
			continue;
		len = pp_elfnote_build_id(notes, ph[i].p_filesz, id);
	}
out:
	kfree(notes);
	kfree(ph);
	return len;
}

/* The dso of @file or @name, if the table has it; the lock held. */
static struct pp_dso *pp_dso_find(struct file *file, const char *name)
{
	struct pp_dso *d;

	list_for_each_entry(d, &pp_maps.dsos, node) {
		if (file && d->dev == file_inode(file)->i_sb->s_dev &&
		    d->ino == file_inode(file)->i_ino && d->ino)
			return d;
		if (!file && !d->ino && !strcmp(d->path, name))
			return d;
	}
	return NULL;
}

/* A new dso of @file (its path and build-id) or @name; process context. */
static struct pp_dso *pp_dso_make(struct file *file, const char *name,
				  char *buf)
{
	const char *path = name;
	struct pp_dso *d;
	size_t size;

	if (file) {
		path = d_path(&file->f_path, buf, PATH_MAX);
		if (IS_ERR(path))
			path = "//unknown";
	}
	size = strlen(path) + 1;
	d = kzalloc(struct_size(d, path, size), GFP_KERNEL);
	if (!d)
		return NULL;
	memcpy(d->path, path, size);
	d->path_size = size;
	if (file) {
		d->dev = file_inode(file)->i_sb->s_dev;
		d->ino = file_inode(file)->i_ino;
		d->build_id_len = pp_file_build_id(file, d->build_id);
	}
	return d;
}

/* Drop a set's references to its dsos, freeing the unused; the lock held. */
static void pp_set_release(struct pp_map_set *set)
{
	unsigned int i;

	if (!set)
		return;
	for (i = 0; i < set->nr + set->gone; i++) {
		struct pp_dso *d = set->map[i].dso;

		if (--d->users)
			continue;
		pp_maps.bytes -= struct_size(d, path, d->path_size);
		list_del(&d->node);
		kfree(d);
	}
}

/* The table changed: the region's copy follows.  The lock held. */
static void pp_maps_changed(void)
{
	if (!pp_maps.area)
		return;
	pp_maps.changes++;
	mod_delayed_work(pp_system_dfl_wq, &pp_maps.copy_work, PP_MAPS_COPY_DELAY);
}

/* Remove @p from the table; freed after a grace period.  The lock held. */
static void pp_proc_remove(struct pp_proc *p)
{
	struct pp_map_set *set = rcu_dereference_protected(p->set, 1);

	hash_del_rcu(&p->node);
	list_del(&p->all);
	pp_set_release(set);
	pp_maps.bytes -= p->bytes;
	pp_maps.processes--;
	if (set)
		kfree_rcu(set, rcu);
	kfree_rcu(p, rcu);
	pp_maps_changed();
}

/*
 * Make room for @need more bytes within the budget: remove the processes
 * sampled longest ago, except @keep.  The lock held.  Return: whether
 * there is room.
 */
static bool pp_maps_room(size_t need, const struct pp_proc *keep)
{
	size_t budget = (size_t)maps_kb << 10;
	struct pp_proc *p, *oldest;

	while (pp_maps.bytes + need > budget) {
		oldest = NULL;
		list_for_each_entry(p, &pp_maps.all, all)
			if (p != keep && (!oldest ||
					  time_before(READ_ONCE(p->used),
						      READ_ONCE(oldest->used))))
				oldest = p;
		if (!oldest)
			return false;
		pp_proc_remove(oldest);
		atomic_long_inc(&pp_maps.dropped);
	}
	return true;
}

/* Are @a and @b the same mapping of the same file? */
static bool pp_map_same(const struct pp_map *a, const struct pp_map *b)
{
	return a->r.start == b->r.start && a->r.end == b->r.end &&
	       a->dso == b->dso && a->pgoff == b->pgoff;
}

/* The bytes of a set of @nr mappings. */
static size_t pp_set_size(unsigned int nr)
{
	struct pp_map_set *set;

	return struct_size(set, map, nr);
}

/*
 * Install the @n mappings @v of the current process, read at a request
 * of @time, with their dsos @dsos.  A mapping the last read saw too keeps
 * its first time; one it saw and this one does not is kept as gone (at
 * most PP_MAPS_MAX_GONE, the last gone).  The lock held.
 */
static void pp_maps_install(const struct pp_vma_copy *v, struct pp_dso **dsos,
			    unsigned int n, u64 time)
{
	struct task_struct *task = current;
	u32 tgid = task_tgid_nr(task);
	u64 start_time = task->group_leader->start_time;
	u64 exec_id = task->self_exec_id;
	struct pp_map_set *set, *old = NULL;
	unsigned int i, j, gone = 0, keep, first;
	struct pp_map *m;
	struct pp_proc *p;
	size_t size;

	p = pp_proc_find(tgid, start_time, exec_id);
	if (p) {
		old = rcu_dereference_protected(p->set, 1);
		/* New mappings were mapped by the first sample that missed. */
		time = min_not_zero(time, xchg(&p->miss, 0));
	}
	keep = n + (old ? old->gone + old->nr : 0);
	set = kmalloc(pp_set_size(keep), GFP_KERNEL);
	if (!set)
		return;
	set->cap = keep;
	for (i = 0; i < n; i++) {
		m = &set->map[i];
		m->r.start = v[i].start;
		m->r.end = v[i].end;
		m->pgoff = v[i].pgoff;
		m->prot = v[i].prot;
		m->flags = v[i].flags;
		m->dso = dsos[i];
		m->time = time;
	}
	/* The last read's: gone before it, then gone since it. */
	for (i = 0; old && i < old->gone; i++)
		set->map[n + gone++] = old->map[old->nr + i];
	for (i = 0, j = 0; old && i < old->nr; i++) {
		while (j < n && set->map[j].r.start < old->map[i].r.start)
			j++;
		if (j < n && pp_map_same(&set->map[j], &old->map[i]))
			set->map[j].time = old->map[i].time;
		else
			set->map[n + gone++] = old->map[i];
	}
	keep = min_t(unsigned int, gone, PP_MAPS_MAX_GONE);
	first = gone - keep;
	memmove(&set->map[n], &set->map[n + first], keep * sizeof(*m));
	set->nr = n;
	set->gone = keep;

	size = pp_set_size(set->cap) + (p ? 0 : sizeof(*p));
	if (old)
		size -= min(size, pp_set_size(old->cap));
	/* The new set's files are held first: room is made by freeing. */
	for (i = 0; i < n + keep; i++)
		set->map[i].dso->users++;
	if (!pp_maps_room(size, p)) {
		atomic_long_inc(&pp_maps.dropped);
		goto unhold;
	}
	if (!p) {
		p = kzalloc(sizeof(*p), GFP_KERNEL);
		if (!p)
			goto unhold;
		p->tgid = tgid;
		p->start_time = start_time;
		p->exec_id = exec_id;
		p->time = time;
		p->bytes = sizeof(*p);
		pp_maps.bytes += sizeof(*p);
		pp_maps.processes++;
		hash_add_rcu(pp_maps.procs, &p->node,
			     pp_proc_key(tgid, start_time, exec_id));
		list_add_tail(&p->all, &pp_maps.all);
	}
	get_task_comm(p->comm, task->group_leader);
	if (old) {
		p->bytes -= pp_set_size(old->cap);
		pp_maps.bytes -= pp_set_size(old->cap);
	}
	p->bytes += pp_set_size(set->cap);
	pp_maps.bytes += pp_set_size(set->cap);
	rcu_assign_pointer(p->set, set);
	WRITE_ONCE(p->refreshed, jiffies);
	WRITE_ONCE(p->used, jiffies);
	if (old) {
		pp_set_release(old);
		kfree_rcu(old, rcu);
	}
	pp_maps_changed();
	return;
unhold:
	/* Files no set names now are freed by pp_dso_gc(). */
	for (i = 0; i < n + keep; i++)
		set->map[i].dso->users--;
	kfree(set);
}

/*
 * Keep of the @n mappings @v the executable ones and the other mappings of
 * their files (an ELF's read-only segments hold the .eh_frame that perf's
 * DWARF unwinding reads through the process's maps); put the rest's files.
 * Return: how many are kept, first in @v.
 */
static unsigned int pp_vma_keep(struct pp_vma_copy *v, unsigned int n)
{
	unsigned int i, j, k = 0;
	bool keep;

	for (i = 0; i < n; i++) {
		keep = v[i].exec;
		for (j = 0; !keep && v[i].file && j < n; j++)
			keep = v[j].exec && v[j].file &&
			       file_inode(v[j].file) == file_inode(v[i].file);
		if (keep)
			v[k++] = v[i];
		else
			fput(v[i].file);
	}
	return k;
}

/*
 * Read the current process's executable mappings and install them, for a
 * request made at @time.  Process context, in the task; takes the mmap
 * lock, then (not nested) the table's lock.
 */
static void pp_maps_snapshot(u64 time)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct pp_vma_copy *v;
	struct pp_dso **dsos;
	unsigned int n = 0, i;
	char *buf;

	v = kvmalloc_array(PP_MAPS_MAX_VMAS, sizeof(*v), GFP_KERNEL);
	dsos = kvmalloc_array(PP_MAPS_MAX_VMAS, sizeof(*dsos), GFP_KERNEL);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!v || !dsos || !buf)
		goto out;
	if (mmap_read_lock_killable(mm))
		goto out;
	atomic_long_inc(&pp_maps.reads);
	for (vma = find_vma(mm, 0); vma && n < PP_MAPS_MAX_VMAS;
	     vma = find_vma(mm, vma->vm_end)) {
		if (!(vma->vm_flags & VM_EXEC) && !vma->vm_file)
			continue;
		v[n].exec = vma->vm_flags & VM_EXEC;
		v[n].start = vma->vm_start;
		v[n].end = vma->vm_end;
		v[n].pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
		v[n].prot = (vma->vm_flags & VM_READ ? PROT_READ : 0) |
			    (vma->vm_flags & VM_WRITE ? PROT_WRITE : 0) |
			    (vma->vm_flags & VM_EXEC ? PROT_EXEC : 0);
		v[n].flags = vma->vm_flags & VM_SHARED ? MAP_SHARED :
							 MAP_PRIVATE;
		v[n].file = vma->vm_file ? get_file(vma->vm_file) : NULL;
		v[n].name = "//anon";
		if (!v[n].file && vma->vm_ops && vma->vm_ops->name)
			v[n].name = vma->vm_ops->name(vma) ?: "//anon";
		n++;
	}
	mmap_read_unlock(mm);
	n = pp_vma_keep(v, n);

	/* The files' paths and build-ids, read without the table's lock. */
	for (i = 0; i < n; i++) {
		mutex_lock(&pp_maps.lock);
		dsos[i] = pp_dso_find(v[i].file, v[i].name);
		mutex_unlock(&pp_maps.lock);
		if (dsos[i])
			continue;
		dsos[i] = pp_dso_make(v[i].file, v[i].name, buf);
		if (!dsos[i])
			goto put;
		mutex_lock(&pp_maps.lock);
		/* Another task may have made it meanwhile. */
		if (pp_dso_find(v[i].file, v[i].name)) {
			kfree(dsos[i]);
			dsos[i] = pp_dso_find(v[i].file, v[i].name);
		} else if (pp_maps.users) {
			list_add(&dsos[i]->node, &pp_maps.dsos);
			pp_maps.bytes += struct_size(dsos[i], path,
						     dsos[i]->path_size);
		} else {
			kfree(dsos[i]);
			dsos[i] = NULL;
		}
		mutex_unlock(&pp_maps.lock);
		if (!dsos[i])
			goto put;
	}
	mutex_lock(&pp_maps.lock);
	/*
	 * A dso made above and not yet named by a set may have been freed
	 * by a release since: look them all up again.
	 */
	for (i = 0; i < n && pp_maps.users; i++) {
		dsos[i] = pp_dso_find(v[i].file, v[i].name);
		if (!dsos[i])
			break;
	}
	if (pp_maps.users && i == n)
		pp_maps_install(v, dsos, n, time);
	pp_dso_gc();
	mutex_unlock(&pp_maps.lock);
put:
	for (i = 0; i < n; i++)
		if (v[i].file)
			fput(v[i].file);
out:
	kfree(buf);
	kvfree(dsos);
	kvfree(v);
}

/*
 * A read queued by pp_maps_request(): process context, in the sampled
 * task, as it returns to user mode (or exits: then without its mm).
 */
static void pp_maps_work(struct callback_head *head)
{
	struct pp_maps_req *r = container_of(head, struct pp_maps_req, work);

	if (current->mm && !(current->flags & PF_EXITING) &&
	    atomic_read(&pp_maps.on))
		pp_maps_snapshot(r->time);
	atomic_set_release(&r->busy, 0);
}

/*
 * Free the files no set names: made by a read whose install did not
 * happen.  No reader holds one: a read looks its files up again under
 * the lock before it installs.  The lock held.
 */
static void pp_dso_gc(void)
{
	struct pp_dso *d, *tmp;

	list_for_each_entry_safe(d, tmp, &pp_maps.dsos, node) {
		if (d->users)
			continue;
		pp_maps.bytes -= struct_size(d, path, d->path_size);
		list_del(&d->node);
		kfree(d);
	}
}

/* Remove every process and file; the lock held. */
static void pp_maps_clear(void)
{
	struct pp_proc *p, *tmp;

	list_for_each_entry_safe(p, tmp, &pp_maps.all, all)
		pp_proc_remove(p);
	pp_dso_gc();
	WARN_ON_ONCE(!list_empty(&pp_maps.dsos) || pp_maps.bytes);
}

/* The size of a record with a @name of @len bytes (NUL not counted). */
static size_t pp_rec_size(size_t fixed, size_t len)
{
	return sizeof(struct perf_event_header) + fixed +
	       ALIGN(len + 1, sizeof(u64)) + sizeof(u64);
}

#define PP_COMM_FIXED	(2 * sizeof(u32))
#define PP_MMAP2_FIXED	(2 * sizeof(u32) + 3 * sizeof(u64) + 24 + \
			 2 * sizeof(u32))

/* Write a record's name, padded, and its time at @p; returns the end. */
static void *pp_rec_tail(void *p, const char *name, size_t len, u64 time)
{
	size_t padded = ALIGN(len + 1, sizeof(u64));

	memcpy(p, name, len);
	memset(p + len, 0, padded - len);
	p += padded;
	memcpy(p, &time, sizeof(time));
	return p + sizeof(time);
}

/*
 * The records of @p: its COMM record, then an MMAP2 record per mapping,
 * written at @q unless it is NULL.  The lock held.  Return: their bytes.
 */
static size_t pp_proc_records(const struct pp_proc *p, void *q)
{
	const struct pp_map_set *set = rcu_dereference_protected(p->set, 1);
	size_t len = strnlen(p->comm, TASK_COMM_LEN), size;
	struct perf_event_header *hdr;
	unsigned int i;

	size = pp_rec_size(PP_COMM_FIXED, len);
	for (i = 0; set && i < set->nr + set->gone; i++)
		size += pp_rec_size(PP_MMAP2_FIXED,
				    set->map[i].dso->path_size - 1);
	if (!q)
		return size;

	hdr = q;
	hdr->type = PERF_RECORD_COMM;
	hdr->misc = PERF_RECORD_MISC_COMM_EXEC;
	hdr->size = pp_rec_size(PP_COMM_FIXED, len);
	q = hdr + 1;
	((u32 *)q)[0] = p->tgid;
	((u32 *)q)[1] = p->tgid;
	q = pp_rec_tail(q + PP_COMM_FIXED, p->comm, len, p->time);
	for (i = 0; set && i < set->nr + set->gone; i++) {
		const struct pp_map *m = &set->map[i];
		u64 *w;

		len = m->dso->path_size - 1;
		hdr = q;
		hdr->type = PERF_RECORD_MMAP2;
		hdr->misc = PERF_RECORD_MISC_USER;
		hdr->size = pp_rec_size(PP_MMAP2_FIXED, len);
		w = (u64 *)(hdr + 1);
		((u32 *)w)[0] = p->tgid;
		((u32 *)w)[1] = p->tgid;
		w[1] = m->r.start;
		w[2] = m->r.end - m->r.start;
		w[3] = m->pgoff;
		memset(&w[4], 0, 24);
		if (m->dso->build_id_len) {
			hdr->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
			*(u8 *)&w[4] = m->dso->build_id_len;
			memcpy((u8 *)&w[4] + 4, m->dso->build_id,
			       m->dso->build_id_len);
		} else {
			w[5] = m->dso->ino;
		}
		((u32 *)&w[7])[0] = m->prot;
		((u32 *)&w[7])[1] = m->flags;
		q = pp_rec_tail(&w[8], m->dso->path, len, m->time);
	}
	return size;
}

/*
 * The table's records, the processes seen last first, into @buf (NULL:
 * none written) up to @limit bytes: a process whose records do not fit
 * ends it.  The lock held.  Return: the bytes.
 */
static size_t pp_maps_fill(void *buf, size_t limit)
{
	const struct pp_proc *p;
	size_t used = 0, size;

	list_for_each_entry_reverse(p, &pp_maps.all, all) {
		size = pp_proc_records(p, NULL);
		if (size > limit - used)
			break;
		if (buf)
			pp_proc_records(p, buf + used);
		used += size;
	}
	return used;
}

/*
 * Copy the table into the older of the region's two copies, then say it
 * is the newest: a reset in the middle leaves the other whole.  Process
 * context (a work).
 */
static void pp_maps_copy(struct work_struct *work)
{
	struct pp_region_maps *a;
	unsigned int h;
	size_t len;

	mutex_lock(&pp_maps.lock);
	a = pp_maps.area;
	if (a) {
		h = a->seq & 1;
		len = pp_maps_fill(a->data + (size_t)h * a->half, a->half);
		WRITE_ONCE(a->len[h], len);
		WRITE_ONCE(a->crc[h], crc32_le(~0, a->data + (size_t)h * a->half,
					       len));
		/* The copy, its length and checksum before the count. */
		smp_wmb();
		WRITE_ONCE(a->seq, a->seq + 1);
		pp_maps.saved = pp_maps.changes;
	}
	mutex_unlock(&pp_maps.lock);
}

/**
 * pp_maps_get - a profile starts: the table exists from the first
 * @keep: the profile is kept across a reboot: so is the table, in the
 *	region
 *
 * Process context.  A region without room for the table's area leaves it
 * in memory only (logged).
 */
void pp_maps_get(bool keep)
{
	struct pp_region_maps *a;

	mutex_lock(&pp_maps.lock);
	if (!pp_maps.users++)
		atomic_set(&pp_maps.on, 1);
	if (keep && pp_region.hdr && !pp_maps.keepers++) {
		a = pp_region_maps_begin(&pp_region, &pp_maps.keep,
					 min_t(size_t, (size_t)maps_kb << 10,
					       PP_MAPS_COPY_MAX));
		if (IS_ERR(a))
			pr_warn("region: no room for the profiles' mappings: the next boot will not name their frames\n");
		else
			pp_maps.area = a;
		pp_maps_changed();
	}
	mutex_unlock(&pp_maps.lock);
}

/**
 * pp_maps_put - a profile is freed: the last one empties the table
 * @keep: what pp_maps_get() was told
 *
 * Process context.
 */
void pp_maps_put(bool keep)
{
	struct pp_region_maps *area = NULL;

	mutex_lock(&pp_maps.lock);
	if (keep && pp_region.hdr && !--pp_maps.keepers) {
		area = pp_maps.area;
		pp_maps.area = NULL;
	}
	if (!--pp_maps.users) {
		atomic_set(&pp_maps.on, 0);
		pp_maps_clear();
	}
	mutex_unlock(&pp_maps.lock);
	if (area) {
		/* The work finds no area now; wait for one still copying. */
		cancel_delayed_work_sync(&pp_maps.copy_work);
		pp_region_maps_end(&pp_region, &pp_maps.keep);
	}
}

/**
 * pp_maps_read - PERF_PERSISTENT_IOC_MAPS: the table's records and figures
 * @m: the caller's request, copied in; the figures and @m->len out
 *
 * Process context.  The records are put together under the lock and
 * copied out after it.  With PERF_PERSISTENT_MAPS_PREVIOUS, those the
 * previous boot left in the region, found at load.
 *
 * Return: 0, -ENOSPC (@m->buf too small for @m->needed), -ENOMEM or
 * -EFAULT.
 */
int pp_maps_read(struct perf_persistent_maps *m)
{
	const void *src = NULL;
	void *buf = NULL;
	size_t need;
	int ret = 0;

	mutex_lock(&pp_maps.lock);
	if (m->flags & PERF_PERSISTENT_MAPS_PREVIOUS) {
		src = pp_previous_boot.maps;
		need = pp_previous_boot.maps_len;
		m->processes = pp_previous_boot.maps_processes;
		m->bytes = 0;
		m->dropped = 0;
		m->missed = 0;
		m->unsaved = 0;
		m->reads = 0;
	} else {
		need = pp_maps_fill(NULL, SIZE_MAX);
		m->processes = pp_maps.processes;
		m->bytes = pp_maps.bytes;
		m->dropped = atomic_long_read(&pp_maps.dropped);
		m->missed = atomic_long_read(&pp_maps.missed);
		m->reads = atomic_long_read(&pp_maps.reads);
		m->unsaved = pp_maps.area ? pp_maps.changes - pp_maps.saved : 0;
	}
	m->needed = need;
	m->budget = (u64)maps_kb << 10;
	if (!m->buf) {
		m->len = 0;
		goto unlock;
	}
	if (m->len < need) {
		ret = -ENOSPC;
		goto unlock;
	}
	buf = kvmalloc(max_t(size_t, need, 1), GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (src)
		memcpy(buf, src, need);
	else
		pp_maps_fill(buf, need);
unlock:
	mutex_unlock(&pp_maps.lock);
	if (buf) {
		if (copy_to_user(u64_to_user_ptr(m->buf), buf, need))
			ret = -EFAULT;
		m->len = need;
		kvfree(buf);
	}
	return ret;
}

/* At load, before any event exists. */
void pp_maps_init(void)
{
	mutex_init(&pp_maps.lock);
	hash_init(pp_maps.procs);
	INIT_LIST_HEAD(&pp_maps.all);
	INIT_LIST_HEAD(&pp_maps.dsos);
	INIT_DELAYED_WORK(&pp_maps.copy_work, pp_maps_copy);
}

/*
 * At unload, after every event is gone: wait for the reads still queued
 * (each runs as its task returns to user mode), then for every task to
 * have left their code.
 */
void pp_maps_exit(void)
{
	unsigned int i;

	for (i = 0; i < PP_MAPS_REQS; i++)
		while (atomic_read_acquire(&pp_maps.reqs[i].busy))
			usleep_range(1000, 2000);
#ifdef CONFIG_TASKS_RCU
	synchronize_rcu_tasks();
#else
	synchronize_rcu();
#endif
	cancel_delayed_work_sync(&pp_maps.copy_work);
	mutex_lock(&pp_maps.lock);
	pp_maps_clear();
	mutex_unlock(&pp_maps.lock);
	rcu_barrier();
	mutex_destroy(&pp_maps.lock);
}
