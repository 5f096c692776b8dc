/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perf_persistent.h - userspace interface of the perf-persistent module
 *
 * Persistent events record into kernel-owned per-CPU buffers with no process
 * holding a file descriptor.  They are created, attached, detached, paused
 * and destroyed through the control device /dev/perf_persistent, listed in
 * /sys/bus/event_source/devices/persistent/events/, and read through the
 * "persistent" perf PMU, whose dynamic type is published in
 * /sys/bus/event_source/devices/persistent/type.
 *
 * Structs passed to ioctls carry their own size as the first member so that
 * they can grow: the kernel accepts any size from the first published
 * version (*_SIZE_VER0) up, as long as the bytes it does not know are zero.
 */
#ifndef _UAPI_LINUX_PERF_PERSISTENT_H
#define _UAPI_LINUX_PERF_PERSISTENT_H

#include <linux/ioctl.h>
#include <linux/perf_event.h>
#include <linux/types.h>

/* Name of the PMU under /sys/bus/event_source/devices/. */
#define PERF_PERSISTENT_PMU_NAME	"persistent"

/* The control device. */
#define PERF_PERSISTENT_DEVICE		"/dev/perf_persistent"

/*
 * A reader selects the persistent event it connects to by the event's id in
 * bits 0-31 of perf_event_attr::config (the "id" format term).  All other
 * bits of config, config1 and config2 that no format term names must be zero.
 */
#define PERF_PERSISTENT_CONFIG_ID_MASK	0xffffffffULL

/*
 * Event names: 1 to 31 characters of [a-z0-9_], starting with a letter, so
 * that "persistent/<name>/" parses as an alias in the perf tool.  Names the
 * perf tool reads as something else are refused: its built-in terms
 * (config, period, name, ...), the PMU's format terms, and r<hex digits>.
 */
#define PERF_PERSISTENT_NAME_MAX	32	/* including the terminating NUL */

/*
 * Per-CPU buffer size in bytes: a power-of-two number of pages, at most
 * PERF_PERSISTENT_BUFFER_MAX.  0 asks for the module's default
 * (module parameter buffer_kb).
 */
#define PERF_PERSISTENT_BUFFER_MAX	(64ULL << 20)

/*
 * Sample fields a persistent event can record (perf_event_attr::sample_type);
 * others are refused with EOPNOTSUPP.  Records use perf's PERF_RECORD_SAMPLE
 * layout for these fields, in perf's order:
 *
 *	struct perf_event_header header;   type PERF_RECORD_SAMPLE
 *	{ u64 id;         } IDENTIFIER     the persistent event's id
 *	{ u64 ip;         } IP
 *	{ u32 pid, tid;   } TID
 *	{ u64 time;       } TIME           local_clock(), perf's clock
 *	{ u64 addr;       } ADDR
 *	{ u64 id;         } ID             the persistent event's id
 *	{ u32 cpu, res;   } CPU
 *	{ u64 period;     } PERIOD
 *	{ u64 nr; u64 ips[nr]; } CALLCHAIN
 *	{ u32 size; char data[size]; } RAW (4 + size padded to 8 bytes)
 *	{ u64 abi; u64 regs[weight(sample_regs_user)]; } REGS_USER (regs
 *	                                   only when abi is not NONE)
 *	{ u64 size; char data[size]; u64 dyn_size; } STACK_USER (data and
 *	                                   dyn_size only when size is not 0)
 *
 * REGS_USER and STACK_USER are what perf's DWARF unwinding reads (perf
 * record --call-graph dwarf): the user registers of sample_regs_user, in
 * the order and ABI of <asm/perf_regs.h> (x86-64, arm64; a mask with any
 * other register is refused with EINVAL, and so is a sample_stack_user
 * that is not a multiple of 8 or not below 65535), and sample_stack_user
 * bytes of the stack from the user stack pointer, of which dyn_size could
 * be read (the rest is zero).  A kernel thread's and a 32-bit task's
 * samples have the ABI NONE and no stack.
 *
 * CALLCHAIN is perf's: PERF_CONTEXT_KERNEL and the kernel's return
 * addresses when the sample hit the kernel, then PERF_CONTEXT_USER and the
 * user's (a frame-pointer walk of the task's stack), as the attr's
 * exclude_callchain_kernel and exclude_callchain_user allow.  IPs are
 * stored while the chain has fewer than sample_max_stack entries (the
 * module's max_stack parameter when it is 0; a larger one is refused with
 * EOVERFLOW), markers counted, and the markers always.
 *
 * perf_event_attr::comm asks for COMM records as well; it needs TID and
 * sample_id_all, else EINVAL.  Before a record of a task that the buffer
 * holds no recent COMM record of, the module stores a COMM record naming
 * the task as it is at that moment, in perf's PERF_RECORD_COMM layout with
 * a fixed-size name:
 *
 *	struct perf_event_header header;   type PERF_RECORD_COMM, misc 0
 *	u32 pid, tid;
 *	char comm[16];                     NUL-padded
 *	sample_id: { u32 pid, tid; } TID, { u64 time; } TIME, { u64 id; } ID,
 *	           { u32 cpu, res; } CPU, { u64 id; } IDENTIFIER (those of
 *	           the event's sample_type, in this order)
 *
 * A task gets one again when renamed, or when its last one is more than
 * half the buffer older, so every record in the newer half of a buffer
 * has its task's COMM record before it.  COMM records are records: they
 * count in the statistics and are delivered to readers like samples.
 */
