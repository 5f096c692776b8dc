// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent: the errors firmware reports, from the boot before (BERT,
 * in the read-only event firmware_errors) and at a fatal GHES error's
 * panic (fw_errors.h)
 *
 * On a firmware-first machine (arm64 servers, x86 ones set so), firmware
 * hands the kernel its errors as UEFI CPER sections in ACPI's generic error
 * status blocks (include/perf_persistent/cper.h).  The kernel's GHES
 * driver traces the sections of the errors it handles, those of no other
 * kind as ras:non_standard_event, but two never reach a tracepoint:
 *
 * - BERT, the Boot Error Record Table: the errors of a boot before this
 *   one (the one that ended in a fatal error), which firmware leaves in a
 *   region of memory for the next boot.  The kernel prints them from a
 *   late initcall (bert.c) and clears each block's status.  At load, this
 *   reads the region again (process context) and writes each section into
 *   a previous event named firmware_errors: read-only, listed with the
 *   previous boot's events, with ras:non_standard_event's format, each
 *   record's common_pid PERF_PERSISTENT_ORIGIN_BERT.
 * - A fatal GHES error: __ghes_panic() prints it, clears the block's status
 *   and panics ("GHES: Fatal hardware error").  At load, this maps each
 *   GHES source's error status block, as HEST lists them, as ACPI maps
 *   firmware's memory (acpi_os_map_memory()).  At that panic,
 *   from the panic notifier (dump.c), on the panicking CPU, before the
 *   crash dump and the region's last write, it reads the blocks whose
 *   severity is fatal and writes each section into every
 *   ras:non_standard_event event on the direct path, as ghes_do_proc()
 *   would have traced it, with common_pid PERF_PERSISTENT_ORIGIN_GHES.
 *
 * Every section goes as non_standard_event, memory errors too (which the
 * GHES driver would hand to EDAC's mc_event, and ARM processor errors to
 * arm_event): its payload is the section's bytes, so nothing is lost, and
 * the tool decodes a memory error's fields from them.
 *
 * What this misses: a block whose address register firmware moves after
 * the load (the address is read once, at load); a source that HEST adds
 * later; sections beyond PP_FW_SECTIONS_MAX (counted) and section data
 * beyond PP_FW_SECTION_DATA_MAX bytes (cut, counted).
 *
 * Contexts: the load's part runs in process context.  pp_fw_errors_panic()
 * runs on the panicking CPU, possibly in NMI (an SEA or NMI notification),
 * the other CPUs stopped: it takes no lock, allocates nothing, reads only
 * memory mapped at load, and runs once.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/atomic.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include <acpi/actbl1.h>
#include <acpi/apei.h>
#include <uapi/linux/perf_persistent.h>

#include "direct.h"
#include "event.h"
#include "fw_errors.h"
#include "ops.h"
#include "perf_persistent/cper.h"

/* Sections firmware_errors keeps; more are counted, not kept. */
#define PP_FW_SECTIONS_MAX	64
/* Bytes of one section's data a record keeps; the rest is cut. */
#define PP_FW_SECTION_DATA_MAX	2048
/* The most of the BERT region read. */
#define PP_FW_BERT_MAX		SZ_1M
/* firmware_errors' one buffer. */
#define PP_FW_ERRORS_SIZE	SZ_256K
/* GHES sources whose blocks are read at a panic. */
#define PP_FW_GHES_MAX		16
/* The most of a GHES block mapped. */
#define PP_FW_GHES_BLOCK_MAX	SZ_64K
/* __ghes_panic()'s message, the same from 6.1 to 7.3. */
#define PP_FW_GHES_PANIC	"GHES: Fatal hardware error"

/* struct pp_direct_desc's @one, for non_standard_event. */
typedef void (*pp_nse_one_t)(void *ev, unsigned long ip, int origin,
			     const guid_t *sec_type, const guid_t *fru_id,
			     const char *fru_text, const u8 sev,
			     const u8 *err, const u32 len);

/* non_standard_event's encoder, found at init. */
static const struct pp_direct_desc *pp_nse_desc;

/*
 * Write @s into @ev, as ghes_do_proc() traces a section: the FRU id and
 * text only if the section says they are valid, the GHES severity.
 * Returns whether the data was cut.  Any context, preemption disabled.
 */
