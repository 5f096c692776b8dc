// SPDX-License-Identifier: GPL-2.0
/*
 * pp-same - do two persistent events on the same tracepoint, one on perf's
 * path and one on the direct path, hold the same records?
 *
 *   pp-same [-m] PERF_ID DIRECT_ID FORMAT [FIELD=A/B...]
 *
 * FORMAT is the tracepoint's tracefs format file.  Both events must be
 * paused.  On each CPU, the direct event's samples, oldest first, are
 * lined up with the perf event's from the first perf sample equal to the
 * direct event's oldest, then compared one by one: header misc, IP, pid,
 * tid, CPU, PERIOD, and the RAW payload byte for byte, except
 *   - bytes no field of FORMAT covers, nor the data a __data_loc field
 *     points to (holes and padding, which perf's path leaves as its
 *     scratch buffer had them but for the last 8 bytes): the direct path
 *     must have zeroes there,
 *   - the need-resched bits of common_flags (0x02, 0x04, 0x20), which an
 *     interrupt between the two probes' calls may set; counted;
 *   - FIELD, when one path has A and the other B there: a value the two
 *     probes read one after the other from a task that another CPU
 *     changes meanwhile (sched_switch's prev_state, derived from the
 *     exit_state of a task its parent reaps: EXIT_ZOMBIE, then
 *     EXIT_DEAD); counted.
 * A hit that interrupts another between its two probes (the tracepoint
 * calls them one after the other, with interrupts on where its caller
 * has them on: a softirq's hrtimer, or on PREEMPT_RT a softirq thread)
 * is recorded by both probes before the direct probe of the hit it
 * interrupted: perf's path holds the outer hit first, the direct path the
 * nested one; counted as nested when the nested hit's context is deeper
 * (common_flags: hardirq over softirq, NMI over both) and its records lie
 * in time between the outer hit's two.  Each event's time must not go
 * backwards, but where a deeper context interrupted a record between its
 * clock read and its reservation (the nested record then holds the newer
 * place and the older time).  COMM records are not
 * compared (each event keeps its own cache of them).  The direct path may
 * hold hits perf's path dropped (up to RESYNC in a row, or its last up
 * to RESYNC records when all are older than the perf event's next one;
 * perf drops a hit when its recursion guard for the context is taken, by
 * a perf handler the hit interrupted, or on 6.12 by the task's): counted
 * as direct_only.
 * Never the reverse.
 *
 * The perf event must be created first and paused last, so that its
 * window holds the direct event's, or, where its buffer wrapped (the
 * direct event's may have too), starts within it: then the direct event's
 * records older than the perf event's oldest are not compared.
 *
 * -m: the tracepoint calls its probes with preemption enabled (the syscall
 * tracepoints from 6.13, every tracepoint from 7.0).  A task preempted
 * between perf's probe and the direct one may move to another CPU, or let
 * other tasks' hits in: the two records of one hit may be on two CPUs, or
 * in another order on one.  The records are then compared by task (pid
 * and tid; the idle tasks, pid 0 on every CPU, by CPU too): each
 * task's records from every CPU in order of time, which for one task is
 * the order of its hits (where sched_clock is stable, as in the lab's
 * guests: one clock for all CPUs), lined up and compared as above but for
 * the CPU field (which must be its buffer's CPU; pairs on two CPUs are
 * counted as moved).  The window is the direct event's, from its oldest record on any
 * CPU (or where a buffer wrapped, the newest oldest record of a wrapped
 * buffer) to its newest.  A task's perf records in it are all compared,
 * but for one before its first direct record and one after its last: a
 * hit in flight when the direct event was created (the tracepoint call
 * began before the probe was added) or paused (its direct probe ran
 * after); counted as edge.
 *
 * Prints one line per CPU and a total; exits 1 on any difference or when
 * nothing was compared.
 *
 *   pp-same --self-test
 *
 * runs the matching on made-up records (on the host, in make check's
 * static job).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/perf_persistent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_persistent/decode.h"

#define MAX_RAW		8192
#define RESCHED_BITS	0x26
/* At most this many hits in a row only the direct path recorded. */
#define RESYNC		16
#define MAX_CPUS	64

/* One sample; @raw points into its side's arena. */
struct rec {
	struct pp_decoded	d;
	const unsigned char	*raw;
};

/*
 * One event's samples on one CPU, oldest first.  The payloads are packed
 * in @arena, which is as large as the buffer's data: no payload is larger
 * than its record.
 */
struct side {
	struct rec	*recs;
	unsigned char	*arena;
	unsigned int	nr;
};

static int ctl;
static unsigned char covered[MAX_RAW];
static unsigned int data_locs[32], nr_data_locs;
static const char *racy_name;
static unsigned int racy_off, racy_size;
static unsigned long long racy_a, racy_b;

/* Which payload bytes the format's fields cover. */
static int read_format(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	unsigned int n = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int off, size;
		char *p = strstr(line, "offset:");

		if (!strstr(line, "field:") || !p ||
		    sscanf(p, "offset:%u; size:%u;", &off, &size) != 2 ||
		    off + size > MAX_RAW)
			continue;
		memset(covered + off, 1, size);
		if (racy_name && size <= 8) {
			char want[80];

			snprintf(want, sizeof(want), " %s;", racy_name);
			if (strstr(line, want))
				racy_off = off, racy_size = size;
		}
		if (strstr(line, "__data_loc") && size == 4 &&
		    nr_data_locs < 32)
			data_locs[nr_data_locs++] = off;
		n++;
	}
	fclose(f);
	return n ? 0 : -1;
}

