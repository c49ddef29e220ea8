# The oETP dissector for Wireshark and tshark (tools/wireshark/oetp.lua):
# make wireshark installs it for the current user; make check-wireshark
# decodes the qtests' captures and checks the fields. See docs/qemu.md.
.PHONY: wireshark check-wireshark
CHECK_TARGETS += check-wireshark

wireshark:
	@$(TOP)/tools/wireshark/install.sh

check-wireshark: qemu
	@$(TOP)/tools/wireshark/check.sh
