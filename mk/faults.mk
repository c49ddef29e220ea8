# Reliability: the fault matrix (filter-fault on a two-QEMU link, peer
# killed, link down/up) and the soak (three QEMUs, faults on every link,
# live migration under load). See docs/reliability.md.
SOAK_SECONDS ?= 600
SOAK_CHECK_SECONDS ?= 60

.PHONY: check-faults soak check-soak
CHECK_TARGETS += check-faults check-soak

check-faults: qemu
	@$(TOP)/scripts/qemu/faults.sh matrix

soak: qemu
	@$(TOP)/scripts/qemu/faults.sh soak $(SOAK_SECONDS)

# make check's bounded soak
check-soak: qemu
	@$(TOP)/scripts/qemu/faults.sh soak $(SOAK_CHECK_SECONDS)
