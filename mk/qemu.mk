# QEMU with the openenoc PCI device (hw/qemu/), its qtests (qtest/) and its
# benchmark (bench/qemu*). See docs/qemu.md.
QEMU_BIN := $(BUILD)/qemu/qemu-system-x86_64

.PHONY: qemu check-qtest bench-qemu
CHECK_TARGETS += check-qtest
BENCH_TARGETS += bench-qemu

# Always runs the script: it rebuilds only what changed (seconds when nothing did).
qemu:
	@$(TOP)/scripts/qemu/build.sh

check-qtest: qemu
	@$(TOP)/scripts/qemu/run-qtests.sh

bench-qemu: qemu
	@$(TOP)/bench/qemu-bench.sh
