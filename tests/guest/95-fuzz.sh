# SPDX-License-Identifier: GPL-2.0
#
# pp-fuzz: PP_FUZZ_ITERATIONS (default 5000) seeded random calls per run,
# under whatever checkers the kernel has (KASAN on the debug kernel), and
# the corpus that make fuzz's campaigns steered by coverage kept
# (tests/fuzz-corpus/: each input once).
. ./lib.sh

pp_load
before=$(ls "$PP_SYS/events" | xargs)
n=${PP_FUZZ_ITERATIONS:-5000}
pp-fuzz -n "$n" -s 1 >/tmp/fuzz1 2>&1
check "fuzz seed 1: only documented errnos, nothing left behind" test $? -eq 0
sed 's/^/# /' /tmp/fuzz1
pp-fuzz -n "$n" >/tmp/fuzz2 2>&1
check "fuzz with a fresh seed (printed)" test $? -eq 0
sed 's/^/# /' /tmp/fuzz2
set -- fuzz-corpus/*
if [ -e "$1" ]; then
	pp-fuzz -r "$@" >/tmp/fuzz3 2>&1
	check "the corpus of make fuzz replayed ($# inputs): only documented errnos, nothing left behind" test $? -eq 0
	sed 's/^/# /' /tmp/fuzz3
else
	not_ok "the corpus of make fuzz replayed: tests/fuzz-corpus/ is empty"
fi
check_eq "the load-time events untouched" "$before" "$(ls "$PP_SYS/events" | xargs)"
check "kernel log clean" pp_log_clean
check "the module unloads" pp_unload

done_testing
