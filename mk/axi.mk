# openenoc_endpoint_axi (rtl/axi/): the endpoint with AXI4-Lite, AXI4 and
# AXI-Stream ports. Sources in compile order: rtl/endpoint/openenoc_endpoint.f,
# then rtl/axi/openenoc_endpoint_axi.f; outputs in build/axi/.
#
#   make lint-axi     verilator --lint-only -Wall: the top (BURST_MAX 256, 16,
#                     2; 3 must be refused), the top with the bound checkers
#                     at AXI_DATA_W 32, 64, 128 and 256 (48 must be refused),
#                     the top with ETH_W = AXI_DATA_W = MEM_W at 64, 128 and
#                     256, MEM_W 64 on a 128-bit bus and 32 on a 256-bit one
#                     (MEM_W 64 on a 32-bit bus must be refused)
#   make check-axi    lint-axi, the checker's seeded violations, random
#                     transfers through the memory master (AXI_DATA_W 32, 64,
#                     128, and 256 with a memory port as wide), then the engine
#                     vectors, conformance programs and fuzz seeds through the
#                     AXI ports, at AXI_DATA_W 32 and 64 (check-axi-w64)
# Mostly Verilator builds: from a clean build/axi it takes minutes.

AXI_BUILD := $(BUILD)/axi
# The sources of an RTL file list (paths under rtl/, one a line; a line
# "-f LIST" stands for the sources of that list), in order. Shared with
# mk/cosim.mk (included after this file).
rtl_flist = $(foreach l,$(shell sed 's/^-f /-f:/' $(TOP)/rtl/$(1)),$(if $(filter -f:%,$(l)),\
              $(call rtl_flist,$(l:-f:%=%)),$(TOP)/rtl/$(l)))
# the endpoint's list (rtl/endpoint/openenoc_endpoint.f), then the AXI top's
AXI_SRCS  := $(call rtl_flist,endpoint/openenoc_endpoint.f) $(call rtl_flist,axi/openenoc_endpoint_axi.f)
AXI_TB    := $(TOP)/rtl/axi/tb
AXI_LINT   = $(VERILATOR) --lint-only -Wall -I$(TOP)/rtl
# what is shared with mk/cosim.mk (included after this file) is named here
AXI_WRAP   := $(addprefix $(TOP)/hw/cosim/,oe_cosim.cpp oe_cosim_run.cpp oe_cosim_csr.cpp oe_cosim_state.cpp \
                oe_cosim_trace.cpp oe_cosim_engine.h axi_mem_slave.h vl_data_bytes.h)
