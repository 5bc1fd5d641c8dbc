# SPDX-License-Identifier: GPL-2.0
#
# rdmablk top-level build.
#
#   make               build rdmablk.ko, rdmablkd and rdmablkctl
#   make userspace     also the unit tests and the test tools
#   make demo          boot a VM and show rdmablk working end to end
#   make check         GoogleTest, KUnit, the VM tests (but those marked
#                      VM_CHECK=no), and the debug kernel lane: its selftest
#                      and the tests marked check; ends "N passed, M failed"
#   make check-quick   GoogleTest, KUnit and the static checks, no VM
#   make check-debug   the whole debug kernel lane: KASAN + lockdep + kmemleak +
#                      UBSAN, every test of tests/vm/debug-lane.list
#   make vmtest T=001  one VM test (number, name or path); T unset runs all;
#                      KERNEL=debug runs it under the debug kernel lane
#   make bench         rdmablk against nvme-rdma in a VM (BENCH_ARGS="--runtime 10")
#   make install       module, programs, headers and docs (PREFIX, DESTDIR);
#                      the same as make install-module install-userspace
#   make dkms-install  register the module with DKMS so it follows kernel
#                      updates (then make install-userspace for the rest)

PREFIX ?= /usr/local
DESTDIR ?=
VERSION := $(shell sed -n 's/^\#define RDMABLK_VERSION[^"]*"\(.*\)"/\1/p' kmod/rdmablk.h)
JOBS ?= $(shell nproc)

BUILD := build
USER_BUILD := $(BUILD)/userspace
ASAN_BUILD := $(BUILD)/asan

# What make builds and make install installs: the module, rdmablkd and
# rdmablkctl. The unit tests and the test tools (make userspace) are for
# make check and the VM tests.
PROGRAMS := rdmablkd rdmablkctl
VM_PROGRAMS := $(PROGRAMS) rdmablk-nl rdmablk-hostile rdmablk-hostile-target

all: module programs

deps:
	@scripts/install-deps.sh

module: deps
	$(MAKE) -C kmod

# $(call user_build[,TARGETS]): configure $(USER_BUILD) and build TARGETS
# (every target when empty). CMAKE_ARGS: more cache settings (make check:
# -DRDMABLK_WERROR=ON).
define user_build
	cmake -S daemon -B $(USER_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_ARGS) >/dev/null
	cmake --build $(USER_BUILD) -j$(JOBS) $(if $(1),--target $(1))
endef

# Every userspace target: programs, test tools and unit tests.
userspace: deps
	$(call user_build)

programs: deps
	$(call user_build,$(PROGRAMS))

# What the guests of the VM tests, the demo and the benchmark run.
vm-programs: deps
	$(call user_build,$(VM_PROGRAMS))

check: deps
	@scripts/check.sh all

check-quick: deps
	@scripts/check.sh quick

check-debug: deps
	@scripts/check.sh debug

vmtest: module vm-programs
	@RDMABLK_SKIP_DEPS=1 tests/vm/run $(if $(KERNEL),--kernel $(KERNEL)) $(T)

bench: module vm-programs
	@RDMABLK_SKIP_DEPS=1 scripts/bench $(BENCH_ARGS)

kunit: deps
	@scripts/kunit.sh

demo: module vm-programs
	@scripts/demo.sh

install: install-module install-userspace

# kmod's modules_install builds the module first: one pass of Kbuild, not two
# (in a guest under emulation each pass costs most of a minute).
install-module: deps
	$(MAKE) -C kmod modules_install INSTALL_MOD_PATH=$(DESTDIR)

install-userspace: programs
	install -d $(DESTDIR)$(PREFIX)/include/linux
	install -m 0644 uapi/linux/rdmablk.h uapi/linux/rdmablk_proto.h \
		$(DESTDIR)$(PREFIX)/include/linux/
	DESTDIR=$(DESTDIR) cmake --install $(USER_BUILD) --prefix $(PREFIX)

dkms-install:
	@scripts/dkms-install.sh $(VERSION)

clean:
	-$(MAKE) -C kmod clean
	rm -rf $(BUILD)

.PHONY: all deps module userspace programs vm-programs check check-quick check-debug vmtest bench kunit demo \
	install install-module install-userspace dkms-install clean
