/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readers: perf events of the persistent PMU that receive a persistent
 * event's records on one CPU, history first, then live.
 */
#ifndef _PERF_PERSISTENT_READER_H
#define _PERF_PERSISTENT_READER_H

#include <linux/types.h>

struct perf_event;
struct pp_cpu;

int pp_readers_init(void);
void pp_readers_exit(void);

void pp_reader_cpu_init(struct pp_cpu *pc, unsigned int cpu);
void pp_reader_cpu_sync(struct pp_cpu *pc);
int pp_reader_event_init(struct perf_event *event, u32 id, bool history);
void pp_reader_add(struct perf_event *event);
void pp_reader_del(struct perf_event *event);
unsigned long pp_reader_backlog(struct pp_cpu *pc);

void pp_reader_notify(struct pp_cpu *pc);

#endif /* _PERF_PERSISTENT_READER_H */
