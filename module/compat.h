/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: kernel differences, in one place
 *
 * The module builds against every kernel from 6.1 on.  Each interface that
 * changed in that range has one small wrapper here, so the module's own
 * files call one name and carry no test.  The wrappers choose by what the
 * headers declare (pp_features.h, written by module/features.sh at build
 * time), not by the version number: Debian's stable kernels carry
 * interfaces backported from later releases.  Only the oldest supported
 * version is a version test.  Each wrapper says which kernel changed the
 * interface.
 *
 * Built and tested: 6.1, 6.12 and 6.12 PREEMPT_RT, 7.2, 7.3 and 7.3
 * PREEMPT_RT, and experimental's newest (Debian's kernels, see README.md).
 */
#ifndef _PERF_PERSISTENT_COMPAT_H
#define _PERF_PERSISTENT_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/tracepoint-defs.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#include "pp_features.h"

/*
 * The oldest kernel the module builds against.  dkms.conf declares the
 * same range (BUILD_EXCLUSIVE_KERNEL), so DKMS skips an older kernel with
 * one line instead of failing part-way through the build; a build by hand
 * stops here.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "perf-persistent needs Linux 6.1 or later"
#endif

/* Timers. */

/*
 * hrtimer_setup() (6.13) sets the callback together with the clock and the
 * mode; hrtimer_init() is gone since 6.15 and hrtimer::function may not be
 * assigned directly any more.
 */
static inline void pp_hrtimer_setup(struct hrtimer *timer,
				    enum hrtimer_restart (*function)(struct hrtimer *),
				    clockid_t clock_id, enum hrtimer_mode mode)
{
#if PP_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, function, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
#endif
}

/* Memory mappings. */

/*
 * vm_area_struct::vm_flags is read-only since 6.3: it changes through
 * vm_flags_mod() and friends, which also assert the mmap lock.
 */
static inline void pp_vm_flags_mod(struct vm_area_struct *vma,
				   vm_flags_t set, vm_flags_t clear)
{
#if PP_HAVE_VM_FLAGS_MOD
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * In 7.x vm_area_struct's flags become a bitmap, vma_flags_t, read with
 * vma_test(); vm_flags stays beside it in a union the kernel calls
 * temporary.
 */
static inline bool pp_vma_writable(const struct vm_area_struct *vma)
{
#if PP_HAVE_VMA_TEST
	return vma_test(vma, VMA_WRITE_BIT);
#else
	return vma->vm_flags & VM_WRITE;
#endif
}

/* Memory reserved at boot. */

/*
 * reserve_mem=SIZE:ALIGN:LABEL (6.11) reserves named memory at boot, which
 * a driver finds with reserve_mem_find_by_name(); 6.1 has neither, and
 * region= then names its memory by place only.
 */
static inline bool pp_reserve_mem_find(const char *label, phys_addr_t *start,
				       phys_addr_t *size)
{
#if PP_HAVE_RESERVE_MEM
	return reserve_mem_find_by_name(label, start, size);
#else
	return false;
#endif
}

/* Workqueues. */

/*
 * system_wq and system_unbound_wq are to be removed (6.17 added their new
 * names, system_percpu_wq and system_dfl_wq; Debian's 6.12 has them too).
 */
#if PP_HAVE_SYSTEM_PERCPU_WQ
#define pp_system_percpu_wq	system_percpu_wq
#define pp_system_dfl_wq	system_dfl_wq
#else
#define pp_system_percpu_wq	system_wq
#define pp_system_dfl_wq	system_unbound_wq
#endif

/*
 * Tracepoints.  Up to 6.x a tracepoint calls its probes with preemption
 * disabled; from 7.0 under SRCU with preemption enabled
 * (PP_TRACEPOINT_PREEMPTIBLE in pp_features.h, which the direct path's
 * stages read), and each probe disables it if it needs to, as perf's and
 * ftrace's own do.  Since 6.13 a tracepoint that may fault
 * (tracepoint_ext::faultable: the syscall ones, TRACE_EVENT_SYSCALL())
 * already does so.
 */
static inline bool pp_tracepoint_faultable(const struct tracepoint *tp)
{
#if PP_HAVE_TRACEPOINT_FAULTABLE
	return tp->ext && tp->ext->faultable;
#else
	return false;
#endif
}

/* Compiler attributes. */

/*
 * __uninitialized (6.2, compiler_attributes.h): keep a local out of
 * CONFIG_INIT_STACK_ALL_ZERO's zeroing where every field is set before
 * use, on a hot path.
 */
#ifndef __uninitialized
#if __has_attribute(__uninitialized__)
#define __uninitialized	__attribute__((__uninitialized__))
#else
#define __uninitialized
#endif
#endif

#endif /* _PERF_PERSISTENT_COMPAT_H */
