// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent attach", which holds an event in
 * the foreground.
 */
#include <errno.h>
#include <unistd.h>

#include "builtin.h"

static int cmd_attach(int argc, char **argv)
{
	bool destroy = false;
	const struct pp_opt opts[] = {
		OPT_SET(0, "destroy-on-exit", &destroy),
		OPT_END
	};
	struct pp_event_desc desc;
	sigset_t held;
	int fd;

	fd = open_event(argc, argv, opts, &desc, true);
	if (fd < 0)
		return -fd;
	hold_signals(&held);
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_ATTACH, desc.info.id)) {
		pp_report(PP_OP_ATTACH, errno, 0, desc.info.name, NULL);
		ctl_desc_free(&desc);
		close(fd);
		return 1;
	}
	printf(destroy ?
	       "attached %s (id %u): Ctrl-C destroys it, a hangup detaches it\n" :
	       "attached %s (id %u): detached again when this command ends\n",
	       desc.info.name, desc.info.id);
	ctl_desc_free(&desc);
	return hold(fd, desc.info.name, desc.info.id, destroy);
}

const struct pp_cmd pp_cmd_attach = {
	.name = "attach",
	.fn = cmd_attach,
	.usage = "[--destroy-on-exit] NAME",
	.help = "make this command the event's owner until it ends, then detach it\n"
		"    again (a SIGKILL destroys it: the kernel ends what a closed file owns)\n"
		"    --destroy-on-exit   Ctrl-C or SIGTERM destroy the event",
};