/* The samples held on @cpu of event @id, oldest first. */
/* Say why event @id's buffer on @cpu could not be read; returns -1. */
static int why(unsigned int id, unsigned int cpu, const char *what,
	       unsigned long long value, unsigned long long pos,
	       unsigned long long tail)
{
	printf("event %u, cpu %u: %s: %llu (at %llu, tail %llu)\n", id, cpu,
	       what, value, pos, tail);
	return -1;
}

static int load(unsigned int id, unsigned int cpu, unsigned long long bsize,
		struct side *s)
{
	size_t len = getpagesize() + bsize;
	struct perf_event_mmap_page *pg;
	struct perf_persistent_page_ext *ext;
	unsigned long long head, tail, pos, dsize;
	unsigned char *map, *rec, *arena;
	unsigned int n = 0, i;

	map = mmap(NULL, len, PROT_READ, MAP_SHARED, ctl,
		   PERF_PERSISTENT_MMAP_OFFSET(id, cpu, getpagesize()));
	if (map == MAP_FAILED)
		return why(id, cpu, "mmap", errno, 0, 0);
	pg = (void *)map;
	ext = (void *)(map + PERF_PERSISTENT_PAGE_EXT_OFFSET);
	dsize = pg->data_size;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = ext->tail;
	s->recs = calloc((tail - head) / 8 + 1, sizeof(*s->recs));
	s->arena = malloc(tail - head + 1);
	arena = s->arena;
	rec = malloc(65536);
	if (!s->recs || !s->arena || !rec)
		return why(id, cpu, "allocation", ENOMEM, head, tail);
	/* Newest first from the head; stored reversed below. */
	for (pos = head; pos != tail; ) {
		struct perf_event_header hdr;
		unsigned long long off = pos & (dsize - 1);
		unsigned int first;
		struct rec *r;

		memcpy(&hdr, map + pg->data_offset + off, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > tail - pos)
			return why(id, cpu, "a record's size", hdr.size, pos, tail);
		first = hdr.size < dsize - off ? hdr.size : dsize - off;
		memcpy(rec, map + pg->data_offset + off, first);
		memcpy(rec + first, map + pg->data_offset, hdr.size - first);
		pos += hdr.size;
		if (hdr.type != PERF_RECORD_SAMPLE)
			continue;
		r = &s->recs[n];
		if (pp_decode(rec, hdr.size, ext->sample_type, &r->d) ||
		    !r->d.raw || r->d.raw_size > MAX_RAW)
			return why(id, cpu, "a record's decoding", hdr.size, pos,
				   tail);
		memcpy(arena, r->d.raw, r->d.raw_size);
		r->raw = arena;
		r->d.raw = arena;
		arena += r->d.raw_size;
		n++;
	}
	for (i = 0; i < n / 2; i++) {
		struct rec t = s->recs[i];

		s->recs[i] = s->recs[n - 1 - i];
		s->recs[n - 1 - i] = t;
	}
	s->nr = n;
	free(rec);
	munmap(map, len);
	return 0;
}

/* What a comparison counted. */
struct tally {
	unsigned int	same;
	unsigned int	direct_only;
	unsigned int	resched;
	unsigned int	racy;
	unsigned int	moved;
	unsigned int	edge;
	unsigned int	tasks;
	unsigned int	nested;
};

/*
 * The context a record was taken in, from its common_flags (byte 2 of
 * struct trace_entry): 0 a task, 1 a softirq, 2 a hardirq, 3 an NMI.
 */
static unsigned int level(const struct rec *r)
{
	unsigned char f = r->d.raw_size > 2 ? r->raw[2] : 0;

	return f & 0x40 ? 3 : f & 0x08 ? 2 : f & 0x10 ? 1 : 0;
}

/*
 * Did @in interrupt the hit of @out between the two paths' records of it
 * (@out_p, perf's, older than @in_p; @out_d, the direct path's, newer
 * than @in_d)?  Only a deeper context interrupts.
 */
static int nested_in(const struct rec *in_p, const struct rec *in_d,
		     const struct rec *out_p, const struct rec *out_d)
{
	return level(in_p) > level(out_p) && in_p->d.time > out_p->d.time &&
	       in_d->d.time < out_d->d.time;
}

/*
 * 0 if equal as the comment at the top says; else 1, and unless @quiet,
 * print the first difference.
 */
