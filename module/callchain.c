// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the call chain of a sample
 *
 * perf builds a sample's call chain in perf_prepare_sample(), which only
 * perf's own output path calls: the overflow handler of a kernel counter
 * gets none, and perf's walkers (get_perf_callchain(), the architectures'
 * perf_callchain_kernel() and perf_callchain_user()) are not exported.  So
 * the module walks the stacks itself, with what the kernel exports to
 * modules, as perf walks them:
 *
 *  - The kernel's frames on x86-64: the kernel's unwinder (__unwind_start(),
 *    unwind_next_frame(), unwind_get_return_address(); ORC on Debian's
 *    kernels), started as perf_callchain_kernel() starts it.  Real
 *    interrupted registers give their IP first and the unwind starts from
 *    them; registers perf made up for a software event or a tracepoint
 *    (perf_fetch_caller_regs(), without X86_EFLAGS_FIXED) give a stack
 *    pointer to start from.
 *  - The idle loop's frames on x86-64 are kept per CPU and reused: see
 *    "The idle loop's chain" below.
 *  - The kernel's frames on arm64: stack_trace_save(), from the handler
 *    itself.  The walk crosses the exception's frame record, whose PC is
 *    the interrupted one, so the frames before that PC are the handler's
 *    and perf's own and are dropped (pp_chain_trim()).  Registers perf made
 *    up hold their caller's return address as PC, which the walk meets
 *    too.  If the walk does not meet the PC, the chain has the PC alone.
 *  - The user's frames, on both: the IP, then the chain of frame records
 *    from the frame pointer (each a saved frame pointer, then the return
 *    address), read as perf reads them: __get_user() with page faults
 *    disabled, so an absent page ends the walk instead of faulting it in.
 *    perf checks nmi_uaccess_okay() first, in NMI, where x86 may be
 *    switching page tables under the handler; that check is not exported,
 *    so in NMI on x86 the module reads with copy_from_user_nofault(), which
 *    makes it (and costs twice as much).  It stops at an unreadable or misaligned
 *    record, and at one that does not move up the stack, so a damaged
 *    chain cannot loop.  A 32-bit task's frames are not walked: its IP
 *    alone is stored.  Kernel threads and the workers the kernel starts
 *    for a process (PP_NO_USER) have no user frames.
 *
 * The chain is perf's (perf_callchain()): PERF_CONTEXT_KERNEL and the
 * kernel's IPs when the sample hit the kernel, then PERF_CONTEXT_USER and
 * the user's IPs, from the task's saved user registers when the sample
 * hit the kernel.  Its entries, markers included, number at most the
 * event's max_stack, and the markers are always stored.
 *
 * The chain is built before the record's space is reserved, because only
 * then is the record's size known.  It goes into a per-CPU scratch area,
 * one per context level (task, softirq, hardirq, NMI): a handler runs
 * with preemption off and is interrupted only by a higher level, whose
 * handler uses its own area.
 *
 * For perf's DWARF unwinding (--call-graph dwarf) a sample carries the
 * user registers (PERF_SAMPLE_REGS_USER, in the order and ABI of perf's
 * <asm/perf_regs.h>, read from the interrupted user registers or the
 * task's saved ones) and a copy of the top of the user stack
 * (PERF_SAMPLE_STACK_USER), as perf_output_sample() lays them out.
 * perf_reg_value() is not exported: the registers' places in struct
 * pt_regs are taken here, for x86-64 and arm64.
 *
 * Contexts: pp_callchain() runs in the overflow handler, any context
 * including NMI: no lock, no allocation, at most max_stack frames walked
 * (plus, on arm64, PP_CHAIN_SLACK frames of the handler's own).  Init and
 * exit run at module load and unload.
 */

#include <linux/compat.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>

#ifdef CONFIG_X86_64
#include <asm/unwind.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/pointer_auth.h>
#endif

#include "callchain.h"

/*
 * The frames a walk on arm64 meets before the interrupted PC: the
 * handler's, perf's and the exception entry's.  Room is kept for them, so
 * that they do not cut the interrupted code's chain short.
 */
#define PP_CHAIN_SLACK		32

/*
 * Tasks without user frames of their own: kernel threads, and the workers
 * the kernel starts for a process (io_uring's), whose user registers are
 * a copy of their creator's from when it made them.  Newer perf skips
 * both the same way.
 */
#ifdef PF_USER_WORKER
#define PP_NO_USER	(PF_KTHREAD | PF_IO_WORKER | PF_USER_WORKER)
#else
#define PP_NO_USER	(PF_KTHREAD | PF_IO_WORKER)
#endif

/* Context levels: task, softirq, hardirq, NMI (interrupt_context_level()). */
#define PP_CHAIN_LEVELS		4

unsigned int pp_chain_max_stack = PERF_MAX_STACK_DEPTH;
module_param_named(max_stack, pp_chain_max_stack, uint, 0444);
MODULE_PARM_DESC(max_stack,
		 "Largest call chain a sample may hold, in entries (as the sysctl kernel.perf_event_max_stack, 1 to 512; default 127): the default of an event whose attr's sample_max_stack is 0");

/* The scratch areas: PP_CHAIN_LEVELS of pp_chain_entries u64 per CPU. */
static u64 __percpu *pp_chain_scratch;
static unsigned int pp_chain_entries;

/* The chain being built. */
struct pp_chain {
	u64		*ip;
	unsigned int	nr;
	unsigned int	max;
};

/* Store @ip if there is room; false if there is none (perf's rule). */
static __always_inline bool chain_store(struct pp_chain *c, u64 ip)
{
	if (c->nr >= c->max)
		return false;
	c->ip[c->nr++] = ip;
	return true;
}

/*
 * Store a context marker.  There is always room: the area has
 * PP_CHAIN_CONTEXTS entries beyond max_stack.
 */
static __always_inline void chain_mark(struct pp_chain *c, u64 context)
{
	c->ip[c->nr++] = context;
}

/**
 * pp_chain_trim - drop the frames a stack walk met before the interrupted PC
 * @trace: the walk's return addresses, innermost first
 * @nr: how many
 * @pc: the interrupted PC
 *
 * Moves the entries from the first that is @pc on to the start of @trace.
 * Pure; any context.
 *
 * Return: how many entries are kept, 0 if none is @pc.
 */
unsigned int pp_chain_trim(unsigned long *trace, unsigned int nr,
			   unsigned long pc)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (trace[i] == pc) {
			memmove(trace, trace + i, (nr - i) * sizeof(*trace));
			return nr - i;
		}
	}
	return 0;
}

