// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: the control device /dev/perf_persistent.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "perf-persistent.h"

/*
 * Open the control device: read-only for the verbs that only look (list,
 * info, stat, script, record), so that an operator group given read access
 * to the device (Documentation/tool.rst) can use them.
 */
int ctl_open(bool write)
{
	int fd = open(PERF_PERSISTENT_DEVICE,
		      (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (errno == ENOENT || errno == ENODEV || errno == ENXIO)
		return pp_error("%s: %s: is the perf_persistent module loaded? (modprobe perf_persistent)",
				PERF_PERSISTENT_DEVICE, strerror(errno));
	if (errno == EACCES || errno == EPERM)
		return pp_error("%s: %s: persistent events need root (CAP_PERFMON and access to the device)",
				PERF_PERSISTENT_DEVICE, strerror(errno));
	return pp_error("%s: %s", PERF_PERSISTENT_DEVICE, strerror(errno));
}

int ctl_ioctl(int fd, unsigned long cmd, unsigned long arg)
{
	return ioctl(fd, cmd, arg);
}

void ctl_desc_free(struct pp_event_desc *desc)
{
	free(desc->cpus);
	desc->cpus = NULL;
	desc->nr_cpus = 0;
}

/*
 * @desc's tracepoint from its sysfs directory (instances/<name>/tracepoint,
 * or instances/previous.<name>/ for a previous boot's), which the module
 * keeps: the id alone would take a walk of every tracepoint in tracefs,
 * seconds on a debug kernel, and a previous boot's id is that boot's.  A
 * module without the file leaves it to format_source().
 */
static void ctl_desc_tracepoint(struct pp_event_desc *desc)
{
	bool previous = desc->info.state & PERF_PERSISTENT_STATE_PREVIOUS;
	char path[PATH_MAX];
	FILE *f;

	desc->tracepoint[0] = '\0';
	if (desc->attr.type != PERF_TYPE_TRACEPOINT)
		return;
	snprintf(path, sizeof(path),
		 "/sys/bus/event_source/devices/persistent/instances/%s%s/tracepoint",
		 previous ? PP_PREVIOUS_PREFIX : "", desc->info.name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(desc->tracepoint, sizeof(desc->tracepoint), f))
		desc->tracepoint[0] = '\0';
	fclose(f);
	desc->tracepoint[strcspn(desc->tracepoint, "\n")] = '\0';
	if (!previous && strchr(desc->tracepoint, ':'))
		tracepoint_learn(desc->attr.config, desc->tracepoint);
}

int ctl_describe(int fd, unsigned int id, const char *name,
		 struct pp_event_desc *desc)
{
	unsigned int cap = 64;

	memset(desc, 0, sizeof(*desc));
	for (;;) {
		struct perf_persistent_info *info = &desc->info;

		free(desc->cpus);
		desc->cpus = calloc(cap, sizeof(*desc->cpus));
		if (!desc->cpus)
			return -1;
		memset(info, 0, sizeof(*info));
		info->size = sizeof(*info);
		info->id = id;
		if (!id && name)
			snprintf(info->name, sizeof(info->name), "%s", name);
		info->attr = (unsigned long)&desc->attr;
		info->attr_size = sizeof(desc->attr);
		info->cpu_stats = (unsigned long)desc->cpus;
		info->nr_cpus = cap;
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_INFO, (unsigned long)info)) {
			int err = errno;

			ctl_desc_free(desc);
			errno = err;
			return -1;
		}
		if (info->nr_cpus <= cap)
			break;
		cap = info->nr_cpus;
	}
	desc->nr_cpus = desc->info.nr_cpus;
	ctl_desc_tracepoint(desc);
	return 0;
}

/*
 * The previous boot's event named @name (PERF_PERSISTENT_STATE_PREVIOUS)
 * into @desc: 0, or -1 with errno set and nothing said.
 */
static int ctl_find_previous(int fd, const char *name,
			     struct pp_event_desc *desc)
{
	unsigned int *ids = NULL;
	int n, i;

	n = ctl_list(fd, &ids);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (ctl_describe(fd, ids[i], NULL, desc))
			continue;
		if ((desc->info.state & PERF_PERSISTENT_STATE_PREVIOUS) &&
		    !strcmp(desc->info.name, name)) {
			free(ids);
			return 0;
		}
		ctl_desc_free(desc);
	}
	free(ids);
	errno = ENOENT;
	return -1;
}

/*
 * Whether the other boot has an event named @name: this boot's when
 * @previous, the previous boot's otherwise.  Nothing said.
 */
static bool ctl_other_boot_has(int fd, const char *name, bool previous)
{
	struct pp_event_desc other;
	int err = errno, ret;

	if (previous)
		ret = ctl_describe(fd, 0, name, &other);
	else
		ret = ctl_find_previous(fd, name, &other);
	if (!ret)
		ctl_desc_free(&other);
	errno = err;
	return !ret;
}

