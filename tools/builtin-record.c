// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent record", which writes the records
 * held to a perf.data file.
 */

#include "builtin.h"

static int cmd_record(int argc, char **argv)
{
	const char *path = "perf.data";
	const struct pp_opt opts[] = {
		OPT_STRING('o', "output", &path),
		OPT_END
	};
	struct pp_event_desc desc;
	struct pp_snapshot snap;
	struct pp_printer *p = NULL;
	size_t i, samples = 0;
	int ret;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	ret = read_event(argc, argv, &desc, &snap, &p, false);
	if (ret)
		return ret;
	ret = perfdata_write(path, &desc.attr, desc.info.id, &snap, p) ? 1 : 0;
	for (i = 0; i < snap.nr; i++)
		samples += snap.recs[i].d.type == PERF_RECORD_SAMPLE;
	if (!ret)
		fprintf(stderr, "[ perf persistent record: Wrote %zu records of %s to %s ]\n",
			samples, desc.info.name, path);
	snapshot_free(&snap);
	printer_free(p);
	ctl_desc_free(&desc);
	return ret;
}

const struct pp_cmd pp_cmd_record = {
	.name = "record",
	.fn = cmd_record,
	.usage = "[-o FILE] NAME",
	.help = "write the records held to a perf.data file for perf script/report\n"
		"    -o, --output FILE   (default: perf.data)",
};
