// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent record", which writes the records
 * held to a perf.data file.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Free the @nr events of @ev read so far. */
static void exports_free(struct pp_export *ev, struct pp_event_desc *desc,
			 struct pp_snapshot *snap, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		snapshot_free(&snap[i]);
		printer_free(ev[i].p);
		ctl_desc_free(&desc[i]);
	}
	free(ev);
	free(desc);
	free(snap);
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
	char name[PERF_PERSISTENT_NAME_MAX + sizeof(PP_PREVIOUS_PREFIX)];
	struct pp_event_desc *desc;
	struct pp_snapshot *snap;
	struct pp_export *ev;
	size_t i, nr, done = 0, samples = 0;
	char **cmdline;
	int ret, fd;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 1, -1))
		return PP_EXIT_USAGE;
	nr = argc - optind;
	ev = calloc(nr, sizeof(*ev));
	desc = calloc(nr, sizeof(*desc));
	snap = calloc(nr, sizeof(*snap));
	cmdline = calloc(argc + 2, sizeof(*cmdline));
	if (!ev || !desc || !snap || !cmdline) {
		pp_error("out of memory");
		ret = 1;
		goto out;
	}
	fd = ctl_open(false);
	if (fd < 0) {
		ret = 1;
		goto out;
	}
	/* Each event is paused only while its own records are copied. */
	for (done = 0; done < nr; done++) {
		const char *arg = argv[optind + done];

		if (previous && strncmp(arg, PP_PREVIOUS_PREFIX,
					strlen(PP_PREVIOUS_PREFIX))) {
			snprintf(name, sizeof(name), "%s%.*s", PP_PREVIOUS_PREFIX,
				 PERF_PERSISTENT_NAME_MAX, arg);
			arg = name;
		}
		ret = read_named_event(fd, arg, &desc[done], &snap[done],
				       &ev[done].p, false);
		if (ret)
			break;
		ev[done].name = desc[done].info.name;
		ev[done].attr = desc[done].attr;
		ev[done].id = record_id(&desc[done]);
		ev[done].snap = &snap[done];
	}
	close(fd);
	if (ret)
		goto out;
	cmdline[0] = "perf";
	cmdline[1] = "persistent";
	for (i = 0; i < (size_t)argc; i++)
		cmdline[i + 2] = argv[i];
	ret = perfdata_write(path, ev, nr, argc + 2, cmdline) ? 1 : 0;
	if (!ret) {
		for (i = 0; i < nr; i++)
			samples += snapshot_samples(&snap[i]);
		fprintf(stderr, "[ perf persistent record: Wrote %zu records of ", samples);
		for (i = 0; i < nr; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", ev[i].name);
		fprintf(stderr, " to %s ]\n", path);
	}
out:
	free(cmdline);
	if (ev && desc && snap)
		exports_free(ev, desc, snap, done);
	return ret;
}

const struct pp_cmd pp_cmd_record = {
	.name = "record",
	.fn = cmd_record,
	.usage = "[-o FILE] [--previous] NAME...",
	.help = "write the records held by the events to one perf.data file, for\n"
		"perf script, report, sched, timechart and data convert\n"
		"    -o, --output FILE   (default: perf.data)\n"
		"    --previous          the previous boot's events (list --previous)",
};
