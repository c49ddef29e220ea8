# The QEMU device in upstream form: QEMU's checkpatch.pl on hw/qemu and
# qtest/ (make checkpatch, zero errors and warnings, about 7 s). See
# docs/qemu.md.
.PHONY: checkpatch
CHECK_TARGETS += checkpatch

checkpatch: qemu
	@$(TOP)/scripts/qemu/checkpatch.sh

# The device as a git format-patch series against the pinned QEMU
# (build/qemu-patches/), and its check: git am on a clean copy, build, qtests.
# Its build shares make qemu's ccache: about 1.5 min when the cache and the
# copy's build directory are kept, about 5 min from the cache alone.
.PHONY: qemu-patches check-qemu-patches
CHECK_TARGETS += check-qemu-patches
qemu-patches:
	@$(TOP)/scripts/qemu/patches.sh

check-qemu-patches: qemu-patches
	@$(TOP)/scripts/qemu/check-patches.sh
