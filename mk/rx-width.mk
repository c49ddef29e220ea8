# Receive rate of the oETP engine at ETH_W 32, 64, 128 and 256
# (rtl/tb/rx_width/, --help): back-to-back 8160-byte DMA_WRITE_REQ fragments
# through tb_oetp_engine built at each width, payloads and rx_status checked,
# BENCH rx.wN.* lines printed (first short runs of Lengths 4, 5, 8, 13 and
# 8157, whose last Data word sits on other lanes and keeps 1..4 bytes). The top is linted at 64, 128 and 256 first. Outputs
# in build/rx-width/.

RXW_BUILD  := $(BUILD)/rx-width
RXW_TB     := $(TOP)/rtl/tb/rx_width
RXW_WIDTHS := 32 64 128 256

BENCH_TARGETS += bench-rx-width

.PHONY: lint-rx-width bench-rx-width

lint-rx-width:
	@for w in 64 128 256; do $(VERILATOR) --lint-only -Wall -I$(RTL_DIR) --top-module tb_oetp_engine -GETH_W=$$w \
	    $(RTL_SRCS) $(RTL_TB_TOP) || exit 1; done
	@echo "lint-rx-width: tb_oetp_engine verilator -Wall clean at ETH_W 64, 128 and 256"

$(RXW_BUILD)/w%/tb_rx_width: $(RTL_SRCS) $(RTL_DIR)/openenoc_oetp.f $(RTL_TB_TOP) $(RXW_TB)/tb_rx_width.cpp \
                            $(RTL_WIRE_O) $(TOP)/mk/rx-width.mk
	@mkdir -p $(RXW_BUILD)
	$(VERILATOR) --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast \
	    -I$(RTL_DIR) --top-module tb_oetp_engine -GETH_W=$* -Mdir $(RXW_BUILD)/w$* -o tb_rx_width \
	    -CFLAGS "-O2 -std=c++17 -I$(TOP)/include -DTB_ETH_W=$*" -LDFLAGS "$(RTL_WIRE_O)" \
	    $(RTL_SRCS) $(RTL_TB_TOP) $(RXW_TB)/tb_rx_width.cpp >$(RXW_BUILD)/w$*.log 2>&1 || \
	    { tail -40 $(RXW_BUILD)/w$*.log; exit 1; }

bench-rx-width: lint-rx-width $(foreach w,$(RXW_WIDTHS),$(RXW_BUILD)/w$(w)/tb_rx_width)
	@for w in $(RXW_WIDTHS); do for l in 4 5 8 13 8157; do \
	    $(RXW_BUILD)/w$$w/tb_rx_width --frags 4 --len $$l >/dev/null || exit 1; done; done
	@for w in $(RXW_WIDTHS); do $(RXW_BUILD)/w$$w/tb_rx_width || exit 1; done
	@for w in $(RXW_WIDTHS); do $(RXW_BUILD)/w$$w/tb_rx_width --drop --frags 4 || exit 1; done
