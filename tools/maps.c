// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the mappings a profile needs, for perf.data.
 *
 * perf names a sample's addresses through the mappings it learnt before
 * the sample: PERF_RECORD_MMAP records of the kernel and its modules, and
 * PERF_RECORD_MMAP2 records of each process's executable mappings.  perf
 * record synthesizes those of what already runs when it starts, and the
 * kernel sends it the later ones.  An export of a persistent event has
 * the processes' from the module's table (PERF_PERSISTENT_IOC_MAPS), which
 * keeps them after the processes exit or unmap them, each with the time
 * it was first seen, so that a pid used by two processes names each
 * one's samples.  The rest is synthesized as perf record does, when the
 * file is written: the kernel's text (its "_text" address, which perf
 * relocates kallsyms by), the loaded modules, and the executable mappings,
 * read from /proc, of the sampled processes that still run and that the
 * table does not have.  Each mapping carries its build-id, and the file
 * has the build-id table perf record writes (HEADER_BUILD_ID), so that
 * perf finds the binaries by build-id, in the build-id cache, on another
 * machine or after they are gone.  The binaries, the kernel's symbol table
 * (/proc/kallsyms) and the modules go into that cache (~/.debug, or
 * $PERF_BUILDID_DIR) as perf record puts them there.
 *
 * Only a profile gets them: an event with call chains, or a sampling
 * source (not a tracepoint) with IPs.  A previous boot's profile gets the
 * previous boot's: the table it kept in the reserved region, and its
 * kernel's text where this boot's symbols name it (the same kernel, moved
 * by KASLR: the PMU's previous_boot/text_delta); its modules and its
 * processes that are gone from the table are not named.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "perf-persistent.h"
#include "export.h"
#include "perf_persistent/elfnote.h"

/* perf's misc bits of the records written here. */
#define MISC_MMAP_BUILD_ID	(1 << 14)
#define MISC_BUILD_ID_SIZE	(1 << 15)
#define BUILD_ID_MAX		PP_BUILD_ID_MAX
/* perf pads the names of the build-id table to this (NAME_ALIGN). */
#define NAME_ALIGN		64

/* One binary the file's mappings name, once. */
struct dso {
	char		*path;
	uint8_t		id[BUILD_ID_MAX];
	uint8_t		id_len;
	bool		kernel;
	bool		read;		/* @id read from the file just now */
	bool		vdso;		/* [vdso]: this process's image */
};

struct dsos {
	struct dso	*d;
	size_t		nr, cap;
};

/* The build-id of a file of raw notes (/sys/kernel/notes), or 0. */
static int notes_file_build_id(const char *path, uint8_t *id)
{
	unsigned char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? pp_elfnote_build_id(buf, n, id) : 0;
}

/* The build-id of a 64-bit ELF file, from its PT_NOTE segments, or 0. */
static int elf_build_id(const char *path, uint8_t *id)
{
	unsigned char buf[4096];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, i, len = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph))
		goto out;
	for (i = 0; i < eh.e_phnum && !len; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph))
			break;
		if (ph.p_type != PT_NOTE || ph.p_filesz > sizeof(buf))
			continue;
		if (pread(fd, buf, ph.p_filesz, ph.p_offset) !=
		    (ssize_t)ph.p_filesz)
			continue;
		len = pp_elfnote_build_id(buf, ph.p_filesz, id);
	}
out:
	close(fd);
	return len;
}

/*
 * This process's vDSO, the one every 64-bit process of this kernel maps:
 * its image (from the auxiliary vector) and length (its mapping in
 * /proc/self/maps, read once), or NULL.
 */
static const unsigned char *vdso_image(size_t *len)
{
	static const unsigned char *img;
	static size_t img_len;
	static bool looked;
	unsigned long long start, end;
	char line[256];
	FILE *f;

	if (!looked) {
		looked = true;
		img = (const void *)getauxval(AT_SYSINFO_EHDR);
		f = img ? fopen("/proc/self/maps", "r") : NULL;
		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, "[vdso]") &&
			    sscanf(line, "%llx-%llx", &start, &end) == 2 &&
			    start == (uintptr_t)img)
				img_len = end - start;
		if (f)
			fclose(f);
		if (!img_len)
			img = NULL;
	}
	*len = img_len;
	return img;
}

