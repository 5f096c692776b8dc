// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: crash-dump encoding (dump.h): the text lines of a dump,
 * and which records of a buffer a dump of bounded size holds.
 *
 * Any context, the panicking CPU included.  Nothing here takes a lock or
 * allocates, and the work is bounded by the bytes dumped.
 */

#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>

#include "buffer.h"
#include "perf_persistent/dump.h"

static const char pp_b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * pp_dump_base64 - base64 (RFC 4648, padded) of @len bytes
 * @dst: room for 4 * DIV_ROUND_UP(@len, 3) + 1 characters
 * @src: the bytes
 * @len: their number
 *
 * Return: the characters written, not counting the terminating NUL.
 */
unsigned int pp_dump_base64(char *dst, const void *src, unsigned int len)
{
	const u8 *s = src;
	unsigned int i, n = 0;
	u32 v;

	for (i = 0; i + 2 < len; i += 3) {
		v = s[i] << 16 | s[i + 1] << 8 | s[i + 2];
		dst[n++] = pp_b64[v >> 18];
		dst[n++] = pp_b64[(v >> 12) & 63];
		dst[n++] = pp_b64[(v >> 6) & 63];
		dst[n++] = pp_b64[v & 63];
	}
	if (i < len) {
		v = s[i] << 16 | (i + 1 < len ? s[i + 1] << 8 : 0);
		dst[n++] = pp_b64[v >> 18];
		dst[n++] = pp_b64[(v >> 12) & 63];
		dst[n++] = i + 1 < len ? pp_b64[(v >> 6) & 63] : '=';
		dst[n++] = '=';
	}
	dst[n] = '\0';
	return n;
}

/**
 * pp_dump_data_line - an F or R line of a dump
 * @line: out
 * @size: room at @line, at least PP_DUMP_LINE_MAX
 * @seq: the line's number in the dump
 * @kind: 'F' (format text: @cpu is not printed) or 'R' (records)
 * @id: the event
 * @cpu: the CPU whose records these are
 * @offset: where @data starts in its stream
 * @data: the bytes
 * @len: their number, at most PP_DUMP_CHUNK
 *
 * Return: the line's length, or -EINVAL if it does not fit.
 */
int pp_dump_data_line(char *line, size_t size, u32 seq, char kind, u32 id,
		      int cpu, u32 offset, const void *data, unsigned int len)
{
	u32 crc = crc32_le(~0U, data, len) ^ ~0U;
	int n;

	if (len > PP_DUMP_CHUNK || size < PP_DUMP_LINE_MAX)
		return -EINVAL;
	if (kind == 'F')
		n = scnprintf(line, size, "ppdump %u F %u %u %08x ", seq, id,
			      offset, crc);
	else
		n = scnprintf(line, size, "ppdump %u R %u %d %u %08x ", seq, id,
			      cpu, offset, crc);
	return n + pp_dump_base64(line + n, data, len);
}

/**
 * pp_dump_range - the newest records of a buffer within a budget
 * @buf: a buffer no writer is in (its CPU stopped or this one, outside
 *	the record path)
 * @budget: bytes the records may take
 * @start: out: the newest record's position
 * @len: out: bytes from @start of whole records, the newest first
 *
 * Walks the accounted records from the newest, as far as they fit @budget
 * and look whole (a header of a plausible size).
 *
 * Return: 0; -EBUSY if a writer was in the buffer (its record, and the
 * oldest records it may be overwriting, are not whole).
 */
int pp_dump_range(const struct pp_buffer *buf, unsigned long budget,
		  unsigned long *start, unsigned long *len)
{
	unsigned long pos, end;
	struct perf_event_header hdr;

	if (local_read(&buf->nest))
		return -EBUSY;
	pos = buf->done;
	end = buf->tail;
	*start = pos;
	while (pos != end) {
		if (end - pos < sizeof(hdr))
			break;
		pp_buffer_read(buf, pos, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size % PP_RECORD_ALIGN ||
		    hdr.size > end - pos || pos + hdr.size - *start > budget)
			break;
		pos += hdr.size;
	}
	*len = pos - *start;
	return 0;
}
