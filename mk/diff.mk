# Differential test of the two engines (tests/diff/diff_engines.c): the C
# engine linked in and the RTL engine ($(COSIM_LIB), mk/cosim.mk) run the same
# random programs side by side and are compared step by step.
#   make check-diff              the programs that once diverged
#                                (tests/diff/regress), the fuzz seeds, the RTL
#                                regression inputs, then random programs for
#                                DIFF_SECONDS (60); then the same on the
#                                128-bit library (both engines on a bus of
#                                16-byte beats) for DIFF_W128_SECONDS (30)
#   make diff-engines N=1000     N random programs from SEED (default 1);
#                                DIFF_W=128 on the 128-bit library

.PHONY: check-diff diff-engines

CHECK_TARGETS += check-diff

DIFF_BIN     := $(BUILD)/diff/diff_engines
DIFF_SECONDS ?= 60
DIFF_W128_SECONDS ?= 30
DIFF_W       ?=
DIFF_W128    := $(COSIM_BUILD)/libopenenoc_rtl_w$(COSIM_FAST_W).so
N            ?= 100
SEED         ?= 1

$(DIFF_BIN): $(TOP)/tests/diff/diff_engines.c $(wildcard $(TOP)/hw/engine/*.c) $(OETP_SRC) \
             $(TOP)/hw/engine/engine_internal.h $(COSIM_LIB)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -std=c11 -D_DEFAULT_SOURCE -Wall -I$(TOP)/include $(TOP)/tests/diff/diff_engines.c \
	    $(wildcard $(TOP)/hw/engine/*.c) $(OETP_SRC) -o $@ -ldl

check-diff: $(DIFF_BIN) $(DIFF_W128)
	$(DIFF_BIN) --lib $(COSIM_LIB) --out $(BUILD)/diff --time $(DIFF_SECONDS) \
	    $(TOP)/tests/diff/regress $(TOP)/tests/fuzz/seeds $(TOP)/hw/cosim/regress
	$(DIFF_BIN) --lib $(DIFF_W128) --mem-beat $(shell echo $$(($(COSIM_FAST_W) / 8))) --out $(BUILD)/diff \
	    --time $(DIFF_W128_SECONDS) $(TOP)/tests/diff/regress $(TOP)/tests/fuzz/seeds $(TOP)/hw/cosim/regress
	@# a beat the library was not built with is refused, not imitated
	@if $(DIFF_BIN) --lib $(DIFF_W128) --mem-beat 4 -n 1 >$(BUILD)/diff/beat-refused.log 2>&1 || \
	    ! grep -q "mem_beat_bytes differs from this RTL library" $(BUILD)/diff/beat-refused.log; then \
	    cat $(BUILD)/diff/beat-refused.log; echo "check-diff: the 128-bit library took mem_beat_bytes 4"; exit 1; fi

diff-engines: $(DIFF_BIN) $(if $(DIFF_W),$(COSIM_BUILD)/libopenenoc_rtl_w$(DIFF_W).so)
	$(DIFF_BIN) --lib $(if $(DIFF_W),$(COSIM_BUILD)/libopenenoc_rtl_w$(DIFF_W).so --mem-beat $(shell echo $$(($(or $(DIFF_W),32) / 8))),$(COSIM_LIB)) \
	    --out $(BUILD)/diff --seed $(SEED) -n $(N)
