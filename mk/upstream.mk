# The QEMU device in upstream form: QEMU's checkpatch.pl on hw/qemu and
# qtest/ (make checkpatch, zero errors and warnings). See docs/qemu.md.
.PHONY: checkpatch
CHECK_TARGETS += checkpatch

checkpatch: qemu
	@$(TOP)/scripts/qemu/checkpatch.sh

# The device as a git format-patch series against the pinned QEMU
# (build/qemu-patches/), and its check: git am on a clean copy, build, qtests.
.PHONY: qemu-patches check-qemu-patches
qemu-patches:
	@$(TOP)/scripts/qemu/patches.sh

check-qemu-patches: qemu-patches
	@$(TOP)/scripts/qemu/check-patches.sh
