# Documentation checks (scripts/check-docs.py --help): docs stand alone (no
# path outside the repository, no external spec file named), links and
# anchors resolve, no hard-coded test counts, guides keep their dates in one
# Figures section (history goes to docs/history/), README's Layout names
# every top-level folder. The self-test first: each rule must fire on a
# seeded break of a scratch copy, so a rule that stops firing fails here.
# check-docs-code (the spec references in code resolve to docs/*.md
# headings, no outside path in comments) is not in make check until the
# code's references are rewritten to docs/README.md's mapping.
.PHONY: check-docs check-docs-code
CHECK_TARGETS += check-docs

check-docs:
	@$(PYTHON) $(TOP)/scripts/check-docs.py --self-test
	@$(PYTHON) $(TOP)/scripts/check-docs.py

check-docs-code:
	@$(PYTHON) $(TOP)/scripts/check-docs.py --code
