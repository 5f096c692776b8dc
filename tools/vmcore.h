/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent tool: the physical memory of a crashed kernel, read out
 * of its crash dump (vmcore.c): an ELF core (/proc/vmcore, or a copy of
 * it), or what makedumpfile writes, kdump-compressed and flattened.
 */
#ifndef PERF_PERSISTENT_VMCORE_H
#define PERF_PERSISTENT_VMCORE_H

#include <stddef.h>
#include <stdint.h>

struct vmcore;

/*
 * Open the dump at @path (see the formats below).  NULL with the reason
 * reported through pp_error(), naming the file.
 */
struct vmcore *vmcore_open(const char *path);
void vmcore_close(struct vmcore *vc);
/*
 * The page size of the dumped kernel: the kdump header's block_size; for
 * ELF, VMCOREINFO's "PAGESIZE=" in the PT_NOTE segment, else the host's.
 */
size_t vmcore_page_size(const struct vmcore *vc);
/*
 * Read @len bytes at physical address @paddr into @buf.  0 when every
 * byte is in the dump; 1 when some are not (a page makedumpfile left out,
 * an address outside every segment/beyond max_mapnr): those bytes read as
 * zero.  -1 on an I/O error or a damaged dump (reported, naming what).
 */
int vmcore_read(struct vmcore *vc, uint64_t paddr, void *buf, size_t len);
/*
 * Call @fn(@arg, paddr) for each page held in the dump whose first @len
 * (1..64) bytes are @magic, in ascending physical address order.  Stops
 * when @fn returns non-zero and returns that; 0 at the end; -1 on error
 * (reported).
 */
int vmcore_scan(struct vmcore *vc, const void *magic, size_t len,
		int (*fn)(void *arg, uint64_t paddr), void *arg);
/*
 * What the dump is, for messages: "ELF", "kdump-compressed (zlib)",
 * "flattened kdump-compressed (zlib)", ...
 */
const char *vmcore_kind(const struct vmcore *vc);

/*
 * For tests: load @lib (a soname) in place of the library that
 * decompresses @method ("zlib", "lzo", "snappy", "zstd"); NULL restores
 * the usual one.  0, or -1 for an unknown @method.
 */
int vmcore_test_library(const char *method, const char *lib);

#endif /* PERF_PERSISTENT_VMCORE_H */
