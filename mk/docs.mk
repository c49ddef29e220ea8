# Documentation checks: docs stand alone (no path outside the repository),
# relative links resolve, and no hard-coded test counts (scripts/check-docs.sh).
.PHONY: check-docs
CHECK_TARGETS += check-docs

check-docs:
	@$(TOP)/scripts/check-docs.sh