#define PERF_PERSISTENT_SAMPLE_TYPES					\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |	\
	 PERF_SAMPLE_RAW | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

/*
 * Records the module writes itself, of a hardware error that the
 * tracepoint never saw (Documentation/incidents.rst), have the tracepoint's
 * own payload.  Where a tracepoint's record has in its common_pid the pid
 * of the task it ran in, never negative, these have where the module found
 * the error:
 *
 * ORIGIN_PANIC: mce_record, at the panic, from the "[Hardware Error]"
 * lines x86's mce_panic() printed before it panicked: the error that
 * panicked the machine, and the corrected ones still pending.  The
 * sample's pid and tid are those of the task the panicking CPU
 * interrupted.  mcgcap is 0: the kernel does not print it.
 */
#define PERF_PERSISTENT_ORIGIN_PANIC	(-1)

/*
 * The records of the read-only event "boot_errors" (a previous event,
 * written at load: errors from before the module loaded), mce_record's
 * payload each:
 *
 * ORIGIN_ERST: a machine check that x86's mce_panic() wrote to the
 * platform's persistent error store (ACPI ERST) at a panic, in this boot
 * or one before it, however the machine was reset, a power cycle
 * included.  Every field is the kernel's, mcgcap included.
 *
 * ORIGIN_BOOT_LOG: a machine check that the kernel logged ("[Hardware
 * Error]" lines) before the module loaded: errors the MCA banks still held
 * at boot, and corrected errors of this boot before the load.  mcgcap is
 * 0, as at the panic.
 *
 * Their samples' time, CPU, pid and tid are those of the load that wrote
 * them; the payload's time (walltime) and cpu fields are the error's.
 */
#define PERF_PERSISTENT_ORIGIN_ERST	(-2)
#define PERF_PERSISTENT_ORIGIN_BOOT_LOG	(-3)

/*
 * ras:non_standard_event's records of errors that firmware reported, one
 * record per CPER section, its payload as the kernel's GHES driver traces
 * such a section (sev the GHES severity, the FRU id and text only where
 * the section says they are valid, the section's data as buf):
 *
 * ORIGIN_BERT, in the read-only event "firmware_errors" (a previous event,
 * written at load): a section of an error that firmware reported from a
 * boot before this one in ACPI's Boot Error Record Table (BERT), which
 * the kernel only prints.  The sample's time, CPU, pid and tid are those
 * of the load.
 *
 * ORIGIN_GHES, in a ras:non_standard_event event: a section of the fatal
 * error that a GHES error source reported, which the kernel's GHES driver
 * printed and panicked on without tracing it; read at the panic from the
 * source's error status block.  The sample's pid and tid are those of the
 * task the panicking CPU interrupted.
 */
#define PERF_PERSISTENT_ORIGIN_BERT	(-4)
#define PERF_PERSISTENT_ORIGIN_GHES	(-5)

/*
 * A persistent event's buffer, as mapped read-only through
 * /dev/perf_persistent (see PERF_PERSISTENT_MMAP_OFFSET): one control page,
 * then data_size bytes of records written backward, zero copy.
 *
 * The control page is a struct perf_event_mmap_page as far as data_head,
 * data_offset and data_size go, so perf's reader of write_backward
 * (overwrite) buffers works on it unchanged: data_head is the logical
 * position of the newest record and decreases as records are written; the
 * byte at logical position x is at data_offset + (x & (data_size - 1)).
 * Read data_head with an acquire load (or read it, then smp_rmb()) before
 * reading records.  The page also holds, at PERF_PERSISTENT_PAGE_EXT_OFFSET
 * (below the smallest page size, 4 KiB), a struct perf_persistent_page_ext.
 */
#define PERF_PERSISTENT_PAGE_EXT_OFFSET	2048

/**
 * struct perf_persistent_page_ext - more of the control page
 * @size: the bytes of this struct that the module fills, which is its
 *	version.  Later versions append fields; a reader uses those that fit
 *	in @size
 * @__reserved: zero
 * @tail: logical position just past the oldest record the buffer still
 *	holds whole: the records held are those in [data_head, tail), and
 *	tail - data_head <= data_size.  Written before data_head.
 * @sample_type: the PERF_SAMPLE_* fields each record holds
 * @id: the persistent event's id
 * @cpu: the CPU whose buffer this is
 * @reserve_head: (size >= VER1) the lowest logical position a writer has
 *	claimed, committed or not: at or below data_head.  A writer lowers
 *	it before it writes a byte of its record, and a byte at logical
 *	position x is overwritten only by a write to x - data_size.  So a
 *	record at [pos, pos + len) copied out of a buffer that is still
 *	recording is intact if reserve_head, loaded after the copy (after an
 *	acquire fence), satisfies pos + len - reserve_head <= data_size;
 *	otherwise it may be torn.  PAUSE makes the whole buffer still.
 */
