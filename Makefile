# SPDX-License-Identifier: GPL-2.0
#
# perf-persistent top-level Makefile.  Kbuild (see ./Kbuild) builds the
# module; this file drives it and the project's tools, tests and checks.
#
#   make                build perf_persistent.ko for the running kernel
#   make KDIR=<dir>     build against another kernel build tree (or KVER=<release>)
#   make LAB=<name>     build against a lab kernel (6.1, 6.12, 6.12-rt, debug)
#   make demo           boot a guest and show persistent events working
#   make check          every test (what CI runs)
#   make bench          the benchmark: what recording costs (not a test)
#   make coverage       the lines and branches of module/ the tests run
#   make fuzz           the long fuzzing campaigns [DURATION=s ROUNDS=n]
#   make help           all targets

# A lab kernel (scripts/lab-kernel: fetched into the cache on first use).
ifneq ($(LAB),)
ifeq ($(origin KDIR),undefined)
KDIR := $(shell scripts/lab-kernel $(LAB) | sed -n 's/^lab_kdir=//p')
endif
endif
KVER ?= $(shell scripts/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
PWD := $(CURDIR)
# Another architecture's tree (a lab kernel such as arm64-6.12): its
# ARCH= and CROSS_COMPILE=, unless given.
ifeq ($(origin ARCH),undefined)
KMAKE := $(shell scripts/kdir-make $(KDIR) 2>/dev/null)
endif
# A lab kernel of 7.x: the build runs in its suite's build root, with the
# compiler and glibc its headers need (scripts/in-root).
KWRAP := $(shell scripts/kdir-make --wrap $(KDIR) 2>/dev/null)

# Kernel code of the project: what W=1, sparse and checkpatch look at.  Not
# the trace-macro stages (direct_stages.h, built like the kernel's
# include/trace/stages/, which checkpatch cannot read) nor the header the
# build copies from the kernel's sched.h.
KERNEL_SOURCES := $(filter-out module/direct_stages.h module/pp_sched_state.h module/pp_features.h, \
	$(wildcard module/*.c module/*.h include/perf_persistent/*.h \
	include/uapi/linux/*.h kunit/*.c tests/kmod/*.c))

.PHONY: all module kdir w1 sparse checkpatch static kunit tests tools bench pictures \
	tools-check guest-files guest-test demo check coverage fuzz dkms-check deb deb-check install \
	install-boot-config uninstall \
	htmldocs clean help

all: module

kdir:
	@if [ -z "$(KDIR)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
		if [ -n "$(LAB)" ]; then echo "make: no lab kernel '$(LAB)'" >&2; \
		elif [ "$(origin KDIR)" != file ]; then \
			echo "make: KDIR=$(KDIR) is not a kernel build tree (no Makefile there)" >&2; \
		elif [ -z "$(KVER)" ]; then scripts/kver >/dev/null; \
		else echo "make: KDIR=$(KDIR) is not a kernel build tree (install linux-headers-$(KVER), or set KDIR=)" >&2; \
		fi; \
		exit 1; \
	fi

module: kdir
	$(KWRAP) $(MAKE) -C $(KDIR) $(KMAKE) M=$(PWD) modules

# Extra warnings (W=1) must be none: the build log is checked for any.
w1: kdir
	$(KWRAP) $(MAKE) -C $(KDIR) $(KMAKE) M=$(PWD) clean >/dev/null
	$(KWRAP) $(MAKE) -C $(KDIR) $(KMAKE) M=$(PWD) W=1 modules 2>&1 | tee .w1.log
	@! grep -E 'warning:|error:' .w1.log || { echo "make: W=1 warnings above" >&2; exit 1; }

# sparse on every file (C=2) must be silent.
sparse: kdir
	$(KWRAP) $(MAKE) -C $(KDIR) $(KMAKE) M=$(PWD) clean >/dev/null
	$(KWRAP) $(MAKE) -C $(KDIR) $(KMAKE) M=$(PWD) C=2 CHECK=sparse modules 2>&1 | tee .sparse.log
	@! grep -E 'warning:|error:' .sparse.log || { echo "make: sparse warnings above" >&2; exit 1; }
	@! grep -E 'specified, but .* not available' .sparse.log || \
		{ echo "make: sparse did not run (7.x headers need sparse >= 0.6.5)" >&2; exit 1; }

# The compatibility header is the one file that tests LINUX_VERSION_CODE;
# anywhere else checkpatch flags it.  The lab's oops fixture is the one
# file that calls BUG(): crashing is its purpose.
COMPAT_H := module/compat.h
OOPS_C := tests/kmod/pp_oops.c
CHECKPATCH = GIT_DIR=/nonexistent perl "$$ksrc/scripts/checkpatch.pl" --strict \
	--root="$$ksrc" --quiet --ignore FILE_PATH_CHANGES

checkpatch:
	@ksrc=$$(scripts/ksrc) && \
		$(CHECKPATCH) -f $(filter-out $(COMPAT_H) $(OOPS_C),$(KERNEL_SOURCES)) && \
		$(CHECKPATCH),LINUX_VERSION_CODE,CONSTANT_COMPARISON -f $(COMPAT_H) && \
		$(CHECKPATCH),AVOID_BUG -f $(OOPS_C) && \
		echo "checkpatch: $(words $(KERNEL_SOURCES)) files clean"

static: w1 sparse checkpatch

kunit:
	scripts/kunit

tests:
	$(MAKE) -C tests

# The perf persistent tool (make -C tools builds it alone).
tools:
	$(MAKE) -C tools

# Its host unit tests, under valgrind.
tools-check:
	$(MAKE) -C tools check

# What vm-run puts into the guest besides the module (scripts/lab-module).
guest-files: tests tools

# make guest-test [T="10-sysfs 20-perf"]
guest-test:
	scripts/guest-tests $(T)

demo:
	scripts/demo

check:
	scripts/check

# What the tests leave unexecuted (Documentation/testing.rst, "Coverage"):
# the lines and branches of module/ that make check's suites run, per file,
# an HTML report in coverage/html/; not part of make check.
coverage:
	scripts/coverage

# The long campaigns for before a release (Documentation/testing.rst,
# "Fuzzing"): the ioctl fuzzer steered by coverage for DURATION seconds
# (default 600), its new inputs added to tests/fuzz-corpus/, and a previous
# boot's region damaged ROUNDS ways (default 1000); not part of make check.
fuzz:
	scripts/fuzz $(or $(DURATION),600) $(or $(ROUNDS),1000)

# The benchmark (Documentation/benchmark.rst); not part of make check.
bench:
	scripts/bench

# Documentation/images/ from a lab run (Documentation/analysis.rst); not
# part of make check.
pictures:
	scripts/pictures

dkms-check:
	scripts/dkms-check

# The Debian packages perf-persistent-dkms and perf-persistent, from the
# tracked files, into deb/ (scripts/deb); deb-check adds lintian and the
# packages' contents (scripts/deb-check).
deb:
	scripts/deb

deb-check:
	scripts/deb-check

# The module (modules_install + depmod), the tool into perf's exec
# directory and its man page.  INSTALL_MOD_PATH (kbuild's) and DESTDIR
# (the tool's) install under another root.
install: module tools
	$(KWRAP) $(MAKE) -C $(KDIR) $(KMAKE) M=$(PWD) modules_install
	depmod -b $(or $(INSTALL_MOD_PATH),/) -a $(KVER)
	$(MAKE) -C tools install

# The boot-time configuration (etc/): load the module at boot with the
# machine's error events and sched_switch.  Apart from install: it
# changes what boots.
install-boot-config:
	install -D -m 0644 etc/modules-load.d/perf-persistent.conf \
		$(DESTDIR)/etc/modules-load.d/perf-persistent.conf
	install -D -m 0644 etc/modprobe.d/perf-persistent.conf \
		$(DESTDIR)/etc/modprobe.d/perf-persistent.conf
	install -D -m 0644 etc/systemd/system/systemd-pstore.service.d/perf-persistent.conf \
		$(DESTDIR)/etc/systemd/system/systemd-pstore.service.d/perf-persistent.conf

# What install and install-boot-config installed: the module for KVER, the
# tool, the man page, the boot-time configuration.  No build tree needed:
# the headers may be gone already (KVER defaults to the running kernel).
UNINSTALL_KVER = $(or $(KVER),$(shell uname -r))
uninstall:
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(UNINSTALL_KVER)/updates/perf_persistent.ko* \
		$(INSTALL_MOD_PATH)/lib/modules/$(UNINSTALL_KVER)/extra/perf_persistent.ko*
	if [ -d $(INSTALL_MOD_PATH)/lib/modules/$(UNINSTALL_KVER) ]; then \
		depmod -b $(or $(INSTALL_MOD_PATH),/) -a $(UNINSTALL_KVER); fi
	$(MAKE) -C tools uninstall
	rm -f $(DESTDIR)/etc/modules-load.d/perf-persistent.conf \
		$(DESTDIR)/etc/modprobe.d/perf-persistent.conf \
		$(DESTDIR)/etc/systemd/system/systemd-pstore.service.d/perf-persistent.conf
	-rmdir $(DESTDIR)/etc/systemd/system/systemd-pstore.service.d 2>/dev/null

# Documentation/ as HTML, with Sphinx (python3-sphinx), warnings as errors.
htmldocs:
	@command -v sphinx-build >/dev/null || { echo "make: htmldocs needs sphinx-build (apt-get install python3-sphinx)" >&2; exit 1; }
	sphinx-build -q -W -b html Documentation Documentation/output

clean:
	$(KWRAP) $(MAKE) -C $(KDIR) $(KMAKE) M=$(PWD) clean 2>/dev/null || true
	# DKMS's copy of the source (dkms.conf's CLEAN) has no tests/, tools/
	# or bench/.
	for d in tests tools bench; do [ ! -f $$d/Makefile ] || $(MAKE) -C $$d clean || exit; done
	rm -rf .w1.log .sparse.log Documentation/output

help:
	@sed -n '3,14p' Makefile | sed 's/^# \{0,1\}//'
	@echo "  make w1 | sparse | checkpatch | static   static checks"
	@echo "  make kunit                               KUnit suites via kunit.py"
	@echo "  make guest-test [T=NAME...]              guest tests (all by default)"
	@echo "  make dkms-check                          dkms add/build/install/remove"
	@echo "  make deb | deb-check                     the Debian packages into deb/; lintian, contents"
	@echo "  make tools | tools-check                 the perf persistent tool, its unit tests"
	@echo "  make install                             module (+ depmod), tool, man page"
	@echo "  make install-boot-config                 load at boot with error events, sched_switch (etc/)"
	@echo "  make uninstall                           what both installed"
	@echo "  make htmldocs                            Documentation/ as HTML (Sphinx)"
	@echo "  make clean                               remove what the build made"
