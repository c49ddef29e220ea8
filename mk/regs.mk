# The register map: rtl/csr/openenoc_endpoint.rdl is the one source; one
# generator (scripts/gen-regs.py: one SystemRDL front end, C, SV and Markdown
# back ends) writes every view of it, all committed:
#   include/openenoc/regs.h, regs_table.h, uapi_enoc_regs.h, docs/registers.md,
#   rtl/csr/openenoc_csr_{pkg,sw_if,hw_if,regs}.sv
# `make regs` rewrites them; `make check-regs` fails, naming each stale file,
# when one differs from a fresh generation (about 2 s).

.PHONY: regs check-regs

# First in `make check`: a stale view fails in seconds, before the long suites.
CHECK_TARGETS := check-regs $(CHECK_TARGETS)

regs:
	$(PYTHON) $(TOP)/scripts/gen-regs.py

check-regs:
	$(PYTHON) $(TOP)/scripts/gen-regs.py --check
