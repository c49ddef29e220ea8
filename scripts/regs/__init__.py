"""The register generator behind scripts/gen-regs.py: model.py is the one
front end (the SystemRDL read once); c.py, sv.py and md.py are back ends."""
