// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent pause", which stops storing
 * records but keeps the buffers.
 */

#include "builtin.h"

static int cmd_pause(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_PAUSE, "paused", NULL,
		       NULL);
}

const struct pp_cmd pp_cmd_pause = {
	.name = "pause",
	.fn = cmd_pause,
	.usage = "NAME...",
	.help = "stop storing records (new ones are dropped and counted); keep the\n"
		"    buffers",
};