struct perf_persistent_page_ext {
	__u32	size;
	__u32	__reserved;
	__u64	tail;
	__u64	sample_type;
	__u32	id;
	__u32	cpu;
	__u64	reserve_head;
};

#define PERF_PERSISTENT_PAGE_EXT_SIZE_VER0	32
#define PERF_PERSISTENT_PAGE_EXT_SIZE_VER1	40	/* + reserve_head */

/*
 * mmap() offset of the buffer of persistent event @id on CPU @cpu on a
 * system whose page size is @page_size (sysconf(_SC_PAGESIZE)).  It is
 * page number (@id << 16 | @cpu), whatever the page size.  The length must
 * be one page plus the buffer size, and the mapping must be read-only
 * (PROT_READ, or MAP_PRIVATE without PROT_WRITE).  Any opener of the
 * device may map a buffer, so the device's file mode decides who reads
 * the records.
 */
#define PERF_PERSISTENT_MMAP_OFFSET(id, cpu, page_size)			\
	((((__u64)(id) << 16) | ((cpu) & 0xffff)) * (__u64)(page_size))

/*
 * Readers.  perf_event_open() with attr.type = the PMU's type, attr.config
 * = the event id (bits 0-31, "id" term), pid = -1 and cpu = N connects to a
 * persistent event's records on CPU N.  The reader first receives the
 * records the buffer holds, oldest first, then every new one; with bit 0
 * of config1 set (the "nohistory" term: persistent/<name>,nohistory/) only
 * the new ones.
 *
 * Each record arrives as one sample whose RAW payload is a
 * struct perf_persistent_sample followed by the stored record, unchanged:
 * the original time, CPU, pid/tid and IP are there (as far as the event's
 * sample_type records them), while the reader sample's own TIME, TID, CPU
 * and IP describe the delivery.  A counting reader counts records.
 */
#define PERF_PERSISTENT_CONFIG1_NOHISTORY	(1ULL << 0)

/**
 * struct perf_persistent_lost - a loss, in place of a record
 * @header: type PERF_RECORD_LOST, size sizeof(struct perf_persistent_lost)
 * @id: the persistent event's id
 * @lost: bytes of records the reader did not receive
 *
 * Comes in a reader sample's RAW payload after the struct
 * perf_persistent_sample, where a record would, when records the reader had
 * not received yet were overwritten before they could be delivered (a
 * reader scheduled out or a delivery held off while writers went round the
 * buffer).  The records after it follow on as before.  The instance's
 * "lost" statistic sums these bytes.
 */
struct perf_persistent_lost {
	struct perf_event_header header;
	__u64	id;
	__u64	lost;
};

/**
 * struct perf_persistent_sample - start of a reader sample's RAW payload
 * @common: 8 bytes the perf core fills with the delivery context (a struct
 *	trace_entry); not part of the record
 * @sample_type: the PERF_SAMPLE_* fields of the record that follows
 *
 * Followed by the record: a struct perf_event_header of type
 * PERF_RECORD_SAMPLE (or PERF_RECORD_COMM, events with comm) whose size
 * counts the whole record, then the fields.
 */
struct perf_persistent_sample {
	__u64	common;
	__u64	sample_type;
};

/* perf_persistent_create::flags */
#define PERF_PERSISTENT_CREATE_DETACHED	(1U << 0)	/* owned by no fd */
#define PERF_PERSISTENT_CREATE_CRASH_DUMP (1U << 1)	/* in crash dumps */
#define PERF_PERSISTENT_CREATE_PERF_PATH (1U << 2)	/* never the direct path */
#define PERF_PERSISTENT_CREATE_KEEP	(1U << 3)	/* across a reboot */

/*
 * perf_persistent_create::scope: whose activity the event records.
 *
 * CPUS: every task, on every CPU (a kernel counter per CPU).
 *
 * TASK: one process and, as the source attr says, what it starts.  @target
 *	is a pid (any thread of the process, in the caller's pid namespace).
 *	Each thread the process has gets a task counter.  With attr.inherit
 *	the threads and child processes created later inherit it, with
 *	inherit_thread only the threads, and remove_on_exec drops it at
 *	exec, as perf_event_open() would count them.  enable_on_exec starts
 *	it disabled until the target's next exec.  attr.sigtrap (which
 *	needs remove_on_exec, and CAP_KILL over the target) sends the thread
 *	that hit the event SIGTRAP with si_perf_data = attr.sig_data.
 *	Records go into the event's per-CPU buffers, whichever CPU the task
 *	ran on.  When the process has exited, INFO's state says
 *	PERF_PERSISTENT_STATE_EXITED; the records stay, and inherited
 *	children that live on go on recording.  To target a pidfd, pass the
 *	pid it refers to (its /proc/self/fdinfo "Pid:"), and after CREATE
 *	check that the pidfd's process is alive (not readable by poll()):
 *	a live process's pid cannot have been reused in between.
 *
 * CGROUP: the tasks of a cgroup v2 and its descendants, on every CPU.
 *	@target is an fd of its directory (O_RDONLY or O_PATH), or -1 and
 *	@cgroup_path points to its path from the root of the caller's
 *	cgroup namespace ("/system.slice/foo.service").  A record is kept
 *	when the task running (current) is in the cgroup.  Counts and
 *	sampling periods are those of the CPUs, because the source counts
 *	every task.
 */
