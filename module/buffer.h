/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU flight-recorder buffer of a persistent event.
 *
 * A power-of-two number of pages written backward (as perf's write_backward
 * ring buffer): the head moves down as records are added, so it always
 * points at the newest record and a reader walks from it to older records.
 * When full, the oldest records are overwritten.  Positions are logical
 * byte offsets that start at 0 and decrease; the byte at logical position x
 * is data[x & (size - 1)].
 *
 * The first page (struct perf_event_mmap_page plus struct
 * perf_persistent_page_ext, see the UAPI header) publishes data_head, the
 * newest record, and tail, just past the oldest record held: the records
 * held are those in [data_head, tail).  Both are written by the outermost
 * writer after the records, tail first, data_head with release (the
 * A/B/C/D pairing at pp_buffer_commit()).  The page's reserve_head is the
 * writers' head itself: the lowest position claimed, committed or not.
 *
 * Only the CPU that owns the buffer writes to it, in any context (task,
 * softirq, hardirq, NMI), and its writers may nest.  reserve/write/commit
 * take no lock, allocate nothing and do bounded work.  Space is claimed
 * with local_cmpxchg() on the head.  The outermost writer alone accounts
 * the new records (evicting the overwritten ones, counting statistics) and
 * publishes head and tail when it finishes, as perf_output_put_handle()
 * does.  The buffers of an event whose source fires only in a task have
 * writers that never nest; they take the single-writer pair,
 * pp_buffer_reserve_single() and pp_buffer_commit_single().
 */
#ifndef _PERF_PERSISTENT_BUFFER_H
#define _PERF_PERSISTENT_BUFFER_H

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/types.h>
#include <asm/local.h>
#include <asm/local64.h>

#include <uapi/linux/perf_persistent.h>

struct vm_area_struct;

/**
 * struct pp_buffer_stats - a consistent snapshot of one buffer
 * @head: published head
 * @tail: logical position just past the oldest record held
 * @written: records stored
 * @overwritten: stored records since overwritten by newer ones
 * @dropped: records refused: paused, too large, or no room left by
 *	records of interrupted writers not yet accounted
 * @bytes: bytes of records stored
 *
 * written == records in [head, tail) + overwritten.
 */
struct pp_buffer_stats {
	u64	head;
	u64	tail;
	u64	written;
	u64	overwritten;
	u64	dropped;
	u64	bytes;
};

/* Slots of the COMM records' cache of each buffer: a power of two. */
#define PP_COMM_SLOTS_BITS	4

/**
 * struct pp_comm_slot - the COMM record a buffer last got for a task
 * @pid: its process id
 * @tid: its thread id
 * @comm: its name then, NUL-padded
 * @comm_words: the same bytes, as the check of each record compares them
 * @pos: the record's position
 *
 * pp_record_sample() writes a COMM record before a task's record when the
 * task's slot says something else, or when the slot's record is more than
 * half the buffer older and so will soon be overwritten.
 */
struct pp_comm_slot {
	u32		pid;
	u32		tid;
	union {
		char	comm[TASK_COMM_LEN];
		u64	comm_words[TASK_COMM_LEN / sizeof(u64)];
	};
	unsigned long	pos;
};

struct pp_buffer {
	/* Writer side, this CPU only. */
	local_t			nest;
	unsigned long		done;
	unsigned long		tail;
	u64			written;
	u64			overwritten;
	u64			bytes;
	local64_t		dropped;
	seqcount_t		seq;
	int			paused;
	struct pp_comm_slot	comm[1 << PP_COMM_SLOTS_BITS];

	/* Set at allocation. */
	phys_addr_t		phys;
	unsigned long		size;
	unsigned long		*starts;
	void			*data;
	struct perf_event_mmap_page *page;
	struct perf_persistent_page_ext *ext;
};

/* Records are multiples of 8 bytes and start 8-byte aligned. */
#define PP_RECORD_ALIGN		8

extern unsigned long pp_buffer_limit;
unsigned long pp_buffer_memory_used(void);

struct pp_buffer *pp_buffer_alloc(unsigned long size);
struct pp_buffer *pp_buffer_alloc_at(void *mem, phys_addr_t phys,
				     unsigned long size);
