# The oETP dissector for Wireshark and tshark (tools/wireshark/oetp.lua):
# make wireshark installs it for the current user; make check-wireshark
# decodes the qtests' captures and checks the fields. See docs/qemu.md.
# The dissector's command codes, causes and constants are a generated block
# of oetp.lua (tools/wireshark/gen-lua.py, from include/openenoc/oetp.h):
# make regs rewrites it, make check-regs fails when it is stale (0.1 s).
.PHONY: wireshark check-wireshark wireshark-lua check-wireshark-lua
CHECK_TARGETS += check-wireshark

regs: wireshark-lua
check-regs: check-wireshark-lua

wireshark-lua:
	$(PYTHON) $(TOP)/tools/wireshark/gen-lua.py

# the check is checked: a stale copy in a scratch tree must fail
check-wireshark-lua:
	$(PYTHON) $(TOP)/tools/wireshark/gen-lua.py --check
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	mkdir -p "$$d/include/openenoc" "$$d/tools/wireshark" && \
	sed 's/OETP_CAUSE_AXIS *= *2,/OETP_CAUSE_AXIS = 9,/' $(TOP)/include/openenoc/oetp.h \
	    > "$$d/include/openenoc/oetp.h" && cp $(TOP)/tools/wireshark/oetp.lua "$$d/tools/wireshark/" && \
	if $(PYTHON) $(TOP)/tools/wireshark/gen-lua.py --check --root "$$d" 2>/dev/null; then \
	    echo "check-wireshark-lua: --check passed a stale oetp.lua"; exit 1; fi

wireshark:
	@$(TOP)/tools/wireshark/install.sh

check-wireshark: qemu check-wireshark-lua
	@$(TOP)/tools/wireshark/check.sh