#define PERF_PERSISTENT_SCOPE_CPUS	0
#define PERF_PERSISTENT_SCOPE_TASK	1
#define PERF_PERSISTENT_SCOPE_CGROUP	2

/**
 * struct perf_persistent_create - argument of PERF_PERSISTENT_IOC_CREATE
 * @size:	sizeof(struct perf_persistent_create)
 * @flags:	PERF_PERSISTENT_CREATE_*.  Without DETACHED the new event is
 *		attached to the file descriptor the ioctl was made on, and is
 *		destroyed when that file is closed.  With CRASH_DUMP its
 *		newest records are written to the kernel log on panic and
 *		oops (module parameter crash_dump).  With PERF_PATH a
 *		tracepoint source records through perf's kernel counters even
 *		when the module's own probe could record it (the direct path,
 *		the default for the tracepoints it covers; INFO's state has
 *		PERF_PERSISTENT_STATE_DIRECT for it).  Both paths give the
 *		same records.  With KEEP the per-CPU buffers live in the
 *		memory reserved at boot that the module parameter region=
 *		names, and the next boot that loads the module with the
 *		same region finds them as a previous boot's event
 *		(PERF_PERSISTENT_STATE_PREVIOUS); CREATE fails with ENXIO
 *		without region= and with ENOSPC when the region is full.
 * @attr:	user pointer to the source struct perf_event_attr, whose own
 *		size field is honoured as perf_event_open() honours it
 * @buffer_size: per-CPU buffer size in bytes (see PERF_PERSISTENT_BUFFER_MAX)
 * @id:		out: the new event's id, unique while the module is loaded
 * @name:	the event's name, NUL-terminated
 * @scope:	(size >= VER1) PERF_PERSISTENT_SCOPE_*, 0 for every CPU
 * @target:	(size >= VER1) TASK: the pid; CGROUP: a directory fd or -1;
 *		CPUS: 0
 * @cgroup_path: (size >= VER1) CGROUP with @target -1: user pointer to a
 *		NUL-terminated path, shorter than PATH_MAX; otherwise 0
 */
struct perf_persistent_create {
	__u32	size;
	__u32	flags;
	__u64	attr;
	__u64	buffer_size;
	__u32	id;
	__u32	__reserved;
	char	name[PERF_PERSISTENT_NAME_MAX];
	__u32	scope;
	__s32	target;
	__u64	cgroup_path;
};

#define PERF_PERSISTENT_CREATE_SIZE_VER0	64
#define PERF_PERSISTENT_CREATE_SIZE_VER1	80	/* + scope, target, cgroup_path */

/* perf_persistent_info::state */
#define PERF_PERSISTENT_STATE_ATTACHED	(1U << 0)	/* owned by some fd */
#define PERF_PERSISTENT_STATE_OWNED	(1U << 1)	/* ... by this fd */
#define PERF_PERSISTENT_STATE_PAUSED	(1U << 2)
#define PERF_PERSISTENT_STATE_FROZEN	(1U << 3)	/* by a trigger */
#define PERF_PERSISTENT_STATE_TRIGGER	(1U << 4)	/* has a trigger */
#define PERF_PERSISTENT_STATE_CRASH_DUMP (1U << 5)	/* in crash dumps */
#define PERF_PERSISTENT_STATE_DIRECT	(1U << 6)	/* on the direct path */
#define PERF_PERSISTENT_STATE_EXITED	(1U << 7)	/* TASK: target exited */
#define PERF_PERSISTENT_STATE_KEPT	(1U << 8)	/* in the region (KEEP) */
/*
 * The records a previous boot kept (CREATE_KEEP, or the load-time events
 * of a module loaded with region=), found in the region at load.  Such an
 * event records nothing and is always PAUSED; readers map its buffers as
 * any other's, the records carrying that boot's event id and clock.
 * DESTROY frees it; PAUSE, RESUME, ATTACH, DETACH and TRIGGER fail with
 * EROFS.  Its name may equal a name of this boot: LIST and INFO by id
 * find it, INFO by name does not.
 */
#define PERF_PERSISTENT_STATE_PREVIOUS	(1U << 9)

/**
 * struct perf_persistent_cpu_stats - one CPU's buffer and counter
 * @cpu:	CPU number
 * @online:	1 while the CPU is online and its kernel counter runs
 * @written:	records stored into the buffer
 * @overwritten: stored records since overwritten by newer ones
 * @dropped:	records not stored: the event was paused, or the record did
 *		not fit the buffer
 * @bytes:	bytes of records stored
 * @count:	the source counter's value on this CPU (perf_event_read_value);
 *		0 in a TASK scope, whose counters count wherever their tasks
 *		run (INFO's @count has their total)
 * @head:	the buffer's published head: logical position of the newest
 *		record, decreasing as records are written (backward writing)
 * @tail:	logical position just past the oldest record still held
 *
 * written == records held + overwritten, where the records held are the
 * ones between head and tail.
 */
