// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent list", one line per event.
 */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "builtin.h"

static int cmd_list(int argc, char **argv)
{
	unsigned int *ids = NULL;
	int fd, n, i;

	static const struct pp_opt opts[] = { OPT_END };
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
		sum(&desc, &t);
		format_source(&desc.attr, src, sizeof(src));
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
	return 0;
}

const struct pp_cmd pp_cmd_list = {
	.name = "list",
	.fn = cmd_list,
	.usage = "",
	.help = "one line per persistent event: id, name, source, state, per-CPU\n"
		"    buffer size, records written, overwritten and dropped",
};