int pp_buffer_adopt(struct pp_buffer *buf, const struct pp_buffer *found,
		    unsigned long head, unsigned long tail);
void pp_buffer_free(struct pp_buffer *buf);
int pp_buffer_mmap(struct pp_buffer *buf, struct vm_area_struct *vma);

void pp_buffer_write(struct pp_buffer *buf, unsigned long pos,
		     const void *src, unsigned int len);
void pp_buffer_zero(struct pp_buffer *buf, unsigned long pos,
		    unsigned int len);
void pp_buffer_commit(struct pp_buffer *buf);

/*
 * Where the reserved record at @pos of @size bytes is, if it does not wrap
 * round the end of the data area; NULL if it does (write it with
 * pp_buffer_write() then).
 */
static inline void *pp_buffer_ptr(struct pp_buffer *buf, unsigned long pos,
				  unsigned int size)
{
	unsigned long off = pos & (buf->size - 1);

	return likely(off + size <= buf->size) ? buf->data + off : NULL;
}

int pp_buffer_next_oldest(struct pp_buffer *buf, unsigned long *pos,
			  unsigned long limit, void *dst, unsigned int max);
void pp_buffer_set_paused(struct pp_buffer *buf, bool paused);

/*
 * While @buf is paused, count a record as dropped and return true.  Any
 * context; a writer tests it before taking anything for its record.
 */
static inline bool pp_buffer_drop_paused(struct pp_buffer *buf)
{
	if (likely(!READ_ONCE(buf->paused)))
		return false;
	local64_inc(&buf->dropped);
	return true;
}

/*
 * The writers' head: the page's reserve_head, which readers read to know
 * which bytes may be being overwritten (UAPI header).  Writers claim space
 * by lowering it with local_cmpxchg(), so it is published as it moves and
 * never goes up.  Positions and local_t are both 64 bits here.
 */
static __always_inline local_t *pp_buffer_head(const struct pp_buffer *buf)
{
	BUILD_BUG_ON(sizeof(local_t) != sizeof(buf->ext->reserve_head));
	return (local_t *)&buf->ext->reserve_head;
}

/*
 * Enter the buffer as a writer of a record of @size bytes: refuse it,
 * counted as dropped, while paused (-EAGAIN) or if it is larger than the
 * buffer (-E2BIG); else raise the nest count, before the head is read
 * (see pp_buffer_commit()), and return 0.
 */
static __always_inline int pp_buffer_enter(struct pp_buffer *buf,
					   unsigned int size)
{
	if (pp_buffer_drop_paused(buf))
		return -EAGAIN;
	if (unlikely(size > buf->size)) {
		local64_inc(&buf->dropped);
		return -E2BIG;
	}
	local_inc(&buf->nest);
	barrier();
	return 0;
}

/**
 * pp_buffer_reserve - claim space for a record of @size bytes
 * @buf: this CPU's buffer
 * @size: record size, a multiple of PP_RECORD_ALIGN
 * @pos: out: logical position of the record's first byte
 *
 * Any context, preemption disabled, on the CPU owning @buf.  On success the
 * caller writes the record in place where pp_buffer_ptr() says it is, or
 * with pp_buffer_write() when it wraps, and must call pp_buffer_commit().
 * On failure the record is counted as dropped and nothing is to be
 * committed.
 *
 * Return: 0, -EAGAIN while paused, -E2BIG if the record can never fit,
 * -ENOSPC if interrupted writers hold the space.
 *
 * Inline: the record path keeps @pos in a register.
 */
