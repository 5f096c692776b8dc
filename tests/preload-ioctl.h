/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preload-ioctl.h - the ioctl() wrapper of the LD_PRELOAD shims: it calls
 * libc's ioctl(), then the shim's after_ioctl() with what it returned.
 * A shim defines after_ioctl() and includes this.
 */
#ifndef PP_PRELOAD_IOCTL_H
#define PP_PRELOAD_IOCTL_H

#include <dlfcn.h>
#include <stdarg.h>

typedef int (*ioctl_fn)(int, unsigned long, ...);

static void after_ioctl(ioctl_fn real, unsigned long req, unsigned long arg,
			int ret);

int ioctl(int fd, unsigned long req, ...)
{
	static ioctl_fn real;
	unsigned long arg;
	va_list ap;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (!real)
		real = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
	ret = real(fd, req, arg);
	after_ioctl(real, req, arg, ret);
	return ret;
}

#endif
