// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the physical memory of a crashed kernel, read out
 * of its crash dump.  Three formats, as kdump leaves them:
 *
 *  - an ELF64 core: /proc/vmcore in the capture kernel, or a copy of it
 *    (kdump-tools falls back to cp).  Memory is in its PT_LOAD segments,
 *    by p_paddr; VMCOREINFO in its PT_NOTE segment gives the page size.
 *  - makedumpfile's kdump-compressed format: a header block, a sub-header,
 *    two bitmaps of max_mapnr bits (the 2nd says which pages are in the
 *    dump), a descriptor for each of those pages in pfn order, then the
 *    pages, each raw or compressed alone.
 *  - makedumpfile's flattened format (-F, what kdump-tools writes by
 *    default): one of the above cut into blocks, each with its offset in
 *    that file, for writing to a pipe; "makedumpfile -R" puts them back.
 *    Here the blocks are indexed instead, and that file is read through
 *    the index.
 *
 * The layouts are those of makedumpfile's diskdump_mod.h and
 * makedumpfile.h as a 64-bit little-endian machine has them.  The
 * decompressors are loaded with dlopen() when a dump needs one, so that
 * the tool depends on none of them.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-persistent.h"
#include "vmcore.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "dumps are read as the host's integers: little-endian hosts only"
#endif

#define FLAT_HEADER_SIZE	4096	/* makedumpfile's MAX_SIZE_MDF_HEADER */
#define FLAT_END		(~0ULL)	/* END_FLAG_FLAT_HEADER, -1 */

/* disk_dump_header's status and page_desc's flags */
#define DH_ZLIB			0x01
#define DH_LZO			0x02
#define DH_SNAPPY		0x04
#define DH_INCOMPLETE		0x08
#define DH_ZSTD			0x20
#define DH_METHODS		(DH_ZLIB | DH_LZO | DH_SNAPPY | DH_ZSTD)

/* makedumpfile's disk_dump_header, as a 64-bit machine lays it out. */
struct kdump_header {
	char		signature[8];		/* "KDUMP   " */
	int32_t		header_version;
	char		utsname[6][65];
	int64_t		tv_sec, tv_usec;
	uint32_t	status;
	int32_t		block_size;
	int32_t		sub_hdr_size;		/* in blocks */
	uint32_t	bitmap_blocks;
	uint32_t	max_mapnr;		/* before version 6 */
	uint32_t	total_ram_blocks, device_blocks, written_blocks;
	uint32_t	current_cpu;
	int32_t		nr_cpus;
};

static_assert(sizeof(struct kdump_header) == 464, "disk_dump_header");

/* kdump_sub_header, in the block after the header. */
struct kdump_sub_header {
	uint64_t	phys_base;
	int32_t		dump_level;
	int32_t		split;			/* version 2 */
	uint64_t	start_pfn, end_pfn;
	uint64_t	offset_vmcoreinfo, size_vmcoreinfo;	/* version 3 */
	uint64_t	offset_note, size_note;			/* version 4 */
	uint64_t	offset_eraseinfo, size_eraseinfo;	/* version 5 */
	uint64_t	start_pfn_64, end_pfn_64, max_mapnr_64;	/* version 6 */
};

static_assert(sizeof(struct kdump_sub_header) == 104, "kdump_sub_header");

struct page_desc {
	uint64_t	offset;			/* of the page's bytes */
	uint32_t	size;			/* stored */
	uint32_t	flags;			/* DH_ZLIB... */
	uint64_t	page_flags;
};

static_assert(sizeof(struct page_desc) == 24, "page_desc");

/**
 * struct codec - a decompressor, loaded when a dump needs it
 * @flag: its DH_* bit
 * @method: its name, for messages
 * @lib: the library's soname, @fn the function, @package its Debian package
 * @test_lib: vmcore_test_library()'s soname in place of @lib
 * @sym: @fn, once loaded
 */
static struct codec {
	unsigned int	flag;
	const char	*method, *lib, *fn, *package, *test_lib;
	void		*handle, *sym;
} codecs[] = {
#define CODEC(f, m, l, s, p) \
	{ .flag = f, .method = m, .lib = l, .fn = s, .package = p }
	CODEC(DH_ZLIB, "zlib", "libz.so.1", "uncompress", "zlib1g"),
	CODEC(DH_LZO, "lzo", "liblzo2.so.2", "lzo1x_decompress_safe",
	      "liblzo2-2"),
	CODEC(DH_SNAPPY, "snappy", "libsnappy.so.1", "snappy_uncompress",
	      "libsnappy1v5"),
	CODEC(DH_ZSTD, "zstd", "libzstd.so.1", "ZSTD_decompress", "libzstd1"),
#undef CODEC
};

