// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: per-CPU flight-recorder buffer, written backward
 *
 * Layout: one control page (perf-compatible, see the UAPI header) followed
 * by the data area, allocated with vmalloc so that it can be mapped to
 * readers page by page.
 *
 * Logical positions start at 0 and decrease: a record of size s is written
 * at [head - s, head) and the head becomes head - s.  The records between
 * the head and the tail are held; older bytes are overwritten as the head
 * comes round.
 *
 * Eviction.  To know how many records were overwritten, the outermost
 * writer keeps a bitmap with one bit per 8 bytes of data marking where a
 * held record starts.  When a new record needs the oldest ones' room, the
 * new tail is the highest marked position a 64th of the buffer (at most
 * 8 KiB) below where the tail must at least go (pp_buffer_ahead()); the
 * marks from there
 * to the old tail are counted as overwritten records and cleared, a word
 * at a time.  The search scans no more bits than the evicted records are
 * long (plus, at most once per lap of the buffer, the bits up to the
 * wrap), and the records that then fill the room evict nothing, so the
 * work per record stays bounded and is mostly one comparison.
 *
 * Nesting.  A writer interrupted between reserve and commit (by an IRQ or
 * NMI that writes too) does not lose anything: nested writers claim space
 * below it with local_cmpxchg() and leave the accounting and the
 * publication to the outermost writer, which repeats them until the head
 * stops moving (perf_output_put_handle() does the same).  So that the
 * accounting walk never reads bytes a nested writer has already reused, a
 * reservation that would leave more than the buffer's size unaccounted is
 * refused and counted as dropped.
 */

#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "buffer.h"
#include "perf_persistent/decode.h"

/*
 * Memory.  Every buffer counts against one limit shared by all of them
 * (pp_buffer_limit, the memory_limit_mb parameter), so that no creator can
 * take memory until vmalloc fails.  Each buffer is also charged to the
 * memory cgroup of the task that allocates it (__GFP_ACCOUNT): the
 * creator's, or the sync work's (the root) for a CPU that comes online
 * later.  The charge stays with the buffer, whoever owns the event later.
 */
unsigned long pp_buffer_limit = ULONG_MAX;

/*
 * Charged to the memory cgroup.  Past the cgroup's limit, or short of
 * memory, the creation fails with ENOMEM: a flight recorder is not worth
 * an OOM kill.
 */
#define PP_BUFFER_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
static atomic_long_t pp_buffer_used = ATOMIC_LONG_INIT(0);

/* What a buffer of @size data bytes takes: control page, data, bitmap. */
static unsigned long pp_buffer_footprint(unsigned long size)
{
	return sizeof(struct pp_buffer) + PAGE_SIZE + size +
	       BITS_TO_LONGS(size / PP_RECORD_ALIGN) * sizeof(unsigned long);
}

/* Bytes the buffers take now, against pp_buffer_limit.  Any context. */
unsigned long pp_buffer_memory_used(void)
{
	return atomic_long_read(&pp_buffer_used);
}

/*
 * The buffer's bookkeeping in kernel memory, charged against
 * pp_buffer_limit as @need bytes: the structure and the bitmap of record
 * starts.  The caller sets the control page and the data.
 */
static struct pp_buffer *pp_buffer_new(unsigned long size, unsigned long need)
{
	struct pp_buffer *buf;

	if (atomic_long_add_return(need, &pp_buffer_used) >
	    READ_ONCE(pp_buffer_limit)) {
		atomic_long_sub(need, &pp_buffer_used);
		return ERR_PTR(-ENOSPC);
	}
	buf = kzalloc(sizeof(*buf), PP_BUFFER_GFP);
	if (!buf)
		goto err_uncharge;
	buf->size = size;
	seqcount_init(&buf->seq);
	local_set(&buf->nest, 0);
	local64_set(&buf->dropped, 0);
	buf->starts = kvcalloc(BITS_TO_LONGS(size / PP_RECORD_ALIGN),
			       sizeof(unsigned long), PP_BUFFER_GFP);
	if (buf->starts)
		return buf;
	kfree(buf);
err_uncharge:
	atomic_long_sub(need, &pp_buffer_used);
	return ERR_PTR(-ENOMEM);
}

