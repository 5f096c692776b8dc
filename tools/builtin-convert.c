// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent convert", which turns what "perf
 * record -a -R -e persistent/NAME/" wrote into a perf.data of the source
 * events, which perf's own commands decode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

/* The persistent PMU's type, which the readers' attrs have; -1 if none. */
static int pmu_type(void)
{
	char *s = pmu_file("type");
	int type = s ? atoi(s) : -1;

	free(s);
	if (type < 0)
		pp_error("the persistent PMU is not there: is perf_persistent loaded?");
	return type;
}

/*
 * Event @re of the file as an export: its source attr and format from
 * the module, which must still have it.  0, or 1 (reported).
 */
static int export_event(int fd, const char *in, const struct pp_reader_event *re,
			struct pp_event_desc *desc, struct pp_snapshot *snap,
			struct pp_export *ev)
{
	if (ctl_describe(fd, re->id, NULL, desc)) {
		pp_error("%s: persistent event %u is gone: its source and its format went with it",
			 in, re->id);
		return 1;
	}
	ev->p = printer_new(&desc->attr);
	if (!ev->p)
		return 1;
	if (desc->info.size >= PERF_PERSISTENT_INFO_SIZE_VER1)
		printer_set_clock(ev->p, &(struct pp_clock){
					.clock_ns = desc->info.clock_ns,
					.realtime_ns = desc->info.realtime_ns,
				  }, false);
	if (readerdata_snapshot(re, desc->attr.sample_regs_user, snap))
		return 1;
	printer_learn_comms(ev->p, snap);
	ev->name = desc->info.name;
	ev->attr = desc->attr;
	ev->id = desc->info.id;
	ev->snap = snap;
	if (re->losses)
		pp_error("%s: %s: its readers were told of %llu losses, %llu bytes of records overwritten before they were delivered",
			 in, ev->name, re->losses, re->lost_bytes);
	return 0;
}

static int cmd_convert(int argc, char **argv)
{
	const char *in = "perf.data", *out = NULL, *fmt = "perf.data";
	const struct pp_opt opts[] = {
		OPT_STRING('i', "input", &in),
		OPT_STRING('o', "output", &out),
		OPT_STRING(0, "format", &fmt),
		OPT_END
	};
	enum pp_format format;
	struct pp_reader_events r;
	struct exports x;
	bool failed = false;
	int ret, type, fd;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 0, 0))
		return PP_EXIT_USAGE;
	ret = parse_format(fmt, &format);
	if (ret)
		return ret;
	if (!out)
		out = format == PP_FORMAT_TRACE_DAT ? "trace.dat" : "persistent.data";
	if (!strcmp(in, out))
		return usage_error("the output would overwrite the input");
	type = pmu_type();
	if (type < 0)
		return 1;
	if (readerdata_read(in, type, &r))
		return 1;
	ret = 1;
	if (exports_alloc(&x, r.nr))
		goto out_r;
	fd = ctl_open(false);
	if (fd < 0)
		goto out;
	for (; x.nr < r.nr && !failed; x.nr++)
		failed = export_event(fd, in, &r.ev[x.nr], &x.desc[x.nr],
				      &x.snap[x.nr], &x.ev[x.nr]);
	close(fd);
	if (!failed)
		ret = exports_write(&x, "convert", format, out, argc, argv);
out:
	exports_free(&x);
out_r:
	readerdata_free(&r);
	return ret;
}

const struct pp_cmd pp_cmd_convert = {
	.name = "convert",
	.fn = cmd_convert,
	.usage = "[-i FILE] [-o FILE] [--format perf.data|trace.dat]",
	.help = "turn what perf record -a -R -e persistent/NAME/ wrote, whose\n"
		"samples carry each record in their raw payload, into a perf.data\n"
		"of the source events, which perf script, report, sched and\n"
		"timechart decode (as record writes it), or a trace.dat; the\n"
		"events must still exist: their sources and formats come from\n"
		"the module\n"
		"    -i, --input FILE    (default: perf.data)\n"
		"    -o, --output FILE   (default: persistent.data, trace.dat)\n"
		"    --format FORMAT     perf.data (default) or trace.dat, for\n"
		"                        trace-cmd report and KernelShark",
};