static int differ(const struct rec *p, const struct rec *d, unsigned int cpu,
		  unsigned int i, int quiet, struct tally *t)
{
	unsigned char field[MAX_RAW];
	unsigned int b, k;

	if (p->d.misc != d->d.misc || p->d.ip != d->d.ip ||
	    p->d.pid != d->d.pid || p->d.tid != d->d.tid ||
	    p->d.cpu != d->d.cpu || p->d.period != d->d.period ||
	    p->d.raw_size != d->d.raw_size) {
		if (quiet)
			return 1;
		printf("cpu %u record %u: misc %u/%u ip 0x%llx/0x%llx pid %u/%u tid %u/%u cpu %u/%u period %llu/%llu raw %u/%u\n",
		       cpu, i, p->d.misc, d->d.misc,
		       (unsigned long long)p->d.ip, (unsigned long long)d->d.ip,
		       p->d.pid, d->d.pid, p->d.tid, d->d.tid, p->d.cpu,
		       d->d.cpu, (unsigned long long)p->d.period,
		       (unsigned long long)d->d.period, p->d.raw_size,
		       d->d.raw_size);
		return 1;
	}
	/* The fields, and the dynamic data their locations say. */
	memcpy(field, covered, p->d.raw_size);
	for (k = 0; k < nr_data_locs; k++) {
		unsigned int loc, off, len;

		if (data_locs[k] + 4 > p->d.raw_size)
			continue;
		memcpy(&loc, p->raw + data_locs[k], 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (off + len <= MAX_RAW)
			memset(field + off, 1, len);
	}
	if (racy_size && racy_off + racy_size <= p->d.raw_size) {
		unsigned long long x = 0, y = 0;

		memcpy(&x, p->raw + racy_off, racy_size);
		memcpy(&y, d->raw + racy_off, racy_size);
		if (x != y && ((x == racy_a && y == racy_b) ||
			       (x == racy_b && y == racy_a))) {
			memset(field + racy_off, 0, racy_size);
			if (t)
				t->racy++;
		}
	}
	for (b = 0; b < p->d.raw_size; b++) {
		unsigned char x = p->raw[b], y = d->raw[b];

		if (!field[b]) {
			if (!y || (b >= racy_off && b < racy_off + racy_size))
				continue;
			if (!quiet)
				printf("cpu %u record %u: raw byte %u, in no field, not 0 on the direct path: 0x%02x\n",
				       cpu, i, b, y);
			return 1;
		}
		/* common_flags: byte 2 of struct trace_entry */
		if (b == 2 && ((x ^ y) & ~RESCHED_BITS) == 0) {
			if (t)
				t->resched += x != y;
			continue;
		}
		if (x != y) {
			if (quiet)
				return 1;
			printf("cpu %u record %u: raw byte %u: perf 0x%02x direct 0x%02x\n",
			       cpu, i, b, x, y);
			return 1;
		}
	}
	return 0;
}

/* Records [@from, @from + 4) of @s, briefly: where two sides part. */
static void show(const struct side *s, const char *what, unsigned int from)
{
	unsigned int i, b;

	for (i = from; i < from + 4 && i < s->nr; i++) {
		const struct rec *r = &s->recs[i];

		printf("  %s %u: time=%llu pid=%u ip=0x%llx raw=", what, i,
		       (unsigned long long)r->d.time, r->d.tid,
		       (unsigned long long)r->d.ip);
		for (b = 0; b < 24 && b < r->d.raw_size; b++)
			printf("%02x", r->raw[b]);
		printf("\n");
	}
}

/*
 * The record of @s equal to @r (differ(), @r on the perf side if
 * @r_is_perf) whose time is nearest @r's: the same hit, which the two
 * probes recorded one right after the other, not an equal record of
 * another hit.  @s->nr if none.
 */
static unsigned int line_up(const struct rec *r, int r_is_perf,
			    const struct side *s, unsigned int cpu)
{
	unsigned long long best = ~0ULL, dt;
	unsigned int i, at = s->nr;

	for (i = 0; i < s->nr; i++) {
		const struct rec *o = &s->recs[i];

		if (r_is_perf ? differ(r, o, cpu, i, 1, NULL) :
				differ(o, r, cpu, 0, 1, NULL))
			continue;
		dt = o->d.time > r->d.time ? o->d.time - r->d.time :
					     r->d.time - o->d.time;
		if (dt < best) {
			best = dt;
			at = i;
		}
	}
	return at;
}

/* -m: one record of either path, and the CPU whose buffer held it. */
struct trec {
	const struct rec	*r;
	unsigned int		cpu;
};

/*
 * Are @p (perf) and @d (direct) the same hit's records (differ(), but for
 * the CPU field)?  Count into @t what differ() let pass, if @t.
 */
static int same_hit(const struct trec *p, const struct trec *d,
		    struct tally *t)
{
	struct rec o = *d->r;

	o.d.cpu = p->r->d.cpu;
	if (differ(p->r, &o, p->cpu, 0, 1, NULL))
		return 0;
	if (t)
		differ(p->r, &o, p->cpu, 0, 1, t);
	return 1;
}

/*
 * One side's records where nested_hits() looks: one CPU's (@s, of @cpu),
 * or one task's (@t), @nr of them.
 */
struct view {
	const struct side	*s;
	const struct trec	*t;
	unsigned int		nr;
	unsigned int		cpu;
};

static const struct rec *view_rec(const struct view *v, unsigned int i)
{
	return v->t ? v->t[i].r : &v->s->recs[i];
}

/* Are @p's record @j (perf) and @d's record @i (direct) the same hit? */
static int view_same(const struct view *p, unsigned int j,
		     const struct view *d, unsigned int i)
{
	if (p->t)
		return same_hit(&p->t[j], &d->t[i], NULL);
	return !differ(&p->s->recs[j], &d->s->recs[i], p->cpu, i, 1, NULL);
}

/*
 * The hits that interrupted the hit of @p's record @j between its two
 * probes, or inside one of them before its record's place was taken: k
 * (1 to RESYNC) if @d's records [@i, @i + k) are @p's [@j + 1, @j + k],
 * each nested_in() that hit, and @d's record @i + k is its own; else 0.
 */
static unsigned int nested_hits(const struct view *p, const struct view *d,
				unsigned int i, unsigned int j)
{
	unsigned int k, n;

	for (n = 1; n <= RESYNC; n++) {
		if (i + n >= d->nr || j + n >= p->nr ||
		    !view_same(p, j + n, d, i + n - 1))
			return 0;
		if (view_same(p, j, d, i + n))
			break;
	}
	if (n > RESYNC)
		return 0;
	for (k = 0; k < n; k++)
		if (!nested_in(view_rec(p, j + 1 + k), view_rec(d, i + k),
			       view_rec(p, j), view_rec(d, i + n)))
			return 0;
	return n;
}

/*
 * Compare the direct event's records from @i with the perf event's from @j
 * to the direct event's newest; count into @t.  0 if they agree.
 */
static int compare(const struct side *p, const struct side *d, unsigned int i,
		   unsigned int j, unsigned int cpu, int quiet, struct tally *t)
{
	const struct view pv = { .s = p, .nr = p->nr, .cpu = cpu };
	const struct view dv = { .s = d, .nr = d->nr, .cpu = cpu };
	unsigned int k;

	for (; i < d->nr; i++, j++) {
		if (j == p->nr) {
			if (!quiet)
				printf("cpu %u: perf event ends before the direct event's record %u\n",
				       cpu, i);
			return 1;
		}
		if (!differ(&p->recs[j], &d->recs[i], cpu, i, 1, NULL)) {
			/* Again, to count what it let pass. */
			differ(&p->recs[j], &d->recs[i], cpu, i, 1, t);
			t->same++;
			continue;
		}
		/*
		 * Hits that interrupted the hit of perf's record @j between
		 * its two probes: the direct path has them first.
		 */
		k = nested_hits(&pv, &dv, i, j);
		if (k) {
			t->nested += k;
			t->same += k + 1;
			i += k;
			j += k;
			continue;
		}
		/* Hits perf's path dropped: see the top comment. */
		for (k = 1; k <= RESYNC && i + k < d->nr; k++)
			if (!differ(&p->recs[j], &d->recs[i + k], cpu, i + k, 1, NULL))
				break;
		if (k <= RESYNC && i + k < d->nr) {
			t->direct_only += k;
			i += k - 1;
			j--;
			continue;
		}
		/*
		 * The direct event's last few records, all older than the
		 * perf event's next one: hits perf's path dropped just
		 * before the direct event was paused.
		 */
		if (d->nr - i <= RESYNC &&
		    p->recs[j].d.time > d->recs[d->nr - 1].d.time) {
			t->direct_only += d->nr - i;
			return 0;
		}
		if (!quiet) {
			differ(&p->recs[j], &d->recs[i], cpu, i, 0, NULL);
			show(p, "perf", j ? j - 1 : 0);
			show(d, "direct", i ? i - 1 : 0);
		}
		return 1;
	}
	return 0;
}

/*
 * Is each record of @s no older than the one before?  But for a pair of
 * two contexts, one of which interrupted the other's record between its
 * clock read and its reservation: there the newer position holds the
 * older time, never older than the record before the pair.
 */
static int time_order(const struct side *s, const char *what, unsigned int cpu)
{
	const struct rec *r = s->recs;
	unsigned int i;

	for (i = 1; i < s->nr; i++) {
		if (r[i].d.time < r[i - 1].d.time &&
		    (level(&r[i]) == level(&r[i - 1]) ||
		     (i > 1 && r[i].d.time < r[i - 2].d.time))) {
			printf("cpu %u: %s record %u older than the one before\n",
			       cpu, what, i);
			return 1;
		}
	}
	return 0;
}

/*
 * One task's records: the same pid and tid, but the idle tasks are all
 * pid 0, one per CPU, and never leave their CPU: theirs are told apart by
 * their buffer's CPU.  (Taken as one task, two CPUs' idle hits of one
 * moment could line up in another order on the two paths.)
 */
static int task_cmp(const struct trec *x, const struct trec *y)
{
	if (x->r->d.pid != y->r->d.pid)
		return x->r->d.pid < y->r->d.pid ? -1 : 1;
	if (x->r->d.tid != y->r->d.tid)
		return x->r->d.tid < y->r->d.tid ? -1 : 1;
	if (!x->r->d.pid && !x->r->d.tid && x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return 0;
}

static int task_order(const void *a, const void *b)
{
	const struct trec *x = a, *y = b;
	int c = task_cmp(x, y);

	if (c)
		return c;
	if (x->r->d.time != y->r->d.time)
		return x->r->d.time < y->r->d.time ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* The end of the task of @t[@from] in @t[0, @n), sorted by task_order(). */
static unsigned int task_end(const struct trec *t, unsigned int n,
			     unsigned int from)
{
	unsigned int i;

	for (i = from + 1; i < n && !task_cmp(&t[i], &t[from]); i++)
		;
	return i;
}

/* The records of @s on every CPU from time @from, by task, then time. */
static struct trec *gather(const struct side *s, unsigned int nr_cpus,
			   unsigned long long from, unsigned int *nr)
{
	unsigned int cpu, i, n = 0;
	struct trec *t;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		n += s[cpu].nr;
	t = calloc(n + 1, sizeof(*t));
	if (!t)
		return NULL;
	n = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (i = 0; i < s[cpu].nr; i++) {
			if (s[cpu].recs[i].d.time < from)
				continue;
			t[n].r = &s[cpu].recs[i];
			t[n++].cpu = cpu;
		}
	}
	qsort(t, n, sizeof(*t), task_order);
	*nr = n;
	return t;
}

/* Records [@from, @from + 4) of a task's, briefly: where two sides part. */
static void show_task(const struct trec *s, unsigned int nr, const char *what,
		      unsigned int from)
{
	unsigned int i, b;

	for (i = from; i < from + 4 && i < nr; i++) {
		const struct rec *r = s[i].r;

		printf("  %s %u: cpu=%u time=%llu pid=%u ip=0x%llx raw=", what,
		       i, s[i].cpu, (unsigned long long)r->d.time, r->d.tid,
		       (unsigned long long)r->d.ip);
		for (b = 0; b < 24 && b < r->d.raw_size; b++)
			printf("%02x", r->raw[b]);
		printf("\n");
	}
}

/*
 * The perf records of one task, @p[@from, @to), inside the window
 * [@first, @last] with no direct record: one at most, a hit in flight at
 * the window's @edge ("start", "end").  0 if so; else, unless @quiet,
 * print them.
 */
static int in_flight(const struct trec *p, unsigned int from, unsigned int to,
		     unsigned long long first, unsigned long long last,
		     const char *edge, int quiet, struct tally *t)
{
	unsigned int i, in = 0, at = to;

	for (i = from; i < to; i++) {
		if (p[i].r->d.time < first || p[i].r->d.time > last)
			continue;
		if (!in++)
			at = i;
	}
	if (in > 1) {
		if (quiet)
			return 1;
		printf("pid %u tid %u: %u perf records in the window, at its %s, not on the direct path:\n",
		       p[at].r->d.pid, p[at].r->d.tid, in, edge);
		show_task(p, to, "perf", at);
		return 1;
	}
	t->edge += in;
	return 0;
}

/*
 * Compare one task's records, @p[0, @np) and @d[0, @nd), by time, from
 * @d[@i] and @p[@j]; count into @t.  0 if they agree; else, unless
 * @quiet, print where they part.
 */
static int walk_task(const struct trec *p, unsigned int np,
		     const struct trec *d, unsigned int nd, unsigned int i,
		     unsigned int j, unsigned long long first,
		     unsigned long long last, int quiet, struct tally *t)
{
	const struct view pv = { .t = p, .nr = np };
	const struct view dv = { .t = d, .nr = nd };
	unsigned int k;

	if (in_flight(p, 0, j, first, last, "start", quiet, t))
		return 1;
	while (i < nd) {
		if (j == np) {
			/* Hits perf's path dropped just before the pause. */
			if (nd - i <= RESYNC) {
				t->direct_only += nd - i;
				return 0;
			}
			if (!quiet)
				printf("pid %u tid %u: its perf records end before its direct record %u\n",
				       d[i].r->d.pid, d[i].r->d.tid, i);
			return 1;
		}
		if (same_hit(&p[j], &d[i], t)) {
			t->same++;
			if (p[j].cpu != d[i].cpu && t->moved++ < 4 && !quiet)
				printf("moved: pid %u tid %u: perf on cpu %u at %llu, direct on cpu %u at %llu\n",
				       p[j].r->d.pid, p[j].r->d.tid, p[j].cpu,
				       (unsigned long long)p[j].r->d.time,
				       d[i].cpu,
				       (unsigned long long)d[i].r->d.time);
			i++;
			j++;
			continue;
		}
		/* Hits nested in the hit of @p[@j]: see nested_hits(). */
		k = nested_hits(&pv, &dv, i, j);
		if (k) {
			t->nested += k;
			t->same += k + 1;
			i += k + 1;
			j += k + 1;
			continue;
		}
		/* Hits perf's path dropped: see the top comment. */
		for (k = 1; k <= RESYNC && i + k < nd; k++)
			if (same_hit(&p[j], &d[i + k], NULL))
				break;
		if (k <= RESYNC && i + k < nd) {
			t->direct_only += k;
			i += k;
			continue;
		}
		if (nd - i <= RESYNC && p[j].r->d.time > d[nd - 1].r->d.time) {
			t->direct_only += nd - i;
			return 0;
		}
		if (!quiet) {
			struct rec o = *d[i].r;

			printf("pid %u tid %u: ", d[i].r->d.pid, d[i].r->d.tid);
			o.d.cpu = p[j].r->d.cpu;
			differ(p[j].r, &o, p[j].cpu, i, 0, NULL);
			show_task(p, np, "perf", j ? j - 1 : 0);
			show_task(d, nd, "direct", i ? i - 1 : 0);
		}
		return 1;
	}
	return in_flight(p, j, np, first, last, "end", quiet, t);
}

/*
 * The indexes in @cand of the perf records of one task, @p[0, @np), equal
 * to its direct record @d, the nearest in time first: RESYNC at most.
 * Returns how many.
 */
static unsigned int candidates(const struct trec *p, unsigned int np,
			       const struct trec *d, unsigned int *cand)
{
	unsigned long long dt[RESYNC], x;
	unsigned int k, n = 0, at;

	for (k = 0; k < np; k++) {
		if (!same_hit(&p[k], d, NULL))
			continue;
		x = p[k].r->d.time > d->r->d.time ?
		    p[k].r->d.time - d->r->d.time :
		    d->r->d.time - p[k].r->d.time;
		if (n == RESYNC && x >= dt[n - 1])
			continue;
		at = n < RESYNC ? n++ : n - 1;
		for (; at && dt[at - 1] > x; at--) {
			dt[at] = dt[at - 1];
			cand[at] = cand[at - 1];
		}
		dt[at] = x;
		cand[at] = k;
	}
	return n;
}

/*
 * Compare one task's records, @p[0, @np) and @d[0, @nd); count into @t.
 * They start at the perf record of its oldest direct record: of the equal
 * records nearest in time (another hit's may be nearer), the first from
 * which all agree.  Where a buffer @wrapped, the perf records of its
 * oldest few direct records may be gone: from one of the next oldest.
 * 0 if they agree.
 */
static int compare_task(const struct trec *p, unsigned int np,
			const struct trec *d, unsigned int nd,
			unsigned long long first, unsigned long long last,
			int wrapped, struct tally *t)
{
	unsigned int cand[RESYNC], nc, c, s, fail_s = nd, fail_j = 0;

	t->tasks++;
	if (!nd)
		return in_flight(p, 0, np, first, last, "start or end", 0, t);
	for (s = 0; s <= (wrapped ? RESYNC : 0) && s < nd; s++) {
		nc = candidates(p, np, &d[s], cand);
		for (c = 0; c < nc; c++) {
			struct tally trial = { 0 };

			if (!walk_task(p, np, d, nd, s, cand[c], first, last, 1,
				       &trial))
				return walk_task(p, np, d, nd, s, cand[c],
						 first, last, 0, t);
		}
		if (nc && fail_s == nd) {
			fail_s = s;
			fail_j = cand[0];
		}
	}
	if (fail_s < nd)
		return walk_task(p, np, d, nd, fail_s, fail_j, first, last, 0,
				 t);
	printf("pid %u tid %u: its oldest direct record is not among its %u perf records\n",
	       d[0].r->d.pid, d[0].r->d.tid, np);
	show_task(d, nd, "direct", 0);
	return 1;
}

/* -m: does every record in @s's buffer of @cpu say that CPU? */
static int cpu_field(const struct side *s, const char *what, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++) {
		if (s->recs[i].d.cpu != cpu) {
			printf("cpu %u: %s record %u says CPU %u\n", cpu, what,
			       i, s->recs[i].d.cpu);
			return 1;
		}
	}
	return 0;
}

/*
 * -m: compare the events' records by task (see the top comment): @ps and
 * @ds, each CPU's records of either event, @pstats and @dstats their
 * CPUs' statistics.  Prints the total; 0 if they agree.
 */
static int compare_by_task(struct side *ps, struct side *ds,
			   const struct perf_persistent_cpu_stats *pstats,
			   const struct perf_persistent_cpu_stats *dstats,
			   unsigned int nr_cpus)
{
	unsigned long long first = ~0ULL, last = 0, wrap = 0;
	unsigned int cpu, np, nd, a = 0, b = 0, ae, be;
	struct tally all = { 0 };
	struct trec *p, *d;
	int bad = 0, c;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		printf("cpu %u: perf held %u, direct %u\n", cpu, ps[cpu].nr,
		       ds[cpu].nr);
		bad |= time_order(&ps[cpu], "perf", cpu) |
		       time_order(&ds[cpu], "direct", cpu);
		bad |= cpu_field(&ps[cpu], "perf", cpu) |
		       cpu_field(&ds[cpu], "direct", cpu);
		if (ds[cpu].nr) {
			if (ds[cpu].recs[0].d.time < first)
				first = ds[cpu].recs[0].d.time;
			if (ds[cpu].recs[ds[cpu].nr - 1].d.time > last)
				last = ds[cpu].recs[ds[cpu].nr - 1].d.time;
			if (dstats[cpu].overwritten &&
			    ds[cpu].recs[0].d.time > wrap)
				wrap = ds[cpu].recs[0].d.time;
		}
		if (ps[cpu].nr && pstats[cpu].overwritten &&
		    ps[cpu].recs[0].d.time > wrap)
			wrap = ps[cpu].recs[0].d.time;
	}
	if (wrap > first) {
		printf("a buffer wrapped: compared from time %llu\n", wrap);
		first = wrap;
	}
	p = gather(ps, nr_cpus, 0, &np);
	d = gather(ds, nr_cpus, first, &nd);
	if (!p || !d) {
		printf("cannot allocate the records by task\n");
		return 1;
	}
	/* Each task of either event, in turn. */
	while (a < np || b < nd) {
		c = a == np ? 1 : b == nd ? -1 : task_cmp(&p[a], &d[b]);
		ae = c <= 0 ? task_end(p, np, a) : a;
		be = c >= 0 ? task_end(d, nd, b) : b;
		bad |= compare_task(p + a, ae - a, d + b, be - b, first, last,
				    wrap == first, &all);
		a = ae;
		b = be;
	}
	printf("compared=%u direct_only=%u nested=%u resched_flag_diffs=%u racy_diffs=%u moved=%u edge=%u tasks=%u %s\n",
	       all.same, all.direct_only, all.nested, all.resched, all.racy,
	       all.moved, all.edge, all.tasks,
	       bad || !all.same ? "DIFFER" : "SAME");
	free(p);
	free(d);
	return bad || !all.same;
}