static bool pp_fw_write(struct pp_event *ev, int origin,
			const struct pp_cper_section *s)
{
	pp_nse_one_t one = pp_nse_desc->one;
	const guid_t *fru_id = &guid_null;
	char fru_text[21] = "";
	u32 len = min_t(u32, s->length, PP_FW_SECTION_DATA_MAX);

	if (s->valid & PP_CPER_VALID_FRU_ID)
		fru_id = (const guid_t *)s->fru_id;
	if (s->valid & PP_CPER_VALID_FRU_TEXT)
		memcpy(fru_text, s->fru_text, sizeof(fru_text) - 1);
	one(ev, _THIS_IP_, origin, (const guid_t *)s->type, fru_id, fru_text,
	    pp_cper_ghes_severity(s->severity), s->data, len);
	return len < s->length;
}

/* ---- BERT, at load -------------------------------------------------- */

/**
 * struct pp_fw_bert - what the load found in BERT
 * @region: a copy of the region
 * @sec: the sections kept, pointing into @region
 * @nr: how many are in @sec
 * @lost: sections not kept
 * @blocks: blocks read
 * @bad: damaged blocks or sections (the rest of a damaged block is not
 *	read; a damaged block ends the region)
 * @cut: sections whose data was cut
 */
struct pp_fw_bert {
	void			*region;
	struct pp_cper_section	sec[PP_FW_SECTIONS_MAX];
	unsigned int		nr;
	unsigned int		lost;
	unsigned int		blocks;
	unsigned int		bad;
	unsigned int		cut;
};

/* A copy of the BERT region, and its length in *@len; NULL if none. */
static void *pp_fw_bert_copy(u32 *len)
{
	struct acpi_table_header *hdr;
	struct acpi_table_bert *bert;
	void *map, *copy = NULL;

	if (acpi_disabled ||
	    ACPI_FAILURE(acpi_get_table(ACPI_SIG_BERT, 0, &hdr)))
		return NULL;
	bert = container_of(hdr, struct acpi_table_bert, header);
	if (hdr->length < sizeof(*bert) || !bert->region_length ||
	    !bert->address)
		goto out_put;
	*len = min_t(u32, bert->region_length, PP_FW_BERT_MAX);
	/*
	 * Firmware's memory, mapped as ACPI maps it: with the attributes
	 * firmware gave it (arm64's EFI memory map), cached on x86.
	 */
	map = acpi_os_map_memory(bert->address, *len);
	if (!map)
		goto out_put;
	copy = kvmalloc(*len, GFP_KERNEL);
	if (copy)
		memcpy(copy, map, *len);
	acpi_os_unmap_memory(map, *len);
out_put:
	acpi_put_table(hdr);
	return copy;
}

/* The sections of the blocks in @len bytes at @s->region. */
static void pp_fw_bert_walk(struct pp_fw_bert *s, u32 len)
{
	const u8 *p = s->region;
	struct pp_cper_section sec;
	struct pp_cper_block b;
	u32 pos = 0, off;
	int ret;

	while ((ret = pp_cper_block_read(p + pos, len - pos, &b)) == 1) {
		s->blocks++;
		off = 0;
		while ((ret = pp_cper_section_next(p + pos, &b, &off,
						   &sec)) == 1) {
			if (s->nr == PP_FW_SECTIONS_MAX)
				s->lost++;
			else
				s->sec[s->nr++] = sec;
		}
		if (ret < 0)
			s->bad++;
		pos += b.length;
	}
	if (ret < 0)
		s->bad++;
}

/* Write @s's sections into firmware_errors, before it is published. */
static void pp_fw_bert_fill(struct pp_event *ev, void *data)
{
	struct pp_fw_bert *s = data;
	struct pp_buffer *buf;
	unsigned int i;

	buf = pp_ops_fill_begin(ev);
	for (i = 0; i < s->nr; i++)
		s->cut += pp_fw_write(ev, PERF_PERSISTENT_ORIGIN_BERT,
				      &s->sec[i]);
	pp_ops_fill_end(ev, buf);
}

/**
 * pp_fw_errors_publish - make firmware_errors of the errors BERT holds,
 *	if it holds any
 *
 * Module init, process context, after the previous boot's events.
 * Failures are logged, never fatal.
 */