struct perf_persistent_cpu_stats {
	__u32	cpu;
	__u32	online;
	__u64	written;
	__u64	overwritten;
	__u64	dropped;
	__u64	bytes;
	__u64	count;
	__u64	head;
	__u64	tail;
};

/**
 * struct perf_persistent_info - argument of PERF_PERSISTENT_IOC_INFO
 * @size:	sizeof(struct perf_persistent_info)
 * @id:		in: the event's id, or 0 to select it by @name; out: its id
 * @state:	out: PERF_PERSISTENT_STATE_*
 * @nr_cpus:	in: capacity of @cpu_stats; out: number of CPUs with a
 *		buffer (the kernel fills at most the capacity)
 * @buffer_size: out: per-CPU buffer size in bytes
 * @attr:	in: user pointer to a struct perf_event_attr receiving the
 *		source attr, or 0; @attr_size bytes are written
 * @attr_size:	in: size of the struct at @attr
 * @__reserved: must be zero
 * @cpu_stats:	in: user pointer to @nr_cpus struct perf_persistent_cpu_stats,
 *		or 0
 * @name:	in (when @id is 0) and out: the event's name
 * @clock_ns:	out (size >= VER1): the clock records are stamped with
 *		(perf's, local_clock()) at the time of the call
 * @realtime_ns: out (size >= VER1): CLOCK_REALTIME read right after
 *		@clock_ns: a record stamped T was made at wall-clock time
 *		T - @clock_ns + @realtime_ns (as exact as the clocks agree
 *		across CPUs; a change of the wall clock since moves it)
 * @scope:	out (size >= VER2): PERF_PERSISTENT_SCOPE_*
 * @target:	out (size >= VER2): TASK: the target process's pid in the
 *		caller's pid namespace (0 if it has none there); after the
 *		process exited, the pid it had; otherwise 0
 * @cgroup_id:	out (size >= VER2): CGROUP: the cgroup's id (the inode
 *		number of its directory); otherwise 0
 * @count:	out (size >= VER2): the source's count.  That is the CPUs'
 *		counts summed or, for TASK, the task counters' counts with
 *		those of the inherited children, the exited ones included
 */
struct perf_persistent_info {
	__u32	size;
	__u32	id;
	__u32	state;
	__u32	nr_cpus;
	__u64	buffer_size;
	__u64	attr;
	__u32	attr_size;
	__u32	__reserved;
	__u64	cpu_stats;
	char	name[PERF_PERSISTENT_NAME_MAX];
	__u64	clock_ns;
	__u64	realtime_ns;
	__u32	scope;
	__s32	target;
	__u64	cgroup_id;
	__u64	count;
};

#define PERF_PERSISTENT_INFO_SIZE_VER0		80
#define PERF_PERSISTENT_INFO_SIZE_VER1		96	/* + clock_ns, realtime_ns */
#define PERF_PERSISTENT_INFO_SIZE_VER2		120	/* + scope ... count */

/**
 * struct perf_persistent_list - argument of PERF_PERSISTENT_IOC_LIST
 * @size:	sizeof(struct perf_persistent_list)
 * @nr:		in: capacity of @ids; out: number of ids written
 * @start:	in: list ids greater than this one (0 to start)
 * @total:	out: number of events that exist
 * @ids:	in: user pointer to @nr __u32, filled with ids in ascending
 *		order
 *
 * Iterate by passing the last id returned as @start until @nr comes back 0.
 */
struct perf_persistent_list {
	__u32	size;
	__u32	nr;
	__u32	start;
	__u32	total;
	__u64	ids;
};

#define PERF_PERSISTENT_LIST_SIZE_VER0		24

/* perf_persistent_trigger::flags: at most one */
#define PERF_PERSISTENT_TRIGGER_REMOVE	(1U << 0)	/* remove @source's trigger */
#define PERF_PERSISTENT_TRIGGER_REARM	(1U << 1)	/* arm it again, thaw its targets */
#define PERF_PERSISTENT_TRIGGER_THAW	(1U << 2)	/* @source stores records again */
#define PERF_PERSISTENT_TRIGGER_FLAGS	(PERF_PERSISTENT_TRIGGER_REMOVE | \
					 PERF_PERSISTENT_TRIGGER_REARM | \
					 PERF_PERSISTENT_TRIGGER_THAW)