/* Point @buf at its control page @page, followed by the data, and set it up. */
static void pp_buffer_set_page(struct pp_buffer *buf, void *page)
{
	buf->page = page;
	buf->data = page + PAGE_SIZE;
	buf->ext = page + PERF_PERSISTENT_PAGE_EXT_OFFSET;
	buf->ext->size = sizeof(*buf->ext);
	buf->page->data_offset = PAGE_SIZE;
	buf->page->data_size = buf->size;
}

/**
 * pp_buffer_alloc - allocate an empty buffer
 * @size: data size in bytes: a power-of-two number of pages
 *
 * Process context; may sleep.
 *
 * Return: the buffer, ERR_PTR(-EINVAL) for a bad size, ERR_PTR(-ENOSPC)
 * when it would take the buffers past pp_buffer_limit, ERR_PTR(-ENOMEM)
 * when the allocation (or the memory cgroup) fails.
 */
struct pp_buffer *pp_buffer_alloc(unsigned long size)
{
	struct pp_buffer *buf;
	void *page;

	if (size < PAGE_SIZE || !is_power_of_2(size))
		return ERR_PTR(-EINVAL);
	buf = pp_buffer_new(size, pp_buffer_footprint(size));
	if (IS_ERR(buf))
		return buf;
	/*
	 * Zeroed, so that a reader meets a zero-sized header where nothing
	 * was written.  The area is page-aligned and made of order-0 pages,
	 * which pp_buffer_mmap() maps one by one; vmalloc_user() would not
	 * take __GFP_ACCOUNT.
	 */
	page = __vmalloc(PAGE_SIZE + size, PP_BUFFER_GFP | __GFP_ZERO);
	if (!page) {
		pp_buffer_free(buf);
		return ERR_PTR(-ENOMEM);
	}
	pp_buffer_set_page(buf, page);
	return buf;
}

/**
 * pp_buffer_alloc_at - an empty buffer in memory the caller provides
 * @mem: PAGE_SIZE + @size bytes, page-aligned: the control page, then the
 *	data.  Mapped cached, physically contiguous
 * @phys: the physical address of @mem, which readers' mappings map
 * @size: data size in bytes: a power-of-two number of pages
 *
 * For the reserved region (keep.c): the records are written where the
 * next boot finds them, by the same record path.  Only the bookkeeping is
 * allocated, and charged.  @mem is zeroed.  Process context.
 *
 * Return: as pp_buffer_alloc().
 */
struct pp_buffer *pp_buffer_alloc_at(void *mem, phys_addr_t phys,
				     unsigned long size)
{
	struct pp_buffer *buf;

	if (size < PAGE_SIZE || !is_power_of_2(size) || !PAGE_ALIGNED(mem) ||
	    !phys || !PAGE_ALIGNED(phys))
		return ERR_PTR(-EINVAL);
	buf = pp_buffer_new(size, pp_buffer_footprint(size) - PAGE_SIZE - size);
	if (IS_ERR(buf))
		return buf;
	memset(mem, 0, PAGE_SIZE + size);
	buf->phys = phys;
	pp_buffer_set_page(buf, mem);
	return buf;
}

/*
 * Process context; no writer may be running or start on @buf.  The memory
 * of a buffer made by pp_buffer_alloc_at() stays its provider's.
 */
void pp_buffer_free(struct pp_buffer *buf)
{
	unsigned long charged;

	if (!buf)
		return;
	charged = pp_buffer_footprint(buf->size);
	if (buf->phys)
		charged -= PAGE_SIZE + buf->size;
	else
		vfree(buf->page);
	kvfree(buf->starts);
	atomic_long_sub(charged, &pp_buffer_used);
	kfree(buf);
}

/**
 * pp_buffer_mmap - map a buffer read-only: control page, then the data
 * @buf: the buffer
 * @vma: a mapping of exactly PAGE_SIZE + @buf->size bytes, without VM_WRITE
 *
 * Process context, mmap lock held for writing.
 *
 * Return: 0, or vm_insert_page()'s or remap_pfn_range()'s error.
 */
