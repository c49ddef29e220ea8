#!/usr/bin/env bash
# make check-cosim-trace: the traced RTL engine library writes FST waveforms
# that name the model's signals.
#
#   cosim-trace-check.sh --lib TRACED.so --plain PLAIN.so --bench BIN [--qemu QEMU]
#
# 1. BIN (bench/cosim_bench.c) runs a 4 KiB co-simulated block with --trace:
#    the FST (read back with fst2vcd, Debian's gtkwave package) must declare
#    the AXI top's ports and the peer DMA engine's scope, and
#    m_axis_eth_tvalid (the transmit stream) must rise.
# 2. With --qemu: QEMU realizes an openenoc device with rtl-trace and a
#    cycle window (rtl-trace-start/rtl-trace-cycles); the file must hold the
#    signals and only times inside the window. The plain library must be
#    refused for rtl-trace with the reason.
# Prints "cosim-trace: N passed, M failed"; exit status non-zero on failure.
set -uo pipefail
lib= plain= bench= qemu=
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --lib) lib=$2; shift 2 ;;
        --plain) plain=$2; shift 2 ;;
        --bench) bench=$2; shift 2 ;;
        --qemu) qemu=$2; shift 2 ;;
        *) echo "cosim-trace-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$lib" ] && [ -n "$plain" ] && [ -n "$bench" ] ||
    { echo "cosim-trace-check: --lib, --plain and --bench are required" >&2; exit 2; }
command -v fst2vcd >/dev/null ||
    { echo "cosim-trace-check: fst2vcd missing (apt-get install gtkwave)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
nok() { echo "not ok - $1"; fail=$((fail + 1)); }

# vcd_id VCD NAME: the short id of the first variable called NAME
vcd_id() { awk -v n="$2" '$1 == "$var" && $5 == n { print $4; exit }' "$1"; }

# has_vars VCD: the top ports and the peer DMA scope are declared
has_vars() {
    local v
    for v in clk m_axis_eth_tvalid m_axi_arvalid s_axil_rvalid; do
        [ -n "$(vcd_id "$1" "$v")" ] || { echo "    no variable $v" >&2; return 1; }
    done
    grep -q '^\$scope module u_peer_dma ' "$1" || { echo "    no scope u_peer_dma" >&2; return 1; }
}

# 1. the library under the benchmark's block
if "$bench" --lib "$lib" --bytes 4096 --rmem 2 --trace "$work/block.fst" >"$work/bench.log" 2>&1 &&
   fst2vcd "$work/block.fst" >"$work/block.vcd" 2>/dev/null && has_vars "$work/block.vcd"; then
    id=$(vcd_id "$work/block.vcd" m_axis_eth_tvalid)
    if grep -qxF "1$id" "$work/block.vcd"; then
        ok "block: FST names the signals and m_axis_eth_tvalid rises"
    else
        nok "block: m_axis_eth_tvalid never rises in the FST"
    fi
else
    nok "block: no readable FST with the signals"; sed 's/^/    /' "$work/bench.log"
fi

# 2. QEMU's rtl-trace properties
if [ -n "$qemu" ]; then
    dev="openenoc,engine=rtl,rtl-model=$lib,rtl-trace=$work/qemu.fst"
    dev+=",rtl-trace-start=3,rtl-trace-cycles=2"
    if echo quit | timeout 60 "$qemu" -accel tcg -M q35 -nodefaults -display none -S \
           -monitor stdio -device "$dev" >"$work/qemu.log" 2>&1 &&
       fst2vcd "$work/qemu.fst" >"$work/qemu.vcd" 2>/dev/null && has_vars "$work/qemu.vcd"; then
        # times of the window: cycles 3 and 4, two half cycles each
        times=$(grep '^#' "$work/qemu.vcd" | tr -d '#' | sort -n | uniq | tr '\n' ' ')
        if [ "$times" = "6 7 8 9 " ]; then
            ok "qemu: rtl-trace writes cycles 3..4 of the model"
        else
            nok "qemu: times in the file are '$times', not '6 7 8 9 '"
        fi
    else
        nok "qemu: rtl-trace wrote no readable FST"; sed 's/^/    /' "$work/qemu.log"
    fi
    out=$(echo quit | timeout 60 "$qemu" -accel tcg -M q35 -nodefaults -display none -S \
              -monitor stdio -device "openenoc,engine=rtl,rtl-model=$plain,rtl-trace=$work/x.fst" 2>&1)
    if [ $? -ne 0 ] && grep -q "built without tracing" <<<"$out"; then
        ok "qemu: the plain library refuses rtl-trace with the reason"
    else
        nok "qemu: the plain library did not refuse rtl-trace: $out"
    fi
fi
echo "cosim-trace: $pass passed, $fail failed"
[ "$fail" = 0 ]
