# SPDX-License-Identifier: GPL-2.0
#
# Included by ../Kbuild (the module) and ../kunit/Makefile (its KUnit
# build in the kernel tree).  sched_switch's encoder calls
# __trace_sched_switch_state(), which the kernel's sched.h defines only
# under CREATE_TRACE_POINTS: take it from that sched.h, the one the
# encoders are generated from.
quiet_cmd_pp_sched_state = GEN     $@
      cmd_pp_sched_state = sed -n '/^\#ifdef CREATE_TRACE_POINTS/,/^\#endif \/\* CREATE_TRACE_POINTS/p' $< | \
	sed '1d;$$d' >$@

$(obj)/module/direct_events.o: $(obj)/module/pp_sched_state.h
$(obj)/module/pp_sched_state.h: $(srctree)/include/trace/events/sched.h FORCE
	$(call if_changed,pp_sched_state)
targets += module/pp_sched_state.h
