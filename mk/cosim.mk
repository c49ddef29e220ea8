# The whole endpoint in RTL (rtl/endpoint/) and its co-simulation behind
# include/openenoc/engine.h (hw/cosim/). The CSR register block is generated
# from the SystemRDL by scripts/gen-regblock.py; the generated SV is committed
# and check-regblock fails when it is stale.

.PHONY: regblock check-regblock

CHECK_TARGETS += check-regblock

# Regenerate rtl/csr/openenoc_csr_*.sv after editing rtl/csr/*.rdl.
regblock:
	$(PYTHON) $(TOP)/scripts/gen-regblock.py

check-regblock:
	$(PYTHON) $(TOP)/scripts/gen-regblock.py --check
	@echo "check-regblock: rtl/csr/openenoc_csr_*.sv are fresh"
