# The C engine: register header freshness, conformance suite (plain, ASan+UBSan),
# bounded fuzzing, and the engine benchmark. Built with meson under build/.

MESON ?= meson
ENGINE_BUILD := $(BUILD)/meson
ENGINE_SAN_BUILD := $(BUILD)/meson-san
ENGINE_FUZZ_BUILD := $(BUILD)/meson-fuzz
FUZZ_SECONDS ?= 60

CHECK_TARGETS += check-regs check-engine
BENCH_TARGETS += bench-engine

.PHONY: regs check-regs engine check-engine check-engine-plain check-engine-san \
        check-engine-fuzz bench-engine

# Regenerate include/openenoc/regs.h & co. after editing rtl/csr/*.rdl.
regs:
	$(PYTHON) $(TOP)/scripts/gen-regs.py

check-regs:
	$(PYTHON) $(TOP)/scripts/gen-regs.py --check

$(ENGINE_BUILD)/build.ninja:
	$(MESON) setup $(ENGINE_BUILD) $(TOP) --buildtype=debugoptimized

$(ENGINE_SAN_BUILD)/build.ninja:
	$(MESON) setup $(ENGINE_SAN_BUILD) $(TOP) --buildtype=debug \
	    -Db_sanitize=address,undefined -Db_lundef=false

$(ENGINE_FUZZ_BUILD)/build.ninja:
	CC=clang-14 $(MESON) setup $(ENGINE_FUZZ_BUILD) $(TOP) --buildtype=debugoptimized \
	    -Dfuzz=true -Db_lundef=false

engine: $(ENGINE_BUILD)/build.ninja
	ninja -C $(ENGINE_BUILD)

check-engine: check-engine-plain check-engine-san check-engine-fuzz

check-engine-plain: $(ENGINE_BUILD)/build.ninja
	$(MESON) test -C $(ENGINE_BUILD) --print-errorlogs --suite engine

check-engine-san: $(ENGINE_SAN_BUILD)/build.ninja
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	    $(MESON) test -C $(ENGINE_SAN_BUILD) --print-errorlogs --suite engine

check-engine-fuzz: $(ENGINE_FUZZ_BUILD)/build.ninja
	ninja -C $(ENGINE_FUZZ_BUILD)
	@if [ -x $(ENGINE_FUZZ_BUILD)/tests/fuzz/fuzz_engine ]; then \
	    mkdir -p $(BUILD)/fuzz-corpus && \
	    $(ENGINE_FUZZ_BUILD)/tests/fuzz/fuzz_engine -max_total_time=$(FUZZ_SECONDS) \
	        -max_len=16384 -print_final_stats=1 $(BUILD)/fuzz-corpus $(TOP)/tests/fuzz/seeds; \
	else echo "check-engine-fuzz: no fuzz target built yet" >&2; exit 1; fi

bench-engine: $(ENGINE_BUILD)/build.ninja
	ninja -C $(ENGINE_BUILD) bench/bench_engine
	$(ENGINE_BUILD)/bench/bench_engine
