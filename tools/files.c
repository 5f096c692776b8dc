// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: directories: removing a tree (a trace.dat's
 * scratch directory, an archive written half-way or pruned), and making
 * what was written in one durable (an archive before and after its
 * rename).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-persistent.h"

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int remove_tree(const char *path)
{
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int sync_dir(const char *path, bool files)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = files ? syncfs(fd) : fsync(fd);
	close(fd);
	return ret;
}
