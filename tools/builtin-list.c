// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent list", one line per event.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

/* What the module learnt of the previous boot, from previous_boot/. */
static void print_previous_boot(void)
{
	static const char * const files[] = {
		"boot_id", "release", "end", "text_delta", "dropped_descriptors",
	};
	char rel[64], *v;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "previous_boot/%s", files[i]);
		v = pmu_file(rel);
		if (!v) {
			if (!i)
				printf("no previous boot found in a reserved region\n");
			return;
		}
		v[strcspn(v, "\n")] = '\0';
		printf("%s%s: %s", i ? ", " : "previous boot ", files[i], v);
		free(v);
	}
	printf("\n");
}

static int cmd_list(int argc, char **argv)
{
	unsigned int *ids = NULL, others = 0;
	bool previous = false;
	int fd, n, i;

	const struct pp_opt opts[] = {
		OPT_SET(0, "previous", &previous),
		OPT_END
	};
	int ret = pp_parse(argc, argv, opts);

	if (ret)
		return ret;
	if (want_args(argc, argv, 0, 0))
		return PP_EXIT_USAGE;
	fd = ctl_open(false);
	if (fd < 0)
		return 1;
	n = ctl_list(fd, &ids);
	if (n < 0) {
		close(fd);
		return 1;
	}
	printf("%4s  %-20s %-26s %-16s %7s %10s %12s %10s  %s\n", "ID", "NAME",
	       "SOURCE", "STATE", "BUFFER", "RECORDS", "OVERWRITTEN", "DROPPED",
	       "SCOPE");
	for (i = 0; i < n; i++) {
		struct pp_event_desc desc;
		char src[256], size[32], scope[PATH_MAX];
		struct totals t;

		/* Skip an event destroyed since it was listed. */
		if (ctl_describe(fd, ids[i], NULL, &desc))
			continue;
		/* This boot's events, or with --previous the previous boot's. */
		if (!(desc.info.state & PERF_PERSISTENT_STATE_PREVIOUS) != !previous) {
			others++;
			ctl_desc_free(&desc);
			continue;
		}
		sum(&desc, &t);
		format_desc_source(&desc, src, sizeof(src));
		format_size(desc.info.buffer_size, size, sizeof(size));
		scope_str(&desc, scope, sizeof(scope));
		printf("%4u  %-20s %-26s %-16s %7s %10llu %12llu %10llu  %s\n",
		       desc.info.id, desc.info.name, src,
		       state_str(desc.info.state), size, t.written,
		       t.overwritten, t.dropped, scope);
		ctl_desc_free(&desc);
	}
	free(ids);
	close(fd);
	if (previous)
		print_previous_boot();
	else if (others)
		printf("(%u events of the previous boot: perf persistent list --previous)\n",
		       others);
	return 0;
}

const struct pp_cmd pp_cmd_list = {
	.name = "list",
	.fn = cmd_list,
	.usage = "[--previous]",
	.help = "one line per persistent event: id, name, source, state, per-CPU\n"
		"    buffer size, records written, overwritten and dropped\n"
		"    --previous  the events the previous boot kept in the reserved\n"
		"                region, and what is known of that boot",
};