/* --self-test: the matching above on made-up records. */

/* Made-up hits: @n records of payload id @ids[k], context flags @flags[k]. */
static struct rec *made_up(unsigned int n, const unsigned int *ids,
			   const unsigned char *flags,
			   const unsigned long long *times, unsigned int pid)
{
	struct rec *r = calloc(1, n * (sizeof(*r) + 24));
	unsigned int k;

	for (k = 0; r && k < n; k++) {
		unsigned char *raw = (unsigned char *)(r + n) + k * 24;

		raw[0] = 0x9a;
		raw[1] = 0x01;
		raw[2] = flags[k];
		memcpy(raw + 4, &pid, 4);
		raw[8] = ids[k];
		r[k].raw = raw;
		r[k].d.raw = raw;
		r[k].d.raw_size = 24;
		r[k].d.misc = 1;
		r[k].d.pid = pid;
		r[k].d.tid = pid;
		r[k].d.period = 1;
		r[k].d.time = times[k];
	}
	return r;
}

static int self_failed;

static void self_check(int cond, const char *what)
{
	printf("# %s - %s\n", cond ? "ok" : "NOT OK", what);
	self_failed |= !cond;
}

/* Both paths of the hits @ids, and what compare() and time_order() say. */
static int self_case(unsigned int n, const unsigned int *pids,
		     const unsigned char *pflags, const unsigned long long *pt,
		     const unsigned int *dids, const unsigned char *dflags,
		     const unsigned long long *dt, int moves, struct tally *t)
{
	struct side p = { .nr = n }, d = { .nr = n };
	struct perf_persistent_cpu_stats st = { 0 };
	int bad;

	p.recs = made_up(n, pids, pflags, pt, 15);
	d.recs = made_up(n, dids, dflags, dt, 15);
	if (!p.recs || !d.recs)
		return -1;
	if (moves) {
		bad = compare_by_task(&p, &d, &st, &st, 1);
	} else {
		bad = time_order(&p, "perf", 0) | time_order(&d, "direct", 0);
		bad |= compare(&p, &d, 0, 0, 0, 1, t);
	}
	free(p.recs);
	free(d.recs);
	return bad;
}

