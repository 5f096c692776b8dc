/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PERF_PERSISTENT_VERSION_H
#define _PERF_PERSISTENT_VERSION_H

/* Must equal PACKAGE_VERSION in dkms.conf; `make check` verifies it. */
#define PP_VERSION	"0.2.0"

#endif /* _PERF_PERSISTENT_VERSION_H */
