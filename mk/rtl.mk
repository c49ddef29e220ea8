# RTL of the oETP engine: lint, Verilator test bench and benchmark.
# Sources are listed once, in rtl/openenoc_oetp.f; outputs go to build/rtl/.

RTL_DIR     := $(TOP)/rtl
RTL_BUILD   := $(BUILD)/rtl
RTL_SRCS    := $(addprefix $(RTL_DIR)/,$(shell cat $(RTL_DIR)/openenoc_oetp.f))
RTL_TB_TOP  := $(RTL_DIR)/tb/tb_oetp_engine.sv
RTL_TB_CPP  := $(wildcard $(RTL_DIR)/tb/*.cpp)
RTL_TB_HDR  := $(wildcard $(RTL_DIR)/tb/*.h)
RTL_TB_BIN  := $(RTL_BUILD)/obj/tb_oetp
RTL_WIRE_O  := $(RTL_BUILD)/oetp_wire.o
VERILATOR   ?= verilator
RTL_LINT     = $(VERILATOR) --lint-only -Wall -I$(RTL_DIR) --top-module tb_oetp_engine \
               $(RTL_SRCS) $(RTL_TB_TOP)

CHECK_TARGETS += check-rtl
BENCH_TARGETS += bench-rtl

.PHONY: lint-rtl check-rtl bench-rtl

# -Wall on the default build and on both ends of MAX_RAW_FRAME_SIZE; a value
# outside 36..8192 must stop elaboration.
lint-rtl:
	@$(RTL_LINT)
	@$(RTL_LINT) -GMAX_RAW_FRAME_SIZE=36
	@$(RTL_LINT) -GMAX_RAW_FRAME_SIZE=1514
	@for bad in 35 8193; do \
	    if $(RTL_LINT) -GMAX_RAW_FRAME_SIZE=$$bad >$(RTL_BUILD)/lint-bad.log 2>&1 || \
	       ! grep -q "MAX_RAW_FRAME_SIZE $$bad outside 36..8192" $(RTL_BUILD)/lint-bad.log; then \
	        echo "lint-rtl: MAX_RAW_FRAME_SIZE=$$bad was not rejected"; cat $(RTL_BUILD)/lint-bad.log; exit 1; \
	    fi; \
	done
	@echo "lint-rtl: verilator -Wall clean"

$(RTL_BUILD):
	@mkdir -p $@

lint-rtl: | $(RTL_BUILD)

# The bench links the project's wire codec so expected frames are the C
# engine's bytes.
$(RTL_WIRE_O): $(OETP_SRC) $(TOP)/include/openenoc/oetp.h | $(RTL_BUILD)
	$(CC) -O2 -std=c11 -Wall -I$(TOP)/include -c $< -o $@

$(RTL_TB_BIN): $(RTL_SRCS) $(RTL_DIR)/openenoc_oetp.f $(RTL_TB_TOP) $(RTL_TB_CPP) $(RTL_TB_HDR) \
               $(RTL_WIRE_O) $(TOP)/mk/rtl.mk
	$(VERILATOR) --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast \
	    -I$(RTL_DIR) --top-module tb_oetp_engine -Mdir $(RTL_BUILD)/obj -o tb_oetp \
	    -CFLAGS "-O2 -std=c++17 -I$(TOP)/include -I$(RTL_DIR)/tb" \
	    -LDFLAGS "$(RTL_WIRE_O)" \
	    $(RTL_SRCS) $(RTL_TB_TOP) $(RTL_TB_CPP) >$(RTL_BUILD)/build.log 2>&1 || \
	    { tail -40 $(RTL_BUILD)/build.log; exit 1; }

# The conformance vectors (tests/vectors/) run on the whole RTL endpoint
# through tests/vecrun.c: make check-cosim and check-axi.
check-rtl: lint-rtl $(RTL_TB_BIN)
	$(RTL_TB_BIN) $(RTL_TB_ARGS)

bench-rtl: $(RTL_TB_BIN)
	@$(RTL_TB_BIN) --bench
