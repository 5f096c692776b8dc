/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the GNU build-id among ELF notes: shared by the module (the
 * mappings a profile's samples name, module/maps.c), its KUnit suite and
 * the tool (the kernel's and the binaries' build-ids, tools/maps.c).
 * Header-only, pure, bounds-checked, no libc.
 */
#ifndef _PERF_PERSISTENT_ELFNOTE_H
#define _PERF_PERSISTENT_ELFNOTE_H

#include <linux/types.h>

/* The longest build-id perf keeps (BUILD_ID_SIZE): SHA-1's 20 bytes. */
#define PP_BUILD_ID_MAX		20

/* NT_GNU_BUILD_ID, the note type of a build-id, with the name "GNU". */
#define PP_NT_GNU_BUILD_ID	3

/* A little-endian u32 at @p, whatever its alignment. */
static inline __u32 pp_elfnote_u32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

/**
 * pp_elfnote_build_id - the build-id among the notes at @p
 * @p: the notes: a PT_NOTE segment, a .note section or /sys/kernel/notes
 * @len: their bytes
 * @id: out: the build-id, PP_BUILD_ID_MAX bytes of room
 *
 * Notes are a name size, a descriptor size and a type (u32 each, the
 * machine's order: little-endian on the architectures the project runs
 * on), then the name and the descriptor, each padded to 4 bytes.  A note
 * that runs past @len ends the search.  A build-id longer than
 * PP_BUILD_ID_MAX is not one perf takes.
 *
 * Return: the build-id's length, or 0 if the notes have none.
 */
static inline int pp_elfnote_build_id(const unsigned char *p, __u64 len,
				      __u8 *id)
{
	__u64 off = 0, name_off, desc_off;
	__u32 namesz, descsz, type, i;

	while (len >= 12 && off <= len - 12) {
		namesz = pp_elfnote_u32(p + off);
		descsz = pp_elfnote_u32(p + off + 4);
		type = pp_elfnote_u32(p + off + 8);
		name_off = off + 12;
		desc_off = name_off + (((__u64)namesz + 3) & ~3ULL);
		if (desc_off > len || descsz > len - desc_off)
			return 0;
		if (type == PP_NT_GNU_BUILD_ID && namesz == 4 &&
		    p[name_off] == 'G' && p[name_off + 1] == 'N' &&
		    p[name_off + 2] == 'U' && !p[name_off + 3] &&
		    descsz && descsz <= PP_BUILD_ID_MAX) {
			for (i = 0; i < descsz; i++)
				id[i] = p[desc_off + i];
			return descsz;
		}
		off = desc_off + (((__u64)descsz + 3) & ~3ULL);
	}
	return 0;
}

#endif /* _PERF_PERSISTENT_ELFNOTE_H */
