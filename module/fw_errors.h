/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: the errors firmware reports, from the boot before (BERT,
 * in the read-only event firmware_errors) and at a fatal GHES error's
 * panic (fw_errors.c)
 */
#ifndef _PERF_PERSISTENT_FW_ERRORS_H
#define _PERF_PERSISTENT_FW_ERRORS_H

#define PP_FW_ERRORS_NAME	"firmware_errors"

#if defined(CONFIG_ACPI_APEI) && defined(CONFIG_RAS)
void pp_fw_errors_init(void);
void pp_fw_errors_exit(void);
void pp_fw_errors_publish(void);
void pp_fw_errors_panic(const char *msg);
#else
static inline void pp_fw_errors_init(void) { }
static inline void pp_fw_errors_exit(void) { }
static inline void pp_fw_errors_publish(void) { }
static inline void pp_fw_errors_panic(const char *msg) { }
#endif

#endif /* _PERF_PERSISTENT_FW_ERRORS_H */