static inline int pp_buffer_reserve(struct pp_buffer *buf, unsigned int size,
				    unsigned long *pos)
{
	unsigned long head, new;
	int ret;

	ret = pp_buffer_enter(buf, size);
	if (ret)
		return ret;
	do {
		head = local_read(pp_buffer_head(buf));
		new = head - size;
		if (unlikely(READ_ONCE(buf->done) - new > buf->size)) {
			local64_inc(&buf->dropped);
			/* Publish what the writers we interrupted left to us. */
			pp_buffer_commit(buf);
			return -ENOSPC;
		}
	} while (local_cmpxchg(pp_buffer_head(buf), head, new) != head);

	/*
	 * Lowering the head (E) before writing the record (F) tells the
	 * mapping's readers that those bytes may change:
	 *
	 *   writer                            reader (userspace)
	 *   lower reserve_head           E    copy the record              G
	 *   smp_wmb()                         acquire fence / smp_rmb()
	 *   write the record             F    load reserve_head            H
	 *
	 * A reader whose copy (G) saw a byte of F sees, at H, E or a lower
	 * value, and so discards the record (UAPI header: reserve_head).
	 */
	smp_wmb();
	*pos = new;
	return 0;
}

/**
 * pp_buffer_reserve_single - pp_buffer_reserve() for a buffer whose writers never nest
 * @buf: this CPU's buffer
 * @size: record size, a multiple of PP_RECORD_ALIGN
 * @pos: out: logical position of the record's first byte
 *
 * For the buffers of an event whose source fires only in a task (the
 * syscall tracepoints), on which every writer runs in a task with
 * preemption disabled: no writer interrupts another on the same buffer,
 * so every record reserved before was committed, the accounted head is
 * the head, and the head moves by a plain store.  The record is finished
 * with pp_buffer_commit_single(); a COMM record in between, reserved and
 * committed in full, is also fine.  The nest count is still raised, for
 * the crash dump to see a record in flight (pp_dump_range()).
 *
 * Return: 0, -EAGAIN while paused, -E2BIG if the record can never fit.
 */
static __always_inline int pp_buffer_reserve_single(struct pp_buffer *buf,
						    unsigned int size,
						    unsigned long *pos)
{
	unsigned long head;
	int ret;

	ret = pp_buffer_enter(buf, size);
	if (ret)
		return ret;
	head = local_read(pp_buffer_head(buf)) - size;
	local_set(pp_buffer_head(buf), head);
	/* E before F, as in pp_buffer_reserve(). */
	smp_wmb();
	*pos = head;
	return 0;
}

unsigned long pp_buffer_oldest_start_far(const struct pp_buffer *buf,
					 unsigned long last);

/* The bitmap slot of logical position @pos. */
static __always_inline unsigned long pp_buffer_slot(const struct pp_buffer *buf,
						    unsigned long pos)
{
	return (pos & (buf->size - 1)) / PP_RECORD_ALIGN;
}

/*
 * Logical start of the oldest held record: the highest marked slot below
 * @tail.  Only called while records are held, so a mark exists within one
 * buffer size below @tail.  This runs once per overwritten record.  A
 * record is rarely longer than 64 slots, so its start is nearly always in
 * the word of its last slot, which is all this looks at.
 */
static __always_inline unsigned long pp_buffer_oldest_start(const struct pp_buffer *buf,
							    unsigned long tail)
{
	unsigned long nbits = buf->size / PP_RECORD_ALIGN;
	unsigned long last = pp_buffer_slot(buf, tail - PP_RECORD_ALIGN);
	unsigned long word = buf->starts[BIT_WORD(last)] &
			     BITMAP_LAST_WORD_MASK(last + 1);
	unsigned long bit;

	if (likely(word))
		bit = round_down(last, BITS_PER_LONG) + __fls(word);
	else
		bit = pp_buffer_oldest_start_far(buf, last);
	return tail - PP_RECORD_ALIGN -
	       ((last - bit) & (nbits - 1)) * PP_RECORD_ALIGN;
}

/*
 * Eviction runs ahead of need: when a head would pass the tail, the oldest
 * records are evicted until a 64th of the buffer (at most 8 KiB) more than
 * the new record needs is free.  So one search of the bitmap, and one
 * clearing of the marks that counts them, serve the records that fill that
 * room after it; a buffer holds up to this much less than its size of its
 * newest records.  The bound keeps the clearing, which may run in NMI,
 * short in the largest buffers.
 */
#define PP_EVICT_AHEAD_SHIFT	6
#define PP_EVICT_AHEAD_MAX	8192UL