/*
 * The command that reads event @name of the previous boot (@previous) or
 * of this one, with the running verb: "script" and "record" take
 * --previous, every verb takes previous.NAME.
 */
static void ctl_command_for(const char *name, bool previous, char *buf,
			    size_t len)
{
	const char *verb = pp_get_verb() ? pp_get_verb() : "info";

	if (!previous)
		snprintf(buf, len, "perf persistent %s %s", verb, name);
	else if (!strcmp(verb, "script") || !strcmp(verb, "record"))
		snprintf(buf, len, "perf persistent %s --previous %s", verb,
			 name);
	else
		snprintf(buf, len, "perf persistent %s %s%s", verb,
			 PP_PREVIOUS_PREFIX, name);
}

/* The previous boot's event named @name, or a message. */
static int ctl_lookup_previous(int fd, const char *name,
			       struct pp_event_desc *desc)
{
	char cmd[PERF_PERSISTENT_NAME_MAX + 64];

	if (!ctl_find_previous(fd, name, desc))
		return 0;
	if (errno != ENOENT)
		return pp_error("%s%s: %s", PP_PREVIOUS_PREFIX, name,
				strerror(errno));
	if (ctl_other_boot_has(fd, name, true)) {
		ctl_command_for(name, false, cmd, sizeof(cmd));
		return pp_error("no event '%s' of the previous boot; this boot has one: %s",
				name, cmd);
	}
	return pp_error("no event '%s' of the previous boot (see: perf persistent list --previous)",
			name);
}

/* No event of this boot is named @what: say so, and where there is one. */
static int ctl_not_found(int fd, const char *what)
{
	char cmd[PERF_PERSISTENT_NAME_MAX + 64];

	errno = ENOENT;
	if (what[0] && (what[0] < '0' || what[0] > '9') &&
	    strlen(what) < PERF_PERSISTENT_NAME_MAX &&
	    ctl_other_boot_has(fd, what, false)) {
		ctl_command_for(what, true, cmd, sizeof(cmd));
		return pp_error("no persistent event '%s' in this boot; the previous boot had one: %s",
				what, cmd);
	}
	return pp_error("no persistent event '%s' (see: perf persistent list)",
			what);
}

int ctl_lookup(int fd, const char *what, struct pp_event_desc *desc)
{
	unsigned int id = 0;
	char *end;

	if (!strncmp(what, PP_PREVIOUS_PREFIX, strlen(PP_PREVIOUS_PREFIX)))
		return ctl_lookup_previous(fd, what + strlen(PP_PREVIOUS_PREFIX),
					   desc);

	if (strlen(what) >= PERF_PERSISTENT_NAME_MAX)
		return ctl_not_found(fd, what);
	/* A name starts with a letter; a number is an id. */
	if (what[0] >= '0' && what[0] <= '9') {
		unsigned long v = strtoul(what, &end, 10);

		if (*end || !v || v > UINT_MAX)
			return ctl_not_found(fd, what);
		id = v;
	}
	if (!ctl_describe(fd, id, what, desc))
		return 0;
	if (errno == ENOENT || errno == EINVAL)
		return ctl_not_found(fd, what);
	return pp_error("%s: %s", what, strerror(errno));
}

int ctl_list(int fd, unsigned int **ids)
{
	unsigned int cap = 0, n = 0, start = 0;
	unsigned int *all = NULL;

	for (;;) {
		struct perf_persistent_list l = { .size = sizeof(l) };
		unsigned int chunk[256];
		unsigned int *grown;

		l.nr = 256;
		l.start = start;
		l.ids = (unsigned long)chunk;
		if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_LIST, (unsigned long)&l)) {
			free(all);
			return pp_error("listing events: %s", strerror(errno));
		}
		if (!l.nr)
			break;
		if (n + l.nr > cap) {
			cap = (n + l.nr) * 2;
			grown = realloc(all, cap * sizeof(*all));
			if (!grown) {
				free(all);
				return pp_error("out of memory");
			}
			all = grown;
		}
		memcpy(all + n, chunk, l.nr * sizeof(*chunk));
		n += l.nr;
		start = chunk[l.nr - 1];
	}
	*ids = all;
	return n;
}

/*
 * A whole sysfs file of the PMU device (its path below it), malloc()ed and
 * NUL-terminated; NULL if it cannot be read.
 */
char *pmu_file(const char *rel)
{
	char path[512], *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/persistent/%s",
		 rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *grown = realloc(buf, cap + 8192);

			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
			cap += 8192;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n);
	fclose(f);
	buf[len] = '\0';
	return buf;
}
