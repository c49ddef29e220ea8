#!/bin/bash
# Host instructions the RTL engine spends per DMA KiB, per model cycle of
# the block and per RMEM read, counted by valgrind (cachegrind, no cache
# simulation). Unlike wall time, the count does not move with the machine's
# load or with where the library's pages land, so two model builds compare
# to within a fraction of a percent in one run each (docs/cosim.md,
# Benchmark). Fixed costs (loading, building the models) cancel: each figure
# is the difference of two runs of cosim_bench --rtl-only.
set -euo pipefail
usage() {
    cat <<'USAGE'
usage: scripts/cosim-instr.sh --lib LIB.so --bench COSIM_BENCH [--name PREFIX] [--help]
Runs COSIM_BENCH --rtl-only under valgrind three times (a 64 KiB block, a
192 KiB block, 64 KiB plus 1,000 RMEM reads) and prints
  BENCH PREFIX.dma.instr_per_kib N instr
  BENCH PREFIX.dma.instr_per_cycle N instr   (per model cycle, both endpoints)
  BENCH PREFIX.rmem.instr_per_op N instr
PREFIX defaults to cosim. Needs valgrind (make deps).
USAGE
}
lib= bench= name=cosim
while [ $# -gt 0 ]; do
    case $1 in
        --lib) lib=$2; shift 2;;
        --bench) bench=$2; shift 2;;
        --name) name=$2; shift 2;;
        --help|-h) usage; exit 0;;
        *) usage >&2; exit 2;;
    esac
done
[ -n "$lib" ] && [ -n "$bench" ] || { usage >&2; exit 2; }
command -v valgrind >/dev/null ||
    { echo "cosim-instr: valgrind missing (make deps)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run TAG BYTES READS: the bench's output in $work/TAG.out, the count in $work/TAG.ir
run() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$bench" --lib "$lib" --rtl-only --bytes "$2" --rmem "$3" >"$work/$1.out" 2>"$work/$1.log" ||
        { cat "$work/$1.log" >&2; echo "cosim-instr: $bench failed under valgrind" >&2; exit 1; }
    awk '/I +refs:/ { gsub(",", "", $4); print $4 }' "$work/$1.log" >"$work/$1.ir"
    [ -s "$work/$1.ir" ] || { echo "cosim-instr: no instruction count from valgrind" >&2; exit 1; }
}
figure() {   # figure TAG NAME: a BENCH value printed by the run
    awk -v n="$2" '$1 == "BENCH" && $2 ~ "\\." n "$" { print $3 }' "$work/$1.out"
}
run small 65536 1
run large 196608 1
run reads 65536 1001
small=$(cat "$work/small.ir") large=$(cat "$work/large.ir") reads=$(cat "$work/reads.ir")
cycles_small=$(( $(figure small dma.sender_cycles) + $(figure small dma.receiver_cycles) ))
cycles_large=$(( $(figure large dma.sender_cycles) + $(figure large dma.receiver_cycles) ))
echo "BENCH $name.dma.instr_per_kib $(( (large - small) / 128 )) instr"
echo "BENCH $name.dma.instr_per_cycle $(( (large - small) / (cycles_large - cycles_small) )) instr"
echo "BENCH $name.rmem.instr_per_op $(( (reads - small) / 1000 )) instr"
