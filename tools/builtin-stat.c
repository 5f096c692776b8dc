// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent stat", which prints the source's
 * count and how many records were written, held, overwritten and dropped.
 */
#include <unistd.h>

#include "builtin.h"

static int cmd_stat(int argc, char **argv)
{
	bool per_cpu = false;
	const struct pp_opt opts[] = {
		OPT_SET('A', "per-cpu", &per_cpu),
		OPT_END
	};
	struct pp_event_desc desc;
	char src[256];
	struct totals t;
	unsigned int i;
	int fd;

	fd = open_event(argc, argv, opts, &desc, false);
	if (fd < 0)
		return -fd;
	sum(&desc, &t);
	format_desc_source(&desc, src, sizeof(src));
	printf("\n Performance counter stats for persistent event '%s' (id %u):\n\n",
	       desc.info.name, desc.info.id);
	if (per_cpu)
		for (i = 0; i < desc.nr_cpus; i++)
			printf("CPU%-4u %18llu      %s\n", desc.cpus[i].cpu,
			       (unsigned long long)desc.cpus[i].count, src);
	else
		printf("%26llu      %s\n", t.count, src);
	printf("\n %llu records written, %llu held, %llu overwritten, %llu dropped\n\n",
	       t.written, t.written - t.overwritten, t.overwritten, t.dropped);
	ctl_desc_free(&desc);
	close(fd);
	return 0;
}

const struct pp_cmd pp_cmd_stat = {
	.name = "stat",
	.fn = cmd_stat,
	.usage = "[-A] NAME",
	.help = "the source's count, and the records\n"
		"    -A, --per-cpu   one line per CPU",
};
