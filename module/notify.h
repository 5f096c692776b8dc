/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waiting for incidents: control files that watch events receive a notice
 * when one freezes or its trigger fires, and if they ask, when it stores
 * records (poll, read, SIGIO).  notices.h says what an event has to tell.
 */
#ifndef _PERF_PERSISTENT_NOTIFY_H
#define _PERF_PERSISTENT_NOTIFY_H

#include <linux/poll.h>
#include <linux/types.h>

struct file;

void pp_notify_init(void);
int pp_notify_watch(struct file *file, u32 id, bool overflows);
__poll_t pp_notify_poll(struct file *file, poll_table *wait);
ssize_t pp_notify_read(struct file *file, char __user *buf, size_t len);
int pp_notify_fasync(int fd, struct file *file, int on);
void pp_notify_release(struct file *file);
void pp_notify_exit(void);

#endif /* _PERF_PERSISTENT_NOTIFY_H */
