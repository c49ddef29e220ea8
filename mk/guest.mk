# Guest software (issue 5): guest image, Linux driver, userspace HAL and CLI,
# the multi-VM replication demo, the in-guest tests and benchmarks.
#
#   make guest        build/guest/{kernel/vmlinux,initramfs.cpio.gz}
#   make demo         1 master + N slave VMs replicating memory (scripts/demo.sh)
#   make check-guest  shortened demo + in-guest driver tests
#   make bench-guest  guest.replicate.mbps, guest.rmem.read_us_p50, guest.tcp.mbps
#
# The guest kernel version comes from the installed linux-headers-amd64, which
# `make deps` installs, so it is resolved when a recipe runs, not when make
# parses this file (a fresh machine has no headers yet).

GUEST_OUT := $(BUILD)/guest
GUEST_KDIR_OUT := $(GUEST_OUT)/kernel
GUEST_INITRAMFS := $(GUEST_OUT)/initramfs.cpio.gz
GUEST_QEMU := $(BUILD)/qemu/qemu-system-x86_64

.PHONY: guest guest-kernel guest-shell

guest: guest-kernel
	@$(TOP)/scripts/guest-initramfs.sh -o $(GUEST_INITRAMFS) -k $(GUEST_KDIR_OUT) \
		-r $(TOP)/guest/rootfs $(GUEST_INITRAMFS_ARGS)

guest-kernel:
	@$(TOP)/scripts/guest-kernel.sh $(GUEST_KDIR_OUT)

# Interactive guest with one openenoc device on its own (for poking with enocctl).
guest-shell: guest
	$(TOP)/scripts/guest-run.sh --interactive