/**
 * pp_chain_words_equal - are two runs of stack words the same?
 * @kept: the words kept
 * @stack: the stack, read without KASAN's checks (other frames' words)
 * @words: how many
 *
 * Pure; any context.
 */
bool pp_chain_words_equal(const unsigned long *kept,
			  const unsigned long *stack, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		if (READ_ONCE_NOCHECK(stack[i]) != kept[i])
			return false;
	return true;
}

#if defined(CONFIG_X86_64)
/*
 * The idle loop's chain.  An idle CPU is sampled at the same place, under
 * the same timer interrupt, sample after sample, and the kernel's
 * unwinder costs a hundred instructions and more a frame; an idle CPU's
 * samples are most of a quiet machine's.  So the chain of a sample of the
 * idle task, walked from its interrupted registers, is kept per CPU with
 * all the walk depended on:
 *
 *  - the registers it started from (ip, sp, bp);
 *  - the stack words from that sp to the top of the idle task's stack,
 *    which hold every frame the walk read (at most PP_IDLE_WORDS, else
 *    nothing is kept);
 *  - the unwind tables of the code the chain is in: only a chain wholly
 *    in the kernel's image, whose tables never change, is kept (module
 *    text, BPF and ftrace trampolines are above MODULES_VADDR);
 *  - the return addresses ftrace's graph tracer and rethook (kretprobes)
 *    replace on the stack, which the unwinder recovers from the task's
 *    own lists: a chain where one differs from the stack word it was read
 *    from is not kept.
 *
 * A later sample of the idle task at the same registers over the same
 * words gets the kept chain, without a walk: the unwinder is a function
 * of them.  The cache is used at the hardirq level only (the timer's
 * samplers): hard interrupts do not nest, and an NMI's handler does not
 * touch it, so no lock is needed.  The parameter idle_chain_cache turns
 * it off.
 */
