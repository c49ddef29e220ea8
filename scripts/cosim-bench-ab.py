#!/usr/bin/env python3
"""Compare co-simulation libraries with alternating bench-cosim runs.

Runs build/cosim/cosim_bench once per library in turn, RUNS rounds, and
prints per BENCH figure the range and median for each library and the ratio
of the medians against the first (the baseline). Alternating runs of one
benchmark binary are how this project compares model builds on a shared
machine: absolute figures drift with the load, ratios of interleaved runs
much less.

usage: cosim-bench-ab.py --lib BASE.so --lib NEW.so [--runs N] [--bench PATH]
                         [-- BENCH_ARGS...]
Example: scripts/cosim-bench-ab.py --lib /tmp/main.so \\
             --lib build/cosim/libopenenoc_rtl.so --runs 5 -- --rmem 20000
"""
import argparse
import os
import statistics
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(bench, lib, extra):
    out = subprocess.run([bench, "--lib", lib] + extra, capture_output=True, text=True,
                         timeout=900)
    if out.returncode != 0:
        sys.exit(f"cosim-bench-ab: {bench} --lib {lib} failed:\n{out.stderr}")
    figs = {}
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[0] == "BENCH":
            figs[f[1]] = (float(f[2]), f[3])
    return figs


def fmt(x):
    return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Arguments after -- go to cosim_bench.")
    ap.add_argument("--lib", action="append", required=True, help="library (first = baseline)")
    ap.add_argument("--runs", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--bench", default=os.path.join(TOP, "build/cosim/cosim_bench"))
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    a = ap.parse_args(argv)
    if len(a.lib) < 2 or a.runs < 1:
        ap.error("give at least two --lib and --runs >= 1")
    for lib in a.lib:
        if not os.path.exists(lib):
            ap.error(f"no such library: {lib}")
    res = {lib: [] for lib in a.lib}
    for _ in range(a.runs):
        for lib in a.lib:
            res[lib].append(run(a.bench, lib, extra))
    names = [n for n in res[a.lib[0]][0] if all(n in r for lib in a.lib for r in res[lib])]
    base = a.lib[0]
    for n in names:
        unit = res[base][0][n][1]
        meds = {}
        for i, lib in enumerate(a.lib):
            v = [r[n][0] for r in res[lib]]
            meds[lib] = statistics.median(v)
            ratio = f" x{meds[lib] / meds[base]:.2f}" if i and meds[base] else ""
            print(f"{n} [{i}] {fmt(min(v))}-{fmt(max(v))} median {fmt(meds[lib])} {unit}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
