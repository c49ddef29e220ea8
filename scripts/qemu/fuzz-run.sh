#!/usr/bin/env bash
# make fuzz-qemu / check-fuzz-qemu (run half): QEMU's generic-fuzz target on
# the openenoc device, built by fuzz-build.sh.
#
#   fuzz-run.sh SECONDS
#
# Two openenoc devices on one QEMU hub (each the other's network peer), so
# frames one sends reach the other's receive path. generic-fuzz drives both
# devices' BARs (MMIO, PIO), advances the virtual clock and answers their
# DMA reads with fuzzer bytes. Work files go to build/qemu-fuzz/: corpus/,
# crashes/ (crash-* reproducers) and run.log. Prints BENCH
# fuzz.qemu.execs_per_s and fuzz.qemu.crashes; any crash fails the run.
# Make a qtest from a crash: scripts/qemu/fuzz-reproduce.sh FILE.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/qemu-fuzz
BIN=$OUT/qemu-fuzz-x86_64

case "${1:-}" in
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    ''|*[!0-9]*) echo "usage: $0 SECONDS" >&2; exit 2 ;;
esac
secs=$1
[ -x "$BIN" ] || { echo "fuzz-qemu: $BIN not built (make fuzz-qemu-build)" >&2; exit 1; }
mkdir -p "$OUT/corpus" "$OUT/crashes"
log=$OUT/run.log

# The device and its peer; shared with fuzz-reproduce.sh.
. "$TOP/scripts/qemu/fuzz-args.sh"
export QEMU_FUZZ_ARGS QEMU_FUZZ_OBJECTS
# Leaks are reported by QEMU's own init paths too; the device's are caught
# by the qtests under the normal build.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

before=$(ls "$OUT/crashes" | wc -l)
rc=0
"$BIN" --fuzz-target=generic-fuzz -max_total_time="$secs" -timeout=20 \
    -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$OUT/crashes/" "$OUT/corpus" > "$log" 2>&1 || rc=$?
crashes=$(( $(ls "$OUT/crashes" | wc -l) - before ))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1 || true)
echo "fuzz-qemu: ${execs:-?} execs in ${secs}s, $cov (log: $log)"
echo "BENCH fuzz.qemu.execs_per_s ${rate:-0} exec/s"
echo "BENCH fuzz.qemu.crashes $crashes crashes"
if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
    grep -m 30 -E '^(==[0-9]+==|SUMMARY|    #[0-9]|.*runtime error|Test unit written)' "$log" >&2 || true
    echo "fuzz-qemu: FAILED (exit $rc); reproducers in $OUT/crashes/" >&2
    exit 1
fi
