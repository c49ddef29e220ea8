# The register map: rtl/csr/openenoc_endpoint.rdl is the one source; one
# generator (scripts/gen-regs.py: one SystemRDL front end, C, SV and Markdown
# back ends) writes every view of it, all committed:
#   include/openenoc/regs.h, regs_table.h, uapi_enoc_regs.h, docs/registers.md,
#   rtl/csr/openenoc_csr_{pkg,sw_if,hw_if,regs}.sv
# `make regs` rewrites them; `make check-regs` fails, naming each stale file,
# when one differs from a fresh generation (1 s of CPU).
# The oETP wire facts are written once in include/openenoc/oetp.h; the
# dissector (tools/wireshark/oetp.lua) and the RTL package
# (rtl/openenoc_oetp_pkg.sv) carry a generated block of them
# (scripts/gen-oetp.py): `make regs` rewrites it, check-oetp-facts checks it.

.PHONY: regs check-regs oetp-facts check-oetp-facts

# First in `make check`: a stale view fails in seconds, before the long suites.
CHECK_TARGETS := check-regs $(CHECK_TARGETS)

regs: oetp-facts
	$(PYTHON) $(TOP)/scripts/gen-regs.py

oetp-facts:
	$(PYTHON) $(TOP)/scripts/gen-oetp.py

# Then the check itself is checked: in a scratch tree, one view made stale
# must fail --check and be named.
check-regs: check-oetp-facts
	$(PYTHON) $(TOP)/scripts/gen-regs.py --check
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	$(PYTHON) $(TOP)/scripts/gen-regs.py --root "$$d" >/dev/null && \
	echo "// stale" >> "$$d/rtl/csr/openenoc_csr_pkg.sv" && \
	if $(PYTHON) $(TOP)/scripts/gen-regs.py --check --root "$$d" 2>"$$d/err"; then \
	    echo "check-regs: --check passed a stale file"; exit 1; fi && \
	grep -q "stale.*: rtl/csr/openenoc_csr_pkg.sv$$" "$$d/err" || \
	    { echo "check-regs: --check did not name the stale file:"; cat "$$d/err"; exit 1; }
	@echo "check-regs: every generated view is current; a stale one is caught and named"

# the same for the oETP facts: a cause changed in a scratch copy of oetp.h
# must make --check fail (0.1 s)
check-oetp-facts:
	$(PYTHON) $(TOP)/scripts/gen-oetp.py --check
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	mkdir -p "$$d/include/openenoc" "$$d/tools/wireshark" "$$d/rtl" && \
	sed 's/OETP_CAUSE_AXIS *= *2,/OETP_CAUSE_AXIS = 9,/' $(TOP)/include/openenoc/oetp.h \
	    > "$$d/include/openenoc/oetp.h" && cp $(TOP)/tools/wireshark/oetp.lua "$$d/tools/wireshark/" && \
	cp $(TOP)/rtl/openenoc_oetp_pkg.sv "$$d/rtl/" && \
	if $(PYTHON) $(TOP)/scripts/gen-oetp.py --check --root "$$d" 2>/dev/null; then \
	    echo "check-oetp-facts: --check passed a stale oetp.lua"; exit 1; fi
	@echo "check-oetp-facts: oetp.lua and openenoc_oetp_pkg.sv match oetp.h; a stale copy is caught"
