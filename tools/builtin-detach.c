// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent detach": let an event outlive the command holding it.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include "builtin.h"

/*
 * Detach @desc's event, which another process holds.  If that process is
 * this command holding the event in the foreground, ask it to detach and
 * wait until it has.
 */
static int detach_held(int fd, const struct pp_event_desc *desc)
{
	const char *name = desc->info.name;
	char path[PATH_MAX];
	int pid = 0, i;
	FILE *f;

	pidfile_path(name, path, sizeof(path));
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	if (pid <= 0 || kill(pid, SIGUSR1))
		return pp_error("%s: attached to another process, which is not a perf persistent command: it ends with that process",
				name);
	for (i = 0; i < 200; i++) {
		struct pp_event_desc now;

		if (ctl_describe(fd, desc->info.id, NULL, &now))
			return pp_error("%s: destroyed while being detached", name);
		ctl_desc_free(&now);
		if (!(now.info.state & PERF_PERSISTENT_STATE_ATTACHED))
			return 0;
		usleep(50000);
	}
	return pp_error("%s: its holder (pid %d) did not detach it", name, pid);
}

static int cmd_detach(int argc, char **argv)
{
	return id_verb(argc, argv, PERF_PERSISTENT_IOC_DETACH, "detached", NULL,
		       detach_held);
}

const struct pp_cmd pp_cmd_detach = {
	.name = "detach",
	.fn = cmd_detach,
	.usage = "NAME...",
	.help = "let an event held by a perf persistent command (create without -d,\n"
		"    attach) outlive it: the holder detaches it and exits",
};
