// SPDX-License-Identifier: GPL-2.0
/*
 * pp-damage - damage a copy of a previous boot's reserved region, one
 * random way per seed (tests/region-damage.sh).
 *
 *   pp-damage layout IMAGE            the layout the image's header gives
 *   pp-damage region IMAGE BASE NAME  NAME's descriptor and buffers as
 *                                     sysfs instances/NAME/region shows them
 *                                     for a region at physical BASE
 *   pp-damage restore IMAGE MEM       write IMAGE to the file MEM
 *   pp-damage apply SEED IMAGE MEM    write IMAGE to MEM with one damage
 *
 * MEM is the lab fixture's window on the region (pp_scribble_mem).  IMAGE
 * is the region as the previous boot left it, saved before the module
 * read it.  The layout is derived from the image itself, as the module's
 * reader (module/previous.c) derives it, from the structures of
 * module/region.h mirrored below; "region" lets the test compare it with
 * what the writing boot's sysfs said.
 *
 * A damage is a kind (random bytes, bit flips, zeroes, 0xff, a whole page
 * zeroed or copied from another page, a field nudged by a small amount)
 * applied at a random place of a random target (the header, the
 * directory, a descriptor, its CPU table or format text, a control page
 * or its positions, the mappings' area, a record, a data area, anywhere),
 * from one byte to a page.  apply prints
 *
 *   damage SEED: KIND of LEN bytes at 0xOFFSET (TARGET)
 *   changed BYTES
 *   slots SLOTS                 directory slots changed
 *   diff 0xOFFSET OLD NEW       the first 32 bytes from the first changed
 *   touched NAME RECORDS        one line per kept event
 *
 * where RECORDS counts the records of the image's published range whose
 * bytes the damage changed: the only records the next load may show that
 * the undamaged image does not (a record carries no checksum).  The same
 * seed always makes the same damage of the same image.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>

#define PAGE		4096u
#define MAX_EVENTS	64
#define MAX_CPUS	64
#define MAX_TARGETS	1024

/* module/region.h's structures, layout version 1, on a 64-bit kernel. */
#define REGION_MAGIC	0x4e4f494745525050ULL
#define DESC_MAGIC	0x00544e4556455050ULL
#define MAPS_MAGIC	0x000053504d505050ULL

struct clock_pair {
	uint64_t local, real;
};

struct region_header {
	uint64_t magic;
	uint32_t version, header_size;
	uint64_t size;
	uint32_t page_size, nr_cpu_ids;
	uint64_t text_anchor;
	char boot_id[40];
	char release[72];
	uint32_t nr_slots, crc, clock_seq, last_reason;
	struct clock_pair clock[2], last;
	uint32_t slots[];
};

struct region_desc {
	uint64_t magic;
	uint32_t size, crc, id, nr_cpus;
	uint64_t buffer_size;
	char name[PERF_PERSISTENT_NAME_MAX];
	char tp_name[64];
	uint32_t attr_size, format_len;
	uint8_t attr[256];
	uint32_t cpus[];
};

struct region_maps {
	uint64_t magic;
	uint32_t size, half, seq, len[2], crc[2], reserved;
};

_Static_assert(offsetof(struct region_header, slots) == 216, "header");
_Static_assert(offsetof(struct region_desc, name) == 32, "descriptor name");
_Static_assert(offsetof(struct region_desc, cpus) == 392, "descriptor");
_Static_assert(sizeof(struct region_maps) == 40, "mappings' area");

/* One CPU's buffer of a kept event, and its published records. */
struct buffer {
	unsigned int cpu;
	size_t control;			/* its control page's offset */
	uint64_t head, tail;		/* the records are [head, tail) */
};

struct event {
	char name[PERF_PERSISTENT_NAME_MAX];
	size_t desc, cpus, format;	/* offsets of its parts */
	uint32_t nr_cpus, format_len;
	uint64_t size;			/* its buffers' data size */
	unsigned int nr;
	struct buffer buf[MAX_CPUS];
};

struct layout {
	size_t size;			/* of the region */
	uint32_t nr_slots, used_slots;	/* slots up to the last used one */
	size_t maps, maps_len;		/* the mappings' area, if any */
	unsigned int nr;
	struct event ev[MAX_EVENTS];
};

struct target {
	char what[64];
	size_t off, len;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "pp-damage: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

static uint8_t *read_image(const char *path, size_t *size)
{
	uint8_t *p = NULL;
	size_t n = 0, cap = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("cannot open %s", path);
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			p = realloc(p, cap);
			if (!p)
				die("out of memory reading %s", path);
		}
		r = read(fd, p + n, cap - n);
		if (r < 0)
			die("cannot read %s", path);
		if (!r)
			break;
		n += r;
	}
	close(fd);
	*size = n;
	return p;
}