#define PP_IDLE_WORDS	128
#define PP_IDLE_FRAMES	32

struct pp_idle_chain {
	unsigned long	ip;
	unsigned long	sp;
	unsigned long	bp;
	unsigned int	words;		/* 0: nothing kept */
	unsigned int	nr;
	u64		frame[PP_IDLE_FRAMES];
	unsigned long	stack[PP_IDLE_WORDS];
};

static struct pp_idle_chain __percpu *pp_idle_chains;
static bool pp_idle_cache = true;
module_param_named(idle_chain_cache, pp_idle_cache, bool, 0644);
MODULE_PARM_DESC(idle_chain_cache,
		 "Reuse an idle CPU's kernel call chain while the registers and stack words it was walked from are the same (x86-64; default on)");

/*
 * The cache for a sample at @regs, and the stack words its registers
 * cover, or NULL: not the idle task at the hardirq level, or a stack
 * deeper than the cache.
 */
static struct pp_idle_chain *pp_idle_slot(struct pt_regs *regs,
					  unsigned int *words)
{
	unsigned long bottom, top;

	if (!READ_ONCE(pp_idle_cache) || !is_idle_task(current) ||
	    interrupt_context_level() != 2)
		return NULL;
	bottom = (unsigned long)task_stack_page(current);
	top = bottom + THREAD_SIZE;
	if (regs->sp < bottom || regs->sp >= top || (regs->sp & 7) ||
	    top - regs->sp > PP_IDLE_WORDS * sizeof(long))
		return NULL;
	*words = (top - regs->sp) / sizeof(long);
	return this_cpu_ptr(pp_idle_chains);
}

/* The chain kept for @regs, stored into @c; false if none is kept. */
static bool pp_idle_get(struct pp_idle_chain *ic, struct pp_chain *c,
			struct pt_regs *regs, unsigned int words)
{
	unsigned int i;

	if (ic->words != words || ic->ip != regs->ip || ic->sp != regs->sp ||
	    ic->bp != regs->bp ||
	    !pp_chain_words_equal(ic->stack, (unsigned long *)regs->sp, words))
		return false;
	for (i = 0; i < ic->nr; i++)
		if (!chain_store(c, ic->frame[i]))
			break;
	return true;
}

/* Keep the chain just walked, @nr entries at @ips, from @regs. */
static void pp_idle_put(struct pp_idle_chain *ic, const u64 *ips,
			unsigned int nr, struct pt_regs *regs,
			unsigned int words)
{
	const unsigned long *stack = (const unsigned long *)regs->sp;
	unsigned int i;

	ic->words = 0;
	if (nr > PP_IDLE_FRAMES)
		return;
	for (i = 0; i < words; i++)
		ic->stack[i] = READ_ONCE_NOCHECK(stack[i]);
	memcpy(ic->frame, ips, nr * sizeof(*ips));
	ic->nr = nr;
	ic->ip = regs->ip;
	ic->sp = regs->sp;
	ic->bp = regs->bp;
	ic->words = words;
}

/* In the kernel's image, whose unwind tables never change. */
static bool pp_idle_core(unsigned long addr)
{
	return addr >= __START_KERNEL_map && addr < MODULES_VADDR;
}

/*
 * Where the unwinder read the return address it reports (as the kernel's
 * unwind_get_return_address_ptr(), which is not exported).
 */