/* The build-id of the ELF image @img of @len bytes, from its notes, or 0. */
static int image_build_id(const unsigned char *img, size_t len, uint8_t *id)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Phdr *ph;
	int i, n = 0;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(*ph) ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(*ph) > len)
		return 0;
	ph = (const void *)(img + eh->e_phoff);
	for (i = 0; i < eh->e_phnum && !n; i++)
		if (ph[i].p_type == PT_NOTE && ph[i].p_offset < len &&
		    ph[i].p_filesz <= len - ph[i].p_offset)
			n = pp_elfnote_build_id(img + ph[i].p_offset,
						ph[i].p_filesz, id);
	return n;
}

/*
 * perf record names samples in the vDSO through its build-id, and keeps
 * the image in the build-id cache, as the kernel's text: a reader
 * elsewhere has neither.  This boot's vDSO is this process's.
 */
static void vdso_build_id(struct dsos *ds)
{
	const unsigned char *img;
	size_t i, len;

	for (i = 0; i < ds->nr; i++) {
		struct dso *d = &ds->d[i];

		if (strcmp(d->path, "[vdso]") || d->id_len)
			continue;
		img = vdso_image(&len);
		if (img)
			d->id_len = image_build_id(img, len, d->id);
		d->vdso = d->id_len;
	}
}

/* The dso of @path in @ds, added if new; NULL when out of memory. */
static struct dso *dso_get(struct dsos *ds, const char *path, bool kernel)
{
	struct dso *d;
	size_t i;

	for (i = 0; i < ds->nr; i++)
		if (!strcmp(ds->d[i].path, path))
			return &ds->d[i];
	if (ds->nr == ds->cap) {
		size_t cap = ds->cap ? 2 * ds->cap : 32;

		d = realloc(ds->d, cap * sizeof(*d));
		if (!d)
			return NULL;
		ds->d = d;
		ds->cap = cap;
	}
	d = &ds->d[ds->nr];
	memset(d, 0, sizeof(*d));
	d->path = strdup(path);
	if (!d->path)
		return NULL;
	d->kernel = kernel;
	ds->nr++;
	return d;
}

/* The sample_id fields of a synthesized record: zeros, time 0 first. */
static void put_id_zeros(struct blob *b, size_t id_size)
{
	size_t i;

	for (i = 0; i < id_size; i += 8)
		put_u64(b, 0);
}

/* A PERF_RECORD_MMAP of the kernel or a module (pid -1, as perf's). */
static void mmap_record(struct blob *b, uint64_t start, uint64_t len,
			uint64_t pgoff, const char *name, size_t id_size)
{
	struct perf_event_header hdr = {
		.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL,
	};
	size_t nlen = strlen(name) + 1, padded = (nlen + 7) & ~7UL;
	static const char zero[8];

	hdr.size = sizeof(hdr) + 8 + 24 + padded + id_size;
	put(b, &hdr, sizeof(hdr));
	put_u32(b, (uint32_t)-1);
	put_u32(b, 0);
	put_u64(b, start);
	put_u64(b, len);
	put_u64(b, pgoff);
	put(b, name, nlen);
	put(b, zero, padded - nlen);
	put_id_zeros(b, id_size);
}

/* A PERF_RECORD_MMAP2 of a process's mapping, with its build-id. */
static void mmap2_record(struct blob *b, int pid, uint64_t start,
			 uint64_t len, uint64_t pgoff, const struct dso *d,
			 uint32_t prot, size_t id_size)
{
	struct perf_event_header hdr = {
		.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER,
	};
	size_t nlen = strlen(d->path) + 1, padded = (nlen + 7) & ~7UL;
	static const char zero[8];
	uint8_t id[24] = { 0 };

	if (d->id_len) {
		hdr.misc |= MISC_MMAP_BUILD_ID;
		id[0] = d->id_len;
		memcpy(id + 4, d->id, d->id_len);
	}
	hdr.size = sizeof(hdr) + 8 + 24 + 24 + 8 + padded + id_size;
	put(b, &hdr, sizeof(hdr));
	put_u32(b, pid);
	put_u32(b, pid);
	put_u64(b, start);
	put_u64(b, len);
	put_u64(b, pgoff);
	put(b, id, sizeof(id));
	put_u32(b, prot);
	put_u32(b, 0x02);	/* MAP_PRIVATE */
	put(b, d->path, nlen);
	put(b, zero, padded - nlen);
	put_id_zeros(b, id_size);
}