static void write_image(const char *path, const uint8_t *p, size_t size)
{
	size_t done = 0;
	ssize_t w;
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0)
		die("cannot open %s", path);
	while (done < size) {
		w = pwrite(fd, p + done, size - done, done);
		if (w <= 0)
			die("cannot write %s", path);
		done += w;
	}
	if (close(fd))
		die("cannot write %s", path);
}

/*
 * The layout of a region the module wrote: its header, then each slot's
 * descriptor or mappings' area, and each CPU's control page.  Only what
 * lies inside the image is taken: the image is the undamaged region, but
 * this is a test program and says so rather than crash on a bad one.
 */
static void parse(const uint8_t *img, size_t size, struct layout *l)
{
	const struct region_header *h = (const void *)img;
	const struct perf_persistent_page_ext *ext;
	const struct perf_event_mmap_page *pg;
	const struct region_desc *d;
	uint32_t i, c, page;
	struct event *ev;

	memset(l, 0, sizeof(*l));
	l->size = size;
	if (size < PAGE || h->magic != REGION_MAGIC)
		die("%s", "no region header in the image");
	if (h->version != 1 || h->page_size != PAGE ||
	    h->header_size != offsetof(struct region_header, slots))
		die("%s", "another layout: update pp-damage from module/region.h");
	l->nr_slots = h->nr_slots;
	if (l->nr_slots > (PAGE - h->header_size) / 4)
		die("%s", "the header's slot count is too large");
	for (i = 0; i < l->nr_slots; i++) {
		page = h->slots[i];
		if (!page)
			continue;
		l->used_slots = i + 1;
		if ((size_t)page * PAGE + sizeof(struct region_maps) > size)
			die("%s", "a slot points outside the image");
		if (*(const uint64_t *)(img + (size_t)page * PAGE) == MAPS_MAGIC) {
			l->maps = (size_t)page * PAGE;
			l->maps_len = ((const struct region_maps *)(img + l->maps))->size;
			continue;
		}
		d = (const void *)(img + (size_t)page * PAGE);
		if (d->magic != DESC_MAGIC || d->nr_cpus > MAX_CPUS ||
		    l->nr == MAX_EVENTS)
			die("%s", "a slot's descriptor is not one pp-damage reads");
		ev = &l->ev[l->nr++];
		memcpy(ev->name, d->name, sizeof(ev->name));
		ev->name[sizeof(ev->name) - 1] = '\0';
		ev->desc = (size_t)page * PAGE;
		ev->cpus = ev->desc + offsetof(struct region_desc, cpus);
		ev->nr_cpus = d->nr_cpus;
		ev->format = ev->cpus + 4 * (size_t)d->nr_cpus;
		ev->format_len = d->format_len;
		ev->size = d->buffer_size;
		for (c = 0; c < d->nr_cpus; c++) {
			struct buffer *b;

			if (!d->cpus[c])
				continue;
			if (((size_t)d->cpus[c] + 1) * PAGE + ev->size > size)
				die("%s", "a buffer lies outside the image");
			b = &ev->buf[ev->nr++];
			b->cpu = c;
			b->control = (size_t)d->cpus[c] * PAGE;
			pg = (const void *)(img + b->control);
			ext = (const void *)(img + b->control +
					     PERF_PERSISTENT_PAGE_EXT_OFFSET);
			b->head = pg->data_head;
			b->tail = ext->tail;
		}
	}
}

/* The region offset of a buffer's logical position @pos. */
static size_t data_off(const struct event *ev, const struct buffer *b,
		       uint64_t pos)
{
	return b->control + PAGE + (pos & (ev->size - 1));
}

/*
 * Call @fn for each record of [head, tail) of @b in @img, newest first, as
 * long as the sizes are sound (they are in an undamaged image).
 */
static unsigned int walk(const uint8_t *img, const struct event *ev,
			 const struct buffer *b,
			 int (*fn)(const struct event *ev,
				   const struct buffer *b, uint64_t pos,
				   uint32_t len, void *arg),
			 void *arg)
{
	struct perf_event_header hdr;
	uint64_t pos = b->head;
	unsigned int n = 0;

	if (b->tail - b->head > ev->size)
		return 0;
	while (b->tail - pos >= sizeof(hdr)) {
		memcpy(&hdr, img + data_off(ev, b, pos), sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size % 8 ||
		    hdr.size > b->tail - pos)
			break;
		n += fn(ev, b, pos, hdr.size, arg);
		pos += hdr.size;
	}
	return n;
}

