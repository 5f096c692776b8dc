// SPDX-License-Identifier: GPL-2.0
/*
 * preload-destroy.so - LD_PRELOAD shim for the tool's tests: right after a
 * successful PERF_PERSISTENT_IOC_PAUSE it destroys the paused event through
 * a second control file, so the program that paused it finds the event
 * gone while it reads it, deterministically.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/perf_persistent.h>

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	unsigned long arg;
	va_list ap;
	int ret, ctl;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	ret = real(fd, req, arg);
	if (req == PERF_PERSISTENT_IOC_PAUSE && !ret) {
		ctl = open(PERF_PERSISTENT_DEVICE, O_RDWR);
		if (ctl >= 0) {
			real(ctl, PERF_PERSISTENT_IOC_DESTROY, arg);
			close(ctl);
		}
	}
	return ret;
}
