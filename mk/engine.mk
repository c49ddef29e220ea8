# The C engine: conformance suite (plain, ASan+UBSan),
# bounded fuzzing (check-engine-fuzz, in mk/fuzz.mk), and the engine benchmark.
# Built with meson under build/.

MESON ?= meson
ENGINE_BUILD := $(BUILD)/meson
ENGINE_SAN_BUILD := $(BUILD)/meson-san

CHECK_TARGETS += check-engine
BENCH_TARGETS += bench-engine

.PHONY: engine check-engine check-engine-plain check-engine-san \
        bench-engine

$(ENGINE_BUILD)/build.ninja:
	$(MESON) setup $(ENGINE_BUILD) $(TOP) --buildtype=debugoptimized

$(ENGINE_SAN_BUILD)/build.ninja:
	$(MESON) setup $(ENGINE_SAN_BUILD) $(TOP) --buildtype=debug \
	    -Db_sanitize=address,undefined -Db_lundef=false

engine: $(ENGINE_BUILD)/build.ninja
	ninja -C $(ENGINE_BUILD)

check-engine: check-engine-plain check-engine-san check-engine-fuzz

check-engine-plain: $(ENGINE_BUILD)/build.ninja
	$(MESON) test -C $(ENGINE_BUILD) --print-errorlogs --suite engine

check-engine-san: $(ENGINE_SAN_BUILD)/build.ninja
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	    $(MESON) test -C $(ENGINE_SAN_BUILD) --print-errorlogs --suite engine

bench-engine: $(ENGINE_BUILD)/build.ninja
	ninja -C $(ENGINE_BUILD) bench/bench_engine
	$(ENGINE_BUILD)/bench/bench_engine
