# openenoc-qemu: the commands users type. Each part of the project adds its
# targets in mk/<part>.mk and appends to CHECK_TARGETS / BENCH_TARGETS, so this
# file stays a thin index. Build products go to build/ (never committed).

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build
PYTHON ?= python3
# The oETP frame codec (include/openenoc/oetp.h), linked by every part.
OETP_SRC := $(TOP)/hw/oetp/oetp.c

CHECK_TARGETS :=
BENCH_TARGETS :=

.PHONY: all help deps check bench demo clean
all: help

help:
	@echo "make demo          boot 1 master + 2 slave VMs and replicate memory over oETP"
	@echo "make check         install deps, build everything, run every test"
	@echo "make check-<part>  one suite: $(patsubst check-%,%,$(CHECK_TARGETS))"
	@echo "make bench         every benchmark (BENCH <name> <value> <unit> lines)"
	@echo "make bench-<part>  one benchmark: $(patsubst bench-%,%,$(BENCH_TARGETS))"
	@echo "make deps          install system and Python packages (idempotent)"
	@echo "make qemu | guest  build QEMU with the device / the guest image"

deps:
	@$(TOP)/scripts/deps.sh

include $(sort $(wildcard $(TOP)/mk/*.mk))

# The README's test command: dependencies first, then every suite that exists.
check:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory $(CHECK_TARGETS)
	@echo "make check: all suites passed ($(CHECK_TARGETS))"

bench:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory $(BENCH_TARGETS)

clean:
	rm -rf $(BUILD)
