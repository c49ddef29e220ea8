# Fuzzing: the engine's libFuzzer target (tests/fuzz/, scripts/fuzz/engine.sh)
# and QEMU's own generic-fuzz on the device (scripts/qemu/fuzz-*.sh).
# See docs/fuzzing.md.
#   make fuzz FUZZ_SECONDS=N       engine campaign, then minimise tests/fuzz/corpus/
#   make fuzz-qemu FUZZ_SECONDS=N  QEMU's generic-fuzz on the device's BARs and DMA
#   make bench-fuzz                BENCH fuzz.engine.execs_per_s, execs_per_cpu_s, corpus_execs_per_cpu_s
# The engine's fuzz binary has one sanitizer (FUZZ_SANITIZER): address (the
# default: campaigns, the bench, check-engine-fuzz) or undefined, e.g.
#   make fuzz FUZZ_SANITIZER=undefined FUZZ_SECONDS=N

FUZZ_SANITIZER ?= address
ENGINE_FUZZ_BUILD := $(BUILD)/meson-fuzz-$(FUZZ_SANITIZER)
FUZZ_BIN := $(ENGINE_FUZZ_BUILD)/tests/fuzz/fuzz_engine
FUZZ_SECONDS ?= 1800
# The bounded runs inside make check.
FUZZ_CHECK_SECONDS ?= 60
FUZZ_QEMU_CHECK_SECONDS ?= 120

CHECK_TARGETS += check-fuzz-qemu
BENCH_TARGETS += bench-fuzz

.PHONY: fuzz-engine check-engine-fuzz fuzz bench-fuzz fuzz-qemu-build \
        fuzz-qemu check-fuzz-qemu

$(ENGINE_FUZZ_BUILD)/build.ninja:
	CC=clang-14 $(MESON) setup $(ENGINE_FUZZ_BUILD) $(TOP) --buildtype=debugoptimized \
	    -Dfuzz=true -Dfuzz_sanitizer=$(FUZZ_SANITIZER) -Db_lundef=false

fuzz-engine: $(ENGINE_FUZZ_BUILD)/build.ninja
	ninja -C $(ENGINE_FUZZ_BUILD) tests/fuzz/fuzz_engine

check-engine-fuzz: fuzz-engine
	FUZZ_BIN=$(FUZZ_BIN) $(TOP)/scripts/fuzz/engine.sh check $(FUZZ_CHECK_SECONDS)

fuzz: fuzz-engine
	FUZZ_BIN=$(FUZZ_BIN) $(TOP)/scripts/fuzz/engine.sh campaign $(FUZZ_SECONDS)

bench-fuzz: fuzz-engine
	FUZZ_BIN=$(FUZZ_BIN) $(TOP)/scripts/fuzz/engine.sh bench

# QEMU's fuzzer: its own clang tree, apart from make qemu's.
fuzz-qemu-build:
	@$(TOP)/scripts/qemu/fuzz-build.sh

fuzz-qemu: fuzz-qemu-build
	@$(TOP)/scripts/qemu/fuzz-run.sh $(FUZZ_SECONDS)

check-fuzz-qemu: fuzz-qemu-build
	@$(TOP)/scripts/qemu/fuzz-run.sh $(FUZZ_QEMU_CHECK_SECONDS)
