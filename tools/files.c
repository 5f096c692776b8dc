// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: removing a directory tree (a trace.dat's
 * scratch directory, an archive written half-way or pruned).
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

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