#define NR_CODECS	(sizeof(codecs) / sizeof(codecs[0]))

/* Bytes [start, start + len) of the file a flattened dump holds are at pos. */
struct extent {
	uint64_t	start, len, pos;
};

/* A PT_LOAD segment: the memory at paddr, filesz bytes of it at offset. */
struct segment {
	uint64_t	paddr, memsz, filesz, offset;
};

/* Descriptors read at once: for reads, and for a scan. */
#define DCACHE_DESCS	256
#define SCAN_DESCS	4096
/* Bytes a scan reads at once, at least. */
#define SCAN_CHUNK	(1UL << 20)

/**
 * struct vmcore - an open dump
 * @size: bytes of the file (of the file a flattened dump holds); UINT64_MAX
 *	when not known (not a regular file)
 * @flat: a flattened dump, whose blocks @ext has, by start, without
 *	overlaps
 * @seg: an ELF core's PT_LOAD segments, by paddr
 * @bitmap: a kdump file's 2nd bitmap: bit pfn set if the page is there
 * @rank: bits set in @bitmap before word 8 * i (the page's descriptor)
 * @nr_desc: descriptors: bits set in @bitmap
 * @dcache: descriptors @dcache_first.. (@dcache_nr of them)
 * @page_buf: page @cache_pfn, whole (UINT64_MAX: none)
 * @zbuf: a page's compressed bytes
 */
