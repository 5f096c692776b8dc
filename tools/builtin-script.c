// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent script", the records held,
 * decoded; or those of a crash dump in a kernel log (--from-log).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "builtin.h"

/* "script --from-log FILE [NAME]": print the records of FILE's last dump. */
static int script_from_log(const char *path, const char *name, bool newest,
			   bool json)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct pp_dump d;
	size_t i;
	int ret = 0, found = 0;

	if (!f) {
		pp_error("cannot read '%s': %s", path, strerror(errno));
		return 1;
	}
	ret = dump_read(f, &d);
	if (f != stdin)
		fclose(f);
	if (ret)
		return 1;
	if (!d.complete)
		pp_error("the dump is incomplete: the log ends before its last line");
	if (d.lost_lines || d.bad_lines)
		pp_error("%lu lines of the dump missing from the log, %lu damaged",
			 d.lost_lines, d.bad_lines);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < d.nr && !ret; i++) {
		if (name && strcmp(name, d.events[i].name))
			continue;
		found++;
		ret = dump_print_event(&d.events[i], stdout, newest, json) ? 1 : 0;
	}
	if (name && !found) {
		pp_error("no event '%s' in the dump", name);
		ret = 1;
	}
	if ((fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		pp_error("writing the records: %s", strerror(errno));
		ret = 1;
	}
	dump_free(&d);
	return ret;
}

/* "script --vmcore DUMP NAME": print the records NAME held at the crash. */
static int script_vmcore(const char *path, char *name, bool newest,
			 bool json, bool wall_clock)
{
	struct exports x;
	int ret;

	ret = exports_from_vmcore(&x, path, &name, 1, wall_clock);
	if (!ret) {
		signal(SIGPIPE, SIG_IGN);
		print_records(x.ev[0].p, stdout, x.ev[0].snap, newest, json);
		if ((fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
			pp_error("writing the records: %s", strerror(errno));
			ret = 1;
		}
	}
	exports_free(&x);
	return ret;
}

static int cmd_script(int argc, char **argv)
{
	bool newest = false, json = false, wall_clock = false, previous = false;
	const char *from_log = NULL, *vmcore = NULL;
	const struct pp_opt opts[] = {
		OPT_SET(0, "previous", &previous),
		OPT_SET(0, "newest-first", &newest),
		OPT_SET(0, "json", &json),
		OPT_SET(0, "wall-clock", &wall_clock),
		OPT_STRING(0, "from-log", &from_log),
		OPT_STRING(0, "vmcore", &vmcore),
		OPT_END
	};
	struct pp_event_desc desc;
	struct pp_snapshot snap;
	struct pp_printer *p = NULL;
	int ret;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (from_log) {
		if (previous)
			return usage_error("--previous and --from-log exclude each other");
		if (wall_clock)
			return usage_error("--wall-clock needs the live event, not --from-log");
		if (want_args(argc, argv, 0, 1))
			return PP_EXIT_USAGE;
		return script_from_log(from_log, optind < argc ? argv[optind] : NULL,
				       newest, json);
	}
	if (vmcore) {
		if (previous)
			return usage_error("--previous and --vmcore exclude each other");
		if (want_args(argc, argv, 1, 1))
			return PP_EXIT_USAGE;
		return script_vmcore(vmcore, argv[optind], newest, json,
				     wall_clock);
	}
	previous_arg(argc, argv, previous);
	ret = read_event(argc, argv, &desc, &snap, &p, wall_clock);
	if (ret)
		return ret;
	/* A reader that stops early (| head) ends the output, not an error. */
	signal(SIGPIPE, SIG_IGN);
	print_records(p, stdout, &snap, newest, json);
	if ((fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		pp_error("writing the records: %s", strerror(errno));
		ret = 1;
	}
	snapshot_free(&snap);
	printer_free(p);
	ctl_desc_free(&desc);
	return ret;
}

const struct pp_cmd pp_cmd_script = {
	.name = "script",
	.fn = cmd_script,
	.usage = "[--newest-first] [--json] [--wall-clock] [--previous] NAME | --from-log FILE [NAME]\n"
		 "       [--newest-first] [--json] [--wall-clock] --vmcore DUMP NAME",
	.help = "print the records held, decoded, oldest first\n"
		"    --previous      the records the previous boot kept in the\n"
		"                    reserved region (list --previous), decoded with\n"
		"                    that boot's formats and clock\n"
		"    --newest-first  newest first\n"
		"    --json          one JSON object per line (with \"wallclock\", UTC)\n"
		"    --wall-clock    times of day instead of seconds since boot\n"
		"    --from-log FILE the records of the crash dump in a kernel log (a\n"
		"                    dmesg, a pstore file, a console capture; - for\n"
		"                    stdin), of every event in it or of NAME\n"
		"    --vmcore DUMP   the records NAME held when the kernel crashed into\n"
		"                    DUMP: /proc/vmcore in a kdump capture kernel, or\n"
		"                    the file kdump-tools saved",
};
