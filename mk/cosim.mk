# The whole endpoint in RTL (rtl/endpoint/) and its co-simulation behind
# include/openenoc/engine.h (hw/cosim/). The CSR register block is generated
# from the SystemRDL with the other register views (mk/regs.mk).

CHECK_TARGETS += check-cosim check-qtest-rtl
BENCH_TARGETS += bench-cosim bench-cosim-instr

# ---- the RTL engine library -------------------------------------------------
# build/cosim/libopenenoc_rtl.so implements include/openenoc/engine.h with the
# Verilator model of rtl/axi/openenoc_endpoint_axi.sv, the endpoint with its
# AXI ports (sources in compile order: rtl/endpoint/openenoc_endpoint.f, then
# rtl/axi/openenoc_endpoint_axi.f).
# It is built at COSIM_W bits: ETH_W = AXI_DATA_W = MEM_W = COSIM_W, so a
# model cycle moves COSIM_W/32 words of a DMA block and the co-simulation runs
# at the pace QEMU users need (docs/cosim.md, Benchmark: 256 bits gives the
# most DMA bytes and RMEM reads per host second). The reference design's
# default width, 32, is build/cosim/libopenenoc_rtl_w32.so below, with its
# own conformance run in make check.
COSIM_BUILD := $(BUILD)/cosim
COSIM_OBJ   := $(COSIM_BUILD)/obj
COSIM_LIB   := $(COSIM_BUILD)/libopenenoc_rtl.so
COSIM_W     ?= 256
# the reference design's default widths (libopenenoc_rtl_w32.so, below)
COSIM_REF_W := 32
COSIM_FLIST := $(addprefix $(TOP)/rtl/,openenoc_oetp.f endpoint/openenoc_endpoint.f axi/openenoc_endpoint_axi.f)
COSIM_SRCS  := $(AXI_SRCS)
COSIM_TOPM  := openenoc_endpoint_axi
COSIM_WRAP  := $(AXI_WRAP)
COSIM_HDRS  := $(addprefix $(TOP)/include/openenoc/,engine.h cosim.h)
VERILATOR   ?= verilator
VERILATOR_ROOT_DIR := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)

.PHONY: cosim lint-cosim check-cosim check-qtest-rtl bench-cosim

cosim: $(COSIM_LIB)

lint-cosim:
	$(VERILATOR) --lint-only -Wall -I$(TOP)/rtl --top-module $(COSIM_TOPM) $(COSIM_SRCS)
	@echo "lint-cosim: rtl/endpoint and rtl/axi verilator -Wall clean"

# Verilator 5.006's generated makefile appends OPT_FAST=-Os after CFLAGS, so
# the hot model code would build at -Os: -MAKEFLAGS puts it back at -O2. The
# model compiles with clang++-14 when present (base.apt): best of five
# alternating bench-cosim runs gave 3-15 % more than g++ 12 (-O3 was slower).
COSIM_MODEL_CXX ?= $(or $(shell command -v clang++-14 2>/dev/null),$(CXX))
COSIM_VFLAGS := --cc --build -j 2 -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint --savable \
    -I$(TOP)/rtl --top-module $(COSIM_TOPM) -CFLAGS "-O2 -fPIC" -MAKEFLAGS OPT_FAST=-O2 \
    -MAKEFLAGS CXX=$(COSIM_MODEL_CXX)
