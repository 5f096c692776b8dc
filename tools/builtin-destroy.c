// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent destroy", which ends events and
 * their history.
 */

#include "builtin.h"

static int cmd_destroy(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_DESTROY, "destroyed",
		       NULL, NULL);
}

const struct pp_cmd pp_cmd_destroy = {
	.name = "destroy",
	.fn = cmd_destroy,
	.usage = "NAME...",
	.help = "destroy events; previous.NAME is the previous boot's event NAME\n"
		"    (list --previous), whose records are freed",
};