/* The address of the kernel symbol @name in /proc/kallsyms, or 0. */
static uint64_t kallsyms_addr(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name))
			found = addr;
	fclose(f);
	return found;
}

/*
 * The path of module @name's file, from modules.dep, or "[name]" (perf's
 * name for a module it has no file of).
 */
static void module_path(const char *name, char *out, size_t len)
{
	char dep[PATH_MAX], line[PATH_MAX], base[128], *colon, *slash, *dot;
	struct utsname uts;
	size_t i;
	FILE *f;

	snprintf(out, len, "[%s]", name);
	if (uname(&uts))
		return;
	snprintf(dep, sizeof(dep), "/lib/modules/%s/modules.dep", uts.release);
	f = fopen(dep, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		slash = strrchr(line, '/');
		snprintf(base, sizeof(base), "%s", slash ? slash + 1 : line);
		dot = strstr(base, ".ko");
		if (!dot)
			continue;
		*dot = '\0';
		for (i = 0; base[i]; i++)
			if (base[i] == '-')
				base[i] = '_';
		if (!strcmp(base, name)) {
			snprintf(out, len, "/lib/modules/%s/%s", uts.release, line);
			break;
		}
	}
	fclose(f);
}

/* The kernel's text and its modules; false if the addresses are hidden. */
static bool kernel_maps(struct blob *b, struct dsos *ds, size_t id_size)
{
	char line[512], name[128], path[PATH_MAX], notes[PATH_MAX];
	unsigned long long size, addr;
	uint64_t text = kallsyms_addr("_text"), first_module = UINT64_MAX;
	struct dso *d;
	FILE *f;

	if (!text)
		return false;
	f = fopen("/proc/modules", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size,
			   &addr) != 3 || !addr)
			continue;
		module_path(name, path, sizeof(path));
		d = dso_get(ds, path, true);
		if (!d)
			break;
		snprintf(notes, sizeof(notes),
			 "/sys/module/%s/notes/.note.gnu.build-id", name);
		d->id_len = notes_file_build_id(notes, d->id);
		mmap_record(b, addr, size, 0, path, id_size);
		if (addr > text && addr < first_module)
			first_module = addr;
	}
	if (f)
		fclose(f);
	/* As perf: the text up to the first module, relocated by _text. */
	mmap_record(b, text, first_module == UINT64_MAX ? ~0ULL - text :
		    first_module - text, text, "[kernel.kallsyms]_text", id_size);
	d = dso_get(ds, "[kernel.kallsyms]", true);
	if (d)
		d->id_len = notes_file_build_id("/sys/kernel/notes", d->id);
	return true;
}

/* The PMU's previous_boot/ file @name, its first line, into @buf. */
static bool previous_attr(const char *name, char *buf, size_t len)
{
	char rel[64], *v;

	snprintf(rel, sizeof(rel), "previous_boot/%s", name);
	v = pmu_file(rel);
	if (!v)
		return false;
	snprintf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
	free(v);
	return true;
}

/*
 * The previous boot's kernel text, where this boot's kallsyms names it:
 * the same kernel (its release), moved by KASLR by text_delta.  Its
 * modules were elsewhere: they are not named.  False if the kernel is
 * another, or the addresses are hidden.
 */
static bool previous_kernel_map(struct blob *b, struct dsos *ds,
				size_t id_size)
{
	char release[128], delta[64];
	uint64_t text = kallsyms_addr("_text"), prev;
	struct utsname uts;
	struct dso *d;

	if (!text || uname(&uts) || !previous_attr("release", release, sizeof(release)) ||
	    strcmp(release, uts.release) ||
	    !previous_attr("text_delta", delta, sizeof(delta)))
		return false;
	prev = text - strtoll(delta, NULL, 10);
	mmap_record(b, prev, ~0ULL - prev, prev, "[kernel.kallsyms]_text", id_size);
	d = dso_get(ds, "[kernel.kallsyms]", true);
	if (d)
		d->id_len = notes_file_build_id("/sys/kernel/notes", d->id);
	return true;
}

/*
 * The executable mappings of process @pid, as it has them now, and the
 * other mappings of their files (the read-only segments that hold the
 * .eh_frame perf's DWARF unwinding reads).
 */
