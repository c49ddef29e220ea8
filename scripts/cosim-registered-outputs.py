#!/usr/bin/env python3
"""Check that a Verilated model computes no handshake output from an input.

The co-simulation wrapper (hw/cosim/oe_cosim_run.cpp) samples the model's
VALID/READY outputs before the rising edge without evaluating the model with
the clock low: that is exact only while every output it samples comes from
registers. Verilator puts the logic that depends on top-level inputs in the
model's input-combinational ("ico") region; this script reads the generated
C++ of the model in MODEL_DIR and fails, naming the output, if any output
port other than the allowed ones (read by the wrapper only after an edge) is
assigned there.

usage: cosim-registered-outputs.py MODEL_DIR TOP [--allow NAME ...]
"""
import argparse
import glob
import os
import re
import sys


def outputs(model_dir, top):
    """Output port names, from the model's header (VL_OUT*/VL_OUTW)."""
    header = os.path.join(model_dir, f"V{top}.h")
    try:
        with open(header) as f:
            return set(re.findall(r"VL_OUT\w*\(&(\w+),", f.read()))
    except OSError as e:
        sys.exit(f"cosim-registered-outputs: cannot read the model of {top}: {header}: "
                 f"{e.strerror}")


def ico_assigned(model_dir, top):
    """Names assigned (vlSelf->NAME = ...) in the input-combinational region."""
    names = set()
    start = re.compile(r"___ico_sequent__\w+\(V%s___024root\* vlSelf\) \{" % re.escape(top))
    found = False
    for path in glob.glob(os.path.join(model_dir, f"V{top}___024root__DepSet_*.cpp")):
        body = None
        with open(path) as f:
            for line in f:
                if body is None:
                    if start.search(line):
                        body, found = [], True
                    continue
                if line.startswith("}"):
                    names.update(re.findall(r"vlSelf->(\w+) =", "".join(body)))
                    body = None
                    continue
                body.append(line)
    if not found:
        sys.exit(f"cosim-registered-outputs: no input-combinational region in {model_dir}")
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model_dir", help="Verilator output directory (-Mdir)")
    ap.add_argument("top", help="top module name")
    ap.add_argument("--allow", action="append", default=[],
                    help="an output the wrapper reads only after an edge (repeatable)")
    a = ap.parse_args()
    outs = outputs(a.model_dir, a.top)
    if not outs:
        sys.exit(f"cosim-registered-outputs: no output ports found for {a.top}")
    bad = sorted((ico_assigned(a.model_dir, a.top) & outs) - set(a.allow))
    for name in bad:
        print(f"cosim-registered-outputs: {a.top}.{name} is computed from an input "
              "(register it: the co-simulation samples it before the edge)", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