# the Verilator parameters of a W-bit library: bursts of at most 256 beats
# at every width (the top's default BURST_MAX: 1 KiB at 32, 4 KiB at 128;
# at 256 the 4 KiB rule alone, 128 beats;
# 1 KiB bursts at 128 cost 2-3 % more cycles per DMA block), whose
# bursts the C engine's host calls follow (hw/engine/mem.c) given the same
# beat (mem_beat_bytes): a failing call then covers the same stretch.
# A second argument M sets the memory port to M bits instead (32 up to W).
# LOW_LATENCY: the RMEM read path without four register stages above 32 bits
# (openenoc_endpoint.sv): 4 fewer cycles per read, a path an FPGA build at
# 128 would not want (no effect at 32). COSIM_LOW_LATENCY=0 builds the
# libraries as an FPGA build would have them (e.g. make check-cosim-w64
# COSIM_LOW_LATENCY=0).
COSIM_LOW_LATENCY ?= 1
cosim_wide_params = -GETH_W=$(1) -GAXI_DATA_W=$(1) -GMEM_W=$(or $(2),$(1)) -GLOW_LATENCY=$(COSIM_LOW_LATENCY)
# the wrapper's view of the same widths
cosim_wide_defs = -DOE_COSIM_ETH_W=$(1) -DOE_COSIM_AXI_W=$(1)
# cosim_keep TEXT: a recipe writing TEXT to the target only when it differs,
# so a model depending on the file is rebuilt exactly when its settings change
cosim_keep = @mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' >$@
# the default library's parameters and COSIM_PGO (its models: plain,
# PGO-instrumented, traced)
COSIM_WPARAMS := $(COSIM_BUILD)/params
.PHONY: cosim-params-force
$(COSIM_WPARAMS): cosim-params-force
	$(call cosim_keep,$(call cosim_wide_params,$(COSIM_W)) pgo=$(COSIM_PGO))
COSIM_VLT_RT := $(addprefix $(VERILATOR_ROOT_DIR)/include/,verilated.cpp verilated_threads.cpp verilated_save.cpp)
COSIM_CXXFLAGS := -O2 -fPIC -shared -Wl,-Bsymbolic -std=c++17 -I$(VERILATOR_ROOT_DIR)/include \
    -I$(VERILATOR_ROOT_DIR)/include/vltstd -I$(TOP)/include
COSIM_CXX    := $(CXX) $(COSIM_CXXFLAGS)

# Profile-guided optimisation (clang's -fprofile-instr-*), COSIM_PGO=1: the
# model is built once instrumented (obj-pgo/), a short bench-cosim run of it
# writes the profile, and the model of the library is compiled with it. It
# changes only the compiler's code layout, never the model's behaviour (the
# same Verilator output either way). On by default when clang++-14 builds the
# model and llvm-profdata-14 is there (make deps installs both: base.apt,
# cosim-pgo.apt); COSIM_PGO=0 turns it off. Its gain depends on the machine
# (a measured speed-up on some, none on others: docs/history/cosim.md), so
# it trains on bench-cosim's own workload and is checked with
# scripts/cosim-bench-ab.py. It costs one more model build (the
# instrumented one) and a few seconds of training.
COSIM_PROFDATA_TOOL ?= $(shell command -v llvm-profdata-14 2>/dev/null)
COSIM_PGO ?= $(if $(and $(findstring clang,$(COSIM_MODEL_CXX)),$(COSIM_PROFDATA_TOOL)),1,0)
ifeq ($(COSIM_PGO),1)
ifeq ($(and $(findstring clang,$(COSIM_MODEL_CXX)),$(COSIM_PROFDATA_TOOL)),)
$(error COSIM_PGO=1 needs clang++-14 for the model and llvm-profdata-14 (make deps))
endif
endif
COSIM_POBJ := $(COSIM_BUILD)/obj-pgo
COSIM_PLIB := $(COSIM_BUILD)/libopenenoc_rtl_pgo.so
COSIM_PROF := $(COSIM_BUILD)/cosim.profdata
# the benchmark also trains the profile (its rule is below, with bench-cosim)
COSIM_BENCH := $(COSIM_BUILD)/cosim_bench
COSIM_PGO_TRAIN ?= --bytes 262144 --rmem 2000
ifeq ($(COSIM_PGO),1)
COSIM_PGO_DEP   := $(COSIM_PROF)
COSIM_PGO_FLAGS := -CFLAGS "-fprofile-instr-use=$(COSIM_PROF) -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date"
endif