void pp_fw_errors_publish(void)
{
	struct pp_fw_bert *s;
	u32 len, id;
	int ret;

	if (!pp_nse_desc)
		return;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return;
	s->region = pp_fw_bert_copy(&len);
	if (!s->region)
		goto out;
	pp_fw_bert_walk(s, len);
	pr_info("firmware errors: BERT: %u error blocks, %u sections, %u not kept, %u damaged\n",
		s->blocks, s->nr + s->lost, s->lost, s->bad);
	if (!s->nr)
		goto out;

	ret = pp_ops_show_here(PP_FW_ERRORS_NAME, "ras", "non_standard_event",
			       PP_FW_ERRORS_SIZE, pp_fw_bert_fill, s, &id);
	if (ret)
		pr_err("firmware errors: %s: cannot show it: %d\n",
		       PP_FW_ERRORS_NAME, ret);
	else
		pr_info("firmware errors: %u records in %s (%u cut to %u bytes), event %u (instances/previous.%s)\n",
			s->nr, PP_FW_ERRORS_NAME, s->cut,
			PP_FW_SECTION_DATA_MAX, id, PP_FW_ERRORS_NAME);
out:
	kvfree(s->region);
	kfree(s);
}

/* ---- GHES, at a fatal error's panic --------------------------------- */

/* The GHES sources' blocks, mapped at load; read at the panic. */
static void *pp_fw_ghes_block[PP_FW_GHES_MAX];
static u32 pp_fw_ghes_len[PP_FW_GHES_MAX];
static unsigned int pp_fw_ghes_nr;
static atomic_t pp_fw_ghes_done;
/* The section being written, and how many events took it. */
static struct pp_cper_section pp_fw_ghes_sec;
static unsigned int pp_fw_ghes_written;

/*
 * The length of the HEST entry at @hdr, which has @left bytes, as ACPI
 * lays them out; 0 for a type it does not define (the walk stops).
 */
static u32 pp_fw_hest_len(const struct acpi_hest_header *hdr, u32 left)
{
	u32 len, banks = 0;

	switch (hdr->type) {
	case ACPI_HEST_TYPE_IA32_CHECK:
		len = sizeof(struct acpi_hest_ia_machine_check);
		if (left >= len)
			banks = ((const struct acpi_hest_ia_machine_check *)hdr)
				->num_hardware_banks;
		break;
	case ACPI_HEST_TYPE_IA32_CORRECTED_CHECK:
		len = sizeof(struct acpi_hest_ia_corrected);
		if (left >= len)
			banks = ((const struct acpi_hest_ia_corrected *)hdr)
				->num_hardware_banks;
		break;
	case ACPI_HEST_TYPE_IA32_DEFERRED_CHECK:
		len = sizeof(struct acpi_hest_ia_deferred_check);
		if (left >= len)
			banks = ((const struct acpi_hest_ia_deferred_check *)hdr)
				->num_hardware_banks;
		break;
	case ACPI_HEST_TYPE_IA32_NMI:
		return sizeof(struct acpi_hest_ia_nmi);
	case ACPI_HEST_TYPE_AER_ROOT_PORT:
		return sizeof(struct acpi_hest_aer_root);
	case ACPI_HEST_TYPE_AER_ENDPOINT:
		return sizeof(struct acpi_hest_aer);
	case ACPI_HEST_TYPE_AER_BRIDGE:
		return sizeof(struct acpi_hest_aer_bridge);
	case ACPI_HEST_TYPE_GENERIC_ERROR:
		return sizeof(struct acpi_hest_generic);
	case ACPI_HEST_TYPE_GENERIC_ERROR_V2:
		return sizeof(struct acpi_hest_generic_v2);
	default:
		return 0;
	}
	return len + banks * sizeof(struct acpi_hest_ia_error_bank);
}

/* Map the block of the GHES source @g, if it has one. */
static void pp_fw_ghes_map(const struct acpi_hest_generic *g)
{
	u64 paddr;
	u32 len;
	void *map;

	if (!g->enabled || pp_fw_ghes_nr == PP_FW_GHES_MAX ||
	    g->error_block_length < PP_CPER_STATUS_SIZE)
		return;
	/* ACPICA's reader of the register that holds the block's address. */
	if (ACPI_FAILURE(acpi_read(&paddr, (struct acpi_generic_address *)
				   &g->error_status_address)) || !paddr)
		return;
	len = min_t(u32, g->error_block_length, PP_FW_GHES_BLOCK_MAX);
	map = acpi_os_map_memory(paddr, len);
	if (!map)
		return;
	pp_fw_ghes_block[pp_fw_ghes_nr] = map;
	pp_fw_ghes_len[pp_fw_ghes_nr] = len;
	pp_fw_ghes_nr++;
}

