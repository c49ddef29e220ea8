# The Ethernet width converters (rtl/openenoc_axis_word_align.sv,
# rtl/openenoc_axis_word_pack.sv, their core rtl/openenoc_axis_word_buf.sv):
# lint at ETH_W 32, 64, 128 and 256 (48 must be refused), the AXI top
# (openenoc_endpoint_axi, mk/cosim.mk's COSIM_SRCS) at ETH_W 64, 128 and 256 (48
# must be refused by openenoc_endpoint), then the bench
# rtl/tb/axis_width/ at ETH_W 64, 128 and 256, three seeds each. Outputs in
# build/axis-width/.

AXW_BUILD := $(BUILD)/axis-width
AXW_RTL   := $(addprefix $(TOP)/rtl/,openenoc_axis_word_buf.sv openenoc_axis_word_align.sv \
             openenoc_axis_word_pack.sv)
AXW_TB    := $(TOP)/rtl/tb/axis_width
AXW_SVH   := $(TOP)/rtl/endpoint/openenoc_ep_ports.svh
AXW_WIDTHS := 64 128 256
AXW_SEEDS ?= 1 2 3
AXW_ARGS  ?=

CHECK_TARGETS += check-axis-width

.PHONY: lint-axis-width check-axis-width

lint-axis-width:
	@mkdir -p $(AXW_BUILD)
	@for w in 32 64 128 256; do for t in openenoc_axis_word_align openenoc_axis_word_pack; do \
	    $(VERILATOR) --lint-only -Wall -I$(TOP)/rtl --top-module $$t -GETH_W=$$w $(AXW_RTL) || exit 1; done; done
	@$(VERILATOR) --lint-only -Wall -I$(TOP)/rtl --top-module tb_axis_width $(AXW_RTL) $(AXW_TB)/tb_axis_width.sv
	@if $(VERILATOR) --lint-only -Wall -I$(TOP)/rtl --top-module openenoc_axis_word_pack -GETH_W=48 $(AXW_RTL) \
	        >$(AXW_BUILD)/lint-bad.log 2>&1 || ! grep -q "ETH_W 48 is not 32, 64, 128 or 256" $(AXW_BUILD)/lint-bad.log; then \
	    echo "lint-axis-width: ETH_W=48 was not rejected"; cat $(AXW_BUILD)/lint-bad.log; exit 1; fi
	@for w in 64 128 256; do $(VERILATOR) --lint-only -Wall -I$(TOP)/rtl --top-module openenoc_endpoint_axi -GETH_W=$$w \
	    $(COSIM_SRCS) || exit 1; done
	@if $(VERILATOR) --lint-only -Wall -I$(TOP)/rtl --top-module openenoc_endpoint_axi -GETH_W=48 $(COSIM_SRCS) \
	        >$(AXW_BUILD)/lint-bad-top.log 2>&1 || \
	    ! grep -q "openenoc_endpoint.sv.*ETH_W 48 is not 32, 64, 128 or 256" $(AXW_BUILD)/lint-bad-top.log; then \
	    echo "lint-axis-width: openenoc_endpoint_axi ETH_W=48 was not rejected"; cat $(AXW_BUILD)/lint-bad-top.log; exit 1; fi
	@echo "lint-axis-width: verilator -Wall clean (converters at 32/64/128/256, the AXI top at 64/128/256)"

$(AXW_BUILD)/w%/tb_axis_width: $(AXW_RTL) $(AXW_SVH) $(AXW_TB)/tb_axis_width.sv $(AXW_TB)/tb_axis_width.cpp \
                              $(TOP)/hw/cosim/vl_data_bytes.h $(TOP)/mk/axis-width.mk
	@mkdir -p $(AXW_BUILD)
	$(VERILATOR) --cc --exe --build -j 2 -O2 -Wno-fatal -I$(TOP)/rtl --top-module tb_axis_width -GETH_W=$* \
	    -Mdir $(AXW_BUILD)/w$* -o tb_axis_width \
	    -CFLAGS "-O2 -std=c++17 -I$(TOP)/hw/cosim -DTB_ETH_W=$*" \
	    $(AXW_RTL) $(AXW_TB)/tb_axis_width.sv $(AXW_TB)/tb_axis_width.cpp >$(AXW_BUILD)/w$*.log 2>&1 || \
	    { tail -40 $(AXW_BUILD)/w$*.log; exit 1; }

check-axis-width: lint-axis-width $(foreach w,$(AXW_WIDTHS),$(AXW_BUILD)/w$(w)/tb_axis_width)
	@for w in $(AXW_WIDTHS); do for s in $(AXW_SEEDS); do \
	    $(AXW_BUILD)/w$$w/tb_axis_width --seed $$s $(AXW_ARGS) || exit 1; done; done