AXI_HARN   := $(wildcard $(TOP)/tests/harness/*.c) $(OETP_SRC)
AXI_CFLAGS := -O2 -g -std=c11 -D_DEFAULT_SOURCE -I$(TOP)/include -I$(TOP)/tests/harness
AXI_VLT_ROOT = $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)

CHECK_TARGETS += check-axi

.PHONY: lint-axi check-axi check-axi-checker check-axi-vectors check-axi-mem check-axi-w64 axi-cosim

lint-axi:
	@mkdir -p $(AXI_BUILD)
	@for g in 256 16 2; do $(AXI_LINT) --top-module openenoc_endpoint_axi -GBURST_MAX=$$g $(AXI_SRCS) || exit 1; done
	@if $(AXI_LINT) --top-module openenoc_endpoint_axi -GBURST_MAX=3 $(AXI_SRCS) >$(AXI_BUILD)/lint-bad.log 2>&1 || \
	    ! grep -q "BURST_MAX 3 is not a power of two" $(AXI_BUILD)/lint-bad.log; then \
	    echo "lint-axi: BURST_MAX=3 was not rejected"; cat $(AXI_BUILD)/lint-bad.log; exit 1; fi
	@if $(AXI_LINT) --top-module openenoc_endpoint_axi -GAXI_DATA_W=48 $(AXI_SRCS) >$(AXI_BUILD)/lint-bad.log 2>&1 || \
	    ! grep -q "AXI_DATA_W 48 is not 32, 64, 128 or 256" $(AXI_BUILD)/lint-bad.log; then \
	    echo "lint-axi: AXI_DATA_W=48 was not rejected"; cat $(AXI_BUILD)/lint-bad.log; exit 1; fi
	@for w in 32 64 128 256; do $(AXI_LINT) --top-module openenoc_endpoint_axi -GAXI_DATA_W=$$w $(AXI_SRCS) \
	    $(AXI_TB)/openenoc_axi_checker.sv $(AXI_TB)/tb_axi_cosim.sv || exit 1; done
	@for p in 64-64 128-128 128-64 256-256 256-32; do $(AXI_LINT) --top-module openenoc_endpoint_axi \
	    -GETH_W=$${p%-*} -GAXI_DATA_W=$${p%-*} -GMEM_W=$${p#*-} $(AXI_SRCS) || exit 1; done
	@if $(AXI_LINT) --top-module openenoc_endpoint_axi -GMEM_W=64 $(AXI_SRCS) >$(AXI_BUILD)/lint-bad.log 2>&1 || \
	    ! grep -q "MEM_W 64 is wider than AXI_DATA_W 32" $(AXI_BUILD)/lint-bad.log; then \
	    echo "lint-axi: MEM_W=64 on AXI_DATA_W=32 was not rejected"; cat $(AXI_BUILD)/lint-bad.log; exit 1; fi
	@echo "lint-axi: verilator -Wall clean"

# ---- the engine library with the protocol checkers ---------------------------
# hw/cosim/oe_cosim*.cpp over the model of openenoc_endpoint_axi, as
# build/cosim/libopenenoc_rtl.so, with tb_axi_cosim (rtl/axi/tb/) bound into
# the top (the checkers on both links) and random READY/VALID delays of the
# wrapper's memory slave (AXI_STALL_PCT percent of the cycles it may delay).
# AXI_W is the top's AXI_DATA_W (and the slave's OE_COSIM_AXI_W); other than
# 32 everything of this part is built in build/axi/w$(AXI_W)/ (check-axi-w64).
# AXI_MEM_W is the endpoint's memory port (MEM_W, 32 up to AXI_W): other than
# 32 in build/axi/w$(AXI_W)-m$(AXI_MEM_W)/ (by hand: make check-axi-vectors
# AXI_W=64 AXI_MEM_W=64).
AXI_W          ?= 32
AXI_MEM_W      ?= 32
AXI_VDIR       := $(AXI_BUILD)$(if $(filter-out 32,$(AXI_W)),/w$(AXI_W))$(if $(filter-out 32,$(AXI_MEM_W)),-m$(AXI_MEM_W))
AXI_COSIM_OBJ  := $(AXI_VDIR)/cosim-obj
AXI_COSIM_LIB  := $(AXI_VDIR)/libopenenoc_rtl_axi.so
AXI_COSIM_TB   := $(AXI_TB)/openenoc_axi_checker.sv $(AXI_TB)/tb_axi_cosim.sv
# the port-list headers (rtl/axi/openenoc_axi_ports.svh, rtl/endpoint/openenoc_ep_ports.svh),
# included from rtl/ (-I$(TOP)/rtl); shared with mk/cosim.mk
RTL_SVH        := $(wildcard $(TOP)/rtl/*.svh $(TOP)/rtl/*/*.svh)
AXI_STALL_PCT  ?= 30

