/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent tool: what the perf.data and trace.dat exports share.
 */
#ifndef PERF_PERSISTENT_EXPORT_H
#define PERF_PERSISTENT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf-persistent.h"

/*
 * The kernel's trace ring buffer as a trace.dat holds its pages
 * (kernel/trace/ring_buffer.c): a page header of a u64 time and a u64
 * count of bytes written, then records, each a 32-bit header of a 5-bit
 * type_len and a 27-bit time delta from the record before.  A type_len of
 * 1 to PP_RB_MAX_TYPE_LEN is the payload's length in 4-byte words; 0 means
 * a u32 length follows; the larger values are the special records.
 */
#define PP_RB_PAGE_HEADER	16
#define PP_RB_TYPE_PADDING	29
#define PP_RB_TYPE_TIME_EXTEND	30
#define PP_RB_TYPE_TIME_STAMP	31
#define PP_RB_MAX_TYPE_LEN	28
#define PP_RB_DELTA_BITS	27

/* A growable byte buffer; @failed once an allocation failed. */
struct blob {
	unsigned char	*p;
	size_t		len;
	size_t		cap;
	bool		failed;
};

void put(struct blob *b, const void *data, size_t len);
void put_u8(struct blob *b, uint8_t v);
void put_u32(struct blob *b, uint32_t v);
void put_u64(struct blob *b, uint64_t v);
void put_str(struct blob *b, const char *s);

/*
 * Append the tracing data of the tracepoints of the @nr events @ev (each
 * once) to @b: perf's trace-event-info layout of @version "0.6", or
 * trace.dat's header of @version "6", ending with the names @cmdlines
 * ("PID COMM" lines; NULL for none).  Returns 0, or -1 (reported).
 */
int export_formats(struct blob *b, const struct pp_export *ev, size_t nr,
		   const char *version, const struct blob *cmdlines);

/*
 * Write @len bytes @data to the file @rel under @dir, making its
 * directories.  Returns 0, or -1 (reported).
 */
int export_write_file(const char *dir, const char *rel, const void *data,
		      size_t len);

/*
 * Write a tracing directory under @dir as trace-cmd's writer reads one:
 * events/header_page and header_event, each tracepoint's
 * events/SYSTEM/NAME/format, and saved_cmdlines holding @cmdlines.
 * Returns 0, or -1 (reported).
 */
int export_tracing_dir(const char *dir, const struct pp_export *ev, size_t nr,
		       const struct blob *cmdlines);

/*
 * Call @fn for each task the records of the @nr events @ev name, by
 * thread id, with its process id and the name of its oldest mention (its
 * newest if @newest).  Returns 0, or -1 (reported).
 */
int export_tasks(const struct pp_export *ev, size_t nr, bool newest,
		 void (*fn)(void *arg, int pid, int tid, const char *comm,
			    size_t comm_max),
		 void *arg);

/*
 * Append to @b the MMAP and MMAP2 records of the kernel, its modules and
 * the processes of the samples of the @nr events @ev that are profiles of
 * this boot (the module's table of them, then /proc), with the sample_id
 * fields of the first event's attr, and to @build_ids perf's build-id
 * table of the binaries they name; with @cache, put those binaries into
 * perf's build-id cache (maps.c).  Returns 0, or -1 (reported).
 */
int export_maps(struct blob *b, struct blob *build_ids,
		const struct pp_export *ev, size_t nr, bool cache);

/* Bytes of the sample_id fields of non-sample records of @sample_type. */
size_t sample_id_size(uint64_t sample_type);

/*
 * The sample_id fields that end a non-sample record of an event of
 * @sample_type, in perf's order.
 */
void put_sample_id(struct blob *b, uint64_t sample_type, uint32_t pid,
		   uint32_t tid, uint64_t time, uint64_t id, uint32_t cpu);

#endif /* PERF_PERSISTENT_EXPORT_H */