/* The room eviction frees ahead of need in @buf. */
static inline unsigned long pp_buffer_ahead(const struct pp_buffer *buf)
{
	return min(buf->size >> PP_EVICT_AHEAD_SHIFT, PP_EVICT_AHEAD_MAX);
}

void pp_buffer_evict_ahead(struct pp_buffer *buf, unsigned long head);

/*
 * Evict the records a head at @head overwrites, and some more ahead.
 * Outermost writer only.
 */
static __always_inline void pp_buffer_evict(struct pp_buffer *buf,
					    unsigned long head)
{
	if (unlikely(buf->tail - head > buf->size))
		pp_buffer_evict_ahead(buf, head);
}

/*
 * Move the tail, for the writers and for the mapping's readers.  Outermost
 * writer only.  The UAPI header promises the readers that the records (A),
 * then the tail (B), then data_head (C) are written in that order:
 *
 *   writer                        reader (userspace)
 *   records written          A    h = load_acquire(data_head)  D
 *   WRITE_ONCE(ext->tail)    B    t = READ_ONCE(ext->tail)
 *   store_release(data_head) C    read records in [h, t)
 *
 * The tail moves only when records are evicted, in the accounting before
 * the publication (C), so B needs no barrier of its own: C orders A and B
 * before it and pairs with D (or with a load of data_head followed by
 * smp_rmb()), so a reader that sees a head sees the records up to it and
 * a tail at least as new.  A reader that sees the new tail with the old
 * head reads fewer records, all of them held.
 */
static __always_inline void pp_buffer_set_tail(struct pp_buffer *buf,
					       unsigned long tail)
{
	/* Read locklessly by nested writers, readers and the statistics. */
	WRITE_ONCE(buf->tail, tail);
	WRITE_ONCE(buf->ext->tail, tail);
}

/* Publish the head (C above). */
static __always_inline void pp_buffer_publish(struct pp_buffer *buf,
					      unsigned long head)
{
	/* C: pairs with D, the readers' acquire load of data_head. */
	smp_store_release(&buf->page->data_head, head);
}

/*
 * Account the one record not yet accounted, at @pos, and publish it: the
 * commit of a writer that nobody interrupted.  Outermost writer only.
 */
static __always_inline void pp_buffer_account_one(struct pp_buffer *buf,
						  unsigned long pos,
						  unsigned int size)
{
	raw_write_seqcount_begin(&buf->seq);
	pp_buffer_evict(buf, pos);
	__set_bit(pp_buffer_slot(buf, pos), buf->starts);
	buf->written++;
	buf->bytes += size;
	WRITE_ONCE(buf->done, pos);
	pp_buffer_publish(buf, pos);
	raw_write_seqcount_end(&buf->seq);
}

/**
 * pp_buffer_commit_one - finish the record reserved at @pos
 * @buf: the buffer
 * @pos: the record's position, as pp_buffer_reserve() gave it
 * @size: its size
 *
 * pp_buffer_commit() for the common case, inline.  The outermost writer,
 * finishing the only record not yet accounted, accounts it without walking
 * the records' headers and publishes.  Any other writer calls
 * pp_buffer_commit(): one that a writer in an interrupt nested in, or one
 * that interrupted another writer.  Any context, on the CPU owning @buf.
 */
static __always_inline void pp_buffer_commit_one(struct pp_buffer *buf,
						 unsigned long pos,
						 unsigned int size)
{
	if (unlikely(local_read(&buf->nest) != 1 ||
		     local_read(pp_buffer_head(buf)) != pos ||
		     buf->done != pos + size)) {
		pp_buffer_commit(buf);
		return;
	}
	pp_buffer_account_one(buf, pos, size);

	/*
	 * As in pp_buffer_commit(), leave the nest, then look whether a
	 * writer that interrupted us reserved meanwhile.  If one did, we
	 * account its record, as the outermost writer again.
	 */
	barrier();
	local_dec(&buf->nest);
	barrier();
	if (unlikely(local_read(pp_buffer_head(buf)) != pos)) {
		local_inc(&buf->nest);
		pp_buffer_commit(buf);
	}
}