static int count_one(const struct event *ev __attribute__((unused)),
		     const struct buffer *b __attribute__((unused)),
		     uint64_t pos __attribute__((unused)),
		     uint32_t len __attribute__((unused)),
		     void *arg __attribute__((unused)))
{
	return 1;
}

/* Does the record at @pos differ between the image and the copy @arg? */
static const uint8_t *touched_img;
static int touched_one(const struct event *ev, const struct buffer *b,
		       uint64_t pos, uint32_t len, void *arg)
{
	const uint8_t *copy = arg;
	uint32_t i;

	for (i = 0; i < len; i++) {
		size_t o = data_off(ev, b, pos + i);

		if (copy[o] != touched_img[o])
			return 1;
	}
	return 0;
}

static void print_layout(const uint8_t *img, const struct layout *l)
{
	unsigned int e, c;

	printf("region %zu bytes, %u slots, %u used\n", l->size, l->nr_slots,
	       l->used_slots);
	if (l->maps)
		printf("maps 0x%zx %zu\n", l->maps, l->maps_len);
	for (e = 0; e < l->nr; e++) {
		const struct event *ev = &l->ev[e];

		printf("event %s descriptor 0x%zx cpus %u format %u buffer %" PRIu64 "\n",
		       ev->name, ev->desc, ev->nr_cpus, ev->format_len, ev->size);
		for (c = 0; c < ev->nr; c++)
			printf("event %s cpu%u 0x%zx head %" PRIu64 " held %" PRIu64 " records %u\n",
			       ev->name, ev->buf[c].cpu, ev->buf[c].control,
			       ev->buf[c].head, ev->buf[c].tail - ev->buf[c].head,
			       walk(img, ev, &ev->buf[c], count_one, NULL));
	}
}

static const struct event *find_event(const struct layout *l, const char *name)
{
	unsigned int e;

	for (e = 0; e < l->nr; e++)
		if (!strcmp(l->ev[e].name, name))
			return &l->ev[e];
	die("no event %s in the image", name);
	return NULL;
}

/* xorshift64*: small, and the same sequence for a seed everywhere. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void add(struct target *t, unsigned int *n, const char *what,
		size_t off, size_t len)
{
	if (*n == MAX_TARGETS || !len)
		return;
	snprintf(t[*n].what, sizeof(t[*n].what), "%s", what);
	t[*n].off = off;
	t[*n].len = len;
	(*n)++;
}

/* The record at a random place of a random CPU's published range. */
struct pick {
	uint64_t skip;
	size_t off, len;
};

static int pick_one(const struct event *ev, const struct buffer *b,
		    uint64_t pos, uint32_t len, void *arg)
{
	struct pick *p = arg;

	if (p->skip-- == 0) {
		p->off = data_off(ev, b, pos);
		/* Up to the data area's end: a wrapped record's first part. */
		p->len = len;
		if ((pos & (ev->size - 1)) + len > ev->size)
			p->len = ev->size - (pos & (ev->size - 1));
	}
	return 1;
}

/*
 * The targets of one class, chosen at random first so that the many
 * records do not crowd out the one header.
 */
enum { T_HEADER, T_DIRECTORY, T_DESC, T_CPUS, T_FORMAT, T_CONTROL,
	T_POSITIONS, T_MAPS, T_RECORD, T_DATA, T_ANY, T_NR };
static const char * const class_names[T_NR] = {
	"header", "directory", "descriptor", "CPU table", "format",
	"control page", "positions", "mappings", "record", "data", "anywhere",
};

