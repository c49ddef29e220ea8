# Guest software (issue 5): guest image, Linux driver, userspace HAL and CLI,
# the multi-VM replication demo, the in-guest tests and benchmarks.
#
#   make guest        build/guest/{kernel/vmlinux,initramfs.cpio.gz}
#   make demo         1 master + N slave VMs replicating memory (scripts/demo.sh)
#   make check-guest  shortened demo + in-guest driver tests
#   make check-guest-rtl  the driver tests that matter, every device on the
#                     RTL engine (build/cosim/libopenenoc_rtl.so, mk/cosim.mk)
#   make bench-guest  guest.replicate.mbps, guest.rmem.read_us_p50, guest.tcp.mbps
#                     and the figures that tell where the time goes
#
# The guest kernel version comes from the installed linux-headers-amd64, which
# `make deps` installs, so it is resolved when a recipe runs, not when make
# parses this file (a fresh machine has no headers yet).

GUEST_OUT := $(BUILD)/guest
GUEST_KDIR_OUT := $(GUEST_OUT)/kernel
GUEST_INITRAMFS := $(GUEST_OUT)/initramfs.cpio.gz
GUEST_QEMU := $(BUILD)/qemu/qemu-system-x86_64

GUEST_MOD_OUT := $(GUEST_OUT)/module
GUEST_MOD_SRC := $(wildcard $(TOP)/guest/linux/*.c $(TOP)/guest/linux/*.h) \
	$(TOP)/guest/linux/Kbuild $(TOP)/include/openenoc/regs.h \
	$(TOP)/include/openenoc/uapi_enoc.h $(TOP)/include/openenoc/uapi_enoc_regs.h

# Userspace: libenoc (the HAL) and the tools, static for the initramfs. The
# tools reuse the shared oETP codec for CSR error names and frame layout.
GUEST_BIN := $(GUEST_OUT)/bin
GUEST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror=implicit \
	-I$(TOP)/include -I$(TOP)/guest/lib -I$(TOP)/guest/tools
GUEST_LIB_SRC := $(wildcard $(TOP)/guest/lib/*.c) $(TOP)/guest/tools/cli.c \
	$(OETP_SRC)
GUEST_HDRS := $(wildcard $(TOP)/guest/lib/*.h $(TOP)/guest/tools/*.h) \
	$(wildcard $(TOP)/include/openenoc/*.h)
GUEST_TOOLS := enocctl enoc-repl enoc-tcp enoc-uirq
GUEST_TOOL_BINS := $(addprefix $(GUEST_BIN)/,$(GUEST_TOOLS))
GUEST_INITRAMFS_ARGS += $(addprefix -b ,$(GUEST_TOOL_BINS))

$(GUEST_BIN)/enocctl: $(wildcard $(TOP)/guest/tools/enocctl*.c) $(GUEST_LIB_SRC) $(GUEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -static -o $@ $(filter %.c,$^)

$(GUEST_BIN)/enoc-repl: $(TOP)/guest/tools/enoc_repl.c $(GUEST_LIB_SRC) $(GUEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -static -o $@ $(filter %.c,$^)

$(GUEST_BIN)/enoc-tcp: $(TOP)/guest/tools/enoc_tcp.c $(GUEST_LIB_SRC) $(GUEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -static -o $@ $(filter %.c,$^)

# Firmware-style IRQ service from userspace (enoc, uio and vfio routes).
$(GUEST_BIN)/enoc-uirq: $(TOP)/guest/tools/enoc_uirq.c $(GUEST_LIB_SRC) $(GUEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -pthread -static -o $@ $(filter %.c,$^)

.PHONY: guest guest-kernel guest-module guest-tools guest-shell guest-vfio

guest-tools: $(GUEST_TOOL_BINS)

# vfio.ko with no-IOMMU mode replaces Debian's (built without it), so that
# vfio-pci can drive the device in a guest without an IOMMU.
GUEST_VFIO_OUT := $(GUEST_OUT)/vfio-noiommu
GUEST_INITRAMFS_ARGS += -m $(GUEST_VFIO_OUT)/vfio.ko

guest: guest-kernel guest-module guest-tools guest-vfio
	@$(TOP)/scripts/guest-initramfs.sh -o $(GUEST_INITRAMFS) -k $(GUEST_KDIR_OUT) \
		-r $(TOP)/guest/rootfs -m $(GUEST_MOD_OUT)/openenoc.ko $(GUEST_INITRAMFS_ARGS)

guest-kernel:
	@$(TOP)/scripts/guest-kernel.sh $(GUEST_KDIR_OUT)

guest-vfio: guest-kernel
	@$(TOP)/scripts/guest-vfio-noiommu.sh $(GUEST_VFIO_OUT)

# Kbuild writes next to the sources, so it builds a copy under build/.
guest-module: $(GUEST_MOD_OUT)/openenoc.ko
$(GUEST_MOD_OUT)/openenoc.ko: $(GUEST_MOD_SRC)
	@mkdir -p $(GUEST_MOD_OUT)
	@cp $(TOP)/guest/linux/*.c $(TOP)/guest/linux/*.h $(TOP)/guest/linux/Kbuild $(GUEST_MOD_OUT)/
	@kver=$$($(TOP)/scripts/guest-kernel.sh --print-kver) && \
	$(MAKE) --no-print-directory -C /usr/src/linux-headers-$$kver M=$(GUEST_MOD_OUT) \
		OPENENOC_INCLUDE=$(TOP)/include W=1 modules

# Driver hygiene (make check-guest): a separate build of the module with
# W=1 and sparse (C=1); any warning from either fails it.
GUEST_LINT_OUT := $(GUEST_OUT)/module-lint
.PHONY: check-guest-module
check-guest-module: $(GUEST_MOD_SRC)
	@rm -rf $(GUEST_LINT_OUT) && mkdir -p $(GUEST_LINT_OUT)
	@cp $(TOP)/guest/linux/*.c $(TOP)/guest/linux/*.h $(TOP)/guest/linux/Kbuild $(GUEST_LINT_OUT)/
	@command -v sparse >/dev/null || { echo "check-guest-module: sparse not installed: run 'make deps'"; exit 1; }
	@kver=$$($(TOP)/scripts/guest-kernel.sh --print-kver) && \
	$(MAKE) --no-print-directory -C /usr/src/linux-headers-$$kver M=$(GUEST_LINT_OUT) \
		OPENENOC_INCLUDE=$(TOP)/include W=1 C=1 modules > $(GUEST_LINT_OUT)/build.log 2>&1 || \
		{ cat $(GUEST_LINT_OUT)/build.log; exit 1; }
	@if grep -E 'warning:|error:' $(GUEST_LINT_OUT)/build.log; then \
		echo "check-guest-module: warnings (W=1 / sparse) above"; exit 1; fi
	@echo "check-guest-module: openenoc.ko clean with W=1 and sparse ($$(grep -c CHECK $(GUEST_LINT_OUT)/build.log) files checked)"

# Interactive guest with one openenoc device on its own (for poking with enocctl).
guest-shell: guest
	$(TOP)/scripts/guest-run.sh --interactive

# Everything `make demo` needs is built first, so it works on a fresh machine.
# DEMO_ARGS passes options to scripts/demo.sh (e.g. DEMO_ARGS="--slaves 3"),
# BENCH_GUEST_ARGS to scripts/guest-bench.sh (e.g. BENCH_GUEST_ARGS="--runs 1").
.PHONY: demo check-guest bench-guest
demo:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory qemu
	@$(MAKE) --no-print-directory guest
	@# --engine rtl: the default RTL engine library too (mk/cosim.mk)
	$(if $(filter rtl,$(DEMO_ARGS)),@$(MAKE) --no-print-directory cosim)
	@$(TOP)/scripts/demo.sh $(DEMO_ARGS)

check-guest: qemu guest check-guest-module
	@$(TOP)/scripts/guest-check.sh
	@$(TOP)/scripts/repl-check.sh

bench-guest: qemu guest
	@$(TOP)/scripts/guest-bench.sh $(BENCH_GUEST_ARGS)

# Two devices on the Verilator model: under 2 minutes under TCG (docs/guest.md).
.PHONY: check-guest-rtl
check-guest-rtl: qemu guest $(COSIM_LIB)
	@$(TOP)/scripts/guest-check.sh --rtl $(COSIM_LIB)

# The guest suites run on the project's QEMU (mk/qemu.mk, `make qemu`).
CHECK_TARGETS += check-guest check-guest-rtl
BENCH_TARGETS += bench-guest
