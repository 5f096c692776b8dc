// SPDX-License-Identifier: GPL-2.0
/*
 * preload-destroy.so - LD_PRELOAD shim for the tool's tests: right after a
 * successful PERF_PERSISTENT_IOC_PAUSE it destroys the paused event through
 * a second control file, so the program that paused it finds the event
 * gone while it reads it, deterministically.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/perf_persistent.h>

#include "preload-ioctl.h"

static void after_ioctl(ioctl_fn real, unsigned long req, unsigned long arg,
			int ret)
{
	int ctl;

	if (req != PERF_PERSISTENT_IOC_PAUSE || ret)
		return;
	ctl = open(PERF_PERSISTENT_DEVICE, O_RDWR);
	if (ctl >= 0) {
		real(ctl, PERF_PERSISTENT_IOC_DESTROY, arg);
		close(ctl);
	}
}
