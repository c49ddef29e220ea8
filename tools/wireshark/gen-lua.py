#!/usr/bin/env python3
"""Write the oETP facts of the Wireshark dissector from include/openenoc/oetp.h.

tools/wireshark/oetp.lua holds one generated block, between the lines
"-- BEGIN GENERATED" and "-- END GENERATED": the EtherType, Magic,
EndOfData, frame constants, the command codes (CMD) and the ERROR_RSP
causes (CAUSES), taken from oetp.h, where they are written once. The rest of
the dissector names commands through CMD.

  gen-lua.py           rewrite the block (make regs runs this)
  gen-lua.py --check   write nothing; fail (exit 1) if the block differs
                       from a fresh generation (make check-regs and
                       make check-wireshark run this)
"""
import argparse
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = "include/openenoc/oetp.h"
LUA = "tools/wireshark/oetp.lua"
BEGIN = "-- BEGIN GENERATED"
END = "-- END GENERATED"

# Lua name, oetp.h macro, comment
CONSTANTS = [
    ("ETHERTYPE", "OETP_ETHERTYPE", None),
    ("MAGIC", "OETP_MAGIC", None),
    ("EOD", "OETP_EOD", "EndOfData trailer"),
    ("ETH_HDR", "OETP_ETH_HDR_LEN", "destination, source, EtherType"),
    ("PADDED_FRAME", "OETP_PADDED_FRAME_LEN", "minimum Ethernet frame without FCS"),
    ("FRAG_CEILING", "OETP_FRAG_CEILING", "largest DMA fragment"),
]
HEX = {"ETHERTYPE": 4, "MAGIC": 2, "EOD": 8}


def parse(text):
    """The #define values (integers, evaluated), command codes and causes."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    defines = {}
    for name, expr in re.findall(r"^#define\s+(OETP_\w+)\s+(.+?)\s*$", text, re.M):
        expr = re.sub(r"\b(0x[0-9A-Fa-f]+|\d+)[uUlL]*\b", r"\1", expr)
        expr = re.sub(r"\bOETP_\w+\b", lambda m: str(defines.get(m.group(0), m.group(0))), expr)
        if re.fullmatch(r"[0-9A-Fa-fx+\-*/() ]+", expr):
            defines[name] = int(eval(expr))     # only digits and operators are left
    cmds = [(n, int(v, 0)) for n, v in
            re.findall(r"^\s*OETP_(\w+_(?:REQ|RSP))\s*=\s*(0x[0-9A-Fa-f]+|\d+),", text, re.M)]
    causes = [(n, int(v, 0)) for n, v in
              re.findall(r"^\s*OETP_CAUSE_(\w+)\s*=\s*(0x[0-9A-Fa-f]+|\d+),", text, re.M)]
    if not cmds or not causes:
        sys.exit("gen-lua: no command codes or causes found in " + HEADER)
    return defines, cmds, causes


def block(defines, cmds, causes):
    out = [BEGIN + " by tools/wireshark/gen-lua.py from " + HEADER,
           "-- (make regs writes it, make check-regs checks it). Do not edit."]
    for lua, macro, comment in CONSTANTS:
        if macro not in defines:
            sys.exit("gen-lua: %s has no %s" % (HEADER, macro))
        v = defines[macro]
        val = "0x%0*X" % (HEX[lua], v) if lua in HEX else str(v)
        line = "local %s = %s" % (lua, val)
        out.append(line + ("" if comment is None else " " * max(1, 32 - len(line)) + "-- " + comment))
    out.append("-- Cmd codes by name")
    out.append("local CMD = {")
    w = max(len(n) for n, _ in cmds)
    out += ["    %-*s = 0x%02X," % (w, n, v) for n, v in cmds]
    out.append("}")
    out.append("-- Wire causes of ERROR_RSP; the initiator records 8 + cause.")
    out.append("local CAUSES = {")
    out += ["    [%d] = \"%s\"," % (v, n) for n, v in causes]
    out.append("}")
    out.append(END)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail if the generated block of oetp.lua is stale")
    ap.add_argument("--root", default=TOP, metavar="DIR",
                    help="the tree holding oetp.h and oetp.lua (default: this repository)")
    args = ap.parse_args()
    with open(os.path.join(args.root, HEADER), encoding="utf-8") as fh:
        new_block = block(*parse(fh.read()))
    path = os.path.join(args.root, LUA)
    with open(path, encoding="utf-8") as fh:
        lua = fh.read()
    m = re.search("^" + re.escape(BEGIN) + r".*?^" + re.escape(END) + r"\n", lua, re.M | re.S)
    if not m:
        sys.exit("gen-lua: %s has no %s ... %s block" % (LUA, BEGIN, END))
    text = lua[:m.start()] + new_block + lua[m.end():]
    if text == lua:
        if args.check:
            print("gen-lua: %s is current against %s" % (LUA, HEADER))
        return 0
    if args.check:
        print("gen-lua: stale against %s (run `make regs` and commit): %s" % (HEADER, LUA),
              file=sys.stderr)
        return 1
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    print("gen-lua: wrote", LUA)
    return 0


if __name__ == "__main__":
    sys.exit(main())
