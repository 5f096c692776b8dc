/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crash dumps: on panic and oops, the newest records of the events flagged
 * for it are written to the kernel log as text lines that survive in a
 * console capture or in pstore, and that the tool decodes
 * ("perf persistent script --from-log").
 *
 * Every line is "ppdump SEQ KIND ...", SEQ counting the lines of one dump
 * from 0:
 *
 *   ppdump 0 B 1 REASON                 begin, format version 1
 *   ppdump S E ID SAMPLE_TYPE TYPE CONFIG TP NAME
 *                                       an event (hex sample_type, config;
 *                                       TP its tracepoint "system:name", or
 *                                       "-")
 *   ppdump S F ID OFFSET CRC DATA       bytes OFFSET.. of its source's
 *                                       tracefs format text
 *   ppdump S R ID CPU OFFSET CRC DATA   bytes OFFSET.. of CPU's records,
 *                                       the newest first as a buffer holds
 *                                       them
 *   ppdump S T ID CPU PID TID COMM      a task that CPU's COMM records
 *                                       named last (COMM in base64), for
 *                                       the records whose COMM record is
 *                                       not dumped
 *   ppdump S X ID CPU                   CPU skipped: a writer was mid-record
 *   ppdump S Z LINES                    end; LINES lines in all
 *
 * DATA is base64 (RFC 4648) of at most PP_DUMP_CHUNK bytes, and CRC is
 * their CRC-32 in hex, as zlib's crc32() computes it.  So a line lost or
 * garbled in the capture is noticed, and the records before it are still
 * read.
 *
 * The encoders below are pure functions, tested by kunit/dump_test.c;
 * pp_dump_range() reads a buffer that no writer is in.  They run in any
 * context, NMI and panic included, take no lock, allocate nothing and do
 * bounded work.
 */
#ifndef _PERF_PERSISTENT_DUMP_H
#define _PERF_PERSISTENT_DUMP_H

#include <linux/types.h>

struct pp_buffer;

#define PP_DUMP_VERSION		1
/* Bytes of data per line: 128 base64 characters. */
#define PP_DUMP_CHUNK		96
/* A line: prefix, numbers, CRC and the base64 of a chunk. */
#define PP_DUMP_LINE_MAX	256

unsigned int pp_dump_base64(char *dst, const void *src, unsigned int len);
int pp_dump_data_line(char *line, size_t size, u32 seq, char kind, u32 id,
		      int cpu, u32 offset, const void *data, unsigned int len);
int pp_dump_range(const struct pp_buffer *buf, unsigned long budget,
		  unsigned long *start, unsigned long *len);

struct trace_event_call;

char *pp_dump_format(struct trace_event_call *call);
int pp_tracepoint_lookup(const char *system, const char *name, u64 *id,
			 char **format);
void pp_dump(const char *reason);

#endif /* _PERF_PERSISTENT_DUMP_H */
