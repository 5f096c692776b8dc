// SPDX-License-Identifier: GPL-2.0
/*
 * pp-open - open one perf event with the attr given on the command line and
 * print the outcome: "OK" or the errno name.  Used by guest tests to check
 * the errno each rejection of the persistent PMU returns.
 *
 * pp-open [--pmu NAME | --type N] [--config X] [--config1 X] [--config2 X]
 *         [--pid P] [--cpu C] [--period N] [--branch] [--inherit]
 *         [--freq HZ] [--cgroup DIR] [--exclude-kernel]
 *         [--raw] [--as nobody | --as perfmon]
 *
 * --raw samples every event with PERF_SAMPLE_RAW.  --as nobody opens as user nobody with no capability; --as perfmon as user
 * nobody with CAP_PERFMON only.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pp-errname.h"

static unsigned long long num(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	if (!s) {
		fprintf(stderr, "pp-open: %s needs a value\n", opt);
		exit(2);
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "pp-open: bad number '%s' for %s\n", s, opt);
		exit(2);
	}
	return v;
}

static int pmu_type(const char *name)
{
	char path[256];
	FILE *f;
	int type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "pp-open: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	return type;
}

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

/* Become user nobody (65534) with CAP_PERFMON or with no capability. */
static void become_nobody(int perfmon)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgid(65534) ||
	    setuid(65534)) {
		perror("pp-open: become nobody");
		exit(2);
	}
	if (perfmon) {
		data[CAP_PERFMON / 32].permitted = 1U << (CAP_PERFMON % 32);
		data[CAP_PERFMON / 32].effective = 1U << (CAP_PERFMON % 32);
	}
	if (syscall(SYS_capset, &hdr, data)) {
		perror("pp-open: capset");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	int pid = -1, cpu = 0, as = 0, fd, i;
	unsigned long flags = 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = pmu_type("persistent");

	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *v = argv[i + 1];

		if (!strcmp(o, "--pmu"))
			attr.type = pmu_type(v), i++;
		else if (!strcmp(o, "--type"))
			attr.type = num(o, v), i++;
		else if (!strcmp(o, "--config"))
			attr.config = num(o, v), i++;
		else if (!strcmp(o, "--config1"))
			attr.config1 = num(o, v), i++;
		else if (!strcmp(o, "--config2"))
			attr.config2 = num(o, v), i++;
		else if (!strcmp(o, "--pid"))
			pid = (int)num(o, v), i++;
		else if (!strcmp(o, "--cpu"))
			cpu = strcmp(v ? v : "", "-1") ? (int)num(o, v) : -1, i++;
		else if (!strcmp(o, "--period"))
			attr.sample_period = num(o, v), i++;
		else if (!strcmp(o, "--branch")) {
			attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
			attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
			attr.sample_period = 1;
		} else if (!strcmp(o, "--exclude-kernel")) {
			attr.exclude_kernel = 1;
		} else if (!strcmp(o, "--inherit")) {
			attr.inherit = 1;
		} else if (!strcmp(o, "--freq")) {
			attr.freq = 1;
			attr.sample_freq = num(o, v), i++;
		} else if (!strcmp(o, "--raw")) {
			attr.sample_type |= PERF_SAMPLE_RAW;
			attr.sample_period = 1;
		} else if (!strcmp(o, "--as")) {
			if (!v || (strcmp(v, "nobody") && strcmp(v, "perfmon"))) {
				fprintf(stderr, "pp-open: --as nobody|perfmon\n");
				return 2;
			}
			as = !strcmp(v, "perfmon") ? 2 : 1, i++;
		} else if (!strcmp(o, "--cgroup")) {
			pid = open(v ? v : "/", O_RDONLY | O_DIRECTORY), i++;
			flags |= PERF_FLAG_PID_CGROUP;
		} else {
			fprintf(stderr, "pp-open: unknown option %s\n", o);
			return 2;
		}
	}

	if (as)
		become_nobody(as == 2);
	fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1, flags);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 1;
	}
	printf("OK\n");
	close(fd);
	return 0;
}
