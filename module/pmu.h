/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "persistent" PMU: registration and the format terms readers use.
 */
#ifndef _PERF_PERSISTENT_PMU_H
#define _PERF_PERSISTENT_PMU_H

#include "format.h"

#define PP_PMU_NAME	"persistent"

/* Format terms of the PMU, in the order format/ lists them. */
extern const struct pp_format_term *const pp_pmu_terms[];
extern const unsigned int pp_pmu_nr_terms;

struct attribute_group;
struct device;

int pp_pmu_register(const struct attribute_group **groups);
int pp_pmu_type(void);
struct device *pp_pmu_device(void);
void pp_pmu_unregister(void);

#endif /* _PERF_PERSISTENT_PMU_H */
