/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The errno names the guest tests compare against, shared by the test
 * programs: "ENOENT" rather than strerror()'s sentence.
 */
#ifndef _PP_ERRNAME_H
#define _PP_ERRNAME_H

#include <errno.h>
#include <stdio.h>

static inline const char *errname(int e)
{
	static char buf[32];

	switch (e) {
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case E2BIG: return "E2BIG";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case EALREADY: return "EALREADY";
	case ENOTTY: return "ENOTTY";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case ENOMEM: return "ENOMEM";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case EROFS: return "EROFS";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case ENOTDIR: return "ENOTDIR";
	case EAGAIN: return "EAGAIN";
	case EOVERFLOW: return "EOVERFLOW";
	}
	snprintf(buf, sizeof(buf), "errno%d", e);
	return buf;
}

#endif /* _PP_ERRNAME_H */
