/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call chain of a sample (PERF_SAMPLE_CALLCHAIN), walked by the module
 * because perf builds chains only on its own output path.
 */
#ifndef _PERF_PERSISTENT_CALLCHAIN_H
#define _PERF_PERSISTENT_CALLCHAIN_H

#include <linux/types.h>

struct pt_regs;

/* The context markers a chain can hold: PERF_CONTEXT_KERNEL and _USER. */
#define PP_CHAIN_CONTEXTS	2

/*
 * The largest sample_max_stack the module takes (its max_stack parameter
 * is clamped to it).  The scratch areas are a per-CPU allocation, which
 * is at most 32 KiB: four areas of 512 entries and more are 17 KiB.
 */
#define PP_CHAIN_MAX_STACK	512

/**
 * struct pp_chain_cfg - which frames an event's chains hold
 * @max_stack: an IP is stored while the chain has fewer entries than
 *	this, markers counted; the markers are always stored (perf's rule).
 *	The attr's sample_max_stack, or the module's max_stack parameter
 *	when the attr says 0
 * @kernel: the kernel's frames (not exclude_callchain_kernel)
 * @user: the user frames (not exclude_callchain_user)
 */
struct pp_chain_cfg {
	u16	max_stack;
	bool	kernel;
	bool	user;
};

extern unsigned int pp_chain_max_stack;

int pp_callchain_init(void);
void pp_callchain_exit(void);
unsigned int pp_callchain(const struct pp_chain_cfg *cfg,
			  struct pt_regs *regs, const u64 **ips);
unsigned int pp_chain_trim(unsigned long *trace, unsigned int nr,
			   unsigned long pc);
bool pp_chain_words_equal(const unsigned long *kept,
			  const unsigned long *stack, unsigned int words);

/* The user registers and stack a sample carries (REGS_USER, STACK_USER). */
bool pp_uregs_mask_ok(u64 mask);
struct pt_regs *pp_uregs(struct pt_regs *regs, u64 *abi);
u64 pp_uregs_value(const struct pt_regs *uregs, unsigned int idx);
unsigned int pp_ustack_size(unsigned int want, unsigned int header_size,
			    struct pt_regs *uregs);

#endif /* _PERF_PERSISTENT_CALLCHAIN_H */