/*
 * -m, the idle tasks: hits of CPU 0's and CPU 1's (pid 0 both) whose
 * direct records come in the other order across the two CPUs (CPU 0's
 * direct probe ran late): the same records.  Hits of one ordinary task
 * on the two CPUs in the other order still differ.
 */
static int self_idle(unsigned int pid)
{
	static const unsigned int ids0[] = { 9, 1, 3 }, ids1[] = { 2 };
	static const unsigned char flags[] = { 0x01, 0x01, 0x01 };
	static const unsigned long long pt0[] = { 50, 100, 400 }, pt1[] = { 150 };
	static const unsigned long long dt0[] = { 55, 200, 410 }, dt1[] = { 160 };
	struct side p[2] = { { .nr = 3 }, { .nr = 1 } };
	struct side d[2] = { { .nr = 3 }, { .nr = 1 } };
	struct perf_persistent_cpu_stats st[2] = { { 0 } };
	int bad = -1;

	p[0].recs = made_up(3, ids0, flags, pt0, pid);
	p[1].recs = made_up(1, ids1, flags, pt1, pid);
	d[0].recs = made_up(3, ids0, flags, dt0, pid);
	d[1].recs = made_up(1, ids1, flags, dt1, pid);
	if (p[0].recs && p[1].recs && d[0].recs && d[1].recs) {
		p[1].recs[0].d.cpu = 1;
		d[1].recs[0].d.cpu = 1;
		bad = compare_by_task(p, d, st, st, 2);
	}
	free(p[0].recs);
	free(p[1].recs);
	free(d[0].recs);
	free(d[1].recs);
	return bad;
}

