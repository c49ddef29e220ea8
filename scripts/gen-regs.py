#!/usr/bin/env python3
"""Generate every view of the openENOC endpoint's registers from its SystemRDL.

One front end (scripts/regs/model.py) reads rtl/csr/openenoc_endpoint.rdl,
the one source of truth, with systemrdl-compiler; the back ends write:
  include/openenoc/regs.h          offsets, field shifts/masks/resets and the
                                   encodings (OE_SRC_*, OE_MODE_*, OE_ERR_*)
  include/openenoc/regs_table.h    one row per 32-bit CSR word (name, offset,
                                   reset, software-writable and command masks)
  include/openenoc/uapi_enoc_regs.h  the encodings the guest driver's uapi
                                   carries (ENOC_SRC_*), included by uapi_enoc.h
  docs/registers.md                the register reference
  rtl/csr/openenoc_csr_pkg.sv      reset values, aperture constants, the
                                   encodings as SV enums (SRC_*, MODE_*, ERR_*)
  rtl/csr/openenoc_csr_sw_if.sv    register block -> core, one signal per field
  rtl/csr/openenoc_csr_hw_if.sv    core -> register block
  rtl/csr/openenoc_csr_regs.sv     the SV register block

The generated files are committed. `make regs` runs this; `make check-regs`
runs it with --check, which regenerates into memory and fails (exit 1),
naming every stale file, if a committed file differs.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from regs import c, md, sv          # noqa: E402  (after the path is set)
from regs.model import UAPI_ENUMS, load  # noqa: E402

TOP = os.path.dirname(HERE)
RDL = os.path.join(TOP, "rtl", "csr", "openenoc_endpoint.rdl")


def outputs(model):
    """Repository path -> generated text."""
    return {
        "include/openenoc/regs.h": c.gen_header(model),
        "include/openenoc/regs_table.h": c.gen_table(model),
        "include/openenoc/uapi_enoc_regs.h": c.gen_uapi(model, UAPI_ENUMS),
        "docs/registers.md": md.gen_markdown(model),
        "rtl/csr/openenoc_csr_pkg.sv": sv.gen_pkg(model),
        "rtl/csr/openenoc_csr_sw_if.sv": sv.gen_if(
            "openenoc_csr_sw_if", "Software-written fields the core uses (rw and "
            "rw/hwclr) and the\n// RMEM window request: block -> core.",
            sv.sw_signals(model.regs, model.mems[0]), "regs", "core"),
        "rtl/csr/openenoc_csr_hw_if.sv": sv.gen_if(
            "openenoc_csr_hw_if", "Hardware-driven fields, clears of command bits "
            "and the RMEM\n// window response: core -> block.",
            sv.hw_signals(model.regs), "core", "regs"),
        "rtl/csr/openenoc_csr_regs.sv": sv.gen_regs(model),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail naming every committed output that differs "
                         "from a fresh generation")
    ap.add_argument("--root", default=TOP, metavar="DIR",
                    help="the tree the outputs are written to or checked in (default: this "
                         "repository; make check-regs points it at a scratch copy to test "
                         "that --check catches a stale file)")
    args = ap.parse_args()

    stale = []
    outs = outputs(load(RDL))
    for rel, text in outs.items():
        path = os.path.join(args.root, rel)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old == text:
            continue
        if args.check:
            stale.append(rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            print("gen-regs: wrote", rel)
    if stale:
        print("gen-regs: stale against rtl/csr/openenoc_endpoint.rdl (run `make regs` and "
              "commit): " + ", ".join(stale), file=sys.stderr)
        return 1
    if args.check:
        print("gen-regs: all %d generated files are current" % len(outs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
