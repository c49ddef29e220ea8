# The oETP dissector for Wireshark and tshark (tools/wireshark/oetp.lua):
# make wireshark installs it for the current user; make check-wireshark
# decodes the qtests' captures and checks the fields. See docs/qemu.md.
# The dissector's command codes, causes and constants are a generated block
# of oetp.lua (scripts/gen-oetp.py, from include/openenoc/oetp.h; mk/regs.mk).
.PHONY: wireshark check-wireshark
CHECK_TARGETS += check-wireshark

wireshark:
	@$(TOP)/tools/wireshark/install.sh

check-wireshark: qemu check-oetp-facts
	@$(TOP)/tools/wireshark/check.sh