/**
 * pp_buffer_commit_single - finish a record pp_buffer_reserve_single() reserved
 * @buf: the buffer
 * @pos: the record's position
 * @size: its size
 *
 * The record is the only one not yet accounted: account and publish it,
 * as pp_buffer_commit_one() does for an outermost writer that nobody
 * interrupted, without looking for other writers.  In a task, preemption
 * disabled, on the CPU owning @buf.
 */
static __always_inline void pp_buffer_commit_single(struct pp_buffer *buf,
						    unsigned long pos,
						    unsigned int size)
{
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		WARN_ON_ONCE(!in_task() || local_read(&buf->nest) != 1 ||
			     buf->done != pos + size);
	pp_buffer_account_one(buf, pos, size);
	barrier();
	local_dec(&buf->nest);
}

void pp_buffer_stats(struct pp_buffer *buf, struct pp_buffer_stats *st);
/*
 * Why pp_buffer_found() kept less than the published window:
 * OVERRUN, a writer caught mid-record had reserved the oldest bytes; SIZE,
 * a size under 8 or not a multiple of 8; CROSS, a record running past the
 * window; TYPE, a record type the module never writes; TIME, a sample's
 * time after the last clock, or later than the next newer one's by more
 * than the slack; FIELDS, fields that do not fill the record exactly (as
 * the readers decode them: a RAW size, a callchain's length, a COMM name
 * without its NUL).  WHOLE: every published record was kept.  PAGE, the
 * buffer's control page is not one of its event's, or its positions
 * cannot be; ABSENT, this boot has no such CPU; NOMEM, no memory (or
 * memory_limit_mb) for its copy: nothing of the buffer is kept then.
 */
enum pp_found_stop {
	PP_FOUND_WHOLE,
	PP_FOUND_OVERRUN,
	PP_FOUND_SIZE,
	PP_FOUND_CROSS,
	PP_FOUND_TYPE,
	PP_FOUND_TIME,
	PP_FOUND_FIELDS,
	/* Not from the walk: the buffer's control page (previous.c) ... */
	PP_FOUND_PAGE,
	/* ... or a CPU this boot does not have, or no memory for the copy. */
	PP_FOUND_ABSENT,
	PP_FOUND_NOMEM,
	PP_FOUND_NR
};

/**
 * struct pp_found_rules - what the records of a found buffer must obey
 * @time_off: where a SAMPLE record's u64 time is (from its sample_type),
 *	or -1 when it has none
 * @max_time: no time may be later (the last clock the region stored)
 * @slack: how much later than the next newer record a record's time may
 *	be: a writer that took its time and was interrupted before it
 *	reserved lands newer than the interrupting writer's record
 * @sample_type: the event's, whose fields each record must fill exactly
 * @regs_mask: its sample_regs_user, for the length of a REGS_USER field
 * @scratch: PP_FOUND_SCRATCH bytes, where each record is copied whole to
 *	be decoded; NULL checks sizes, types and times only
 */
struct pp_found_rules {
	int	time_off;
	u64	max_time;
	u64	slack;
	u64	sample_type;
	u64	regs_mask;
	void	*scratch;
};

/* Room for the largest record: its size is a u16. */
#define PP_FOUND_SCRATCH	(U16_MAX + 1)

/**
 * struct pp_buffer_found - what can be trusted of a buffer found after a reset
 * @head: the newest record kept: the published head, or the record after
 *	it when that one was torn
 * @tail: just past the oldest record kept: the records are [@head, @tail)
 * @records: how many
 * @bytes: their bytes
 * @torn: 1 if the newest published record was dropped as torn
 * @stop: why @tail is short of the published tail, or PP_FOUND_WHOLE
 */
struct pp_buffer_found {
	unsigned long		head;
	unsigned long		tail;
	u64			records;
	u64			bytes;
	unsigned int		torn;
	enum pp_found_stop	stop;
};

int pp_buffer_found(const struct pp_buffer *buf, unsigned long head,
		    unsigned long tail, unsigned long reserve,
		    const struct pp_found_rules *rules,
		    struct pp_buffer_found *f);
void pp_buffer_read(const struct pp_buffer *buf, unsigned long pos,
		    void *dst, unsigned int len);

#endif /* _PERF_PERSISTENT_BUFFER_H */