# The wrapper samples the model's handshakes before the edge without a
# clock-low evaluation (hw/cosim/oe_cosim_run.cpp): the build fails if an
# output other than these (read only after an edge) is computed from an input.
COSIM_AFTER_EDGE := idle can_receive
COSIM_REGOUT := $(TOP)/scripts/cosim-registered-outputs.py

# The objects go first: Verilator's make compiles only C++ that changed, and
# a new profile alone (COSIM_PGO_DEP) changes no C++ file.
$(COSIM_OBJ)/Vopenenoc_endpoint_axi__ALL.a: $(COSIM_SRCS) $(COSIM_FLIST) $(RTL_SVH) $(TOP)/mk/cosim.mk $(COSIM_PGO_DEP) $(COSIM_REGOUT) \
                                          $(COSIM_WPARAMS)
	@mkdir -p $(COSIM_BUILD)
	rm -f $(COSIM_OBJ)/*.o
	$(VERILATOR) $(COSIM_VFLAGS) $(COSIM_PGO_FLAGS) $(call cosim_wide_params,$(COSIM_W)) -Mdir $(COSIM_OBJ) $(COSIM_SRCS) >$(COSIM_BUILD)/verilate.log 2>&1 || \
	    { tail -40 $(COSIM_BUILD)/verilate.log; exit 1; }
	$(COSIM_REGOUT) $(COSIM_OBJ) $(COSIM_TOPM) $(addprefix --allow ,$(COSIM_AFTER_EDGE))
	@touch $@   # Verilator leaves an up-to-date archive untouched

# the check itself, on a model with an output computed from an input
.PHONY: check-cosim-regout
check-cosim-regout:
	@rm -rf $(COSIM_BUILD)/regout && mkdir -p $(COSIM_BUILD)/regout
	@$(VERILATOR) --cc -Wno-fatal -Mdir $(COSIM_BUILD)/regout $(TOP)/tests/cosim/comb_ready.sv >/dev/null
	@if $(COSIM_REGOUT) $(COSIM_BUILD)/regout comb_ready 2>$(COSIM_BUILD)/regout/err.txt; then \
	    echo "check-cosim-regout: a combinational output was not reported"; exit 1; fi
	@if ! grep -q 'comb_ready.ready_comb is computed from an input' $(COSIM_BUILD)/regout/err.txt || \
	    grep -q ready_q $(COSIM_BUILD)/regout/err.txt; then \
	    cat $(COSIM_BUILD)/regout/err.txt; echo "check-cosim-regout: wrong report"; exit 1; fi
	@echo "check-cosim-regout: a combinational output is reported, a registered one is not"

# the instrumented model and library (linked by clang for its profile runtime)
$(COSIM_POBJ)/Vopenenoc_endpoint_axi__ALL.a: $(COSIM_SRCS) $(COSIM_FLIST) $(RTL_SVH) $(TOP)/mk/cosim.mk \
                                           $(COSIM_WPARAMS)
	@mkdir -p $(COSIM_BUILD)
	$(VERILATOR) $(COSIM_VFLAGS) -CFLAGS -fprofile-instr-generate $(call cosim_wide_params,$(COSIM_W)) -Mdir $(COSIM_POBJ) $(COSIM_SRCS) \
	    >$(COSIM_BUILD)/verilate-pgo.log 2>&1 || { tail -40 $(COSIM_BUILD)/verilate-pgo.log; exit 1; }
	@touch $@

$(COSIM_PLIB): $(COSIM_POBJ)/Vopenenoc_endpoint_axi__ALL.a $(COSIM_WRAP) $(COSIM_HDRS)
	$(COSIM_MODEL_CXX) $(COSIM_CXXFLAGS) -fprofile-instr-generate $(call cosim_wide_defs,$(COSIM_W)) -I$(COSIM_POBJ) $(filter %.cpp,$(COSIM_WRAP)) \
	    $(COSIM_VLT_RT) $(COSIM_POBJ)/Vopenenoc_endpoint_axi__ALL.a -o $@ -lpthread -latomic

# the training run: bench-cosim's workload, smaller
$(COSIM_PROF): $(COSIM_PLIB) $(COSIM_BENCH)
	rm -f $(COSIM_BUILD)/cosim-*.profraw
	LLVM_PROFILE_FILE=$(COSIM_BUILD)/cosim-%p.profraw $(COSIM_BENCH) --lib $(COSIM_PLIB) $(COSIM_PGO_TRAIN) >/dev/null
	$(COSIM_PROFDATA_TOOL) merge -o $@ $(COSIM_BUILD)/cosim-*.profraw

$(COSIM_LIB): $(COSIM_OBJ)/Vopenenoc_endpoint_axi__ALL.a $(COSIM_WRAP) $(COSIM_HDRS)
	$(COSIM_CXX) $(call cosim_wide_defs,$(COSIM_W)) -I$(COSIM_OBJ) $(filter %.cpp,$(COSIM_WRAP)) $(COSIM_VLT_RT) $(COSIM_OBJ)/Vopenenoc_endpoint_axi__ALL.a \
	    -o $@ -lpthread

# ---- the traced variant (waveforms) -------------------------------------------
# build/cosim/libopenenoc_rtl_trace.so: the same model built with --trace-fst,
# so oe_cosim_trace() (and QEMU's rtl-trace=FILE.fst) can dump an FST; kept
# apart so the default library carries no tracing cost.
COSIM_TOBJ := $(COSIM_BUILD)/obj-trace
COSIM_TLIB := $(COSIM_BUILD)/libopenenoc_rtl_trace.so

.PHONY: cosim-trace
cosim-trace: $(COSIM_TLIB)

$(COSIM_TOBJ)/Vopenenoc_endpoint_axi__ALL.a: $(COSIM_SRCS) $(COSIM_FLIST) $(RTL_SVH) $(TOP)/mk/cosim.mk \
                                           $(COSIM_WPARAMS)
	@mkdir -p $(COSIM_BUILD)
	$(VERILATOR) $(COSIM_VFLAGS) $(call cosim_wide_params,$(COSIM_W)) --trace-fst --trace-structs --timescale-override 1ns/1ns -Mdir $(COSIM_TOBJ) $(COSIM_SRCS) \
	    >$(COSIM_BUILD)/verilate-trace.log 2>&1 || { tail -40 $(COSIM_BUILD)/verilate-trace.log; exit 1; }
	@touch $@

$(COSIM_TLIB): $(COSIM_TOBJ)/Vopenenoc_endpoint_axi__ALL.a $(COSIM_WRAP) $(COSIM_HDRS)
	$(COSIM_CXX) -DOE_COSIM_TRACE $(call cosim_wide_defs,$(COSIM_W)) -I$(COSIM_TOBJ) $(filter %.cpp,$(COSIM_WRAP)) $(COSIM_VLT_RT) \
	    $(VERILATOR_ROOT_DIR)/include/verilated_fst_c.cpp $(COSIM_TOBJ)/Vopenenoc_endpoint_axi__ALL.a \
	    -o $@ -lpthread -lz

# check-cosim-trace: an FST from a co-simulated block and from QEMU's
# rtl-trace window names the model's signals (scripts/cosim-trace-check.sh;
# 2-5 minutes from clean, mostly building the traced model).
.PHONY: check-cosim-trace
CHECK_TARGETS += check-cosim-trace
check-cosim-trace: $(COSIM_TLIB) $(COSIM_LIB) $(COSIM_BUILD)/cosim_bench qemu
	@$(TOP)/scripts/cosim-trace-check.sh --lib $(COSIM_TLIB) --plain $(COSIM_LIB) \
	    --bench $(COSIM_BUILD)/cosim_bench --qemu $(BUILD)/qemu/qemu-system-x86_64

# ---- the engine conformance suite against the RTL ---------------------------
# The same sources as the C engine's suite (tests/), linked against the RTL
# library instead of engine_dep: each program and the vector runner.
COSIM_TBIN   := $(COSIM_BUILD)/tests
COSIM_HARN   := $(wildcard $(TOP)/tests/harness/*.c) $(OETP_SRC)
COSIM_CFLAGS := -O2 -g -std=c11 -D_DEFAULT_SOURCE -I$(TOP)/include -I$(TOP)/tests/harness
# plus the RTL engine's own checks (tests/cosim/test_*.c: model cycles per
# host call, through oe_cosim_cycles)
COSIM_PROGS  := $(basename $(notdir $(wildcard $(TOP)/tests/conformance/test_*.c) \
                                    $(wildcard $(TOP)/tests/cosim/test_*.c)))
COSIM_BINS   := $(addprefix $(COSIM_TBIN)/,$(COSIM_PROGS) vecrun fuzz_replay)
# a program's source is found in either folder (one rule below)
vpath test_%.c $(TOP)/tests/conformance $(TOP)/tests/cosim
# cosim_test_rules DIR LIB: the programs, the vector runner and the fuzz
# replayer in DIR, linked against build/cosim/libLIB.so (the default library
# and the ETH_W = 64 one below)
define cosim_test_rules
$(1)/test_%: test_%.c $(COSIM_HARN) $(COSIM_BUILD)/lib$(2).so
	@mkdir -p $(1)
	$(CC) $(COSIM_CFLAGS) $$< $(COSIM_HARN) -o $$@ -L$(COSIM_BUILD) -Wl,-rpath,$(COSIM_BUILD) -l$(2) -lstdc++

$(1)/vecrun: $(TOP)/tests/vecrun.c $(COSIM_HARN) $(COSIM_BUILD)/lib$(2).so
	@mkdir -p $(1)
	$(CC) $(COSIM_CFLAGS) $$< $(COSIM_HARN) -o $$@ -L$(COSIM_BUILD) -Wl,-rpath,$(COSIM_BUILD) -l$(2) -lstdc++

$(1)/fuzz_replay: $(TOP)/tests/fuzz/fuzz_engine.c $(TOP)/tests/fuzz/fuzz_replay.c $(COSIM_HARN) $(COSIM_BUILD)/lib$(2).so
	@mkdir -p $(1)
	$(CC) $(COSIM_CFLAGS) $(TOP)/tests/fuzz/fuzz_engine.c $(TOP)/tests/fuzz/fuzz_replay.c $(COSIM_HARN) -o $$@ \
	    -L$(COSIM_BUILD) -Wl,-rpath,$(COSIM_BUILD) -l$(2) -lstdc++
endef
$(eval $(call cosim_test_rules,$(COSIM_TBIN),openenoc_rtl))

cosim-tests: $(COSIM_BINS)

# check-cosim: lint, then every conformance program, every vector file, the
# fuzz seed corpus and the RTL's own regression inputs (hw/cosim/regress/,
# found by fuzzing the RTL) against the RTL; one summary line
# "cosim: N passed, M failed" (TAP tests counted).
COSIM_TIMEOUT ?= 600
# cosim_suite DIR LOGS NAME: the loop of check-cosim over the binaries in DIR
define cosim_suite
	@pass=0; fail=0; mkdir -p $(2); \
	for t in $(COSIM_PROGS) vecrun fuzz_replay; do \
	    log=$(2)/$$t.log; \
	    case $$t in vecrun) args=$(TOP)/tests/vectors;; fuzz_replay) args="$(TOP)/tests/fuzz/seeds $(TOP)/hw/cosim/regress";; *) args=;; esac; \
	    timeout $(COSIM_TIMEOUT) $(1)/$$t $$args >$$log 2>&1; rc=$$?; \
	    ok=$$(grep -c '^ok' $$log); nok=$$(grep -c '^not ok' $$log); \
	    [ $$rc = 124 ] && { echo "$$t: timed out after $(COSIM_TIMEOUT) s"; nok=$$((nok + 1)); }; \
	    pass=$$((pass + ok)); fail=$$((fail + nok)); \
	    echo "$$t: $$ok passed, $$nok failed"; \
	    grep -B1 '^not ok' $$log | grep -v '^--' | sed 's/^/    /'; \
	done; \
	echo "$(3): $$pass passed, $$fail failed"; [ $$fail = 0 ]
endef

check-cosim: lint-cosim check-cosim-regout $(COSIM_BINS)
	$(call cosim_suite,$(COSIM_TBIN),$(COSIM_BUILD)/logs,cosim)

# bench-cosim: the RTL engine against the C engine in the same run.
# (it loads the library at run time, so it does not depend on it: the PGO
# training run uses it before the library exists)
$(COSIM_BENCH): $(TOP)/bench/cosim_bench.c $(wildcard $(TOP)/hw/engine/*.c) $(OETP_SRC)
	@mkdir -p $(COSIM_BUILD)
	$(CC) -O2 -std=c11 -D_DEFAULT_SOURCE -I$(TOP)/include $(TOP)/bench/cosim_bench.c \
	    $(wildcard $(TOP)/hw/engine/*.c) $(OETP_SRC) -o $@ -ldl

# five rounds, the engines in turn, medians printed (one round swings with
# the machine's load); 10,000 reads make the RMEM round about as long as the block
COSIM_BENCH_ARGS ?= --repeat 5 --rmem 10000
# then the same on the 32-bit library, the reference design's widths
# (cosim.w32.* lines; no PGO)
bench-cosim: $(COSIM_BENCH) $(COSIM_LIB) $(COSIM_BUILD)/libopenenoc_rtl_w$(COSIM_REF_W).so
	@$(COSIM_BENCH) --lib $(COSIM_LIB) $(COSIM_BENCH_ARGS)
	@$(COSIM_BENCH) --lib $(COSIM_BUILD)/libopenenoc_rtl_w$(COSIM_REF_W).so --name cosim.w$(COSIM_REF_W) $(COSIM_BENCH_ARGS)

# bench-cosim-instr: host instructions per DMA KiB, per model cycle and per
# RMEM read, counted by valgrind (scripts/cosim-instr.sh): a figure that does
# not drift with the machine's load, for comparing model builds; the default
# library, then the 32-bit one (cosim.w32.*)
.PHONY: bench-cosim-instr
bench-cosim-instr: $(COSIM_BENCH) $(COSIM_LIB) $(COSIM_BUILD)/libopenenoc_rtl_w$(COSIM_REF_W).so
	@$(TOP)/scripts/cosim-instr.sh --lib $(COSIM_LIB) --bench $(COSIM_BENCH)
	@$(TOP)/scripts/cosim-instr.sh --lib $(COSIM_BUILD)/libopenenoc_rtl_w$(COSIM_REF_W).so \
	    --bench $(COSIM_BENCH) --name cosim.w$(COSIM_REF_W)

# ---- the other widths ---------------------------------------------------------
# build/cosim/libopenenoc_rtl_wW.so (W = 32, 64, 128 or 256): the same top and
# wrapper with W-bit Ethernet streams, a W-bit AXI4 memory bus and a W-bit
# memory port (Verilator cosim_wide_params, the wrapper's OE_COSIM_ETH_W and
# OE_COSIM_AXI_W: it packs and unpacks W/8-byte beats), no PGO, their own
# objects (obj-wW/). COSIM_MEM_W=M sets their memory port to M bits instead
# (32 up to W; e.g. make check-cosim-w64 COSIM_MEM_W=32); the Verilator
# parameters are kept in obj-wW/params, rewritten only when they change, so
# another value rebuilds the model. check-cosim-wW runs check-cosim's
# programs, vectors and fuzz inputs on it. make check runs the 32-bit one,
# the reference design's default widths (the default library is COSIM_W);
# the 64- and 256-bit ones are there to be run by hand.
COSIM_WIDE   := 32 64 128 256

.PHONY: $(addprefix cosim-w,$(COSIM_WIDE)) $(addprefix check-cosim-w,$(COSIM_WIDE))
CHECK_TARGETS += check-cosim-w$(COSIM_REF_W)
.PRECIOUS: $(COSIM_BUILD)/obj-w%/Vopenenoc_endpoint_axi__ALL.a $(COSIM_BUILD)/obj-w%/params

.PHONY: cosim-wide-params-force
$(COSIM_BUILD)/obj-w%/params: cosim-wide-params-force
	$(call cosim_keep,$(call cosim_wide_params,$*,$(COSIM_MEM_W)))

$(COSIM_BUILD)/obj-w%/Vopenenoc_endpoint_axi__ALL.a: $(COSIM_SRCS) $(COSIM_FLIST) $(RTL_SVH) $(TOP)/mk/cosim.mk $(COSIM_REGOUT) \
                                                    $(COSIM_BUILD)/obj-w%/params
	@mkdir -p $(COSIM_BUILD)
	rm -f $(COSIM_BUILD)/obj-w$*/*.o
	$(VERILATOR) $(COSIM_VFLAGS) $(call cosim_wide_params,$*,$(COSIM_MEM_W)) -Mdir $(COSIM_BUILD)/obj-w$* $(COSIM_SRCS) >$(COSIM_BUILD)/verilate-w$*.log 2>&1 || \
	    { tail -40 $(COSIM_BUILD)/verilate-w$*.log; exit 1; }
	$(COSIM_REGOUT) $(COSIM_BUILD)/obj-w$* $(COSIM_TOPM) $(addprefix --allow ,$(COSIM_AFTER_EDGE))
	@touch $@