/*
 * Hit 2 (softirq, 0x10) is interrupted by hit 3 (hardirq, 0x19) between
 * its two probes, or inside one of them: the two paths hold 3 on either
 * side of 2, or 2's record out of time order.  Hits that are not nested
 * (3 in the same context as 2) and a payload that differs still differ.
 */
static int self_test(void)
{
	static const unsigned char soft[] = { 0x01, 0x10, 0x19, 0x01 };
	static const unsigned char flat[] = { 0x01, 0x10, 0x10, 0x01 };
	static const unsigned int order[] = { 1, 2, 3, 4 };
	static const unsigned int swapped[] = { 1, 3, 2, 4 };
	static const unsigned int other[] = { 1, 2, 3, 5 };
	unsigned char soft_sw[] = { 0x01, 0x19, 0x10, 0x01 };
	unsigned char flat_sw[] = { 0x01, 0x10, 0x10, 0x01 };
	/* perf: 2 at 200, 3 at 250; direct: 3 at 260, 2 at 300. */
	unsigned long long pt[] = { 100, 200, 250, 400 };
	unsigned long long dt_sw[] = { 110, 260, 300, 410 };
	/* 3 interrupts 2's direct probe after its reservation. */
	unsigned long long dt_inv[] = { 110, 300, 260, 410 };
	/* 3 interrupts 2's perf record between its time and its reservation. */
	unsigned long long pt_inv[] = { 100, 250, 200, 400 };
	unsigned long long dt_in[] = { 110, 260, 300, 410 };
	struct tally t = { 0 };

	memset(covered, 1, 24);
	self_check(!self_case(4, order, soft, pt, swapped, soft_sw, dt_sw, 0, &t) &&
		   t.nested == 1 && t.same == 4,
		   "a hardirq hit between the two probes of a softirq hit: nested");
	memset(&t, 0, sizeof(t));
	self_check(!self_case(4, order, soft, pt, order, soft, dt_inv, 0, &t) &&
		   t.same == 4,
		   "one inside the direct probe, after its reservation: out of time order");
	memset(&t, 0, sizeof(t));
	self_check(!self_case(4, swapped, soft_sw, pt_inv, swapped, soft_sw,
			      dt_in, 0, &t) && t.same == 4,
		   "one inside perf's probe, before its reservation: out of time order");
	self_check(!self_case(4, order, soft, pt, swapped, soft_sw, dt_sw, 1, NULL),
		   "-m: the nested hit, by task");
	self_check(!self_case(4, order, soft, pt, order, soft, dt_inv, 1, NULL),
		   "-m: the record out of time order, by task");
	memset(&t, 0, sizeof(t));
	self_check(self_case(4, order, flat, pt, swapped, flat_sw, dt_sw, 0, &t),
		   "two hits of one context in another order still differ");
	memset(&t, 0, sizeof(t));
	self_check(self_case(4, order, flat, pt, order, flat, dt_inv, 0, &t),
		   "a record of the same context out of time order still differs");
	memset(&t, 0, sizeof(t));
	self_check(self_case(4, order, soft, pt, other, soft, dt_in, 0, &t),
		   "a payload that differs still differs");
	self_check(!self_idle(0),
		   "-m: two CPUs' idle tasks, their records in another order across the CPUs");
	self_check(self_idle(15) > 0,
		   "-m: one task's records in another order across two CPUs still differ");
	printf("pp-same self-test: %s\n", self_failed ? "FAILED" : "passed");
	return self_failed;
}

