/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: generate the direct path's encoders from one trace
 * header of the kernel being built against (PP_TRACE_HEADER).
 *
 * The kernel builds its ftrace and perf probes by reading each
 * include/trace/events/ header several times with different macro sets
 * (include/trace/stages/).  This does the same with the kernel's own
 * stages 1, 2, 5 and 3+6, and a last stage of ours in place of perf's
 * perf_trace_<class>(): pp_direct_probe_<class>(), which writes the record
 * the perf path would give straight into the event's buffer.  So every
 * field is laid out and assigned by the kernel's own TP_STRUCT__entry and
 * TP_fast_assign of that version; nothing is copied by hand.
 *
 * Only module/direct_events.c includes this, once per header, after a
 * normal read of each.  CREATE_TRACE_POINTS is never defined there: the
 * trailing <trace/define_trace.h> of each header then does nothing, and no
 * tracepoint is defined or referenced by name.  stages/init.h is not
 * included: it would add the headers' enum maps to this module.
 *
 * No include guard: read once per header.
 */
#ifndef PP_TRACE_HEADER
#error "define PP_TRACE_HEADER before including direct_stages.h"
#endif
/*
 * PP_DIRECT_SINGLE, true when the header's tracepoints fire only in a
 * task, sets struct pp_direct_desc.single for its encoders; false unless
 * the includer says so.
 */
#ifndef PP_DIRECT_SINGLE
#define PP_DIRECT_SINGLE false
#endif

#define TRACE_HEADER_MULTI_READ
/* ras_event.h defines it without taking back the last header's. */
#undef TRACE_INCLUDE_FILE

/* Every event shape becomes a class and its events, as trace_events.h has it. */
#undef TRACE_EVENT
#define TRACE_EVENT(call, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(call, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)); \
	DEFINE_EVENT(call, call, PARAMS(proto), PARAMS(args));
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(call, proto, args, tstruct, assign, print, reg, unreg) \
	TRACE_EVENT(call, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
/* A condition is tested by trace_<name>() before any probe runs. */
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(call, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(call, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(call, proto, args, cond, tstruct, assign, print, \
			    reg, unreg)					\
	TRACE_EVENT(call, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
/*
 * A syscall tracepoint (6.13) calls its probes preemptible, where they may
 * fault: its class is a syscall class, whose probe disables preemption
 * itself (pass 4).  Before 6.13 the syscalls are TRACE_EVENT_FN().
 */
#undef TRACE_EVENT_SYSCALL
#define TRACE_EVENT_SYSCALL(call, proto, args, tstruct, assign, print, reg, unreg) \
	DECLARE_EVENT_SYSCALL_CLASS(call, PARAMS(proto), PARAMS(args),	\
				    PARAMS(tstruct), PARAMS(assign),	\
				    PARAMS(print));			\
	DEFINE_EVENT(call, call, PARAMS(proto), PARAMS(args));
#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS(call, proto, args, tstruct, assign, print) \
	DECLARE_EVENT_CLASS(call, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print))
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(template, evt, proto, args, reg, unreg)	\
	DEFINE_EVENT(template, evt, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, evt, proto, args, print)		\
	DEFINE_EVENT(template, evt, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, evt, proto, args, cond)	\
	DEFINE_EVENT(template, evt, PARAMS(proto), PARAMS(args))
#undef TRACE_EVENT_NOP
#define TRACE_EVENT_NOP(call, proto, args, tstruct, assign, print)
#undef DEFINE_EVENT_NOP
#define DEFINE_EVENT_NOP(template, evt, proto, args)
#undef DECLARE_EVENT_CLASS_NOP
#define DECLARE_EVENT_CLASS_NOP(call, proto, args, tstruct, assign, print)
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(evt, value)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(evt, expr...)
#undef DECLARE_TRACE
#define DECLARE_TRACE(call, proto, args)
#undef DECLARE_TRACE_CONDITION
#define DECLARE_TRACE_CONDITION(call, proto, args, cond)
#undef DECLARE_TRACE_EVENT
#define DECLARE_TRACE_EVENT(call, proto, args)
#undef DECLARE_TRACE_EVENT_CONDITION
#define DECLARE_TRACE_EVENT_CONDITION(call, proto, args, cond)
#undef DECLARE_TRACE_SYSCALL
#define DECLARE_TRACE_SYSCALL(call, proto, args)
#undef DECLARE_TRACE_EVENT_SYSCALL
#define DECLARE_TRACE_EVENT_SYSCALL(call, proto, args)
#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)

/*
 * Pass 1 (kernel stage 1): the payload, struct pp_raw_<class>; and the same
 * fields packed, whose size tells whether the payload has holes.
 */
#include <trace/stages/stage1_struct_define.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	struct pp_raw_##call {						\
		struct trace_entry	ent;				\
		tstruct							\
		char			__data[];			\
	};								\
	struct pp_packed_##call {					\
		tstruct							\
	} __packed;
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, evt, proto, args)
#include PP_TRACE_HEADER

