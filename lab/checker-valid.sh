#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lab/checker-valid.sh CHECK [FLAGS...] - the answer kbuild asks for
# before it runs sparse (C=1, C=2) from 7.x: "1" when CHECK exists and
# parses what the kernel's headers use now (__typeof_unqual__), "0" when
# not.  Kbuild calls $(srctree)/scripts/checker-valid.sh, which Debian's
# linux-headers packages do not ship: the shell's "not found" made kbuild
# turn sparse off with a warning, and the module's sparse check passed
# having checked nothing.  scripts/lab-kernel puts this script where
# kbuild looks for it.
if ! command -v "$1" >/dev/null 2>&1; then
	echo 0
	exit 0
fi
src=$(mktemp --suffix=.c)
trap 'rm -f "$src"' EXIT
printf 'static inline int f(const int *p)\n{\n\t__typeof_unqual__(*p) v = *p;\n\treturn v;\n}\n' >"$src"
# sparse exits 0 on errors in its input: its output says.
if "$@" "$src" 2>&1 | grep -q 'error'; then
	echo 0
else
	echo 1
fi