$(AXI_COSIM_OBJ)/Vopenenoc_endpoint_axi__ALL.a: $(AXI_SRCS) $(AXI_COSIM_TB) $(RTL_SVH) $(TOP)/rtl/axi/openenoc_endpoint_axi.f \
                                              $(TOP)/rtl/endpoint/openenoc_endpoint.f $(TOP)/mk/axi.mk
	@mkdir -p $(AXI_VDIR)
	@rm -rf $(AXI_COSIM_OBJ)   # an interrupted build once left stale objects (a crashing model)
	$(VERILATOR) --cc --build -j 2 -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint --savable \
	    -I$(TOP)/rtl --top-module openenoc_endpoint_axi -GAXI_DATA_W=$(AXI_W) -GMEM_W=$(AXI_MEM_W) \
	    -Mdir $(AXI_COSIM_OBJ) -CFLAGS "-O2 -fPIC" $(AXI_SRCS) $(AXI_COSIM_TB) \
	    >$(AXI_VDIR)/verilate.log 2>&1 || { tail -40 $(AXI_VDIR)/verilate.log; exit 1; }

$(AXI_COSIM_LIB): $(AXI_COSIM_OBJ)/Vopenenoc_endpoint_axi__ALL.a $(AXI_WRAP) $(TOP)/include/openenoc/engine.h
	$(CXX) -O2 -fPIC -shared -Wl,-Bsymbolic -std=c++17 -I$(AXI_COSIM_OBJ) -I$(AXI_VLT_ROOT)/include \
	    -I$(AXI_VLT_ROOT)/include/vltstd -I$(TOP)/include -DOE_COSIM_AXI_STALL_PCT=$(AXI_STALL_PCT) \
	    -DOE_COSIM_AXI_W=$(AXI_W) \
	    $(filter %.cpp,$(AXI_WRAP)) \
	    $(AXI_VLT_ROOT)/include/verilated.cpp $(AXI_VLT_ROOT)/include/verilated_threads.cpp \
	    $(AXI_VLT_ROOT)/include/verilated_save.cpp \
	    $(AXI_COSIM_OBJ)/Vopenenoc_endpoint_axi__ALL.a -o $@ -lpthread

axi-cosim: $(AXI_COSIM_LIB)

# The vector runner of the engine suite (tests/vecrun.c and tests/harness/),
# linked against the AXI library.
AXI_VECRUN := $(AXI_VDIR)/vecrun
$(AXI_VECRUN): $(TOP)/tests/vecrun.c $(AXI_HARN) $(AXI_COSIM_LIB)
	$(CC) $(AXI_CFLAGS) $< $(AXI_HARN) -o $@ -L$(AXI_VDIR) -Wl,-rpath,$(AXI_VDIR) \
	    -lopenenoc_rtl_axi -lstdc++

# ---- the checker's own test: seeded violations -------------------------------
AXI_CHECKER_BIN := $(AXI_BUILD)/checker/tb_axi_checker
$(AXI_CHECKER_BIN): $(AXI_TB)/openenoc_axi_checker.sv $(RTL_SVH) $(AXI_TB)/tb_axi_checker_selftest.cpp \
                    $(TOP)/mk/axi.mk
	@mkdir -p $(AXI_BUILD)
	$(VERILATOR) --cc --exe --build -j 2 -O1 -GFATAL=0 -Wno-fatal --top-module openenoc_axi_checker \
	    -I$(TOP)/rtl -Mdir $(AXI_BUILD)/checker -o tb_axi_checker -CFLAGS "-O1 -std=c++17" \
	    $(AXI_TB)/openenoc_axi_checker.sv $(AXI_TB)/tb_axi_checker_selftest.cpp \
	    >$(AXI_BUILD)/checker.log 2>&1 || { tail -40 $(AXI_BUILD)/checker.log; exit 1; }

check-axi-checker: $(AXI_CHECKER_BIN)
	$(AXI_CHECKER_BIN)

