# SPDX-License-Identifier: GPL-2.0
#
# Included by ../Kbuild (the module) and ../kunit/Makefile (its KUnit
# build in the kernel tree).  sched_switch's encoder calls
# __trace_sched_switch_state(), which the kernel's sched.h defines only
# under CREATE_TRACE_POINTS: take it from that sched.h, the one the
# encoders are generated from.
#
# It reads the switching-out task's exit_state unmarked, while the parent
# reaping that task may change it (wait_task_zombie()'s cmpxchg from
# EXIT_ZOMBIE to EXIT_DEAD): the kernel's own sched_switch event reads it
# the same way, and the record holds one state or the other.  The copy
# marks the read with data_race(), so that KCSAN does not report it as a
# race of the module's.
quiet_cmd_pp_sched_state = GEN     $@
      cmd_pp_sched_state = sed -n '/^\#ifdef CREATE_TRACE_POINTS/,/^\#endif \/\* CREATE_TRACE_POINTS/p' $< | \
	sed '1d;$$d;s/\bp->exit_state\b/data_race(p->exit_state)/' >$@

$(obj)/module/direct_events.o: $(obj)/module/pp_sched_state.h
$(obj)/module/pp_sched_state.h: $(srctree)/include/trace/events/sched.h FORCE
	$(call if_changed,pp_sched_state)
targets += module/pp_sched_state.h