static unsigned int targets(const uint8_t *img, const struct layout *l,
			    unsigned int class, struct target *t)
{
	const size_t head_at = offsetof(struct perf_event_mmap_page, data_head);
	unsigned int n = 0, e, c;
	char what[64];

	switch (class) {
	case T_HEADER:
		add(t, &n, "header", 0, offsetof(struct region_header, slots));
		break;
	case T_DIRECTORY:
		add(t, &n, "directory", offsetof(struct region_header, slots),
		    4 * (size_t)(l->used_slots ? l->used_slots : 1));
		break;
	case T_MAPS:
		add(t, &n, "mappings", l->maps, l->maps_len);
		break;
	case T_ANY:
		add(t, &n, "anywhere", 0, l->size);
		break;
	}
	for (e = 0; e < l->nr; e++) {
		const struct event *ev = &l->ev[e];

		snprintf(what, sizeof(what), "%s descriptor", ev->name);
		if (class == T_DESC)
			add(t, &n, what, ev->desc, offsetof(struct region_desc, cpus));
		snprintf(what, sizeof(what), "%s CPU table", ev->name);
		if (class == T_CPUS)
			add(t, &n, what, ev->cpus, 4 * (size_t)ev->nr_cpus);
		snprintf(what, sizeof(what), "%s format", ev->name);
		if (class == T_FORMAT)
			add(t, &n, what, ev->format, ev->format_len);
		for (c = 0; c < ev->nr; c++) {
			const struct buffer *b = &ev->buf[c];
			struct pick p = { 0 };
			unsigned int nr;

			snprintf(what, sizeof(what), "%s cpu%u control page",
				 ev->name, b->cpu);
			if (class == T_CONTROL)
				add(t, &n, what, b->control, PAGE);
			snprintf(what, sizeof(what), "%s cpu%u positions",
				 ev->name, b->cpu);
			/* data_head, data_tail, data_offset, data_size; the ext. */
			if (class == T_POSITIONS) {
				add(t, &n, what, b->control + head_at, 32);
				add(t, &n, what, b->control +
				    PERF_PERSISTENT_PAGE_EXT_OFFSET,
				    sizeof(struct perf_persistent_page_ext));
			}
			snprintf(what, sizeof(what), "%s cpu%u data", ev->name,
				 b->cpu);
			if (class == T_DATA)
				add(t, &n, what, b->control + PAGE, ev->size);
			if (class != T_RECORD)
				continue;
			nr = walk(img, ev, b, count_one, NULL);
			if (!nr)
				continue;
			p.skip = below(nr);
			walk(img, ev, b, pick_one, &p);
			snprintf(what, sizeof(what), "%s cpu%u record", ev->name,
				 b->cpu);
			add(t, &n, what, p.off, p.len);
		}
	}
	return n;
}

/* A length from one byte to a page, each power of two as likely. */
static size_t some_len(void)
{
	unsigned int bits = below(13);

	return 1 + below((size_t)1 << bits);
}

enum { K_RANDOM, K_FLIP, K_ZERO, K_ONES, K_ZERO_PAGE, K_REPEAT_PAGE,
	K_NUDGE, K_NR };
static const char * const kind_names[K_NR] = {
	"random bytes", "bit flips", "zeroes", "0xff bytes", "zeroed page",
	"repeated page", "nudge",
};

/*
 * Damage @copy (a copy of @img) once; describe it in @desc.  Return the
 * bytes changed (a damage may change nothing: zeroes over zeroes).
 */
static size_t damage(const uint8_t *img, uint8_t *copy,
		     const struct layout *l, char *desc, size_t desc_len)
{
	struct target t[MAX_TARGETS];
	unsigned int class, kind, n, i;
	size_t off, len, from = 0, changed = 0;
	const struct target *tg;

	do {
		class = below(T_NR);
		n = targets(img, l, class, t);
	} while (!n);
	tg = &t[below(n)];
	kind = below(K_NR);
	off = tg->off + below(tg->len);
	len = some_len();
	switch (kind) {
	case K_ZERO_PAGE:
	case K_REPEAT_PAGE:
		off &= ~(size_t)(PAGE - 1);
		len = PAGE;
		break;
	case K_NUDGE:
		/* A u32 or u64 of the target, naturally aligned. */
		len = below(2) ? 8 : 4;
		off &= ~(len - 1);
		break;
	case K_FLIP:
		len = 1 + below(8);	/* bits */
		break;
	}
	if (kind != K_FLIP && off + len > l->size)
		len = l->size - off;
	switch (kind) {
	case K_RANDOM:
		for (i = 0; i < len; i++)
			copy[off + i] = rnd();
		break;
	case K_FLIP:
		/* Within the target, or within the next 64 bytes. */
		for (i = 0; i < len; i++) {
			size_t at = off + below(tg->len < 64 ? tg->len : 64);

			if (at >= l->size)
				at = l->size - 1;
			copy[at] ^= 1 << below(8);
		}
		break;
	case K_ZERO:
	case K_ZERO_PAGE:
		memset(copy + off, 0, len);
		break;
	case K_ONES:
		memset(copy + off, 0xff, len);
		break;
	case K_REPEAT_PAGE:
		from = below(l->size / PAGE - 1) * PAGE;
		if (from >= off)
			from += PAGE;
		memcpy(copy + off, img + from, PAGE);
		break;
	case K_NUDGE: {
		int64_t delta = (int64_t)below(64) - 32;
		uint64_t v = 0;

		/* Small, and a multiple of 8 half the time (a record's step). */
		if (below(2))
			delta *= 8;
		if (!delta)
			delta = 1;
		memcpy(&v, copy + off, len);
		v += delta;
		memcpy(copy + off, &v, len);
		break;
	}
	}
	for (i = 0; i < l->size; i++)
		changed += copy[i] != img[i];
	if (kind == K_REPEAT_PAGE)
		snprintf(desc, desc_len, "%s of %zu bytes at 0x%zx (%s: %s) from 0x%zx",
			 kind_names[kind], len, off, class_names[class],
			 tg->what, from);
	else if (kind == K_FLIP)
		snprintf(desc, desc_len, "%s of %zu bits at 0x%zx (%s: %s)",
			 kind_names[kind], len, off, class_names[class],
			 tg->what);
	else
		snprintf(desc, desc_len, "%s of %zu bytes at 0x%zx (%s: %s)",
			 kind_names[kind], len, off, class_names[class],
			 tg->what);
	return changed;
}