# ---- the memory master against a reference memory -----------------------------
# tb_axi_mem.sv (the read and write bridges with the checker) driven by
# tb_axi_mem.cpp through hw/cosim/axi_mem_slave.h; built for AXI_DATA_W 32, 64
# and 128, each with BURST_MAX 256 and 16 (build/axi/mem-W-B/), and the bridges
# alone with a memory port as wide as the bus (or 64 bits on a 128-bit bus:
# build/axi/mem-W-B-MEM_W/; 256 bits only so).
AXI_MEM_SRCS := $(addprefix $(TOP)/rtl/,csr/openenoc_csr_pkg.sv openenoc_oetp_pkg.sv \
                endpoint/openenoc_ep_pkg.sv endpoint/openenoc_ep_mem_if.sv axi/openenoc_axi_if.sv \
                openenoc_axis_if.sv openenoc_axis_skid.sv axi/openenoc_axi_beat_slice.sv \
                axi/openenoc_axi_mem_rd.sv axi/openenoc_axi_mem_wr.sv axi/openenoc_axi_mem.sv) \
                $(AXI_TB)/openenoc_axi_checker.sv $(AXI_TB)/tb_axi_mem.sv
AXI_MEM_CONFIGS := 32-256 32-16 32-2 64-256 64-16 128-256 128-16 64-256-64 64-16-64 128-256-128 128-16-128 \
                   128-256-64 256-256-256 256-16-256
AXI_MEM_ARGS ?=
axi_mem_w = $(or $(word $(2),$(subst -, ,$(1))),32)

# % is W-B or W-B-M: AXI_DATA_W, BURST_MAX and MEM_W (default 32)
$(AXI_BUILD)/mem-%/tb_axi_mem: $(AXI_MEM_SRCS) $(RTL_SVH) $(AXI_TB)/tb_axi_mem.cpp $(TOP)/hw/cosim/axi_mem_slave.h $(TOP)/hw/cosim/vl_data_bytes.h \
                              $(TOP)/include/openenoc/engine.h $(TOP)/mk/axi.mk
	@mkdir -p $(AXI_BUILD)
	$(VERILATOR) --cc --exe --build -j 2 -O2 -Wno-fatal -Wno-lint -I$(TOP)/rtl --top-module tb_axi_mem \
	    -GAXI_DATA_W=$(call axi_mem_w,$*,1) -GBURST_MAX=$(call axi_mem_w,$*,2) -GMEM_W=$(call axi_mem_w,$*,3) \
	    -Mdir $(AXI_BUILD)/mem-$* -o tb_axi_mem \
	    -CFLAGS "-O2 -std=c++17 -I$(TOP)/include -I$(TOP)/hw/cosim -DOE_COSIM_AXI_W=$(call axi_mem_w,$*,1) \
	             -DAXI_BURST_MAX=$(call axi_mem_w,$*,2) -DOE_TB_MEM_W=$(call axi_mem_w,$*,3)" \
	    $(AXI_MEM_SRCS) $(AXI_TB)/tb_axi_mem.cpp >$(AXI_BUILD)/mem-$*.log 2>&1 || \
	    { tail -40 $(AXI_BUILD)/mem-$*.log; exit 1; }

check-axi-mem: $(foreach c,$(AXI_MEM_CONFIGS),$(AXI_BUILD)/mem-$(c)/tb_axi_mem)
	@for c in $(AXI_MEM_CONFIGS); do \
	    set -- $$(echo $$c | tr - ' ') 32; \
	    for s in 0 30 85; do \
	        echo "AXI_DATA_W=$$1 BURST_MAX=$$2 MEM_W=$$3 stall $$s%:"; \
	        $(AXI_BUILD)/mem-$$c/tb_axi_mem --stall $$s --seed $$(($$1 + $$2 + $$3 + s)) $(AXI_MEM_ARGS) || exit 1; \
	    done; \
	done