/**
 * struct perf_persistent_trigger - argument of PERF_PERSISTENT_IOC_TRIGGER
 * @size:	sizeof(struct perf_persistent_trigger)
 * @flags:	0 to set a trigger, or one PERF_PERSISTENT_TRIGGER_* verb on
 *		@source (then @nr_targets, @targets, @count, @after are 0)
 * @source:	the id of the event whose records fire the trigger
 * @nr_targets:	number of ids at @targets, 1 to PERF_PERSISTENT_TRIGGER_MAX
 * @targets:	user pointer to @nr_targets __u32 event ids: the events the
 *		trigger freezes (@source may be among them)
 * @count:	fire on the @count-th record of @source after arming (0
 *		means 1)
 * @after:	each target stores this many more records after the trigger
 *		fired, then freezes (0 means at once; at most 2^63 - 1)
 * @filter:	user pointer to @nr_filter struct perf_persistent_filter_op,
 *		or 0.  With a filter, only @source's records that match it
 *		count towards @count
 * @nr_filter:	number of ops at @filter, 0 to PERF_PERSISTENT_FILTER_MAX
 * @__reserved:	must be zero
 * @filter_text: user pointer to the filter as the user wrote it (a
 *		NUL-terminated printable string, shorter than
 *		PERF_PERSISTENT_FILTER_TEXT_MAX), or 0; shown, never parsed
 *
 * An event has at most one trigger; setting one replaces the last.  A
 * trigger is armed when set.  When it fires, every target freezes: it
 * stops storing records (dropped and counted, as while paused) so that
 * its history is kept, and INFO shows PERF_PERSISTENT_STATE_FROZEN.  The
 * trigger then stays fired until REARM (its count starts again, and its
 * targets thaw); THAW thaws one event.  PAUSE and RESUME are separate from
 * freezing: a reader may pause a frozen event to read it and resume it,
 * and it stays frozen.  The targets are the events named when the trigger
 * is set, and the trigger is destroyed with @source.  REARM of an event
 * without a trigger, like any verb on an unknown event, fails with ENOENT.
 * A filter needs a source whose records carry PERF_SAMPLE_RAW (EINVAL
 * otherwise).
 */
struct perf_persistent_trigger {
	__u32	size;
	__u32	flags;
	__u32	source;
	__u32	nr_targets;
	__u64	targets;
	__u64	count;
	__u64	after;
	__u64	filter;
	__u32	nr_filter;
	__u32	__reserved;
	__u64	filter_text;
};

#define PERF_PERSISTENT_TRIGGER_SIZE_VER0	40
#define PERF_PERSISTENT_TRIGGER_SIZE_VER1	64	/* + filter */
#define PERF_PERSISTENT_TRIGGER_MAX		64

/* perf_persistent_filter_op::op */
#define PERF_PERSISTENT_FILTER_EQ	1	/* push field == value */
#define PERF_PERSISTENT_FILTER_NE	2	/* push field != value */
#define PERF_PERSISTENT_FILTER_LT	3	/* push field < value */
#define PERF_PERSISTENT_FILTER_LE	4	/* push field <= value */
#define PERF_PERSISTENT_FILTER_GT	5	/* push field > value */
#define PERF_PERSISTENT_FILTER_GE	6	/* push field >= value */
#define PERF_PERSISTENT_FILTER_BAND	7	/* push (field & value) != 0 */
#define PERF_PERSISTENT_FILTER_AND	8	/* pop two, push both true */
#define PERF_PERSISTENT_FILTER_OR	9	/* pop two, push either true */
#define PERF_PERSISTENT_FILTER_NOT	10	/* pop one, push its negation */

/* perf_persistent_filter_op::flags */
#define PERF_PERSISTENT_FILTER_SIGNED	(1U << 0)	/* the field is signed */

#define PERF_PERSISTENT_FILTER_MAX	32	/* ops in one filter */
#define PERF_PERSISTENT_FILTER_TEXT_MAX	256	/* including the NUL */

/**
 * struct perf_persistent_filter_op - one step of a trigger's filter
 * @op:		PERF_PERSISTENT_FILTER_*
 * @flags:	PERF_PERSISTENT_FILTER_SIGNED for a comparison of a signed
 *		field (sign-extended from @size, compared as signed), else 0
 * @size:	bytes of the field: 1, 2, 4 or 8 (comparisons only)
 * @__reserved:	must be zero
 * @offset:	byte offset of the field in the record's RAW payload, as the
 *		tracepoint's tracefs format gives it (comparisons only)
 * @value:	what the field is compared with (comparisons only)
 *
 * A filter is a program in postfix order over a stack of truth values,
 * as the tool compiles perf's filter syntax ("bank == 4 && status & 0x1"
 * is EQ, BAND, AND).  Each comparison reads its field in the CPU's byte
 * order and pushes a result; AND, OR and NOT take theirs from the stack
 * and have every other member zero.  A well-formed program never pops an
 * empty stack and leaves exactly one value: the record matches when it is
 * true.  A field that lies beyond the end of a record's RAW payload
 * compares false.
 */
struct perf_persistent_filter_op {
	__u8	op;
	__u8	flags;
	__u8	size;
	__u8	__reserved;
	__u32	offset;
	__u64	value;
};

/* perf_persistent_notice::what */
#define PERF_PERSISTENT_NOTICE_FROZE	1	/* @id froze */
#define PERF_PERSISTENT_NOTICE_FIRED	2	/* @id's trigger fired */
#define PERF_PERSISTENT_NOTICE_LOST	3	/* @time notices were lost */
#define PERF_PERSISTENT_NOTICE_OVERFLOW	4	/* @id stored records */

