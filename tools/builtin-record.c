// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent record", which writes the records
 * held to a perf.data file.
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

static int cmd_record(int argc, char **argv)
{
	const char *path = NULL, *fmt = "perf.data", *vmcore = NULL;
	bool previous = false, cache = true;
	const struct pp_opt opts[] = {
		OPT_STRING('o', "output", &path),
		OPT_SET(0, "previous", &previous),
		OPT_CLEAR('N', "no-buildid-cache", &cache),
		OPT_STRING(0, "format", &fmt),
		OPT_STRING(0, "vmcore", &vmcore),
		OPT_END
	};
	enum pp_format format;
	char name[PERF_PERSISTENT_NAME_MAX + sizeof(PP_PREVIOUS_PREFIX)];
	struct exports x;
	size_t nr;
	int ret, fd;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (vmcore && previous)
		return usage_error("--previous and --vmcore exclude each other");
	if (want_args(argc, argv, vmcore ? 0 : 1, -1))
		return PP_EXIT_USAGE;
	ret = parse_format(fmt, &format);
	if (ret)
		return ret;
	if (!path)
		path = format == PP_FORMAT_TRACE_DAT ? "trace.dat" : "perf.data";
	perfdata_set_buildid_cache(cache);
	nr = argc - optind;
	if (vmcore) {
		ret = exports_from_vmcore(&x, vmcore, argv + optind, nr, false);
		if (!ret)
			ret = exports_write(&x, "record", format, path, argc, argv);
		goto out;
	}
	if (exports_alloc(&x, nr))
		return 1;
	fd = ctl_open(false);
	if (fd < 0) {
		ret = 1;
		goto out;
	}
	/* Each event is paused only while its own records are copied. */
	while (x.nr < nr) {
		const char *arg = argv[optind + x.nr];

		if (previous && strncmp(arg, PP_PREVIOUS_PREFIX,
					strlen(PP_PREVIOUS_PREFIX))) {
			snprintf(name, sizeof(name), "%s%.*s", PP_PREVIOUS_PREFIX,
				 PERF_PERSISTENT_NAME_MAX, arg);
			arg = name;
		}
		ret = exports_add(&x, fd, arg, false);
		if (ret)
			break;
	}
	close(fd);
	if (!ret)
		ret = exports_write(&x, "record", format, path, argc, argv);
out:
	exports_free(&x);
	return ret;
}

const struct pp_cmd pp_cmd_record = {
	.name = "record",
	.fn = cmd_record,
	.usage = "[-o FILE] [--format perf.data|trace.dat] [--previous] [-N] NAME...\n"
		 "       [-o FILE] [--format perf.data|trace.dat] --vmcore DUMP [NAME...]",
	.help = "write the records held by the events to one perf.data file, for\n"
		"perf script, report, sched, timechart and data convert, or to\n"
		"a trace.dat, for trace-cmd report and KernelShark\n"
		"    -o, --output FILE   (default: perf.data, trace.dat)\n"
		"    --format FORMAT     perf.data (default) or trace.dat\n"
		"    --previous          the previous boot's events (list --previous)\n"
		"    --vmcore DUMP       the events (all, without NAME) of the kernel that\n"
		"                        crashed into DUMP: /proc/vmcore in a kdump capture\n"
		"                        kernel, or the file kdump-tools saved\n"
		"    -N, --no-buildid-cache  do not put the binaries a profile's samples\n"
		"                        name into perf's build-id cache (~/.debug)",
};
