// SPDX-License-Identifier: GPL-2.0
/*
 * preload-sigint.so - LD_PRELOAD shim for the tool's tests: right after a
 * successful PERF_PERSISTENT_IOC_ATTACH or _CREATE it raises SIGINT, as a
 * Ctrl-C in the moment between the ioctl that makes the control file the
 * event's owner and the tool's wait for signals would, deterministically.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/ioctl.h>

#include <linux/perf_persistent.h>

#include "preload-ioctl.h"

/* A command without its size bits: CREATE of any struct version. */
#define NO_SIZE(req)	((req) & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT))

static void after_ioctl(ioctl_fn real, unsigned long req, unsigned long arg,
			int ret)
{
	(void)real;
	(void)arg;
	if (!ret && (req == PERF_PERSISTENT_IOC_ATTACH ||
		     NO_SIZE(req) == NO_SIZE(PERF_PERSISTENT_IOC_CREATE)))
		raise(SIGINT);
}