int pp_buffer_mmap(struct pp_buffer *buf, struct vm_area_struct *vma)
{
	unsigned long off;
	int ret;

	mmap_assert_write_locked(vma->vm_mm);
	/* Reserved memory, not pages of the page allocator. */
	if (buf->phys)
		return remap_pfn_range(vma, vma->vm_start, PHYS_PFN(buf->phys),
				       PAGE_SIZE + buf->size, vma->vm_page_prot);
	for (off = 0; off < PAGE_SIZE + buf->size; off += PAGE_SIZE) {
		ret = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page((void *)buf->page + off));
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * pp_buffer_write - copy @len bytes to logical position @pos
 * @buf: the buffer
 * @pos: position inside a reserved record
 * @src: source
 * @len: bytes; may run past the end of the data area, which wraps
 *
 * Any context.
 */
void pp_buffer_write(struct pp_buffer *buf, unsigned long pos,
		     const void *src, unsigned int len)
{
	unsigned long off = pos & (buf->size - 1);
	unsigned int first = min_t(unsigned long, len, buf->size - off);

	memcpy(buf->data + off, src, first);
	if (first < len)
		memcpy(buf->data, src + first, len - first);
}

/* As pp_buffer_write(), writing zeroes (record padding). */
void pp_buffer_zero(struct pp_buffer *buf, unsigned long pos, unsigned int len)
{
	unsigned long off = pos & (buf->size - 1);
	unsigned int first = min_t(unsigned long, len, buf->size - off);

	memset(buf->data + off, 0, first);
	if (first < len)
		memset(buf->data, 0, len - first);
}

/**
 * pp_buffer_read - copy @len bytes from logical position @pos
 * @buf: the buffer
 * @pos: logical position
 * @dst: destination
 * @len: bytes; may run past the end of the data area, which wraps
 */
void pp_buffer_read(const struct pp_buffer *buf, unsigned long pos,
		    void *dst, unsigned int len)
{
	unsigned long off = pos & (buf->size - 1);
	unsigned int first = min_t(unsigned long, len, buf->size - off);

	memcpy(dst, buf->data + off, first);
	if (first < len)
		memcpy(dst + first, buf->data, len - first);
}

/*
 * pp_buffer_oldest_start() when the record's start is not in its last
 * slot's word.
 */
noinline unsigned long pp_buffer_oldest_start_far(const struct pp_buffer *buf,
						  unsigned long last)
{
	unsigned long bit = find_last_bit(buf->starts, last + 1);

	if (bit > last)
		bit = find_last_bit(buf->starts, buf->size / PP_RECORD_ALIGN);
	return bit;
}

/* Clear bits [@start, @end) of @map, @start < @end, and return how many were set. */
static unsigned long pp_bits_take(unsigned long *map, unsigned long start,
				  unsigned long end)
{
	unsigned long *w = map + BIT_WORD(start), *last = map + BIT_WORD(end - 1);
	unsigned long mask = BITMAP_FIRST_WORD_MASK(start), n = 0;

	for (; w != last; w++, mask = ~0UL) {
		n += hweight_long(*w & mask);
		*w &= ~mask;
	}
	mask &= BITMAP_LAST_WORD_MASK(end);
	n += hweight_long(*w & mask);
	*w &= ~mask;
	return n;
}

/*
 * Clear the marks of the records starting in [@from, @to), at most a
 * buffer's size, and return how many there were.
 */
static unsigned long pp_buffer_clear_starts(struct pp_buffer *buf,
					    unsigned long from,
					    unsigned long to)
{
	unsigned long nbits = buf->size / PP_RECORD_ALIGN;
	unsigned long first = pp_buffer_slot(buf, from);
	unsigned long len = (to - from) / PP_RECORD_ALIGN;

	if (!len)
		return 0;
	if (first + len <= nbits)
		return pp_bits_take(buf->starts, first, first + len);
	return pp_bits_take(buf->starts, first, nbits) +
	       pp_bits_take(buf->starts, 0, first + len - nbits);
}

/**
 * pp_buffer_evict_ahead - evict the oldest records, ahead of need
 * @buf: the buffer
 * @head: the head being accounted, which has passed the tail
 *
 * The records being accounted, [@head, done), are not marked yet; the
 * held ones are [done, tail) and only they are marked.  The new tail is
 * the highest held start at or below the limit, which is done at the
 * lowest; or done itself when the records being accounted leave no room
 * for any held one.  Outermost writer only; any context.
 */
noinline void pp_buffer_evict_ahead(struct pp_buffer *buf, unsigned long head)
{
	unsigned long limit = head + buf->size - pp_buffer_ahead(buf);
	unsigned long done = buf->done, tail = buf->tail, new;

	if (tail == done || (long)(limit - done) < 0)
		new = done;
	else
		new = pp_buffer_oldest_start(buf, limit + PP_RECORD_ALIGN);
	buf->overwritten += pp_buffer_clear_starts(buf, new, tail);
	pp_buffer_set_tail(buf, new);
}

/*
 * The accounting met a record header that none of our writers could have
 * written.  The marks of the records before it are lost, so eviction could
 * no longer find the oldest record and would walk the bitmap up to size/8
 * times per record, in NMI.  Drop what is held instead, counted as
 * overwritten so that written == held + overwritten still holds, and start
 * afresh at @head.  This costs one pass over the bitmap.
 */
static void pp_buffer_reset(struct pp_buffer *buf, unsigned long head)
{
	bitmap_zero(buf->starts, buf->size / PP_RECORD_ALIGN);
	/* The COMM records the cache points at are gone too. */
	memset(buf->comm, 0, sizeof(buf->comm));
	buf->overwritten = buf->written;
	pp_buffer_set_tail(buf, head);
}

/*
 * Account the records in [head, done): evict the records they overwrote,
 * mark where each new one starts, count them.  Outermost writer only.
 */
static void pp_buffer_account(struct pp_buffer *buf, unsigned long head)
{
	unsigned long pos;

	pp_buffer_evict(buf, head);

	for (pos = head; pos != buf->done; ) {
		const struct perf_event_header *hdr =
			buf->data + (pos & (buf->size - 1));
		unsigned int size = hdr->size;

		/* Only our own writers write here; anything else is a bug. */
		if (WARN_ON_ONCE(size < sizeof(*hdr) ||
				 size % PP_RECORD_ALIGN ||
				 size > buf->done - pos)) {
			pp_buffer_reset(buf, head);
			break;
		}
		__set_bit(pp_buffer_slot(buf, pos), buf->starts);
		buf->written++;
		buf->bytes += size;
		pos += size;
	}
	/* Read locklessly by nested writers and the delivery. */
	WRITE_ONCE(buf->done, head);
}

/**
 * pp_buffer_commit - finish a record; publish if outermost
 * @buf: the buffer a record was reserved in
 *
 * Any context, on the CPU owning @buf.
 */
void pp_buffer_commit(struct pp_buffer *buf)
{
	unsigned long head;

again:
	head = local_read(pp_buffer_head(buf));
	if (local_read(&buf->nest) > 1) {
		local_dec(&buf->nest);
		return;
	}

	if (head != buf->done) {
		raw_write_seqcount_begin(&buf->seq);
		pp_buffer_account(buf, head);
		pp_buffer_publish(buf, head);
		raw_write_seqcount_end(&buf->seq);
	}

	/*
	 * As in perf_output_put_handle(): leave the nest, then look whether
	 * a writer that interrupted us after we read the head moved it.  If
	 * one did, we account and publish its record.
	 */
	barrier();
	local_dec(&buf->nest);
	barrier();
	if (unlikely(head != local_read(pp_buffer_head(buf)))) {
		local_inc(&buf->nest);
		goto again;
	}
}

/**
 * pp_buffer_next_oldest - read the oldest record newer than a boundary
 * @buf: the buffer
 * @pos: in: a record boundary; every record at or beyond it (older) has
 *	been read.  Out: the start of the record read, or where reading goes
 *	on after a loss.
 * @limit: a record boundary at or newer than @pos where reading stops
 *	(a head the caller saw accounted)
 * @dst: receives the record
 * @max: size of @dst
 *
 * Reads records oldest first, each once: called repeatedly it walks from
 * @pos to @limit.  Meant for the CPU owning @buf with interrupts off, where
 * only an NMI writer can run meanwhile; the copy is validated against it.
 *
 * Return: the record's size; 0 when *@pos reached @limit; -EAGAIN when a
 * writer was accounting (nothing moved; try later); -ESTALE when records
 * between *@pos and the oldest held one were overwritten before being
 * read (*@pos moves to the oldest held record's end); -ENOSPC when the
 * record is larger than @max (it is skipped).
 */
int pp_buffer_next_oldest(struct pp_buffer *buf, unsigned long *pos,
			  unsigned long limit, void *dst, unsigned int max)
{
	unsigned long start, done, tail;
	unsigned int seq, size;

	seq = raw_read_seqcount(&buf->seq);
	if (seq & 1)
		return -EAGAIN;
	done = buf->done;
	tail = buf->tail;
	if (*pos - done > tail - done) {
		*pos = tail;
		return read_seqcount_retry(&buf->seq, seq) ? -EAGAIN : -ESTALE;
	}
	if (*pos == limit)
		return 0;

	start = pp_buffer_oldest_start(buf, *pos);
	size = *pos - start;
	if (size <= max)
		pp_buffer_read(buf, start, dst, size);
	if (read_seqcount_retry(&buf->seq, seq))
		return -EAGAIN;
	/* Reused meanwhile by a writer that reserved but has not accounted? */
	if (*pos - (unsigned long)local_read(pp_buffer_head(buf)) > buf->size) {
		*pos = start;
		return -ESTALE;
	}
	*pos = start;
	return size <= max ? size : -ENOSPC;
}

/**
 * pp_buffer_set_paused - stop or restart storing records
 * @buf: the buffer
 * @paused: true to drop (and count) new records, false to store them
 *
 * Any context.  Writers already past the check finish their record; the
 * caller waits for them (synchronize_rcu()) when it needs a still buffer.
 */
void pp_buffer_set_paused(struct pp_buffer *buf, bool paused)
{
	WRITE_ONCE(buf->paused, paused);
}

/**
 * pp_buffer_stats - read a consistent snapshot of @buf's counters
 * @buf: the buffer
 * @st: out
 *
 * Any context except NMI on @buf's CPU.  Lock-free: it retries while the
 * outermost writer accounts.
 */
void pp_buffer_stats(struct pp_buffer *buf, struct pp_buffer_stats *st)
{
	unsigned int seq;

	do {
		seq = raw_read_seqcount_begin(&buf->seq);
		st->head = buf->done;
		st->tail = buf->tail;
		st->written = buf->written;
		st->overwritten = buf->overwritten;
		st->bytes = buf->bytes;
	} while (read_seqcount_retry(&buf->seq, seq));
	st->dropped = local64_read(&buf->dropped);
}

/*
 * Check the record at @pos of a found buffer, of @hdr, at most @room bytes
 * before the window's end: PP_FOUND_WHOLE if it obeys @rules.  Its time,
 * when it has one, goes to @time (else U64_MAX), for the order check.
 */
static enum pp_found_stop pp_found_record(const struct pp_buffer *buf,
					  unsigned long pos,
					  const struct perf_event_header *hdr,
					  unsigned long room,
					  const struct pp_found_rules *rules,
					  u64 newer, u64 *time)
{
	struct pp_decoded d;

	*time = U64_MAX;
	if (hdr->size < sizeof(*hdr) || hdr->size % PP_RECORD_ALIGN)
		return PP_FOUND_SIZE;
	if (hdr->size > room)
		return PP_FOUND_CROSS;
	if (hdr->type != PERF_RECORD_SAMPLE && hdr->type != PERF_RECORD_COMM)
		return PP_FOUND_TYPE;
	/* Its fields fill it exactly, as every reader decodes them. */
	if (rules->scratch) {
		pp_buffer_read(buf, pos, rules->scratch, hdr->size);
		if (pp_decode_regs(rules->scratch, hdr->size, rules->sample_type,
				   rules->regs_mask, &d))
			return PP_FOUND_FIELDS;
	}
	if (hdr->type == PERF_RECORD_SAMPLE && rules->time_off >= 0 &&
	    rules->time_off + sizeof(*time) <= hdr->size) {
		pp_buffer_read(buf, pos + rules->time_off, time, sizeof(*time));
		if (*time > rules->max_time ||
		    (newer != U64_MAX && *time > newer &&
		     *time - newer > rules->slack))
			return PP_FOUND_TIME;
	}
	return PP_FOUND_WHOLE;
}

/**
 * pp_buffer_found - how much of a buffer found after a reset can be trusted
 * @buf: the buffer: only its data area and size are read
 * @head: the data_head its control page published
 * @tail: the tail it published
 * @reserve: the reserve_head it published
 * @rules: what its records must obey
 * @f: out: what is kept, and why not more
 *
 * The records published are [@head, @tail).  A writer caught between
 * reserve and commit by the reset had claimed [@reserve, @head), the
 * bytes of the oldest records once the buffer had wrapped, so the window
 * ends @size after @reserve at the latest.  The walk goes from the newest
 * record to older ones and stops at the first that breaks a rule: from
 * there on nothing is trusted.  The newest record alone may be dropped
 * and the walk go on, when only its time or its fields are wrong: its
 * header, and so its size, reached memory, and the rest of it may not
 * have.  Pure but for @rules->scratch; bounded by @buf->size / 8 steps.
 *
 * Return: 0; -EINVAL when the published positions cannot be (a window
 * larger than the buffer): then nothing is kept.
 */
int pp_buffer_found(const struct pp_buffer *buf, unsigned long head,
		    unsigned long tail, unsigned long reserve,
		    const struct pp_found_rules *rules,
		    struct pp_buffer_found *f)
{
	unsigned long pos = head, end = tail;
	u64 newer = U64_MAX, t;
	struct perf_event_header hdr;
	enum pp_found_stop bad;

	memset(f, 0, sizeof(*f));
	f->head = head;
	f->tail = head;
	if (tail - head > buf->size)
		return -EINVAL;
	/* A reserve_head above data_head was never published: ignore it. */
	if (head - reserve <= buf->size && tail - reserve > buf->size) {
		end = reserve + buf->size;
		f->stop = PP_FOUND_OVERRUN;
	}
	while (pos != end) {
		if (end - pos < sizeof(hdr)) {
			f->stop = PP_FOUND_CROSS;
			break;
		}
		pp_buffer_read(buf, pos, &hdr, sizeof(hdr));
		bad = pp_found_record(buf, pos, &hdr, end - pos, rules, newer,
				      &t);
		if ((bad == PP_FOUND_TIME || bad == PP_FOUND_FIELDS) &&
		    pos == head && !f->torn) {
			/* The newest record, published but torn: drop it alone. */
			f->torn = 1;
			pos += hdr.size;
			f->head = pos;
			continue;
		}
		if (bad) {
			f->stop = bad;
			break;
		}
		if (t != U64_MAX)
			newer = t;
		f->records++;
		f->bytes += hdr.size;
		pos += hdr.size;
	}
	f->tail = pos;
	return 0;
}

/**
 * pp_buffer_adopt - make an empty buffer hold records found elsewhere
 * @buf: an empty buffer of the same size as @found, nothing writing to it
 * @found: the buffer found after a reset: only its data is read
 * @head: the newest record kept
 * @tail: just past the oldest: [@head, @tail) as pp_buffer_found() said
 *
 * Copies @found's data and accounts the records in [@head, @tail) as if
 * they had been written here, so that readers read them as any others.
 * Process context.
 *
 * Return: 0, or -EINVAL if the sizes differ or a record's size is not
 * what pp_buffer_found() checked (nothing is kept then).
 */
int pp_buffer_adopt(struct pp_buffer *buf, const struct pp_buffer *found,
		    unsigned long head, unsigned long tail)
{
	struct perf_event_header hdr;
	unsigned long pos;

	if (buf->size != found->size || tail - head > buf->size)
		return -EINVAL;
	memcpy(buf->data, found->data, buf->size);
	for (pos = head; pos != tail; pos += hdr.size) {
		pp_buffer_read(buf, pos, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size % PP_RECORD_ALIGN ||
		    hdr.size > tail - pos) {
			bitmap_zero(buf->starts, buf->size / PP_RECORD_ALIGN);
			buf->written = 0;
			buf->bytes = 0;
			return -EINVAL;
		}
		__set_bit(pp_buffer_slot(buf, pos), buf->starts);
		buf->written++;
		buf->bytes += hdr.size;
	}
	local_set(pp_buffer_head(buf), head);
	buf->done = head;
	pp_buffer_set_tail(buf, tail);
	pp_buffer_publish(buf, head);
	return 0;
}
