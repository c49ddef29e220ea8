# Synthesis of the RTL tops for Xilinx 7-series (Yosys synth_xilinx, default
# parameters): the tops are listed once, in scripts/synth/tops.txt. It fails on
# errors, warnings, latches, multiple drivers, combinational loops and an
# unmapped netlist, and prints BENCH rtl.synth.<top>.luts|ffs|bram36|lut_levels.
# The seeded violations of scripts/synth/bad/ run first, so a check that
# stopped firing fails the target.

SYNTH_BUILD := $(BUILD)/synth

CHECK_TARGETS += synth
BENCH_TARGETS += bench-synth

.PHONY: synth synth-selftest bench-synth

synth-selftest:
	@$(TOP)/scripts/synth/selftest.sh $(BUILD)/synth-selftest

synth: synth-selftest
	@$(PYTHON) $(TOP)/scripts/synth/synth.py --out $(SYNTH_BUILD) $(SYNTH_ARGS)

bench-synth: synth