static void process_maps(struct blob *b, struct dsos *ds, int pid,
			 size_t id_size)
{
	char path[64], line[PATH_MAX + 128], perm[8], file[PATH_MAX];
	unsigned long long start, end, pgoff;
	struct dsos exec = { 0 };
	struct dso *d;
	uint32_t prot;
	size_t i;
	FILE *f;
	int n, pass;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	/* Pass 0 learns the files mapped executable, pass 1 writes. */
	for (pass = 0; pass < 2; pass++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			file[0] = '\0';
			n = sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]",
				   &start, &end, perm, &pgoff, file);
			if (n < 4 || (file[0] != '/' && strcmp(file, "[vdso]")))
				continue;
			if (!pass) {
				if (perm[2] == 'x' && !dso_get(&exec, file, false))
					break;
				continue;
			}
			for (i = 0; i < exec.nr && strcmp(exec.d[i].path, file); i++)
				;
			if (i == exec.nr)
				continue;
			d = dso_get(ds, file, false);
			if (!d)
				break;
			if (!d->id_len && file[0] == '/') {
				d->id_len = elf_build_id(file, d->id);
				d->read = true;
			}
			prot = (perm[0] == 'r' ? 1 : 0) | (perm[1] == 'w' ? 2 : 0) |
			       (perm[2] == 'x' ? 4 : 0);
			mmap2_record(b, pid, start, end - start, pgoff, d, prot,
				     id_size);
		}
	}
	fclose(f);
	for (i = 0; i < exec.nr; i++)
		free(exec.d[i].path);
	free(exec.d);
}

static int pid_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* perf's build-id table (HEADER_BUILD_ID): one entry per binary. */
static void build_id_table(struct blob *b, const struct dsos *ds)
{
	size_t i, nlen, padded;
	static const char zero[NAME_ALIGN];

	for (i = 0; i < ds->nr; i++) {
		const struct dso *d = &ds->d[i];
		struct perf_event_header hdr = { 0 };
		uint8_t id[24] = { 0 };

		if (!d->id_len)
			continue;
		nlen = strlen(d->path) + 1;
		padded = (nlen + NAME_ALIGN - 1) & ~(size_t)(NAME_ALIGN - 1);
		hdr.misc = (d->kernel ? PERF_RECORD_MISC_KERNEL :
					PERF_RECORD_MISC_USER) |
			   MISC_BUILD_ID_SIZE;
		hdr.size = sizeof(hdr) + 4 + sizeof(id) + padded;
		memcpy(id, d->id, d->id_len);
		id[20] = d->id_len;
		put(b, &hdr, sizeof(hdr));
		put_u32(b, (uint32_t)-1);
		put(b, id, sizeof(id));
		put(b, d->path, nlen);
		put(b, zero, padded - nlen);
	}
}

/* mkdir -p of @path's directories and @path itself. */
static int mkdirs(char *path)
{
	char *s;

	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

/* Copy @from to @to, unless @to exists; 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	if (!access(to, F_OK))
		return 0;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			ret = -1;
			break;
		}
	if (n < 0)
		ret = -1;
	close(in);
	if (close(out) || ret) {
		unlink(to);
		return -1;
	}
	return 0;
}

/* This process's vDSO image into the new file @to. */
static int write_vdso(const char *to)
{
	const unsigned char *img;
	size_t len;
	int fd, ret = -1;

	img = vdso_image(&len);
	if (!img)
		return -1;
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, img, len) == (ssize_t)len)
		ret = 0;
	if (close(fd))
		ret = -1;
	return ret;
}

/*
 * Put @d's file into the build-id cache as perf record does: the copy in
 * DIR/PATH/BUILD-ID/elf (kallsyms for the kernel's symbol table, vdso for
 * the vDSO's image), and the
 * link DIR/.build-id/XX/REST to its directory.
 */
