// SPDX-License-Identifier: GPL-2.0
/*
 * ppbpf.bpf.c - the BPF flight recorders make bench compares persistent
 * events with (Documentation/benchmark.rst, "BPF").
 *
 * Each recorder is a pair of programs on raw_syscalls:sys_enter and
 * sys_exit that stores what the bench's persistent events store: the
 * time, pid and tid, the CPU, the syscall's number and its six arguments
 * (80 bytes a record) or its return value (40 bytes).  bench/ppbpf.c
 * loads one pair, pins its links and maps in bpffs and exits, so that no
 * process holds the recorder while the loop runs (but the perf buffers':
 * a perf buffer lives only while something maps it).
 *
 * The recorders:
 *   floor_*   empty tp_btf programs: BPF's entry cost;
 *   array_*   a per-CPU ring the program writes into an mmapable array
 *             map, overwriting the oldest: the flight recorder one builds
 *             on 6.1 and 6.12;
 *   ring_*    the BPF ring buffer, reserve and submit without a wakeup
 *             (keeps the oldest, drops the newest when full; with
 *             BPF_F_RB_OVERWRITE, from 6.19, overwrites the oldest);
 *   perfbuf_* bpf_perf_event_output() into perf buffers;
 *   tp_*      classic tracepoint programs (perf's tracepoint glue, what
 *             bpftrace and bcc attach) into the same ring as array_*.
 *
 * Built for x86-64: the arguments come from struct pt_regs, whose fields
 * CO-RE finds in the kernel's BTF.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* Only the fields used, placed by the kernel's BTF (CO-RE). */
struct pt_regs {
	unsigned long r10, r9, r8, dx, si, di, orig_ax;
} __attribute__((preserve_access_index));

/* What every record starts with: 24 bytes. */
struct rec_head {
	__u64	time;
	__u32	pid, tid;
	__u32	cpu, type;
};

/* A record of sys_enter (80 bytes) and of sys_exit (40 bytes). */
struct rec_enter {
	struct rec_head	h;
	__s64		id;
	__u64		args[6];
};

struct rec_exit {
	struct rec_head	h;
	__s64		id;
	__s64		ret;
};

#define TYPE_ENTER	1
#define TYPE_EXIT	2

/*
 * The per-CPU ring of array_* and tp_*: one element per CPU (the loader
 * sets max_entries), RING_SIZE bytes of records from head on, each
 * written whole at (head & (RING_SIZE - 1)): the last may run RING_SLACK
 * bytes past the end, so that no record is split.  The two programs never
 * nest on a CPU (both run in a task, at its syscall's entry and exit), so
 * the writer needs no reservation protocol.
 */
#define RING_SIZE	(64 * 1024)
#define RING_SLACK	128

struct ring {
	__u64	head;		/* bytes written */
	__u64	count;		/* records written */
	__u8	data[RING_SIZE + RING_SLACK];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ring);
} ring SEC(".maps");

/* The BPF ring buffer; the loader sizes it (and sets overwrite). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

/* The perf buffers, one per CPU, opened and mapped by the loader. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} perfbuf SEC(".maps");

/* Records the BPF ring buffer refused (full). */
__u64 rb_dropped;

/* A record's head: the time, the task, the CPU and the record's type. */
static __always_inline void fill_head(struct rec_head *h, __u32 type)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	h->time = bpf_ktime_get_ns();
	h->pid = pid_tgid >> 32;
	h->tid = pid_tgid;
	h->cpu = bpf_get_smp_processor_id();
	h->type = type;
}

/*
 * The two records, filled from the syscall's number and arguments (or
 * return value).
 */
static __always_inline void fill_enter(struct rec_enter *r, long id,
				       const unsigned long *a)
{
	fill_head(&r->h, TYPE_ENTER);
	r->id = id;
	r->args[0] = a[0];
	r->args[1] = a[1];
	r->args[2] = a[2];
	r->args[3] = a[3];
	r->args[4] = a[4];
	r->args[5] = a[5];
}

static __always_inline void fill_exit(struct rec_exit *r, long id, long ret)
{
	fill_head(&r->h, TYPE_EXIT);
	r->id = id;
	r->ret = ret;
}

/* The x86-64 syscall arguments, in order. */
#define REGS_ARGS(regs) \
	{ (regs)->di, (regs)->si, (regs)->dx, (regs)->r10, (regs)->r8, (regs)->r9 }

/* Space for @size bytes in this CPU's ring of array_* and tp_*. */
static __always_inline void *ring_reserve(__u32 size)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct ring *r = bpf_map_lookup_elem(&ring, &cpu);
	void *p;

	if (!r)
		return 0;
	p = &r->data[r->head & (RING_SIZE - 1)];
	r->head += size;
	r->count++;
	return p;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(floor_enter, struct pt_regs *regs, long id)
{
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(floor_exit, struct pt_regs *regs, long ret)
{
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(array_enter, struct pt_regs *regs, long id)
{
	unsigned long a[6] = REGS_ARGS(regs);
	struct rec_enter *r = ring_reserve(sizeof(*r));

	if (r)
		fill_enter(r, id, a);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(array_exit, struct pt_regs *regs, long ret)
{
	struct rec_exit *r = ring_reserve(sizeof(*r));

	/* sys_exit's id is the syscall's number, as the tracepoint has it. */
	if (r)
		fill_exit(r, regs->orig_ax, ret);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(ring_enter, struct pt_regs *regs, long id)
{
	unsigned long a[6] = REGS_ARGS(regs);
	struct rec_enter *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	if (!r) {
		__sync_fetch_and_add(&rb_dropped, 1);
		return 0;
	}
	fill_enter(r, id, a);
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ring_exit, struct pt_regs *regs, long ret)
{
	struct rec_exit *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	if (!r) {
		__sync_fetch_and_add(&rb_dropped, 1);
		return 0;
	}
	fill_exit(r, regs->orig_ax, ret);
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(perfbuf_enter, struct pt_regs *regs, long id)
{
	unsigned long a[6] = REGS_ARGS(regs);
	struct rec_enter r;

	fill_enter(&r, id, a);
	bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &r, sizeof(r));
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(perfbuf_exit, struct pt_regs *regs, long ret)
{
	struct rec_exit r;

	fill_exit(&r, regs->orig_ax, ret);
	bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &r, sizeof(r));
	return 0;
}

/* The payloads of raw_syscalls' events, after the common fields. */
struct tp_sys_enter {
	__u64		common;
	long		id;
	unsigned long	args[6];
};

struct tp_sys_exit {
	__u64		common;
	long		id;
	long		ret;
};

SEC("tracepoint/raw_syscalls/sys_enter")
int tp_enter(struct tp_sys_enter *ctx)
{
	struct rec_enter *r = ring_reserve(sizeof(*r));

	if (r)
		fill_enter(r, ctx->id, ctx->args);
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int tp_exit(struct tp_sys_exit *ctx)
{
	struct rec_exit *r = ring_reserve(sizeof(*r));

	if (r)
		fill_exit(r, ctx->id, ctx->ret);
	return 0;
}
