// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent record", which writes the records
 * held to a perf.data file.
 */

#include <stdio.h>

#include "builtin.h"

/*
 * The id the records carry: a previous boot's event carries that boot's
 * (its sysfs previous_id), which perf matches with the attr's.
 */
static unsigned int record_id(const struct pp_event_desc *desc)
{
	char name[PERF_PERSISTENT_NAME_MAX + sizeof(PP_PREVIOUS_PREFIX)];
	char buf[32];
	unsigned int id;

	if (!(desc->info.state & PERF_PERSISTENT_STATE_PREVIOUS))
		return desc->info.id;
	snprintf(name, sizeof(name), "%s%s", PP_PREVIOUS_PREFIX, desc->info.name);
	instance_attr(name, "previous_id", buf, sizeof(buf));
	return sscanf(buf, "%u", &id) == 1 ? id : desc->info.id;
}

static int cmd_record(int argc, char **argv)
{
	const char *path = "perf.data";
	bool previous = false;
	const struct pp_opt opts[] = {
		OPT_STRING('o', "output", &path),
		OPT_SET(0, "previous", &previous),
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
	previous_arg(argc, argv, previous);
	ret = read_event(argc, argv, &desc, &snap, &p, false);
	if (ret)
		return ret;
	ret = perfdata_write(path, &desc.attr, record_id(&desc), &snap, p) ? 1 : 0;
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
	.usage = "[-o FILE] [--previous] NAME",
	.help = "write the records held to a perf.data file for perf script/report\n"
		"    -o, --output FILE   (default: perf.data)\n"
		"    --previous          the previous boot's records (list --previous)",
};
