// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: what the control device's errnos mean to the user
 * of each command, in one table.  Documentation/errors.rst lists every
 * errno of the module; the rows here are those a command says more about
 * than strerror() does.
 */
#include <errno.h>
#include <string.h>

#include "builtin.h"

/**
 * struct pp_errmsg - the message for one errno of one operation
 * @op: the operation
 * @err: the errno, or 0 for any errno (the operation's last row)
 * @when: PP_WHEN_* conditions that must all hold
 * @fmt: the message; {name} is the event, {arg} the operation's argument,
 *	 {err} strerror() of the errno
 */
struct pp_errmsg {
	enum pp_op	op;
	int		err;
	unsigned int	when;
	const char	*fmt;
};

static const struct pp_errmsg messages[] = {
	{ PP_OP_CREATE, EEXIST, 0,
	  "an event named '{name}' exists already (choose another with --name)" },
	{ PP_OP_CREATE, EOPNOTSUPP, PP_WHEN_BREAKPOINT,
	  "creating '{name}': {err}: this kernel steps over a breakpoint's hits for perf's own buffers only (arm64): use perf record -e {arg}" },
	{ PP_OP_CREATE, EOPNOTSUPP, 0,
	  "creating '{name}': {err}: the module cannot record these sample fields of {arg}" },
	{ PP_OP_CREATE, EOVERFLOW, 0,
	  "creating '{name}': {err}: --max-stack is above the module's max_stack (/sys/module/perf_persistent/parameters/max_stack)" },
	{ PP_OP_CREATE, EINVAL, PP_WHEN_NONAME, "bad event name '{name}'" },
	{ PP_OP_CREATE, ESRCH, PP_WHEN_PID, "creating '{name}': no process {arg}" },
	{ PP_OP_CREATE, EBADF, PP_WHEN_CGROUP,
	  "creating '{name}': '{arg}' is not a cgroup v2 directory, nor a path from the cgroup2 root" },
	{ PP_OP_CREATE, ENOENT, PP_WHEN_CGROUP,
	  "creating '{name}': '{arg}' is not a cgroup v2 directory, nor a path from the cgroup2 root" },
	{ PP_OP_CREATE, ENOTDIR, PP_WHEN_CGROUP,
	  "creating '{name}': '{arg}' is not a cgroup v2 directory, nor a path from the cgroup2 root" },
	{ PP_OP_CREATE, ENXIO, PP_WHEN_KEEP | PP_WHEN_CAPTURE,
	  "creating '{name}': --keep-across-reboot: this is a kdump capture kernel, whose module keeps nothing in the region: it holds the crashed kernel's history for the next boot" },
	{ PP_OP_CREATE, ENXIO, PP_WHEN_KEEP,
	  "creating '{name}': --keep-across-reboot: the module has no reserved region (load it with region=)" },
	{ PP_OP_CREATE, ENOSPC, PP_WHEN_KEEP,
	  "creating '{name}': --keep-across-reboot: the reserved region is full (smaller buffers: -m)" },
	{ PP_OP_CREATE, 0, 0, "creating '{name}' from {arg}: {err}" },

	{ PP_OP_ID_VERB, EBUSY, 0,
	  "{name}: attached to another process (it ends with that process)" },
	{ PP_OP_ID_VERB, EALREADY, 0, "{name}: already detached" },
	{ PP_OP_ID_VERB, EROFS, 0,
	  "{name}: a previous boot's records are read-only (destroy is all it takes)" },
	{ PP_OP_ID_VERB, ENOENT, 0,
	  "no persistent event '{name}' (see: perf persistent list)" },
	{ PP_OP_ID_VERB, 0, 0, "{name}: {err}" },

	{ PP_OP_ATTACH, EBUSY, 0, "{name}: attached to another process already" },
	{ PP_OP_ATTACH, EROFS, 0,
	  "{name}: a previous boot's records are read-only (destroy is all it takes)" },
	{ PP_OP_ATTACH, 0, 0, "{name}: {err}" },

	{ PP_OP_TRIGGER, ENOENT, 0,
	  "{name}: an event is gone (see: perf persistent list)" },
	{ PP_OP_TRIGGER, EROFS, 0,
	  "{name}: a previous boot's event cannot take part in a trigger" },
	{ PP_OP_TRIGGER, 0, 0, "{name}: setting the trigger: {err}" },
};

/* Copy @fmt into @buf with its fields filled in. */
static void expand(const char *fmt, const char *name, const char *arg,
		   int err, char *buf, size_t len)
{
	static const char *const fields[] = { "{name}", "{arg}", "{err}" };
	size_t used = 0, i, n;

	while (*fmt && used + 1 < len) {
		const char *with;

		for (i = 0; i < 3; i++)
			if (!strncmp(fmt, fields[i], strlen(fields[i])))
				break;
		if (i == 3) {
			buf[used++] = *fmt++;
			continue;
		}
		fmt += strlen(fields[i]);
		with = i == 0 ? name : i == 1 ? arg : strerror(err);
		if (!with)
			with = "";
		n = strlen(with);
		if (n > len - 1 - used)
			n = len - 1 - used;
		memcpy(buf + used, with, n);
		used += n;
	}
	buf[used] = '\0';
}

int pp_report(enum pp_op op, int err, unsigned int when, const char *name,
	      const char *arg)
{
	char msg[512];
	size_t i;

	for (i = 0; i < sizeof(messages) / sizeof(messages[0]); i++) {
		const struct pp_errmsg *m = &messages[i];

		if (m->op != op || (m->err && m->err != err) ||
		    (m->when & ~when))
			continue;
		expand(m->fmt, name, arg, err, msg, sizeof(msg));
		return pp_error("%s", msg);
	}
	return pp_error("%s: %s", name, strerror(err));
}