int main(int argc, char **argv)
{
	static struct perf_persistent_cpu_stats pstats[MAX_CPUS];
	static struct perf_persistent_cpu_stats dstats[MAX_CPUS];
	static struct side ps[MAX_CPUS], ds[MAX_CPUS];
	struct perf_persistent_info info = { .size = sizeof(info) };
	unsigned int pid, did, cpu, nr_cpus, n, start[2][2], nr_starts, k;
	struct tally all = { 0 }, cpu_t;
	unsigned long long psize, dsize;
	int bad = 0, moves = 0;

	if (argc == 2 && !strcmp(argv[1], "--self-test"))
		return self_test();
	if (argc > 1 && !strcmp(argv[1], "-m")) {
		moves = 1;
		argc--;
		argv++;
	}
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: pp-same [-m] PERF_ID DIRECT_ID FORMAT [FIELD=A/B]\n");
		return 2;
	}
	if (argc == 5) {
		char *eq = strchr(argv[4], '='), *slash;

		if (!eq || !(slash = strchr(eq, '/')))
			return 2;
		*eq = 0;
		racy_name = argv[4];
		racy_a = strtoull(eq + 1, NULL, 0);
		racy_b = strtoull(slash + 1, NULL, 0);
	}
	pid = strtoul(argv[1], NULL, 0);
	did = strtoul(argv[2], NULL, 0);
	if (read_format(argv[3]))
		return 2;
	ctl = open(PERF_PERSISTENT_DEVICE, O_RDONLY);
	if (ctl < 0) {
		perror(PERF_PERSISTENT_DEVICE);
		return 2;
	}
	info.id = pid;
	info.cpu_stats = (unsigned long)pstats;
	info.nr_cpus = MAX_CPUS;
	if (ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info))
		return 2;
	psize = info.buffer_size;
	nr_cpus = info.nr_cpus < MAX_CPUS ? info.nr_cpus : MAX_CPUS;
	info.cpu_stats = (unsigned long)dstats;
	info.nr_cpus = MAX_CPUS;
	info.id = did;
	if (ioctl(ctl, PERF_PERSISTENT_IOC_INFO, &info))
		return 2;
	dsize = info.buffer_size;
	if (racy_name && !racy_size) {
		printf("no field %s\n", racy_name);
		return 2;
	}

	if (moves) {
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			if (load(pid, cpu, psize, &ps[cpu]) ||
			    load(did, cpu, dsize, &ds[cpu])) {
				printf("cpu %u: cannot read the buffers\n", cpu);
				return 1;
			}
		}
		return compare_by_task(ps, ds, pstats, dstats, nr_cpus);
	}

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct side p = { 0 }, d = { 0 };
		unsigned int i, j;

		if (load(pid, cpu, psize, &p) || load(did, cpu, dsize, &d)) {
			printf("cpu %u: cannot read the buffers\n", cpu);
			return 1;
		}
		bad |= time_order(&p, "perf", cpu) | time_order(&d, "direct", cpu);
		if (!d.nr) {
			printf("cpu %u: no direct records\n", cpu);
			continue;
		}
		/*
		 * Where to start: the perf event's record of the direct
		 * event's oldest; or, if the perf event's buffer wrapped, the
		 * direct event's record of the perf event's oldest.  The
		 * first start whose records all agree, else the first start
		 * there is, to show where they part.
		 */
		nr_starts = 0;
		j = line_up(&d.recs[0], 0, &p, cpu);
		if (j < p.nr) {
			start[nr_starts][0] = 0;
			start[nr_starts++][1] = j;
		}
		i = p.nr && pstats[cpu].overwritten ?
			line_up(&p.recs[0], 1, &d, cpu) : d.nr;
		if (i < d.nr) {
			start[nr_starts][0] = i;
			start[nr_starts++][1] = 0;
		}
		if (!nr_starts) {
			printf("cpu %u: the direct event's oldest record is not among the perf event's %u\n",
			       cpu, p.nr);
			/* The first one of the same task: what differs. */
			for (j = 0; j < p.nr; j++)
				if (p.recs[j].d.tid == d.recs[0].d.tid &&
				    p.recs[j].d.pid == d.recs[0].d.pid &&
				    p.recs[j].d.raw_size == d.recs[0].d.raw_size)
					break;
			if (j < p.nr)
				differ(&p.recs[j], &d.recs[0], cpu, 0, 0, NULL);
			bad = 1;
			continue;
		}
		for (k = 0; k < nr_starts; k++) {
			struct tally t = { 0 };

			if (!compare(&p, &d, start[k][0], start[k][1], cpu, 1, &t))
				break;
		}
		if (k == nr_starts) {
			k = 0;
			bad = 1;
		}
		if (start[k][0])
			printf("cpu %u: the perf event's buffer wrapped: compared from the direct event's record %u\n",
			       cpu, start[k][0]);
		memset(&cpu_t, 0, sizeof(cpu_t));
		compare(&p, &d, start[k][0], start[k][1], cpu, 0, &cpu_t);
		n = cpu_t.same;
		all.same += cpu_t.same;
		all.direct_only += cpu_t.direct_only;
		all.nested += cpu_t.nested;
		all.resched += cpu_t.resched;
		all.racy += cpu_t.racy;
		printf("cpu %u: %u records the same (perf held %u, direct %u)\n",
		       cpu, n, p.nr, d.nr);
		free(p.recs);
		free(p.arena);
		free(d.recs);
		free(d.arena);
	}
	printf("compared=%u direct_only=%u nested=%u resched_flag_diffs=%u racy_diffs=%u %s\n",
	       all.same, all.direct_only, all.nested, all.resched, all.racy,
	       bad || !all.same ? "DIFFER" : "SAME");
	return bad || !all.same;
}