static unsigned long *pp_unwind_ret_ptr(struct unwind_state *state)
{
	if (state->regs)
		return &state->regs->ip;
	return state->sp ? (unsigned long *)state->sp - 1 : NULL;
}
#endif

/* The kernel's frames of @regs, which hit the kernel. */
static void chain_kernel(struct pp_chain *c, struct pt_regs *regs)
{
#if defined(CONFIG_X86_64)
	struct pp_idle_chain *ic = NULL;
	struct unwind_state state;
	unsigned int start = c->nr, words = 0;
	unsigned long addr, *raw;
	bool keep;

	if (regs->flags & X86_EFLAGS_FIXED) {
		ic = pp_idle_slot(regs, &words);
		if (ic && pp_idle_get(ic, c, regs, words))
			return;
		if (!chain_store(c, regs->ip))
			return;
		unwind_start(&state, current, regs, NULL);
	} else {
		unwind_start(&state, current, NULL, (void *)regs->sp);
	}
	keep = ic && pp_idle_core(regs->ip);
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || !chain_store(c, addr))
			return;
		if (keep) {
			raw = pp_unwind_ret_ptr(&state);
			keep = raw && READ_ONCE_NOCHECK(*raw) == addr &&
			       pp_idle_core(addr);
		}
	}
	/* The walk ended on its own, not cut by max_stack: keep it. */
	if (keep)
		pp_idle_put(ic, c->ip + start, c->nr - start, regs, words);
#elif defined(CONFIG_ARM64)
	/* u64 and unsigned long are one type of the same size here. */
	unsigned long *trace = (unsigned long *)(c->ip + c->nr);
	unsigned int room = c->max > c->nr ? c->max - c->nr : 0, n;

	if (!room)
		return;
	n = stack_trace_save(trace, room + PP_CHAIN_SLACK, 0);
	n = pp_chain_trim(trace, n, instruction_pointer(regs));
	if (!n) {
		chain_store(c, instruction_pointer(regs));
		return;
	}
	c->nr += min(n, room);
#else
	chain_store(c, instruction_pointer(regs));
#endif
}

/* A user return address as the task's code has it. */
static __always_inline unsigned long user_ret(unsigned long addr)
{
#if defined(CONFIG_ARM64) && defined(ptrauth_strip_user_insn_pac)
	return ptrauth_strip_user_insn_pac(addr);
#elif defined(CONFIG_ARM64)
	return ptrauth_strip_insn_pac(addr);
#else
	return addr;
#endif
}

/*
 * Read the frame record at @fp into @frame: the saved frame pointer and
 * the return address.  Page faults are disabled by the caller.
 */
static bool user_frame(unsigned long fp, unsigned long *frame, bool nofault)
{
	const unsigned long __user *p = (const unsigned long __user *)fp;

	if (nofault)
		return !copy_from_user_nofault(frame, p, 2 * sizeof(*frame));
	if (!access_ok(p, 2 * sizeof(*frame)))
		return false;
	return !__get_user(frame[0], p) && !__get_user(frame[1], p + 1);
}

