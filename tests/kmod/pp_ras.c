// SPDX-License-Identifier: GPL-2.0
/*
 * pp_ras - a lab fixture, built for the lab kernels only and never
 * installed: writing a number to a file of /sys/kernel/debug/pp_ras/ fires
 * the RAS tracepoint of that name in the writing task, on its CPU, with
 * known values and the number as the one that differs:
 *
 *   mc_event            a corrected memory-controller error (EDAC) of 1
 *                       error at address NUMBER, message "pp_ras injected
 *                       error", label "pp_ras DIMM", location 1:2:3,
 *                       grain 64, syndrome 0x5a, driver detail "pp_ras"
 *   arm_event           an ARM processor error of MPIDR NUMBER, MIDR
 *                       0x410fd0c0, affinity level 1, running state 1,
 *                       PSCI state 0 (and, where the tracepoint has them,
 *                       "pp_ras" as each data block, severity corrected)
 *   non_standard_event  a corrected error of a section type of its own,
 *                       FRU text "pp_ras", its data the 8 bytes of NUMBER
 *
 * and one more, which fires nothing itself:
 *
 *   ghes_fatal          NUMBER is the physical address of a GHES error
 *                       source's error status block (the lab's HEST,
 *                       scripts/fw-tables): a fatal memory error at
 *                       0x5678000 (node 1, card 2, module 3, bank 4,
 *                       row 5, column 6, multi-bit ECC, FRU text "pp_ras
 *                       DIMM B2") goes there with its status set, as
 *                       firmware would write it, for the kernel's GHES
 *                       driver to find when it next polls the source, and
 *                       panic on
 *
 * The lab has no machine whose firmware reports errors, and x86's
 * mce-inject makes machine checks only: on other architectures the
 * tests make their errors with this module (tests/lib.sh,
 * pp_inject_error).  ras:aer_event is left out: no lab kernel exports
 * its tracepoint to modules.  Built where the kernel has the RAS
 * tracepoints (CONFIG_RAS), which no architecture's code is needed for.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/cper.h>
#include <linux/debugfs.h>
#include <linux/edac.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include <ras/ras_event.h>

/* The data blocks of arm_event, and the FRU text of non_standard_event. */
static const u8 pp_ras_data[] = "pp_ras";

/* A section type and FRU of the lab's own. */
static const guid_t pp_ras_section =
	GUID_INIT(0x70705f72, 0x6173, 0x4c61, 0x62, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01);
static const guid_t pp_ras_fru =
	GUID_INIT(0x70705f72, 0x6173, 0x4c61, 0x62, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02);

static void pp_ras_mc_event(unsigned long value)
{
	trace_mc_event(HW_EVENT_ERR_CORRECTED, "pp_ras injected error",
		       "pp_ras DIMM", 1, 0, 1, 2, 3, value, 6, 0x5a, "pp_ras");
}

/*
 * arm_event took the processor section alone, until it gained the
 * section's error information, context and vendor data, its severity and
 * its CPU (Debian's 6.12 has that; its 6.1 does not).  The header defines
 * APEIL beside the later prototype.
 */
static void pp_ras_trace_arm_event(const struct cper_sec_proc_arm *proc)
{
#ifdef APEIL
	int cpu = get_cpu();

	trace_arm_event(proc, pp_ras_data, sizeof(pp_ras_data),
			pp_ras_data, sizeof(pp_ras_data),
			pp_ras_data, sizeof(pp_ras_data), CPER_SEV_CORRECTED, cpu);
	put_cpu();
#else
	trace_arm_event(proc);
#endif
}

static void pp_ras_arm_event(unsigned long value)
{
	struct cper_sec_proc_arm proc = {
		.validation_bits	= CPER_ARM_VALID_MPIDR |
					  CPER_ARM_VALID_AFFINITY_LEVEL |
					  CPER_ARM_VALID_RUNNING_STATE,
		.affinity_level		= 1,
		.mpidr			= value,
		.midr			= 0x410fd0c0,
		.running_state		= 1,
		.psci_state		= 0,
	};

	pp_ras_trace_arm_event(&proc);
}

