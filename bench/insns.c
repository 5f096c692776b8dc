// SPDX-License-Identifier: GPL-2.0
/*
 * insns.so - a QEMU TCG plugin counting the guest instructions each timed
 * loop of ppbench executes, per kernel code address (make bench,
 * Documentation/benchmark.rst).
 *
 * TCG wall time is a poor proxy for what code costs on hardware: a helper
 * call (rdtsc, a locked instruction) weighs what dozens of plain ones do.
 * Instruction counts are exact and repeatable, and per address they say
 * where the work is.
 *
 * The guest marks the loops: ppbench executes a 9-byte NOP with the
 * displacement "PPM0" before a loop and "PPM1" after it (see MARK_* in
 * ppbench.c).  Each begin opens the next window; while a window is open,
 * every executed translation block adds its instruction count to the
 * window's user or kernel total, and kernel blocks to a per-address
 * counter.  At exit the plugin writes, to the file given as out=PATH:
 *
 *   window W user U kernel K      one per window, in order
 *   W ADDR COUNT                  kernel instructions from the block at ADDR
 *
 * The counts are for every vCPU.  The plugin is written for QEMU 7.2
 * (Debian 12) with single-threaded TCG (vm-run's default): callbacks never
 * run concurrently, so the counters are plain.  Only the plugin API (a
 * stable C ABI) is declared here; nothing else of QEMU is needed.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The part of QEMU's plugin API (version 1, QEMU 7.2) this plugin uses. */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
typedef void (*qemu_plugin_tb_trans_cb_t)(qemu_plugin_id_t id,
					  struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *udata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

#define MAX_WINDOWS	128
#define KERNEL_START	0xffff800000000000ULL
#define HASH_BITS	20

/* One per distinct block start address (retranslations share it). */
struct block {
	uint64_t	pc;
	uint32_t	insns;
	bool		kernel;
	uint64_t	*count;		/* [MAX_WINDOWS], kernel blocks only */
};

static struct block *table[1 << HASH_BITS];
static int window = -1;		/* open window, -1 between windows */
static int nr_windows;
static uint64_t user_insns[MAX_WINDOWS], kernel_insns[MAX_WINDOWS];
static const char *out_path = "insns.txt";

/* The marker: nopw DISP(%rax,%rax,1) with DISP "PPM0" or "PPM1". */
static const unsigned char mark_prefix[5] = { 0x66, 0x0f, 0x1f, 0x84, 0x00 };

static struct block *block_get(uint64_t pc, uint32_t insns)
{
	size_t mask = (1 << HASH_BITS) - 1;
	size_t i = (pc ^ (pc >> 17)) * 0x9e3779b97f4a7c15ULL >> (64 - HASH_BITS);
	struct block *b;

	for (; table[i]; i = (i + 1) & mask)
		if (table[i]->pc == pc && table[i]->insns == insns)
			return table[i];
	b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->pc = pc;
	b->insns = insns;
	b->kernel = pc >= KERNEL_START;
	if (b->kernel) {
		b->count = calloc(MAX_WINDOWS, sizeof(*b->count));
		if (!b->count)
			abort();
	}
	table[i] = b;
	return b;
}

static void block_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	(void)vcpu;
	if (window < 0)
		return;
	if (b->kernel) {
		kernel_insns[window] += b->insns;
		b->count[window] += b->insns;
	} else {
		user_insns[window] += b->insns;
	}
}

static void mark_begin(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	if (nr_windows < MAX_WINDOWS)
		window = nr_windows++;
}

static void mark_end(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	window = -1;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint64_t pc = qemu_plugin_tb_vaddr(tb);

	(void)id;
	/*
	 * A block's count is added when it starts; a marker starts a block
	 * of its own, so its count goes to the window it opens or closes.
	 */
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec,
					     QEMU_PLUGIN_CB_NO_REGS,
					     block_get(pc, n));
	if (pc >= KERNEL_START)
		return;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const unsigned char *p = qemu_plugin_insn_data(insn);

		if (qemu_plugin_insn_size(insn) != 9 ||
		    memcmp(p, mark_prefix, sizeof(mark_prefix)) ||
		    memcmp(p + 5, "PPM", 3))
			continue;
		if (p[8] == '0')
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_begin,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
		else if (p[8] == '1')
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_end,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");
	size_t i;
	int w;

	(void)id;
	(void)udata;
	if (!f) {
		perror(out_path);
		return;
	}
	for (w = 0; w < nr_windows; w++)
		fprintf(f, "window %d user %" PRIu64 " kernel %" PRIu64 "\n",
			w, user_insns[w], kernel_insns[w]);
	for (i = 0; i < (size_t)1 << HASH_BITS; i++) {
		struct block *b = table[i];

		if (!b || !b->kernel)
			continue;
		for (w = 0; w < nr_windows; w++)
			if (b->count[w])
				fprintf(f, "%d %" PRIx64 " %" PRIu64 "\n",
					w, b->pc, b->count[w]);
	}
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
			       const struct qemu_info *info, int argc,
			       char **argv);

EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
			       const struct qemu_info *info, int argc,
			       char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else {
			fprintf(stderr, "insns: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