static void cache_dso(const char *dir, const struct dso *d)
{
	char sid[2 * BUILD_ID_MAX + 1], home[PATH_MAX], link[PATH_MAX + 64];
	char target[PATH_MAX + 64], file[PATH_MAX + 80];
	bool kallsyms = !strcmp(d->path, "[kernel.kallsyms]");
	bool special = kallsyms || d->vdso;
	const char *from = kallsyms ? "/proc/kallsyms" : d->path;
	uint8_t now[BUILD_ID_MAX];
	int i;

	if (!d->id_len || (d->path[0] != '/' && !special) ||
	    strstr(d->path, ".ko."))
		return;
	/*
	 * The file at the path now must be the one mapped then, unless its
	 * build-id was read from it just now.
	 */
	if (!special && !d->kernel && !d->read &&
	    (elf_build_id(d->path, now) != d->id_len ||
	     memcmp(now, d->id, d->id_len)))
		return;
	for (i = 0; i < d->id_len; i++)
		sprintf(sid + 2 * i, "%02x", d->id[i]);
	snprintf(home, sizeof(home), "%s%s%s/%s", dir, special ? "/" : "",
		 d->path, sid);
	if (mkdirs(home))
		return;
	snprintf(file, sizeof(file), "%s/%s", home,
		 kallsyms ? "kallsyms" : d->vdso ? "vdso" : "elf");
	if (d->vdso ? write_vdso(file) : copy_file(from, file))
		return;
	snprintf(link, sizeof(link), "%s/.build-id/%.2s", dir, sid);
	if (mkdirs(link))
		return;
	snprintf(target, sizeof(target), "../..%s%s/%s", special ? "/" : "",
		 d->path, sid);
	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", dir, sid, sid + 2);
	if (symlink(target, link) && errno != EEXIST)
		return;
}

/* Where perf keeps its build-id cache. */
static void cache_dir(char *dir, size_t len)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (env && *env)
		snprintf(dir, len, "%s", env);
	else
		snprintf(dir, len, "%s/.debug", home && *home ? home : "/");
}

/*
 * The module's table of the profiles' mappings (with @flags
 * PERF_PERSISTENT_MAPS_PREVIOUS, the previous boot's): malloc()ed, or
 * NULL.
 */
