// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent resume", which stores records
 * again, thaws a frozen event and re-arms its trigger.
 */
#include <errno.h>
#include <string.h>

#include "builtin.h"

/*
 * Run after RESUME.  Thaw the event if it is frozen, and re-arm its
 * trigger if it has one, which thaws the events the trigger froze.  PAUSE
 * and RESUME alone do not touch freezing, so that reading a frozen event
 * (which pauses it) does not thaw it.
 */
static int thaw(int fd, const struct pp_event_desc *desc)
{
	struct perf_persistent_trigger t = { .size = sizeof(t),
					     .source = desc->info.id };

	if (desc->info.state & PERF_PERSISTENT_STATE_FROZEN) {
		t.flags = PERF_PERSISTENT_TRIGGER_THAW;
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, (unsigned long)&t))
			goto fail;
	}
	if (desc->info.state & PERF_PERSISTENT_STATE_TRIGGER) {
		t.flags = PERF_PERSISTENT_TRIGGER_REARM;
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_TRIGGER, (unsigned long)&t))
			goto fail;
	}
	return 0;
fail:
	return pp_error("%s: thawing it: %s", desc->info.name, strerror(errno));
}

static int cmd_resume(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_RESUME, "resumed", thaw,
		       NULL);
}

const struct pp_cmd pp_cmd_resume = {
	.name = "resume",
	.fn = cmd_resume,
	.usage = "NAME...",
	.help = "store records again; thaw a frozen event; re-arm the event's\n"
		"    trigger and thaw what it froze",
};
