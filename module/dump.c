// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: crash dumps (dump.h)
 *
 * On panic and on oops (panic.c's notifiers, which call pp_dump() after
 * the fatal hardware errors' records are written), the newest records of
 * the events flagged for it go to the kernel log, once per boot.  Module
 * parameters:
 *
 *   crash_dump=     dump on panic and oops (default Y; writable)
 *   crash_dump_kb=  bytes of records per event, shared by its CPUs
 *                   (default 16; writable)
 *
 * Contexts: the notifiers run on the crashing CPU.  The other CPUs are
 * stopped, possibly in the middle of a record, and any lock may be held,
 * so nothing here takes a lock or allocates.  The events are found under
 * RCU, in the registry's xarray.  A CPU whose buffer a writer is in is
 * skipped and named in the dump.  The format text of a tracepoint source
 * is made when the event is created (process context), from the same
 * definition tracefs prints it from.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/trace_events.h>

#include "buffer.h"
#include "perf_persistent/dump.h"
#include "event.h"

static bool crash_dump = true;
module_param(crash_dump, bool, 0644);
MODULE_PARM_DESC(crash_dump, "on panic and oops, write the newest records of the events flagged for it to the kernel log (default Y)");

static unsigned int crash_dump_kb = 16;
module_param(crash_dump_kb, uint, 0644);
MODULE_PARM_DESC(crash_dump_kb, "KiB of records a crash dump holds per event (default 16)");

/* The largest format text kept; a longer one is not kept. */
#define PP_FORMAT_MAX	(2 * PAGE_SIZE)

/* Text built up to a bounded size; @len past @size marks an overflow. */
struct pp_text {
	char	*buf;
	size_t	size;
	size_t	len;
};

static __printf(2, 3) void text_add(struct pp_text *t, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	if (t->len < t->size)
		t->len += vsnprintf(t->buf + t->len, t->size - t->len, fmt, args);
	va_end(args);
}

/**
 * pp_dump_format - the tracefs format text of a tracepoint
 * @call: the tracepoint's event (a counter's tp_event)
 *
 * As tracefs prints events/SYSTEM/NAME/format (f_show() in
 * kernel/trace/trace_events.c), from the event's field definitions: the
 * common fields of struct trace_entry, then each field aligned after the
 * last, then the print format.  Events that define their fields with code
 * (syscalls, kprobes) have no such definitions, and get no text.
 *
 * Process context.
 *
 * Return: the text (kfree() it), or NULL.
 */
char *pp_dump_format(struct trace_event_call *call)
{
	const struct trace_event_fields *f = call->class->fields_array;
	unsigned int offset = sizeof(struct trace_entry);
	struct pp_text t = { .size = PP_FORMAT_MAX };
	const char *br;

	if (!f || !call->print_fmt)
		return NULL;
	t.buf = kmalloc(t.size, GFP_KERNEL);
	if (!t.buf)
		return NULL;
	text_add(&t, "name: %s\nID: %d\nformat:\n", trace_event_name(call),
		 call->event.type);
	text_add(&t, "%s", "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (; f->type; f++) {
		if (f->type == TRACE_FUNCTION_TYPE)
			goto none;
		offset = ALIGN(offset, f->align);
		br = strchr(f->type, '[');
		if (!br || str_has_prefix(f->type, "__data_loc"))
			text_add(&t, "\tfield:%s %s;", f->type, f->name);
		else if (f->len)
			text_add(&t, "\tfield:%.*s %s[%d];", (int)(br - f->type),
				 f->type, f->name, f->len);
		else
			text_add(&t, "\tfield:%.*s %s[];", (int)(br - f->type),
				 f->type, f->name);
		text_add(&t, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", offset,
			 f->size, !!f->is_signed);
		offset += f->size;
	}
	text_add(&t, "\nprint fmt: %s\n", call->print_fmt);
	/* vsnprintf() returns what it would have written; room for the NUL? */
	if (t.len >= t.size)
		goto none;
	return t.buf;
none:
	kfree(t.buf);
	return NULL;
}

/**
 * pp_tracepoint_lookup - a tracepoint's perf id, and its format text
 * @system: its trace system
 * @name: its name
 * @id: out: its id, as tracefs events/<system>/<name>/id shows it
 * @format: out if not NULL: its format text (pp_dump_format()), NULL if
 *	it has none or no memory was left for it
 *
 * Process context.
 *
 * Return: 0, -ENOENT if this kernel has no such tracepoint, or the
 * errno of trace_get_event_file().
 */
int pp_tracepoint_lookup(const char *system, const char *name, u64 *id,
			 char **format)
{
	struct trace_event_file *file;

	file = trace_get_event_file(NULL, system, name);
	if (IS_ERR(file))
		return PTR_ERR(file) == -EINVAL ? -ENOENT : PTR_ERR(file);
	*id = file->event_call->event.type;
	if (format)
		*format = pp_dump_format(file->event_call);
	trace_put_event_file(file);
	return 0;
}

/* The line and chunk buffers of the one dump a boot writes. */
static atomic_t pp_dumped = ATOMIC_INIT(0);
static char pp_line[PP_DUMP_LINE_MAX];
static u8 pp_chunk[PP_DUMP_CHUNK];
static u32 pp_seq;

static void emit(void)
{
	pr_emerg("%s\n", pp_line);
	pp_seq++;
}

/* Emit @len bytes as @kind lines ('F', 'R'), from @data or from @buf at @pos. */
static void emit_data(char kind, u32 id, int cpu, const void *data,
		      struct pp_buffer *buf, unsigned long pos,
		      unsigned long len)
{
	unsigned long off, n;

	for (off = 0; off < len; off += n) {
		n = min_t(unsigned long, len - off, PP_DUMP_CHUNK);
		if (buf)
			pp_buffer_read(buf, pos + off, pp_chunk, n);
		else
			memcpy(pp_chunk, data + off, n);
		if (pp_dump_data_line(pp_line, sizeof(pp_line), pp_seq, kind,
				      id, cpu, off, pp_chunk, n) > 0)
			emit();
	}
}

/*
 * Emit the tasks in the buffer's cache of COMM records.  They name the
 * records whose COMM record is older than what the dump holds.
 */
static void dump_tasks(u32 id, unsigned int cpu, struct pp_buffer *buf)
{
	char comm[4 * DIV_ROUND_UP(TASK_COMM_LEN, 3) + 1];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(buf->comm); i++) {
		const struct pp_comm_slot *slot = &buf->comm[i];

		if (!slot->comm[0])
			continue;
		pp_dump_base64(comm, slot->comm, strnlen(slot->comm, TASK_COMM_LEN));
		snprintf(pp_line, sizeof(pp_line), "ppdump %u T %u %u %u %u %s",
			 pp_seq, id, cpu, slot->pid, slot->tid, comm);
		emit();
	}
}