static unsigned char *table_read(size_t *len, unsigned int flags)
{
	struct perf_persistent_maps m = { .size = sizeof(m), .flags = flags };
	unsigned char *buf = NULL;
	int fd, tries;

	*len = 0;
	fd = open(PERF_PERSISTENT_DEVICE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (tries = 0; tries < 4; tries++) {
		m.buf = 0;
		if (ioctl(fd, PERF_PERSISTENT_IOC_MAPS, &m))
			break;
		free(buf);
		/* Room for what it may have learnt meanwhile. */
		m.len = m.needed + m.needed / 4 + 4096;
		buf = malloc(m.len);
		if (!buf)
			break;
		m.buf = (unsigned long)buf;
		if (!ioctl(fd, PERF_PERSISTENT_IOC_MAPS, &m)) {
			*len = m.len;
			close(fd);
			return buf;
		}
		if (errno != ENOSPC)
			break;
	}
	close(fd);
	free(buf);
	return NULL;
}

/*
 * The table's records into @b, each with the sample_id fields of
 * @sample_type (its time, the event @id) instead of the time alone; their
 * files into @ds; their processes into @pids.  Returns how many.
 */
static size_t table_records(struct blob *b, struct dsos *ds,
			    const unsigned char *t, size_t len,
			    uint64_t sample_type, uint64_t id, int **pids)
{
	size_t off = 0, n = 0, body;
	struct perf_event_header hdr;
	uint32_t pid, tid;
	uint64_t time;
	int *p;

	while (off + sizeof(hdr) + 16 <= len) {
		memcpy(&hdr, t + off, sizeof(hdr));
		if (hdr.size < sizeof(hdr) + 16 || hdr.size > len - off)
			break;
		body = hdr.size - sizeof(hdr) - 8;
		memcpy(&pid, t + off + sizeof(hdr), 4);
		memcpy(&tid, t + off + sizeof(hdr) + 4, 4);
		memcpy(&time, t + off + hdr.size - 8, 8);
		if (hdr.type == PERF_RECORD_MMAP2 && body > 64) {
			const char *path = (const char *)t + off + sizeof(hdr) + 64;
			struct dso *d = dso_get(ds, path, false);

			if (d && (hdr.misc & MISC_MMAP_BUILD_ID) && !d->id_len &&
			    t[off + sizeof(hdr) + 32] <= BUILD_ID_MAX) {
				d->id_len = t[off + sizeof(hdr) + 32];
				memcpy(d->id, t + off + sizeof(hdr) + 36, d->id_len);
			}
		}
		if (hdr.type == PERF_RECORD_COMM) {
			p = realloc(*pids, (n + 1) * sizeof(**pids));
			if (p) {
				*pids = p;
				p[n++] = pid;
			}
		}
		hdr.size = sizeof(hdr) + body + sample_id_size(sample_type);
		put(b, &hdr, sizeof(hdr));
		put(b, t + off + sizeof(hdr), body);
		put_sample_id(b, sample_type, pid, tid, time, id, 0);
		off += body + sizeof(hdr) + 8;
	}
	return n;
}

static bool pid_in(const int *pids, size_t n, int pid)
{
	return bsearch(&pid, pids, n, sizeof(*pids), pid_cmp) != NULL;
}

int export_maps(struct blob *b, struct blob *build_ids,
		const struct pp_export *ev, size_t nr, bool cache)
{
	struct dsos ds = { 0 };
	char dir[PATH_MAX];
	size_t e, i, n = 0, k, nt = 0, tlen;
	int *pids = NULL, *tpids = NULL;
	bool now = false, before = false;
	unsigned char *table;
	size_t id_size;

	for (e = 0; e < nr; e++) {
		bool prev = ev[e].previous;

		/* A profile's: samples whose addresses perf names. */
		if (!(ev[e].snap->sample_type & PERF_SAMPLE_CALLCHAIN) &&
		    (ev[e].attr.type == PERF_TYPE_TRACEPOINT ||
		     !(ev[e].snap->sample_type & PERF_SAMPLE_IP)))
			continue;
		/* Neither this boot's maps nor the region's describe a dump. */
		if (ev[e].dumped) {
			fprintf(stderr, "perf persistent: %s: read from a crash dump, whose mappings are not read: its frames will not be named\n",
				ev[e].name);
			continue;
		}
		before |= prev;
		now |= !prev;
		if (prev || !(ev[e].snap->sample_type & PERF_SAMPLE_TID))
			continue;
		for (i = 0; i < ev[e].snap->nr; i++) {
			const struct pp_decoded *d = &ev[e].snap->recs[i].d;
			int *p;

			if (d->type != PERF_RECORD_SAMPLE || !d->pid)
				continue;
			p = realloc(pids, (n + 1) * sizeof(*pids));
			if (!p) {
				free(pids);
				return pp_error("out of memory");
			}
			pids = p;
			pids[n++] = d->pid;
		}
	}
	if (!now && !before)
		return 0;
	/* Every attr of the file has sample_id_all: the first's layout. */
	id_size = sample_id_size(ev[0].attr.sample_type);
	if (now) {
		/* This boot's profiles: its kernel, its processes. */
		if (!kernel_maps(b, &ds, id_size))
			fprintf(stderr, "perf persistent: the kernel's addresses are hidden (kptr_restrict): its frames will not be named\n");
		table = table_read(&tlen, 0);
	} else {
		/* The previous boot's: its kernel and processes, as it kept them. */
		if (!previous_kernel_map(b, &ds, id_size))
			fprintf(stderr, "perf persistent: the previous boot ran another kernel, or this one hides its addresses: the previous boot's kernel frames will not be named\n");
		table = table_read(&tlen, PERF_PERSISTENT_MAPS_PREVIOUS);
		if (!table || !tlen)
			fprintf(stderr, "perf persistent: the previous boot kept no mappings: its processes' frames will not be named\n");
	}
	if (table)
		nt = table_records(b, &ds, table, tlen, ev[0].attr.sample_type,
				   ev[0].id, &tpids);
	free(table);
	qsort(tpids, nt, sizeof(*tpids), pid_cmp);
	qsort(pids, n, sizeof(*pids), pid_cmp);
	for (i = 0; now && i < n; i = k) {
		for (k = i + 1; k < n && pids[k] == pids[i]; k++)
			;
		if (!pid_in(tpids, nt, pids[i]))
			process_maps(b, &ds, pids[i], id_size);
	}
	free(pids);
	free(tpids);
	if (now)
		vdso_build_id(&ds);
	build_id_table(build_ids, &ds);
	cache_dir(dir, sizeof(dir));
	for (i = 0; i < ds.nr; i++) {
		if (cache)
			cache_dso(dir, &ds.d[i]);
		free(ds.d[i].path);
	}
	free(ds.d);
	return 0;
}