/*
 * Pass 1b (ours): each field's name, offset and size in struct
 * pp_raw_<class>, which pp_direct_layout_check() compares with the
 * kernel's definition of the event before the direct path is used.
 */
#undef __field
#define __field(type, item)						\
	{ #item, offsetof(pp_cur_t, item), sizeof(type) },
#undef __field_ext
#define __field_ext(type, item, filter_type)	__field(type, item)
#undef __field_struct
#define __field_struct(type, item)		__field(type, item)
#undef __field_struct_ext
#define __field_struct_ext(type, item, filter_type) __field(type, item)
#undef __array
#define __array(type, item, len)					\
	{ #item, offsetof(pp_cur_t, item), sizeof(type) * (len) },
#undef __dynamic_array
#define __dynamic_array(type, item, len)				\
	{ #item, offsetof(pp_cur_t, __data_loc_##item), sizeof(u32) },
#undef __string
#define __string(item, src)		__dynamic_array(char, item, -1)
#undef __string_len
#define __string_len(item, src, len)	__dynamic_array(char, item, -1)
#undef __vstring
#define __vstring(item, fmt, ap)	__dynamic_array(char, item, -1)
#undef __bitmask
#define __bitmask(item, nr_bits)	__dynamic_array(char, item, -1)
#undef __cpumask
#define __cpumask(item)			__dynamic_array(char, item, -1)
#undef __sockaddr
#define __sockaddr(field, len)		__dynamic_array(u8, field, len)
#undef __rel_dynamic_array
#define __rel_dynamic_array(type, item, len)				\
	{ #item, offsetof(pp_cur_t, __rel_loc_##item), sizeof(u32) },
#undef __rel_string
#define __rel_string(item, src)		__rel_dynamic_array(char, item, -1)
#undef __rel_string_len
#define __rel_string_len(item, src, len) __rel_dynamic_array(char, item, -1)
#undef __rel_bitmask
#define __rel_bitmask(item, nr_bits)	__rel_dynamic_array(char, item, -1)
#undef __rel_cpumask
#define __rel_cpumask(item)		__rel_dynamic_array(char, item, -1)
#undef __rel_sockaddr
#define __rel_sockaddr(field, len)	__rel_dynamic_array(u8, field, len)
#undef TP_STRUCT__entry
#define TP_STRUCT__entry(args...) args
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
static const struct pp_direct_field *pp_direct_fields_##call(unsigned int *nr) \
{									\
	typedef struct pp_raw_##call pp_cur_t;				\
	static const struct pp_direct_field fields[] = { tstruct };	\
									\
	*nr = ARRAY_SIZE(fields);					\
	return fields;							\
}
#include PP_TRACE_HEADER

/* Pass 2 (stage 2): struct pp_offsets_<class>, one u32 per dynamic field. */
#include <trace/stages/stage2_data_offsets.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	struct pp_offsets_##call {					\
		tstruct;						\
	};
#include PP_TRACE_HEADER

/* Pass 3 (stage 5): the size of the dynamic part, and where each goes. */
#include <trace/stages/stage5_get_offsets.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
static __always_inline int pp_get_offsets_##call(			\
	struct pp_offsets_##call *__data_offsets, proto)		\
{									\
	int __data_size = 0;						\
	int __maybe_unused __item_length;				\
	struct pp_raw_##call __maybe_unused *entry;			\
									\
	tstruct;							\
									\
	return __data_size;						\
}
#include PP_TRACE_HEADER

/*
 * Pass 4 (stages 3 and 6, our last stage): the probe.  As
 * perf_trace_<class>(): the payload's size rounded so that it and its u32
 * size end 8-byte aligned, the dynamic fields' locations, then the event's
 * own assignments.  __perf_count() sets the record's PERIOD as perf's
 * does; __perf_task() only matters to per-task perf events.  The IP is the
 * return address of the probe's call, as perf's (perf_fetch_caller_regs()
 * in perf_trace_<class>()).  The record is written by
 * pp_direct_record_<class>(), inlined into pp_direct_probe_<class>(), the
 * probe of one event, and into pp_direct_one_<class>(), which
 * pp_direct_hub_<class>(), the probe of the cgroup-scoped events of a hub
 * (direct.h), calls for each of them whose cgroup holds the running task,
 * and which the module calls itself for a record the tracepoint did not
 * make (struct pp_direct_desc, @one): such a record's origin, when not 0,
 * replaces the payload's common_pid.
 * A hit that none of them keeps costs the lookup alone, in a probe with a
 * small frame.
 */
#include <trace/stages/stage3_trace_output.h>
#include <trace/stages/stage6_event_callback.h>
#ifdef PP_DIRECT_NO_PROBES
/* The layouts alone (KUnit): no probe, nothing the probes call. */
#define PP_DIRECT_PROBE(probe)	NULL
#undef __PP_DIRECT_CLASS
#define __PP_DIRECT_CLASS(call, proto, args, tstruct, assign, preemptible) \
static const bool pp_direct_preemptible_##call = (preemptible);	\
static inline void pp_direct_probe_##call(void *__data, proto) { }	\
static inline void pp_direct_hub_##call(void *__data, proto) { }
#else
#define PP_DIRECT_PROBE(probe)	(probe)
#undef __perf_count
#define __perf_count(c)	(__count = (c))
#undef __PP_DIRECT_CLASS
#define __PP_DIRECT_CLASS(call, proto, args, tstruct, assign, preemptible) \
static const bool pp_direct_preemptible_##call = (preemptible);	\
static __always_inline void						\
pp_direct_record_##call(void *__data, unsigned long __ip, int __origin,	\
			proto)						\
{									\
	struct pp_offsets_##call __maybe_unused __data_offsets;	\
	struct pp_raw_##call *entry;					\
	struct pp_direct_rec __rec __uninitialized;			\
	u64 __count __maybe_unused = 1;				\
	int __data_size, __entry_size;					\
									\
	__data_size = pp_get_offsets_##call(&__data_offsets, args);	\
	__entry_size = ALIGN(__data_size + sizeof(*entry) + sizeof(u32), \
			     sizeof(u64)) - sizeof(u32);		\
	entry = pp_direct_begin(__data, &__rec, __entry_size,		\
				sizeof(*entry),				\
				offsetof(struct pp_raw_##call, __data),	\
				offsetof(struct pp_raw_##call, __data) !=	\
				sizeof(struct trace_entry) +		\
				sizeof(struct pp_packed_##call),	\
				__ip, PP_DIRECT_SINGLE);		\
	if (!entry)							\
		return;							\
	tstruct								\
	{ assign; }							\
	if (__origin)							\
		entry->ent.pid = __origin;				\
	if (__count != 1)						\
		pp_direct_period(&__rec, __count);			\
	pp_direct_end(&__rec);						\
}									\
static notrace void pp_direct_probe_##call(void *__data, proto)	\
{									\
	u64 __count __maybe_unused;	/* args' __perf_count() sets it */ \
									\
	if (pp_direct_preemptible_##call)				\
		preempt_disable_notrace();				\
	pp_direct_record_##call(__data, _RET_IP_, 0, args);		\
	if (pp_direct_preemptible_##call)				\
		preempt_enable_notrace();				\
}									\
static noinline notrace void						\
pp_direct_one_##call(void *__data, unsigned long __ip, int __origin,	\
		     proto)						\
{									\
	u64 __count __maybe_unused;					\
									\
	pp_direct_record_##call(__data, __ip, __origin, args);		\
}									\
static notrace void pp_direct_hub_##call(void *__data, proto)		\
{									\
	u64 __count __maybe_unused;					\
	struct pp_direct_hub_iter __it;					\
	struct pp_event *__ev;						\
									\
	if (pp_direct_preemptible_##call)				\
		preempt_disable_notrace();				\
	for (__ev = pp_direct_hub_first(__data, task_dfl_cgroup(current), \
					&__it); __ev;				\
	     __ev = pp_direct_hub_next(&__it, __ev))			\
		pp_direct_one_##call(__ev, _RET_IP_, 0, args);		\
	if (pp_direct_preemptible_##call)				\
		preempt_enable_notrace();				\
}
#endif /* PP_DIRECT_NO_PROBES */
/*
 * Whether the tracepoint calls the probe preemptible: every one from 7.0
 * (PP_TRACEPOINT_PREEMPTIBLE), a syscall one from 6.13.  Such a probe
 * disables preemption for the whole record, as perf_trace_<class>() does
 * there: the record's per-CPU buffer, scratch and context level stay
 * this CPU's, and the preempt count in its common fields counts that
 * disable as perf's counts its own (on 6.x both count the tracepoint's).
 */
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	__PP_DIRECT_CLASS(call, PARAMS(proto), PARAMS(args),		\
			  PARAMS(tstruct), PARAMS(assign),		\
			  PP_TRACEPOINT_PREEMPTIBLE)
#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS(call, proto, args, tstruct, assign, print) \
	__PP_DIRECT_CLASS(call, PARAMS(proto), PARAMS(args),		\
			  PARAMS(tstruct), PARAMS(assign), true)
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, evt, proto, args)			\
static inline void __maybe_unused pp_direct_check_##evt(void)		\
{									\
	check_trace_callback_type_##evt(pp_direct_probe_##template);	\
	check_trace_callback_type_##evt(pp_direct_hub_##template);	\
}									\
static struct pp_direct_state pp_direct_state_##evt;			\
static const struct pp_direct_desc pp_direct_desc_##evt __maybe_unused = { \
	.system		= __stringify(TRACE_SYSTEM),			\
	.name		= #evt,						\
	.probe		= PP_DIRECT_PROBE(pp_direct_probe_##template),	\
	.hub_probe	= PP_DIRECT_PROBE(pp_direct_hub_##template),	\
	.one		= PP_DIRECT_PROBE(pp_direct_one_##template),	\
	.fields		= pp_direct_fields_##template,			\
	.raw_size	= sizeof(struct pp_raw_##template),		\
	.preemptible	= pp_direct_preemptible_##template,		\
	.single		= PP_DIRECT_SINGLE,				\
	.state		= &pp_direct_state_##evt,			\
};
#include PP_TRACE_HEADER

#undef PP_DIRECT_PROBE
#undef TRACE_HEADER_MULTI_READ
#undef PP_TRACE_HEADER
#undef PP_DIRECT_SINGLE