/* Map the blocks of the GHES sources that HEST lists. */
static void pp_fw_ghes_init(void)
{
	struct acpi_table_header *hdr;
	struct acpi_table_hest *hest;
	const u8 *p, *end;
	u32 i, len;

	if (acpi_disabled || hest_disable ||
	    ACPI_FAILURE(acpi_get_table(ACPI_SIG_HEST, 0, &hdr)))
		return;
	hest = container_of(hdr, struct acpi_table_hest, header);
	if (hdr->length < sizeof(*hest))
		goto out_put;
	p = (const u8 *)(hest + 1);
	end = (const u8 *)hdr + hdr->length;
	for (i = 0; i < hest->error_source_count; i++) {
		const struct acpi_hest_header *h = (const void *)p;

		if (end - p < sizeof(*h))
			break;
		len = pp_fw_hest_len(h, end - p);
		if (!len || end - p < len)
			break;
		if (h->type == ACPI_HEST_TYPE_GENERIC_ERROR ||
		    h->type == ACPI_HEST_TYPE_GENERIC_ERROR_V2)
			pp_fw_ghes_map((const struct acpi_hest_generic *)h);
		p += len;
	}
out_put:
	acpi_put_table(hdr);
}

/* Write pp_fw_ghes_sec into @ev if it records non_standard_event itself. */
static void pp_fw_ghes_write(struct pp_event *ev)
{
	if (ev->direct != pp_nse_desc || !READ_ONCE(ev->dx.tp) ||
	    ev->scope.kind != PERF_PERSISTENT_SCOPE_CPUS)
		return;
	pp_fw_write(ev, PERF_PERSISTENT_ORIGIN_GHES, &pp_fw_ghes_sec);
	pp_fw_ghes_written++;
}

/**
 * pp_fw_errors_panic - write the sections of a fatal GHES error
 * @msg: the panic's message
 *
 * On the panicking CPU, from the panic notifier, before the crash dump.
 * Only for __ghes_panic()'s panic: a block keeps its last error's
 * sections after the kernel has handled them, and only that panic says
 * that its fatal one is new.
 */
void pp_fw_errors_panic(const char *msg)
{
	unsigned int i, sections = 0, writes = 0, bad = 0;
	struct pp_cper_block b;
	u32 off;
	int ret;

	if (!pp_nse_desc || !pp_fw_ghes_nr || !msg ||
	    !strstr(msg, PP_FW_GHES_PANIC) || atomic_xchg(&pp_fw_ghes_done, 1))
		return;
	for (i = 0; i < pp_fw_ghes_nr; i++) {
		const void *blk = pp_fw_ghes_block[i];

		if (pp_cper_block_read(blk, pp_fw_ghes_len[i], &b) != 1 ||
		    b.severity != PP_CPER_SEV_FATAL)
			continue;
		off = 0;
		while ((ret = pp_cper_section_next(blk, &b, &off,
						   &pp_fw_ghes_sec)) == 1) {
			sections++;
			pp_fw_ghes_written = 0;
			pp_events_walk_listed(pp_fw_ghes_write);
			writes += pp_fw_ghes_written;
		}
		bad += ret < 0;
	}
	pr_emerg("the panic's GHES error: %u sections (%u blocks damaged); %u written into non_standard_event events\n",
		 sections, bad, writes);
}

/* Module init: process context, after pp_direct_init(). */
void pp_fw_errors_init(void)
{
	pp_nse_desc = pp_direct_find("ras", "non_standard_event");
	if (pp_nse_desc)
		pp_fw_ghes_init();
}

/* Module exit: process context, after the panic notifier is gone. */
void pp_fw_errors_exit(void)
{
	while (pp_fw_ghes_nr) {
		pp_fw_ghes_nr--;
		acpi_os_unmap_memory(pp_fw_ghes_block[pp_fw_ghes_nr],
				     pp_fw_ghes_len[pp_fw_ghes_nr]);
	}
}