# ---- the engine suite through the AXI ports ------------------------------------
# Every vector file, every conformance program (AXI_PROGS) and the fuzz seeds
# with the co-simulation's regression inputs on the AXI library; each model
# prints its AXI traffic when destroyed, and the run must have moved AXI4
# bursts and AXI4-Lite transactions with no violation (a violation stops the
# run: the checker calls $fatal).
AXI_TBIN  := $(AXI_VDIR)/tests
AXI_PROGS ?= $(basename $(notdir $(wildcard $(TOP)/tests/conformance/test_*.c)))
AXI_BINS  := $(AXI_VECRUN) $(AXI_TBIN)/fuzz_replay $(addprefix $(AXI_TBIN)/,$(AXI_PROGS))
AXI_TIMEOUT ?= 900

$(AXI_TBIN)/test_%: $(TOP)/tests/conformance/test_%.c $(AXI_HARN) $(AXI_COSIM_LIB)
	@mkdir -p $(AXI_TBIN)
	$(CC) $(AXI_CFLAGS) $< $(AXI_HARN) -o $@ -L$(AXI_VDIR) -Wl,-rpath,$(AXI_VDIR) \
	    -lopenenoc_rtl_axi -lstdc++

$(AXI_TBIN)/fuzz_replay: $(TOP)/tests/fuzz/fuzz_engine.c $(TOP)/tests/fuzz/fuzz_replay.c $(AXI_HARN) $(AXI_COSIM_LIB)
	@mkdir -p $(AXI_TBIN)
	$(CC) $(AXI_CFLAGS) $(TOP)/tests/fuzz/fuzz_engine.c $(TOP)/tests/fuzz/fuzz_replay.c $(AXI_HARN) -o $@ \
	    -L$(AXI_VDIR) -Wl,-rpath,$(AXI_VDIR) -lopenenoc_rtl_axi -lstdc++

check-axi-vectors: $(AXI_BINS)
	@pass=0; fail=0; bursts=0; lite=0; mkdir -p $(AXI_VDIR)/logs; \
	for t in vecrun fuzz_replay $(AXI_PROGS); do \
	    log=$(AXI_VDIR)/logs/$$t.log; bin=$(AXI_TBIN)/$$t; args=; \
	    [ $$t = vecrun ] && { bin=$(AXI_VECRUN); args=$(TOP)/tests/vectors; }; \
	    [ $$t = fuzz_replay ] && args="$(TOP)/tests/fuzz/seeds $(TOP)/hw/cosim/regress"; \
	    timeout $(AXI_TIMEOUT) $$bin $$args >$$log 2>&1; rc=$$?; \
	    ok=$$(grep -c '^ok' $$log); nok=$$(grep -c '^not ok' $$log); \
	    [ $$rc != 0 ] && [ $$nok = 0 ] && { echo "$$t: exit status $$rc"; tail -5 $$log; nok=1; }; \
	    pass=$$((pass + ok)); fail=$$((fail + nok)); \
	    b=$$(awk '/^tb_axi_cosim:/ {s += $$3} END {print s + 0}' $$log); \
	    l=$$(awk '/^tb_axi_cosim:/ {s += $$6} END {print s + 0}' $$log); \
	    bursts=$$((bursts + b)); lite=$$((lite + l)); \
	    echo "$$t: $$ok passed, $$nok failed ($$b AXI4 bursts, $$l AXI4-Lite transactions)"; \
	    grep -B1 '^not ok\|AXI-CHECK' $$log | grep -v '^--' | sed 's/^/    /'; \
	done; \
	echo "axi vectors (AXI_DATA_W $(AXI_W), MEM_W $(AXI_MEM_W)): $$pass passed, $$fail failed, $$bursts AXI4 bursts, $$lite AXI4-Lite transactions"; \
	[ $$fail = 0 ] && [ $$bursts -gt 0 ] && [ $$lite -gt 0 ]

# the same engine suite on the top built with a 64-bit AXI4 master
check-axi-w64:
	@$(MAKE) --no-print-directory check-axi-vectors AXI_W=64

check-axi: lint-axi check-axi-checker check-axi-mem check-axi-vectors check-axi-w64
