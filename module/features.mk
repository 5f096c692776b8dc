# SPDX-License-Identifier: GPL-2.0
#
# Included by ../Kbuild (the module) and ../kunit/Makefile (its KUnit
# build in the kernel tree), with pp_src set to the directory of module/.
# pp_features.h: what the kernel headers being built against declare,
# tested by module/features.sh before anything is compiled
# (module/compat.h).
quiet_cmd_pp_features = GEN     $@
      cmd_pp_features = $(CONFIG_SHELL) $(pp_src)/module/features.sh $(srctree) >$@

$(obj)/module/pp_features.h: $(pp_src)/module/features.sh $(srctree)/include/linux/tracepoint.h FORCE
	$(call if_changed,pp_features)
targets += module/pp_features.h
