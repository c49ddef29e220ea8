# Differential test of the two engines (tests/diff/diff_engines.c): the C
# engine linked in and the RTL engine ($(COSIM_LIB), mk/cosim.mk) run the same
# random programs side by side and are compared step by step, both engines
# on a memory bus of the library's beat (COSIM_W / 8 bytes).
#   make check-diff              the programs that once diverged
#                                (tests/diff/regress), the fuzz seeds, the RTL
#                                regression inputs, then random programs for
#                                DIFF_SECONDS (60); then the same on the
#                                32-bit library (4-byte beats), the reference
#                                design's widths, for DIFF_REF_SECONDS (30)
#   make diff-engines N=1000     N random programs from SEED (default 1);
#                                DIFF_W=32 (or 64, 128, 256) on that library

.PHONY: check-diff diff-engines

CHECK_TARGETS += check-diff

DIFF_BIN     := $(BUILD)/diff/diff_engines
DIFF_SECONDS ?= 60
DIFF_REF_SECONDS ?= 30
DIFF_W       ?=
DIFF_REF     := $(COSIM_BUILD)/libopenenoc_rtl_w$(COSIM_REF_W).so
# a library's beat in bytes, from its width in bits
diff_beat = $(shell echo $$(($(1) / 8)))
N            ?= 100
SEED         ?= 1

$(DIFF_BIN): $(TOP)/tests/diff/diff_engines.c $(wildcard $(TOP)/hw/engine/*.c) $(OETP_SRC) \
             $(TOP)/hw/engine/engine_internal.h $(COSIM_LIB)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -std=c11 -D_DEFAULT_SOURCE -Wall -I$(TOP)/include $(TOP)/tests/diff/diff_engines.c \
	    $(wildcard $(TOP)/hw/engine/*.c) $(OETP_SRC) -o $@ -ldl

check-diff: $(DIFF_BIN) $(DIFF_REF)
	$(DIFF_BIN) --lib $(COSIM_LIB) --mem-beat $(call diff_beat,$(COSIM_W)) --out $(BUILD)/diff --time $(DIFF_SECONDS) \
	    $(TOP)/tests/diff/regress $(TOP)/tests/fuzz/seeds $(TOP)/hw/cosim/regress
	$(DIFF_BIN) --lib $(DIFF_REF) --mem-beat $(call diff_beat,$(COSIM_REF_W)) --out $(BUILD)/diff \
	    --time $(DIFF_REF_SECONDS) $(TOP)/tests/diff/regress $(TOP)/tests/fuzz/seeds $(TOP)/hw/cosim/regress
	@# a beat the library was not built with is refused, not imitated
	@if $(DIFF_BIN) --lib $(DIFF_REF) --mem-beat 16 -n 1 >$(BUILD)/diff/beat-refused.log 2>&1 || \
	    ! grep -q "mem_beat_bytes differs from this RTL library" $(BUILD)/diff/beat-refused.log; then \
	    cat $(BUILD)/diff/beat-refused.log; echo "check-diff: the 32-bit library took mem_beat_bytes 16"; exit 1; fi

diff-engines: $(DIFF_BIN) $(if $(DIFF_W),$(COSIM_BUILD)/libopenenoc_rtl_w$(DIFF_W).so)
	$(DIFF_BIN) --lib $(if $(DIFF_W),$(COSIM_BUILD)/libopenenoc_rtl_w$(DIFF_W).so,$(COSIM_LIB)) \
	    --mem-beat $(call diff_beat,$(or $(DIFF_W),$(COSIM_W))) --out $(BUILD)/diff --seed $(SEED) -n $(N)