struct vmcore {
	int		fd;
	char		*path;
	char		kind[64];
	size_t		page;
	uint64_t	size;
	bool		flat;
	struct extent	*ext;
	size_t		nr_ext, cap_ext;
	struct segment	*seg;
	size_t		nr_seg;
	bool		kdump, incomplete;
	uint64_t	max_mapnr, nr_desc, desc_off;
	uint64_t	*bitmap, *rank;
	struct page_desc *dcache;
	uint64_t	dcache_first;
	size_t		dcache_nr;
	unsigned char	*page_buf, *zbuf;
	uint64_t	cache_pfn;
};

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The flattened format's numbers are big-endian. */
static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* @len bytes at @off of the file itself; 0, or -1 reported naming @what. */
static int pread_full(struct vmcore *vc, uint64_t off, void *buf, size_t len,
		      const char *what)
{
	unsigned char *p = buf;
	ssize_t n;

	while (len) {
		n = pread(vc->fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pp_error("%s: reading the %s at byte %llu: %s",
					vc->path, what, (unsigned long long)off,
					strerror(errno));
		if (!n)
			return pp_error("%s: truncated: it ends within the %s at byte %llu",
					vc->path, what,
					(unsigned long long)off);
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* The first extent that ends after @off (nr_ext if none). */
static size_t ext_find(const struct vmcore *vc, uint64_t off)
{
	size_t lo = 0, hi = vc->nr_ext, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (vc->ext[mid].start + vc->ext[mid].len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Read @len bytes at @off of the dump's file: of the file itself, or of
 * the one a flattened dump holds (where no block says what a byte is, it
 * is 0, as in the file makedumpfile -R writes).  0, or -1 reported.
 */
static int file_read(struct vmcore *vc, uint64_t off, void *buf, size_t len,
		     const char *what)
{
	unsigned char *p = buf;
	struct extent *e;
	uint64_t n;
	size_t i;

	if (off > vc->size || len > vc->size - off)
		return pp_error("%s: truncated: it ends at byte %llu, before the end of the %s (bytes %llu to %llu)",
				vc->path, (unsigned long long)vc->size, what,
				(unsigned long long)off,
				(unsigned long long)(off + len));
	if (!vc->flat)
		return pread_full(vc, off, buf, len, what);
	for (i = ext_find(vc, off); len; i++) {
		e = &vc->ext[i];
		if (i == vc->nr_ext || e->start >= off + len) {
			memset(p, 0, len);
			break;
		}
		if (e->start > off) {
			n = e->start - off;
			memset(p, 0, n);
			p += n;
			off += n;
			len -= n;
		}
		n = min64(len, e->start + e->len - off);
		if (pread_full(vc, e->pos + off - e->start, p, n, what))
			return -1;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/*
 * Add a flattened dump's block: bytes [@start, @start + @len) at @pos.
 * It replaces what earlier blocks said of those bytes, as it does when
 * makedumpfile -R writes the blocks in turn.  0, or -1 out of memory.
 */
static int ext_add(struct vmcore *vc, uint64_t start, uint64_t len,
		   uint64_t pos)
{
	uint64_t end = start + len, cut;
	struct extent keep[3], *e;
	size_t i, j, n = 0, cap;

	i = ext_find(vc, start);
	for (j = i; j < vc->nr_ext && vc->ext[j].start < end; j++)
		;
	/* ext[i..j) overlap the block: keep what sticks out either side. */
	if (i < j && vc->ext[i].start < start) {
		keep[n] = vc->ext[i];
		keep[n++].len = start - vc->ext[i].start;
	}
	keep[n++] = (struct extent){ start, len, pos };
	if (i < j && vc->ext[j - 1].start + vc->ext[j - 1].len > end) {
		e = &vc->ext[j - 1];
		cut = end - e->start;
		keep[n++] = (struct extent){ end, e->len - cut, e->pos + cut };
	}
	if (vc->nr_ext - (j - i) + n > vc->cap_ext) {
		cap = vc->cap_ext ? 2 * vc->cap_ext : 64;
		e = realloc(vc->ext, cap * sizeof(*e));
		if (!e)
			return -1;
		vc->ext = e;
		vc->cap_ext = cap;
	}
	memmove(&vc->ext[i + n], &vc->ext[j],
		(vc->nr_ext - j) * sizeof(*vc->ext));
	memcpy(&vc->ext[i], keep, n * sizeof(*keep));
	vc->nr_ext += n - (j - i);
	return 0;
}

/*
 * Index the blocks of a flattened dump: after its 4096-byte header, each
 * is a big-endian (offset, size) and its bytes, up to an end mark of
 * (-1, -1).  @vc->size becomes that of the file they make.
 */
static int flat_open(struct vmcore *vc)
{
	uint64_t pos = FLAT_HEADER_SIZE, off, len, end = 0;
	unsigned char h[16];

	if (pread_full(vc, 8 * 2, h, 8, "flattened header"))
		return -1;
	if (be64(h) != 1)
		return pp_error("%s: a flattened dump of type %llu: only type 1 is read",
				vc->path, (unsigned long long)be64(h));
	for (;;) {
		if (pread_full(vc, pos, h, sizeof(h), "flattened block header"))
			return -1;
		off = be64(h);
		len = be64(h + 8);
		if (off == FLAT_END && len == FLAT_END)
			break;
		if (off >> 63 || !len || len >> 63)
			return pp_error("%s: damaged: a flattened block at byte %llu says offset %lld, %lld bytes",
					vc->path, (unsigned long long)pos,
					(long long)off, (long long)len);
		if (len > vc->size - pos - sizeof(h))
			return pp_error("%s: truncated: the flattened block at byte %llu ends past its end",
					vc->path, (unsigned long long)pos);
		if (ext_add(vc, off, len, pos + sizeof(h)))
			return pp_error("out of memory");
		end = end > off + len ? end : off + len;
		pos += sizeof(h) + len;
	}
	vc->size = end;
	vc->flat = true;
	return 0;
}

/* VMCOREINFO's PAGESIZE in the notes @n (@len bytes); 0 if none. */
static size_t note_page_size(const char *n, size_t len)
{
	const char *p, *end, *nl, *name;
	uint64_t off = 0, desc, next;
	unsigned long v;
	Elf64_Nhdr h;

	while (off + sizeof(h) <= len) {
		memcpy(&h, n + off, sizeof(h));
		name = n + off + sizeof(h);
		desc = off + sizeof(h) + ((h.n_namesz + 3ULL) & ~3ULL);
		next = desc + ((h.n_descsz + 3ULL) & ~3ULL);
		if (desc + h.n_descsz > len)
			break;
		if (h.n_namesz == 11 && !memcmp(name, "VMCOREINFO", 11)) {
			end = n + desc + h.n_descsz;
			for (p = n + desc; p < end; p = nl + 1) {
				nl = memchr(p, '\n', end - p);
				if (!nl)
					nl = end;
				if (nl - p <= 9 || memcmp(p, "PAGESIZE=", 9))
					continue;
				for (v = 0, p += 9; p < nl && *p >= '0' &&
				     *p <= '9' && v < 1UL << 30; p++)
					v = v * 10 + *p - '0';
				/* What no machine has is no page size. */
				if (p == nl && v >= 1024 && v <= 1UL << 20 &&
				    !(v & (v - 1)))
					return v;
				return 0;
			}
		}
		off = next;
	}
	return 0;
}

/* qsort() order of segments: by paddr. */
static int seg_cmp(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

/* Read an ELF core's program headers, and VMCOREINFO's page size. */
static int elf_open(struct vmcore *vc)
{
	Elf64_Phdr *ph = NULL, *p;
	size_t phnum, i, page = 0;
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh;
	char *notes;
	int ret = -1;

	if (vc->size < EI_NIDENT)
		return pp_error("%s: truncated: its ELF header is cut short",
				vc->path);
	if (file_read(vc, 0, &eh, min64(vc->size, sizeof(eh)), "ELF header"))
		return -1;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return pp_error("%s: a %s ELF file: only 64-bit dumps are read",
				vc->path, eh.e_ident[EI_CLASS] == ELFCLASS32 ?
				"32-bit" : "damaged");
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return pp_error("%s: a %s ELF file: only little-endian dumps are read",
				vc->path, eh.e_ident[EI_DATA] == ELFDATA2MSB ?
				"big-endian" : "damaged");
	if (vc->size < sizeof(eh))
		return pp_error("%s: truncated: its ELF header is cut short",
				vc->path);
	if (eh.e_type != ET_CORE)
		return pp_error("%s: an ELF file, but not a core dump (type %u)",
				vc->path, eh.e_type);
	if (eh.e_phentsize != sizeof(*ph))
		return pp_error("%s: damaged: program headers of %u bytes",
				vc->path, eh.e_phentsize);
	phnum = eh.e_phnum;
	/* More than 65534 headers: the number is in section header 0. */
	if (phnum == PN_XNUM) {
		if (file_read(vc, eh.e_shoff, &sh, sizeof(sh),
			      "section header"))
			return -1;
		phnum = sh.sh_info;
	}
	ph = calloc(phnum ? phnum : 1, sizeof(*ph));
	vc->seg = calloc(phnum ? phnum : 1, sizeof(*vc->seg));
	if (!ph || !vc->seg) {
		pp_error("out of memory");
		goto out;
	}
	if (file_read(vc, eh.e_phoff, ph, phnum * sizeof(*ph),
		      "program headers"))
		goto out;
	for (i = 0; i < phnum; i++) {
		p = &ph[i];
		if (p->p_type == PT_LOAD && p->p_memsz) {
			vc->seg[vc->nr_seg++] = (struct segment){
				p->p_paddr, p->p_memsz,
				min64(p->p_filesz, p->p_memsz), p->p_offset };
			continue;
		}
		/* /proc/vmcore merges the notes into one segment. */
		if (p->p_type != PT_NOTE || page || p->p_filesz > 64 << 20)
			continue;
		notes = malloc(p->p_filesz);
		if (!notes) {
			pp_error("out of memory");
			goto out;
		}
		if (file_read(vc, p->p_offset, notes, p->p_filesz, "notes")) {
			free(notes);
			goto out;
		}
		page = note_page_size(notes, p->p_filesz);
		free(notes);
	}
	if (!vc->nr_seg) {
		pp_error("%s: an ELF core without memory (no PT_LOAD segment)",
			 vc->path);
		goto out;
	}
	qsort(vc->seg, vc->nr_seg, sizeof(*vc->seg), seg_cmp);
	vc->page = page ? page : (size_t)sysconf(_SC_PAGESIZE);
	ret = 0;
out:
	free(ph);
	return ret;
}

/* Load @c's library and function; 0, or -1 reported. */
static int codec_load(const struct vmcore *vc, struct codec *c)
{
	const char *lib = c->test_lib ? c->test_lib : c->lib;

	if (c->sym)
		return 0;
	if (!c->handle)
		c->handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!c->handle)
		return pp_error("%s: its pages are compressed with %s, and %s is not installed (Debian: %s)",
				vc->path, c->method, lib, c->package);
	c->sym = dlsym(c->handle, c->fn);
	if (!c->sym)
		return pp_error("%s: %s has no %s", vc->path, lib, c->fn);
	return 0;
}

int vmcore_test_library(const char *method, const char *lib)
{
	size_t i;

	for (i = 0; i < NR_CODECS; i++) {
		if (strcmp(codecs[i].method, method))
			continue;
		if (codecs[i].handle)
			dlclose(codecs[i].handle);
		codecs[i].handle = NULL;
		codecs[i].sym = NULL;
		codecs[i].test_lib = lib;
		return 0;
	}
	return -1;
}

/* Read a kdump file's headers and 2nd bitmap. */
static int kdump_open(struct vmcore *vc)
{
	struct kdump_sub_header sh = { 0 };
	uint64_t bs, bitmap_off, half, words, i, sub;
	struct kdump_header h;
	unsigned int methods;
	int32_t v;
	size_t k;

	if (file_read(vc, 0, &h, sizeof(h), "kdump header"))
		return -1;
	v = h.header_version;
	if (__builtin_bswap32(v) >= 1 && __builtin_bswap32(v) <= 6)
		return pp_error("%s: a big-endian kdump file: only little-endian dumps are read",
				vc->path);
	if (v < 1 || v > 6)
		return pp_error("%s: kdump header version %d: only versions 1 to 6 are read",
				vc->path, v);
	bs = (uint32_t)h.block_size;
	if (bs < 1024 || bs > 1 << 20 || bs & (bs - 1))
		return pp_error("%s: a kdump header whose block size, %d, is no page size (a 32-bit dump?)",
				vc->path, h.block_size);
	/* What the version has of the sub-header: up to split, or all. */
	sub = v >= 6 ? sizeof(sh) : v >= 2 ? 16 : 0;
	if (h.sub_hdr_size < 0 || (uint64_t)h.sub_hdr_size * bs < sub)
		return pp_error("%s: damaged: a kdump sub-header of %d blocks",
				vc->path, h.sub_hdr_size);
	if (file_read(vc, bs, &sh, sub, "kdump sub-header"))
		return -1;
	if (sh.split)
		return pp_error("%s: one part of a dump split by makedumpfile --split: join the parts with makedumpfile --reassemble first",
				vc->path);
	vc->max_mapnr = v >= 6 ? sh.max_mapnr_64 : h.max_mapnr;
	bitmap_off = (1 + (uint64_t)h.sub_hdr_size) * bs;
	half = (uint64_t)h.bitmap_blocks * bs / 2;
	if (vc->max_mapnr > half * 8)
		return pp_error("%s: damaged: a bitmap of %u blocks for %llu pages",
				vc->path, h.bitmap_blocks,
				(unsigned long long)vc->max_mapnr);
	if (bitmap_off + 2 * half > vc->size)
		return pp_error("%s: truncated: it ends at byte %llu, within its bitmaps",
				vc->path, (unsigned long long)vc->size);
	words = (vc->max_mapnr + 63) / 64;
	vc->bitmap = calloc(words + 1, 8);
	vc->rank = calloc(words / 8 + 1, 8);
	vc->dcache = calloc(DCACHE_DESCS, sizeof(*vc->dcache));
	vc->page_buf = malloc(bs);
	vc->zbuf = malloc(bs);
	if (!vc->bitmap || !vc->rank || !vc->dcache || !vc->page_buf ||
	    !vc->zbuf)
		return pp_error("out of memory");
	if (file_read(vc, bitmap_off + half, vc->bitmap,
		      (vc->max_mapnr + 7) / 8, "bitmap"))
		return -1;
	/* The bits past max_mapnr are no pages. */
	if (vc->max_mapnr % 64)
		vc->bitmap[words - 1] &= (1ULL << vc->max_mapnr % 64) - 1;
	for (i = 0; i < words; i++) {
		if (!(i % 8))
			vc->rank[i / 8] = vc->nr_desc;
		vc->nr_desc += __builtin_popcountll(vc->bitmap[i]);
	}
	vc->desc_off = bitmap_off + 2 * half;
	vc->page = bs;
	vc->kdump = true;
	vc->incomplete = h.status & DH_INCOMPLETE;
	methods = h.status & DH_METHODS;
	for (k = 0; k < NR_CODECS; k++)
		if (methods & codecs[k].flag && codec_load(vc, &codecs[k]))
			return -1;
	for (k = 0; k < NR_CODECS && !(methods & codecs[k].flag); k++)
		;
	snprintf(vc->kind, sizeof(vc->kind), "%skdump-compressed (%s%s)",
		 vc->flat ? "flattened " : "",
		 k < NR_CODECS ? codecs[k].method : "not compressed",
		 vc->incomplete ? ", incomplete" : "");
	return 0;
}

/* Find out what the file is, and open it as that. */
static int detect(struct vmcore *vc)
{
	unsigned char sig[16] = { 0 };
	size_t n = min64(vc->size, sizeof(sig));

	if (!n)
		return pp_error("%s: not a crash dump: it is empty", vc->path);
	if (file_read(vc, 0, sig, n, "signature"))
		return -1;
	if (n >= SELFMAG && !memcmp(sig, ELFMAG, SELFMAG)) {
		snprintf(vc->kind, sizeof(vc->kind), "%sELF",
			 vc->flat ? "flattened " : "");
		return elf_open(vc);
	}
	if (n >= 8 && !memcmp(sig, "KDUMP   ", 8))
		return kdump_open(vc);
	if (n >= 8 && !memcmp(sig, "DISKDUMP", 8))
		return pp_error("%s: a diskdump dump: only kdump's are read",
				vc->path);
	if (!vc->flat && !memcmp(sig, "makedumpfile\0\0\0\0", 16)) {
		if (vc->size < FLAT_HEADER_SIZE)
			return pp_error("%s: truncated: its flattened header is cut short",
					vc->path);
		if (flat_open(vc))
			return -1;
		return detect(vc);
	}
	return pp_error("%s: not a crash dump: neither an ELF core nor what makedumpfile writes%s",
			vc->path, vc->flat ? " inside its flattened blocks" : "");
}

struct vmcore *vmcore_open(const char *path)
{
	struct vmcore *vc = calloc(1, sizeof(*vc));
	struct stat st;

	if (vc)
		vc->path = strdup(path);
	if (!vc || !vc->path) {
		pp_error("out of memory");
		goto fail;
	}
	vc->cache_pfn = UINT64_MAX;
	vc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vc->fd < 0 || fstat(vc->fd, &st)) {
		pp_error("%s: %s", path, strerror(errno));
		goto fail;
	}
	vc->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : UINT64_MAX;
	if (!detect(vc))
		return vc;
fail:
	vmcore_close(vc);
	return NULL;
}

void vmcore_close(struct vmcore *vc)
{
	if (!vc)
		return;
	if (vc->path && vc->fd >= 0)
		close(vc->fd);
	free(vc->path);
	free(vc->ext);
	free(vc->seg);
	free(vc->bitmap);
	free(vc->rank);
	free(vc->dcache);
	free(vc->page_buf);
	free(vc->zbuf);
	free(vc);
}

size_t vmcore_page_size(const struct vmcore *vc)
{
	return vc->page;
}

const char *vmcore_kind(const struct vmcore *vc)
{
	return vc->kind;
}

/* ELF: the bytes at @paddr; 1 where no segment has them (zeroed). */
static int elf_read(struct vmcore *vc, uint64_t paddr, unsigned char *buf,
		    size_t len)
{
	const struct segment *s;
	uint64_t next, n, off, in_file;
	size_t i;
	int ret = 0;

	while (len) {
		/* Sorted by paddr: what holds @paddr comes before the next. */
		for (s = NULL, i = 0; i < vc->nr_seg &&
		     vc->seg[i].paddr <= paddr && !s; i++)
			if (paddr - vc->seg[i].paddr < vc->seg[i].memsz)
				s = &vc->seg[i];
		if (!s) {
			next = i < vc->nr_seg ? vc->seg[i].paddr : UINT64_MAX;
			n = min64(len, next - paddr);
			memset(buf, 0, n);
			ret = 1;
		} else {
			/* What is past p_filesz is zero, and there. */
			off = paddr - s->paddr;
			n = min64(len, s->memsz - off);
			in_file = off < s->filesz ? min64(n, s->filesz - off) : 0;
			if (in_file && file_read(vc, s->offset + off, buf,
						 in_file, "memory"))
				return -1;
			memset(buf + in_file, 0, n - in_file);
		}
		paddr += n;
		buf += n;
		len -= n;
	}
	return ret;
}

/* Is page @pfn in the dump?  Its bit in the 2nd bitmap says. */
static bool kdump_has(const struct vmcore *vc, uint64_t pfn)
{
	return pfn < vc->max_mapnr && vc->bitmap[pfn / 64] >> pfn % 64 & 1;
}

/* The index of the descriptor of @pfn, which the dump has. */
static uint64_t kdump_rank(const struct vmcore *vc, uint64_t pfn)
{
	uint64_t w = pfn / 64, r = vc->rank[w / 8], i;

	for (i = w & ~7ULL; i < w; i++)
		r += __builtin_popcountll(vc->bitmap[i]);
	return r + __builtin_popcountll(vc->bitmap[w] &
					((1ULL << pfn % 64) - 1));
}

/*
 * Check @pfn's descriptor @pd.  1 when its bytes are in the file, 0 when
 * an incomplete dump lacks them (makedumpfile ran out of room), -1 when
 * it is damaged or its decompressor is missing (reported).
 */
static int kdump_check(const struct vmcore *vc, uint64_t pfn,
		       const struct page_desc *pd)
{
	unsigned int m = pd->flags & DH_METHODS;
	size_t i;

	if (vc->incomplete && (!pd->offset || pd->offset > vc->size ||
			       pd->size > vc->size - pd->offset))
		return 0;
	if (pd->flags & ~DH_METHODS || m & (m - 1))
		return pp_error("%s: the page at pfn 0x%llx is compressed in a way this reader does not know (flags 0x%x)",
				vc->path, (unsigned long long)pfn, pd->flags);
	if (!pd->offset || (m ? !pd->size || pd->size > vc->page :
			    pd->size != vc->page))
		return pp_error("%s: damaged: the descriptor of pfn 0x%llx says %u bytes at byte %llu",
				vc->path, (unsigned long long)pfn, pd->size,
				(unsigned long long)pd->offset);
	for (i = 0; i < NR_CODECS; i++)
		if (m == codecs[i].flag && codec_load(vc, &codecs[i]))
			return -1;
	return 1;
}

/* Decompress page @pfn, its @pd->size bytes at @src, into @vc->page_buf. */
static int kdump_inflate(struct vmcore *vc, uint64_t pfn,
			 const struct page_desc *pd, const void *src)
{
	union {
		void *sym;
		int (*zlib)(void *dst, unsigned long *dlen, const void *src,
			    unsigned long slen);
		int (*lzo)(const void *src, unsigned long slen, void *dst,
			   unsigned long *dlen, void *wrkmem);
		int (*snappy)(const void *src, size_t slen, void *dst,
			      size_t *dlen);
		size_t (*zstd)(void *dst, size_t dlen, const void *src,
			       size_t slen);
	} f;
	unsigned long out = vc->page;
	size_t i, sout = vc->page;
	bool ok = false;

	for (i = 0; codecs[i].flag != (pd->flags & DH_METHODS); i++)
		;
	f.sym = codecs[i].sym;
	switch (codecs[i].flag) {
	case DH_ZLIB:
		ok = !f.zlib(vc->page_buf, &out, src, pd->size) &&
		     out == vc->page;
		break;
	case DH_LZO:
		ok = !f.lzo(src, pd->size, vc->page_buf, &out, NULL) &&
		     out == vc->page;
		break;
	case DH_SNAPPY:
		ok = !f.snappy(src, pd->size, vc->page_buf, &sout) &&
		     sout == vc->page;
		break;
	case DH_ZSTD:
		/* An error is a code near SIZE_MAX, never the page size. */
		ok = f.zstd(vc->page_buf, vc->page, src, pd->size) == vc->page;
		break;
	}
	if (!ok)
		return pp_error("%s: damaged: the page at pfn 0x%llx does not decompress with %s",
				vc->path, (unsigned long long)pfn,
				codecs[i].method);
	return 0;
}

/* Put page @pfn in @vc->page_buf: 1, 0 if the dump lacks it, -1. */
static int kdump_page(struct vmcore *vc, uint64_t pfn)
{
	struct page_desc *pd;
	uint64_t idx, n;
	char what[64];
	int ret;

	if (vc->cache_pfn == pfn)
		return 1;
	if (!kdump_has(vc, pfn))
		return 0;
	idx = kdump_rank(vc, pfn);
	if (idx - vc->dcache_first >= vc->dcache_nr) {
		n = min64(DCACHE_DESCS, vc->nr_desc - idx);
		/* A dump cut short has no descriptors from some page on. */
		if (vc->incomplete && vc->desc_off + (idx + 1) * sizeof(*pd) >
		    vc->size)
			return 0;
		if (vc->incomplete)
			n = min64(n, (vc->size - vc->desc_off) / sizeof(*pd) -
				  idx);
		vc->dcache_nr = 0;
		if (file_read(vc, vc->desc_off + idx * sizeof(*pd), vc->dcache,
			      n * sizeof(*pd), "page descriptors"))
			return -1;
		vc->dcache_first = idx;
		vc->dcache_nr = n;
	}
	pd = &vc->dcache[idx - vc->dcache_first];
	ret = kdump_check(vc, pfn, pd);
	if (ret <= 0)
		return ret;
	vc->cache_pfn = UINT64_MAX;
	snprintf(what, sizeof(what), "page at pfn 0x%llx",
		 (unsigned long long)pfn);
	if (!(pd->flags & DH_METHODS)) {
		if (file_read(vc, pd->offset, vc->page_buf, vc->page, what))
			return -1;
	} else if (file_read(vc, pd->offset, vc->zbuf, pd->size, what) ||
		   kdump_inflate(vc, pfn, pd, vc->zbuf)) {
		return -1;
	}
	vc->cache_pfn = pfn;
	return 1;
}

int vmcore_read(struct vmcore *vc, uint64_t paddr, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t n, off;
	int ret = 0, r;

	if (len > UINT64_MAX - paddr)
		return pp_error("%s: a read past the last physical address",
				vc->path);
	if (!vc->kdump)
		return elf_read(vc, paddr, buf, len);
	while (len) {
		off = paddr % vc->page;
		n = min64(len, vc->page - off);
		r = kdump_page(vc, paddr / vc->page);
		if (r < 0)
			return -1;
		if (r)
			memcpy(p, vc->page_buf + off, n);
		else
			memset(p, 0, n);
		ret |= !r;
		paddr += n;
		p += n;
		len -= n;
	}
	return ret;
}

/*
 * ELF: read the segments a chunk at a time, in paddr order, each page
 * once though segments overlap.  A page's start must be in a segment
 * that holds its first @len bytes.
 */
static int elf_scan(struct vmcore *vc, const void *magic, size_t len,
		    int (*fn)(void *arg, uint64_t paddr), void *arg)
{
	size_t chunk_max = vc->page > SCAN_CHUNK ? vc->page : SCAN_CHUNK;
	unsigned char *buf = malloc(chunk_max);
	uint64_t next = 0, a, end, chunk, off;
	const struct segment *s;
	int ret = 0;
	size_t i;

	if (!buf)
		return pp_error("out of memory");
	for (i = 0; i < vc->nr_seg && !ret; i++) {
		s = &vc->seg[i];
		end = s->paddr + s->memsz;
		a = (s->paddr + vc->page - 1) / vc->page * vc->page;
		a = a > next ? a : next;
		for (; a < end && !ret; a += chunk) {
			chunk = min64(chunk_max, end - a);
			if (elf_read(vc, a, buf, chunk) < 0) {
				ret = -1;
				break;
			}
			for (off = 0; off + len <= chunk && !ret;
			     off += vc->page)
				if (!memcmp(buf + off, magic, len))
					ret = fn(arg, a + off);
		}
		end = (end + vc->page - 1) / vc->page * vc->page;
		next = next > end ? next : end;
	}
	free(buf);
	return ret;
}

/*
 * kdump: walk the bitmap and the descriptors together, reading the pages
 * a run of contiguous ones at a time, and decompress each page once.
 * @fn may read the dump: what it changes (the descriptor and page
 * caches) the walk does not use past the call.
 */
static int kdump_scan(struct vmcore *vc, const void *magic, size_t len,
		      int (*fn)(void *arg, uint64_t paddr), void *arg)
{
	size_t run_max = vc->page > SCAN_CHUNK ? vc->page : SCAN_CHUNK;
	struct page_desc *d = malloc(SCAN_DESCS * sizeof(*d)), *pd;
	uint64_t idx = 0, first = 0, nd = 0, w, bits, pfn, span;
	uint64_t run_off = 0, run_len = 0, avail = vc->nr_desc, k;
	unsigned char *run = malloc(run_max);
	const unsigned char *page;
	int ret = 0, r;

	if (!d || !run) {
		ret = pp_error("out of memory");
		goto out;
	}
	if (vc->incomplete)
		avail = min64(avail, vc->size < vc->desc_off ? 0 :
			      (vc->size - vc->desc_off) / sizeof(*d));
	for (w = 0; w * 64 < vc->max_mapnr && idx < avail && !ret; w++) {
		for (bits = vc->bitmap[w]; bits && idx < avail && !ret;
		     bits &= bits - 1, idx++) {
			pfn = w * 64 + __builtin_ctzll(bits);
			if (idx - first >= nd) {
				nd = min64(SCAN_DESCS, avail - idx);
				first = idx;
				if (file_read(vc, vc->desc_off + idx * sizeof(*d),
					      d, nd * sizeof(*d),
					      "page descriptors"))
					goto fail;
			}
			pd = &d[idx - first];
			r = kdump_check(vc, pfn, pd);
			if (r < 0)
				goto fail;
			if (!r)
				continue;
			/* Pages follow each other but for the zero page. */
			if (pd->offset < run_off ||
			    pd->offset + pd->size > run_off + run_len) {
				span = pd->size;
				for (k = idx - first + 1; k < nd &&
				     d[k].offset == pd->offset + span &&
				     span + d[k].size <= run_max &&
				     pd->offset + span + d[k].size <= vc->size;
				     k++)
					span += d[k].size;
				if (file_read(vc, pd->offset, run, span,
					      "page data"))
					goto fail;
				run_off = pd->offset;
				run_len = span;
			}
			page = run + (pd->offset - run_off);
			if (pd->flags & DH_METHODS) {
				vc->cache_pfn = UINT64_MAX;
				if (kdump_inflate(vc, pfn, pd, page))
					goto fail;
				vc->cache_pfn = pfn;
				page = vc->page_buf;
			}
			if (memcmp(page, magic, len))
				continue;
			/* What @fn reads first is likely this page. */
			if (page != vc->page_buf) {
				memcpy(vc->page_buf, page, vc->page);
				vc->cache_pfn = pfn;
			}
			ret = fn(arg, pfn * vc->page);
		}
	}
	goto out;
fail:
	ret = -1;
out:
	free(d);
	free(run);
	return ret;
}

int vmcore_scan(struct vmcore *vc, const void *magic, size_t len,
		int (*fn)(void *arg, uint64_t paddr), void *arg)
{
	if (!len || len > 64)
		return pp_error("%s: a magic of %zu bytes: 1 to 64 are searched",
				vc->path, len);
	if (vc->kdump)
		return kdump_scan(vc, magic, len, fn, arg);
	return elf_scan(vc, magic, len, fn, arg);
}
