// SPDX-License-Identifier: GPL-2.0
/*
 * preload-sigint.so - LD_PRELOAD shim for the tool's tests: right after a
 * successful PERF_PERSISTENT_IOC_ATTACH or _CREATE it raises SIGINT, as a
 * Ctrl-C in the moment between the ioctl that makes the control file the
 * event's owner and the tool's wait for signals would, deterministically.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>

#include <linux/perf_persistent.h>

/* A command without its size bits: CREATE of any struct version. */
#define NO_SIZE(req)	((req) & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT))

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	unsigned long arg;
	va_list ap;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	ret = real(fd, req, arg);
	if (!ret && (req == PERF_PERSISTENT_IOC_ATTACH ||
		     NO_SIZE(req) == NO_SIZE(PERF_PERSISTENT_IOC_CREATE)))
		raise(SIGINT);
	return ret;
}