/* The first changed bytes, before and after, for a failed round's report. */
static void print_diff(const uint8_t *img, const uint8_t *copy, size_t size)
{
	size_t first, i;

	for (first = 0; first < size && img[first] == copy[first]; first++)
		;
	if (first == size)
		return;
	printf("diff 0x%zx", first);
	for (i = first; i < size && i < first + 32; i++)
		printf("%s%02x", i == first ? " " : "", img[i]);
	for (i = first; i < size && i < first + 32; i++)
		printf("%s%02x", i == first ? " " : "", copy[i]);
	printf("\n");
}

/* Directory slots whose value the damage changed. */
static unsigned int slots_changed(const uint8_t *img, const uint8_t *copy,
				  const struct layout *l)
{
	size_t at = offsetof(struct region_header, slots);
	unsigned int i, n = 0;

	for (i = 0; i < l->nr_slots; i++, at += 4)
		n += memcmp(img + at, copy + at, 4) != 0;
	return n;
}

static void apply(const char *seed_arg, const char *image, const char *mem)
{
	struct layout l;
	size_t size, changed;
	uint8_t *img, *copy;
	unsigned int e, c, touched;
	char desc[256];
	char *end;
	uint64_t seed;

	errno = 0;
	seed = strtoull(seed_arg, &end, 0);
	if (errno || *end || end == seed_arg)
		die("bad seed %s", seed_arg);
	img = read_image(image, &size);
	parse(img, size, &l);
	copy = malloc(size);
	if (!copy)
		die("%s", "out of memory");
	memcpy(copy, img, size);
	/* Never 0, xorshift's fixed point; neighbouring seeds far apart. */
	rng_state = (seed + 1) * 0x9e3779b97f4a7c15ULL;
	rnd();
	changed = damage(img, copy, &l, desc, sizeof(desc));
	write_image(mem, copy, size);
	printf("damage %" PRIu64 ": %s\n", seed, desc);
	printf("changed %zu\n", changed);
	printf("slots %u\n", slots_changed(img, copy, &l));
	print_diff(img, copy, size);
	touched_img = img;
	for (e = 0; e < l.nr; e++) {
		touched = 0;
		for (c = 0; c < l.ev[e].nr; c++)
			touched += walk(img, &l.ev[e], &l.ev[e].buf[c],
					touched_one, copy);
		printf("touched %s %u\n", l.ev[e].name, touched);
	}
	free(copy);
	free(img);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pp-damage layout IMAGE\n"
		"       pp-damage region IMAGE BASE NAME\n"
		"       pp-damage restore IMAGE MEM\n"
		"       pp-damage apply SEED IMAGE MEM\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct layout l;
	const struct event *ev;
	unsigned long long base;
	unsigned int c;
	uint8_t *img;
	size_t size;

	if (argc == 3 && !strcmp(argv[1], "layout")) {
		img = read_image(argv[2], &size);
		parse(img, size, &l);
		print_layout(img, &l);
	} else if (argc == 5 && !strcmp(argv[1], "region")) {
		img = read_image(argv[2], &size);
		parse(img, size, &l);
		base = strtoull(argv[3], NULL, 0);
		ev = find_event(&l, argv[4]);
		printf("descriptor 0x%016llx\n", base + ev->desc);
		for (c = 0; c < ev->nr; c++)
			printf("cpu%u 0x%016llx\n", ev->buf[c].cpu,
			       base + ev->buf[c].control);
	} else if (argc == 4 && !strcmp(argv[1], "restore")) {
		img = read_image(argv[2], &size);
		write_image(argv[3], img, size);
	} else if (argc == 5 && !strcmp(argv[1], "apply")) {
		apply(argv[2], argv[3], argv[4]);
	} else {
		usage();
	}
	return 0;
}