/* Emit the event's lines.  The registry's RCU read side is held. */
static void dump_event(struct pp_event *ev)
{
	unsigned long budget = (unsigned long)crash_dump_kb << 10;
	unsigned long start, len, per_cpu;
	unsigned int cpu, nr = 0;
	u32 id = ev->entry.id;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "crash dump outside RCU");
	snprintf(pp_line, sizeof(pp_line), "ppdump %u E %u %llx %u %llx %s %s",
		 pp_seq, id, ev->attr.sample_type, ev->attr.type,
		 ev->attr.config, ev->tp_name[0] ? ev->tp_name : "-",
		 ev->entry.name);
	emit();
	if (ev->format)
		emit_data('F', id, -1, ev->format, NULL, 0, strlen(ev->format));
	for_each_possible_cpu(cpu)
		nr += !!pp_cpu_buf(per_cpu_ptr(ev->cpus, cpu));
	if (!nr)
		return;
	per_cpu = budget / nr;
	for_each_possible_cpu(cpu) {
		struct pp_buffer *buf = pp_cpu_buf(per_cpu_ptr(ev->cpus, cpu));

		if (!buf)
			continue;
		if (pp_dump_range(buf, per_cpu, &start, &len)) {
			snprintf(pp_line, sizeof(pp_line), "ppdump %u X %u %u",
				 pp_seq, id, cpu);
			emit();
			continue;
		}
		emit_data('R', id, cpu, NULL, buf, start, len);
		if (ev->fmt.comm_size)
			dump_tasks(id, cpu, buf);
	}
}

/* Write the dump, once per boot.  On the crashing CPU, in any context. */
/**
 * pp_dump - write the crash dump to the kernel log, once per boot
 * @reason: "panic" or "oops", in its first line
 *
 * On the crashing CPU, from panic.c's notifiers: takes no lock and
 * allocates nothing.
 */
void pp_dump(const char *reason)
{
	if (!READ_ONCE(crash_dump) || atomic_xchg(&pp_dumped, 1))
		return;
	pp_seq = 0;
	snprintf(pp_line, sizeof(pp_line), "ppdump 0 B %d %s", PP_DUMP_VERSION,
		 reason);
	emit();
	pp_events_walk_crash_dump(dump_event);
	snprintf(pp_line, sizeof(pp_line), "ppdump %u Z %u", pp_seq, pp_seq + 1);
	emit();
}