static void pp_ras_non_standard_event(unsigned long value)
{
	u64 data = value;

	trace_non_standard_event(&pp_ras_section, &pp_ras_fru,
				 (const char *)pp_ras_data, CPER_SEV_CORRECTED,
				 (const u8 *)&data, sizeof(data));
}

/* The block ghes_fatal writes: its header and one memory error section. */
struct pp_ras_ghes_block {
	struct acpi_hest_generic_status	status;
	struct acpi_hest_generic_data	hdr;
	struct cper_sec_mem_err		mem;
} __packed;

static void pp_ras_ghes_fatal(unsigned long paddr)
{
	const guid_t type = CPER_SEC_PLATFORM_MEM;
	struct pp_ras_ghes_block *b;

	b = memremap(paddr, sizeof(*b), MEMREMAP_WB);
	if (!b) {
		pr_err("ghes_fatal: cannot map %#lx\n", paddr);
		return;
	}
	memset(b, 0, sizeof(*b));
	memcpy(b->hdr.section_type, &type, sizeof(type));
	b->hdr.error_severity = CPER_SEV_FATAL;
	b->hdr.revision = 0x201;
	b->hdr.validation_bits = CPER_SEC_VALID_FRU_TEXT;
	b->hdr.error_data_length = sizeof(b->mem);
	memcpy(b->hdr.fru_text, "pp_ras DIMM B2", 14);
	b->mem.validation_bits = CPER_MEM_VALID_PA | CPER_MEM_VALID_NODE |
		CPER_MEM_VALID_CARD | CPER_MEM_VALID_MODULE |
		CPER_MEM_VALID_BANK | CPER_MEM_VALID_ROW |
		CPER_MEM_VALID_COLUMN | CPER_MEM_VALID_ERROR_TYPE;
	b->mem.physical_addr = 0x5678000;
	b->mem.node = 1;
	b->mem.card = 2;
	b->mem.module = 3;
	b->mem.bank = 4;
	b->mem.row = 5;
	b->mem.column = 6;
	b->mem.error_type = 3;
	b->status.data_length = sizeof(b->hdr) + sizeof(b->mem);
	b->status.error_severity = CPER_SEV_FATAL;
	/* The status last: the driver reads the block once it is set. */
	wmb();
	WRITE_ONCE(b->status.block_status, ACPI_HEST_UNCORRECTABLE);
	memunmap(b);
	pr_warn("ghes_fatal: a fatal memory error in the block at %#lx\n",
		paddr);
}

struct pp_ras_file {
	const char	*name;
	void		(*fire)(unsigned long value);
};

static struct pp_ras_file pp_ras_files[] = {
	{ "mc_event",		pp_ras_mc_event },
	{ "arm_event",		pp_ras_arm_event },
	{ "non_standard_event",	pp_ras_non_standard_event },
	{ "ghes_fatal",		pp_ras_ghes_fatal },
};

static struct dentry *pp_ras_dir;

static ssize_t pp_ras_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	const struct pp_ras_file *f = file->private_data;
	unsigned long value;
	int ret;

	ret = kstrtoul_from_user(ubuf, len, 0, &value);
	if (ret)
		return ret;
	f->fire(value);
	return len;
}

static const struct file_operations pp_ras_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= pp_ras_write,
};

static int __init pp_ras_init(void)
{
	unsigned int i;

	pp_ras_dir = debugfs_create_dir("pp_ras", NULL);
	for (i = 0; i < ARRAY_SIZE(pp_ras_files); i++)
		debugfs_create_file(pp_ras_files[i].name, 0200, pp_ras_dir,
				    &pp_ras_files[i], &pp_ras_fops);
	return 0;
}

static void __exit pp_ras_exit(void)
{
	debugfs_remove(pp_ras_dir);
}

module_init(pp_ras_init);
module_exit(pp_ras_exit);

MODULE_DESCRIPTION("perf-persistent lab fixture: RAS tracepoints fired on request");
MODULE_LICENSE("GPL");