/* The user's frames of @regs, the task's user registers. */
static void chain_user(struct pp_chain *c, struct pt_regs *regs)
{
	unsigned long fp = 0, frame[2];
	/* See the comment at the top: the mm may be switching in NMI. */
	bool nofault = IS_ENABLED(CONFIG_X86) && in_nmi();

	if (!chain_store(c, instruction_pointer(regs)))
		return;
#if defined(CONFIG_X86_64)
	if (!user_64bit_mode(regs))
		return;
	fp = regs->bp;
#elif defined(CONFIG_ARM64)
	if (compat_user_mode(regs))
		return;
	fp = regs->regs[29];
#endif
	pagefault_disable();
	while (fp && !(fp & (sizeof(long) - 1))) {
		if (!user_frame(fp, frame, nofault))
			break;
		if (!frame[1] || !chain_store(c, user_ret(frame[1])))
			break;
		/* The caller's record is further up the stack. */
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
	pagefault_enable();
}

/**
 * pp_callchain - the call chain of the sample the handler got
 * @cfg: which frames, and how many
 * @regs: the registers the handler got
 * @ips: out: the chain, valid until this CPU's handler at this context
 *	level returns
 *
 * Any context including NMI, with preemption off.
 *
 * Return: the number of entries in *@ips.
 */
unsigned int pp_callchain(const struct pp_chain_cfg *cfg,
			  struct pt_regs *regs, const u64 **ips)
{
	struct pp_chain c;

	c.ip = this_cpu_ptr(pp_chain_scratch) +
	       interrupt_context_level() * pp_chain_entries;
	c.nr = 0;
	c.max = cfg->max_stack;
	*ips = c.ip;
	if (!regs)
		return 0;
	if (cfg->kernel && !user_mode(regs)) {
		chain_mark(&c, PERF_CONTEXT_KERNEL);
		chain_kernel(&c, regs);
	}
	if (cfg->user && !(current->flags & PP_NO_USER) && current->mm) {
		if (!user_mode(regs))
			regs = task_pt_regs(current);
		chain_mark(&c, PERF_CONTEXT_USER);
		chain_user(&c, regs);
	}
	return c.nr;
}

/*
 * The registers perf names on this architecture (<asm/perf_regs.h>), in
 * bit order, and where struct pt_regs has them; -1: none (x86's segment
 * registers, which perf refuses in a mask on x86-64).
 */
#if defined(CONFIG_X86_64)
static const short pp_uregs_off[] = {
	[PERF_REG_X86_AX] = offsetof(struct pt_regs, ax),
	[PERF_REG_X86_BX] = offsetof(struct pt_regs, bx),
	[PERF_REG_X86_CX] = offsetof(struct pt_regs, cx),
	[PERF_REG_X86_DX] = offsetof(struct pt_regs, dx),
	[PERF_REG_X86_SI] = offsetof(struct pt_regs, si),
	[PERF_REG_X86_DI] = offsetof(struct pt_regs, di),
	[PERF_REG_X86_BP] = offsetof(struct pt_regs, bp),
	[PERF_REG_X86_SP] = offsetof(struct pt_regs, sp),
	[PERF_REG_X86_IP] = offsetof(struct pt_regs, ip),
	[PERF_REG_X86_FLAGS] = offsetof(struct pt_regs, flags),
	[PERF_REG_X86_CS] = offsetof(struct pt_regs, cs),
	[PERF_REG_X86_SS] = offsetof(struct pt_regs, ss),
	[PERF_REG_X86_DS] = -1,
	[PERF_REG_X86_ES] = -1,
	[PERF_REG_X86_FS] = -1,
	[PERF_REG_X86_GS] = -1,
	[PERF_REG_X86_R8] = offsetof(struct pt_regs, r8),
	[PERF_REG_X86_R9] = offsetof(struct pt_regs, r9),
	[PERF_REG_X86_R10] = offsetof(struct pt_regs, r10),
	[PERF_REG_X86_R11] = offsetof(struct pt_regs, r11),
	[PERF_REG_X86_R12] = offsetof(struct pt_regs, r12),
	[PERF_REG_X86_R13] = offsetof(struct pt_regs, r13),
	[PERF_REG_X86_R14] = offsetof(struct pt_regs, r14),
	[PERF_REG_X86_R15] = offsetof(struct pt_regs, r15),
};
#elif defined(CONFIG_ARM64)
/* x0 to x30 in regs[], then sp and pc, in perf's order. */
static const short pp_uregs_off[PERF_REG_ARM64_MAX] = {
	[PERF_REG_ARM64_SP] = offsetof(struct pt_regs, sp),
	[PERF_REG_ARM64_PC] = offsetof(struct pt_regs, pc),
};
#else
static const short pp_uregs_off[] = { -1 };
#endif

/**
 * pp_uregs_mask_ok - can the module give the registers of @mask?
 * @mask: an attr's sample_regs_user
 *
 * As perf_reg_validate(): a known register each, and none perf refuses.
 * Pure.
 */
bool pp_uregs_mask_ok(u64 mask)
{
	unsigned int i;

	if (!mask)
		return false;
	for (i = 0; i < 64; i++)
		if ((mask & BIT_ULL(i)) &&
		    (i >= ARRAY_SIZE(pp_uregs_off) || pp_uregs_off[i] < 0))
			return false;
	return true;
}

/**
 * pp_uregs - the user registers of the sample, and their ABI
 * @regs: the registers the handler got, or NULL
 * @abi: out: PERF_SAMPLE_REGS_ABI_64, or _NONE (a kernel thread, a
 *	32-bit task, no registers)
 *
 * The interrupted ones if the sample hit user mode, else the task's
 * saved ones.  Any context.
 *
 * Return: the registers, or NULL with @abi NONE.
 */
struct pt_regs *pp_uregs(struct pt_regs *regs, u64 *abi)
{
	*abi = PERF_SAMPLE_REGS_ABI_NONE;
	if (!regs || (current->flags & PP_NO_USER) || !current->mm)
		return NULL;
	if (!user_mode(regs))
		regs = task_pt_regs(current);
#if defined(CONFIG_X86_64)
	if (!user_64bit_mode(regs))
		return NULL;
#elif defined(CONFIG_ARM64)
	if (compat_user_mode(regs))
		return NULL;
#else
	return NULL;
#endif
	*abi = PERF_SAMPLE_REGS_ABI_64;
	return regs;
}

/* Register @idx (a bit of a mask pp_uregs_mask_ok() took) of @uregs. */
u64 pp_uregs_value(const struct pt_regs *uregs, unsigned int idx)
{
#ifdef CONFIG_ARM64
	if (idx <= PERF_REG_ARM64_LR)
		return uregs->regs[idx];
#endif
	return *(const unsigned long *)((const void *)uregs +
					pp_uregs_off[idx]);
}

/**
 * pp_ustack_size - how much of the user stack a record can carry
 * @want: the attr's sample_stack_user
 * @header_size: the record's bytes before the STACK_USER field
 * @uregs: the user registers, or NULL
 *
 * As perf_sample_ustack_size(): no more than lies between the stack
 * pointer and the top of the user address space, and no more than keeps
 * the record's size within a u16.  Pure but for TASK_SIZE.
 *
 * Return: the bytes, a multiple of 8; 0 for none.
 */
unsigned int pp_ustack_size(unsigned int want, unsigned int header_size,
			    struct pt_regs *uregs)
{
	unsigned long sp;
	unsigned int room;

	if (!uregs)
		return 0;
	sp = user_stack_pointer(uregs);
	if (!sp || sp >= TASK_SIZE)
		return 0;
	want = min_t(unsigned long, want, TASK_SIZE - sp);
	room = U16_MAX - header_size - 2 * sizeof(u64);
	return round_down(min(want, room), sizeof(u64));
}

/* At load: the scratch areas, for the max_stack the parameter says. */
int pp_callchain_init(void)
{
	pp_chain_max_stack = clamp(pp_chain_max_stack, 1U, PP_CHAIN_MAX_STACK);
	pp_chain_entries = pp_chain_max_stack + PP_CHAIN_CONTEXTS +
			   PP_CHAIN_SLACK;
	pp_chain_scratch = __alloc_percpu(PP_CHAIN_LEVELS * pp_chain_entries *
					  sizeof(u64), sizeof(u64));
	if (!pp_chain_scratch)
		return -ENOMEM;
#if defined(CONFIG_X86_64)
	pp_idle_chains = alloc_percpu(struct pp_idle_chain);
	if (!pp_idle_chains) {
		free_percpu(pp_chain_scratch);
		return -ENOMEM;
	}
#endif
	return 0;
}

void pp_callchain_exit(void)
{
#if defined(CONFIG_X86_64)
	free_percpu(pp_idle_chains);
#endif
	free_percpu(pp_chain_scratch);
}
