# The register map: rtl/csr/openenoc_endpoint.rdl is the one source; one
# generator (scripts/gen-regs.py: one SystemRDL front end, C, SV and Markdown
# back ends) writes every view of it, all committed:
#   include/openenoc/regs.h, regs_table.h, uapi_enoc_regs.h, docs/registers.md,
#   rtl/csr/openenoc_csr_{pkg,sw_if,hw_if,regs}.sv
# `make regs` rewrites them; `make check-regs` fails, naming each stale file,
# when one differs from a fresh generation (1 s of CPU).

.PHONY: regs check-regs

# First in `make check`: a stale view fails in seconds, before the long suites.
CHECK_TARGETS := check-regs $(CHECK_TARGETS)

regs:
	$(PYTHON) $(TOP)/scripts/gen-regs.py

# Then the check itself is checked: in a scratch tree, one view made stale
# must fail --check and be named.
check-regs:
	$(PYTHON) $(TOP)/scripts/gen-regs.py --check
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	$(PYTHON) $(TOP)/scripts/gen-regs.py --root "$$d" >/dev/null && \
	echo "// stale" >> "$$d/rtl/csr/openenoc_csr_pkg.sv" && \
	if $(PYTHON) $(TOP)/scripts/gen-regs.py --check --root "$$d" 2>"$$d/err"; then \
	    echo "check-regs: --check passed a stale file"; exit 1; fi && \
	grep -q "stale.*: rtl/csr/openenoc_csr_pkg.sv$$" "$$d/err" || \
	    { echo "check-regs: --check did not name the stale file:"; cat "$$d/err"; exit 1; }
	@echo "check-regs: every generated view is current; a stale one is caught and named"
