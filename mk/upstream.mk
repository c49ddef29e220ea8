# The QEMU device in upstream form: QEMU's checkpatch.pl on hw/qemu and
# qtest/ (make checkpatch, zero errors and warnings). See docs/qemu.md.
.PHONY: checkpatch
CHECK_TARGETS += checkpatch

checkpatch: qemu
	@$(TOP)/scripts/qemu/checkpatch.sh