$(COSIM_BUILD)/libopenenoc_rtl_w%.so: $(COSIM_BUILD)/obj-w%/Vopenenoc_endpoint_axi__ALL.a $(COSIM_WRAP) $(COSIM_HDRS)
	$(COSIM_CXX) $(call cosim_wide_defs,$*) -I$(COSIM_BUILD)/obj-w$* $(filter %.cpp,$(COSIM_WRAP)) $(COSIM_VLT_RT) \
	    $(COSIM_BUILD)/obj-w$*/Vopenenoc_endpoint_axi__ALL.a -o $@ -lpthread

# cosim_wide W: the library's target, its programs and its check
define cosim_wide
cosim-w$(1): $(COSIM_BUILD)/libopenenoc_rtl_w$(1).so
$(eval $(call cosim_test_rules,$(COSIM_BUILD)/tests-w$(1),openenoc_rtl_w$(1)))
check-cosim-w$(1): $(addprefix $(COSIM_BUILD)/tests-w$(1)/,$(COSIM_PROGS) vecrun fuzz_replay)
	$$(call cosim_suite,$(COSIM_BUILD)/tests-w$(1),$(COSIM_BUILD)/logs-w$(1),cosim-w$(1))
endef
$(foreach w,$(COSIM_WIDE),$(eval $(call cosim_wide,$(w))))

# ---- QEMU with the RTL engine -----------------------------------------------
# The qtest suites that can run on the model, with every openenoc device on
# engine=rtl,rtl-model=$(COSIM_LIB) (qtest/openenoc-qtest.c: -global).
check-qtest-rtl: qemu $(COSIM_LIB)
	@$(TOP)/scripts/qemu/run-qtests.sh --rtl $(COSIM_LIB)