/**
 * struct perf_persistent_notice - what read() of a watching control file
 *	returns, one per incident
 * @id:		the event
 * @what:	PERF_PERSISTENT_NOTICE_*
 * @time:	when, in the records' clock (local_clock(), see INFO's
 *		clock_ns); for NOTICE_LOST, the number of notices lost
 *		because the reader was slow (64 are held)
 *
 * A control file that watches events (PERF_PERSISTENT_IOC_WATCH) is
 * readable (poll, epoll) while it holds notices; read() returns whole
 * notices, blocking unless O_NONBLOCK (EAGAIN).  With O_ASYNC (fcntl
 * F_SETFL) it sends SIGIO to its owner (F_SETOWN).  A negative owner id
 * names a process group, so that every process of a tree that shares the
 * file is told.
 *
 * A file that watches with PERF_PERSISTENT_IOC_WATCH_OVERFLOW also
 * receives NOTICE_OVERFLOW when the event stores records, as perf signals
 * an fd's owner on overflow.  Each CPU asks for one on every
 * wakeup_events-th record it stores (the source attr's wakeup_events), or
 * on every record when wakeup_events is 0 or attr.watermark is set.  The
 * notices are paced so that no event can keep notifying itself (an event
 * on signal:signal_generate records the SIGIO its notice sends).  An event
 * posts one at most every 10 ms, and the overflows in between make one
 * notice when that time is over.  A file that has not read the event's
 * last overflow notice gets no other, and no SIGIO, until it does: the
 * ones posted meanwhile are merged into it, and the read that returns it
 * queues the merged one behind what it returned, with a SIGIO then (its
 * @time is the last merged one's).  So a subscriber that relies on SIGIO
 * sets F_SETOWN and O_ASYNC before it
 * watches, or reads once after: a notice posted before O_ASYNC sent no
 * signal.  @time is when the notice was posted.
 */
struct perf_persistent_notice {
	__u32	id;
	__u32	what;
	__u64	time;
};

/**
 * struct perf_persistent_maps - argument of PERF_PERSISTENT_IOC_MAPS
 * @size:	sizeof(struct perf_persistent_maps)
 * @flags:	0, or PERF_PERSISTENT_MAPS_PREVIOUS: the table the previous
 *		boot kept in the reserved region (found at load; @needed and
 *		@processes, the other figures 0)
 * @buf:	in: user pointer to @len bytes, or 0 to ask for the figures
 *		alone
 * @len:	in: @buf's capacity; out: the bytes written
 * @needed:	out: the bytes the whole table takes as records
 * @processes:	out: processes the table holds
 * @bytes:	out: memory the table takes
 * @budget:	out: the memory it may take (module parameter maps_kb)
 * @dropped:	out: processes it could not keep within @budget, since load
 * @missed:	out: samples that asked for a process's mappings when no
 *		request could be queued, since load
 * @unsaved:	out: changes to the table not yet in its copy in the
 *		reserved region (0 when no profile is kept across a reboot)
 * @reads:	out: reads of a process's mappings, since load (VER1)
 *
 * The table of the mappings that name the samples of the profiles: the
 * events whose records carry CALLCHAIN, or IP of a source that is not a
 * tracepoint.  A sample of such an event taken in user mode, whose user
 * IPs fall in no mapping the table holds for its process, has the
 * process's executable mappings read when it returns to user mode (a
 * task_work: in its own context, before it runs on), at most once in
 * 50 ms per process, or once a second when the sample's own IP is held
 * and only its callers are not (a frame chain broken by code built
 * without frame pointers).  They are kept after the process exits or unmaps
 * them, until the budget needs the room (the processes used longest ago
 * go first) or the last profile is destroyed.  A process is its thread
 * group after an exec: a new exec is a new process.
 *
 * The records are perf's, in @buf one after the other, each ending with
 * its time (local_clock(), as the samples' TIME) in one u64 where a
 * sample_id would be:
 *
 *	PERF_RECORD_COMM, misc PERF_RECORD_MISC_COMM_EXEC: u32 pid, tid;
 *	    char comm[] (NUL-padded to 8 bytes); u64 time (when the process
 *	    was first seen)
 *	PERF_RECORD_MMAP2, misc PERF_RECORD_MISC_USER, and
 *	    PERF_RECORD_MISC_MMAP_BUILD_ID when the file has a build-id:
 *	    u32 pid, tid; u64 addr, len, pgoff; the build-id (u8 size, u8,
 *	    u16 reserved, u8 build_id[20]) or u32 maj, min (0) u64 ino,
 *	    ino_generation (0); u32 prot, flags; char filename[]
 *	    (NUL-padded to 8 bytes: the path then, "[vdso]" or "//anon");
 *	    u64 time (when the mapping was first seen)
 *
 * Each process's COMM record comes first, then its mappings by address.
 * With @buf too small for @needed bytes, nothing is written: ENOSPC.
 * Needs CAP_PERFMON or CAP_SYS_ADMIN (EPERM): it tells where other
 * processes' code is.
 */
struct perf_persistent_maps {
	__u32	size;
	__u32	flags;
	__u64	buf;
	__u64	len;
	__u64	needed;
	__u64	processes;
	__u64	bytes;
	__u64	budget;
	__u64	dropped;
	__u64	missed;
	__u64	unsaved;
	__u64	reads;
};

#define PERF_PERSISTENT_MAPS_SIZE_VER0		80	/* up to @unsaved */
#define PERF_PERSISTENT_MAPS_SIZE_VER1		88	/* @reads */

/*
 * perf_persistent_maps::flags.  While a profile is kept across a reboot
 * (PERF_PERSISTENT_CREATE_KEEP), the table is copied into the reserved
 * region a tenth of a second after each change, the processes seen last
 * first, as much as the region's area holds (maps_kb, at most 1 MiB), so
 * that the next boot names that profile's samples.
 */
#define PERF_PERSISTENT_MAPS_PREVIOUS	(1U << 0)

#define PERF_PERSISTENT_IOC_MAGIC	0xb9

/*
 * The commands that take a struct carry its size in their size bits, as
 * _IOWR() does, but the module matches them on type, number and direction
 * only: the struct's size field is its version.  A program built with a
 * later header, whose struct grew, gets the same command matched; fields
 * the module does not know must then be zero (E2BIG otherwise), and fields
 * it knows that the caller's struct lacks are taken as zero.
 */

/* Create an event; the argument is struct perf_persistent_create. */
#define PERF_PERSISTENT_IOC_CREATE	\
	_IOWR(PERF_PERSISTENT_IOC_MAGIC, 1, struct perf_persistent_create)
/*
 * The next five take an event id as the ioctl argument.
 *
 * DESTROY: remove the event from every listing and stop it; it is freed when
 *	its last reader is gone.  EBUSY if another fd owns it.
 * DETACH: the event owned by this fd becomes persistent: it outlives the fd.
 *	EALREADY if it is detached, EBUSY if another fd owns it.
 * ATTACH: bind a persistent event's lifetime to this fd again: closing the
 *	fd destroys it.  EALREADY if this fd owns it, EBUSY if another does.
 * PAUSE / RESUME: while paused, new records are dropped (and counted);
 *	what the buffers hold is kept.
 */
#define PERF_PERSISTENT_IOC_DESTROY	_IO(PERF_PERSISTENT_IOC_MAGIC, 2)
#define PERF_PERSISTENT_IOC_DETACH	_IO(PERF_PERSISTENT_IOC_MAGIC, 3)
#define PERF_PERSISTENT_IOC_ATTACH	_IO(PERF_PERSISTENT_IOC_MAGIC, 4)
#define PERF_PERSISTENT_IOC_PAUSE	_IO(PERF_PERSISTENT_IOC_MAGIC, 5)
#define PERF_PERSISTENT_IOC_RESUME	_IO(PERF_PERSISTENT_IOC_MAGIC, 6)
/* Describe one event; the argument is struct perf_persistent_info. */
#define PERF_PERSISTENT_IOC_INFO	\
	_IOWR(PERF_PERSISTENT_IOC_MAGIC, 7, struct perf_persistent_info)
/* List event ids; the argument is struct perf_persistent_list. */
#define PERF_PERSISTENT_IOC_LIST	\
	_IOWR(PERF_PERSISTENT_IOC_MAGIC, 8, struct perf_persistent_list)
/* Set or remove a trigger; the argument is struct perf_persistent_trigger. */
#define PERF_PERSISTENT_IOC_TRIGGER	\
	_IOW(PERF_PERSISTENT_IOC_MAGIC, 9, struct perf_persistent_trigger)
/*
 * WATCH: watch an event, whose id is the ioctl argument (0 for every
 * event).  This file then receives a struct perf_persistent_notice when
 * the event freezes or its trigger fires.  Needs no capability.
 *
 * WATCH_OVERFLOW: the same, and also a notice when the event stores
 * records (NOTICE_OVERFLOW).  Needs CAP_PERFMON or CAP_SYS_ADMIN (EPERM).
 *
 * PERF_PERSISTENT_WATCH_OVERFLOW or'd into WATCH's argument does what
 * WATCH_OVERFLOW does.  It is bit 32, which a 32-bit program cannot pass
 * (the argument of its ioctl() is 32 bits wide), so such a program uses
 * WATCH_OVERFLOW, which takes the id alone.  The bit stays for programs
 * built with the earlier header.
 */
#define PERF_PERSISTENT_WATCH_OVERFLOW	(1ULL << 32)
#define PERF_PERSISTENT_IOC_WATCH	_IO(PERF_PERSISTENT_IOC_MAGIC, 10)
#define PERF_PERSISTENT_IOC_WATCH_OVERFLOW \
	_IO(PERF_PERSISTENT_IOC_MAGIC, 11)
/* The profiles' mappings; the argument is struct perf_persistent_maps. */
#define PERF_PERSISTENT_IOC_MAPS	\
	_IOWR(PERF_PERSISTENT_IOC_MAGIC, 12, struct perf_persistent_maps)

#endif /* _UAPI_LINUX_PERF_PERSISTENT_H */
