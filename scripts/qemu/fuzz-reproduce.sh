#!/usr/bin/env bash
# Turn a crash of make fuzz-qemu into a reproducer for a qtest.
#
#   fuzz-reproduce.sh CRASH-FILE [OUT-DIR]
#
# Replays CRASH-FILE in qemu-fuzz-x86_64 with the qtest trace on, reorders
# the trace into plain qtest commands (QEMU's
# scripts/oss-fuzz/reorder_fuzzer_qtest_trace.py) and writes to OUT-DIR
# (default build/qemu-fuzz/repro/): trace (raw), commands (replayable with
# qemu-system-x86_64 $QEMU_FUZZ_ARGS -qtest stdio < commands) and
# reproducer.c (QEMU's output_reproducer.py), the starting point of a
# qtest under qtest/.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/qemu-fuzz
case "${1:-}" in
    -h|--help|"") sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ]; exit $? ;;
esac
crash=$(realpath -e "$1")
dir=${2:-$OUT/repro}
mkdir -p "$dir"
SRC=$OUT/tree/src
. "$TOP/scripts/qemu/fuzz-args.sh"
export QEMU_FUZZ_ARGS QEMU_FUZZ_OBJECTS
export QEMU_FUZZ_TIMEOUT=0 QTEST_LOG=1 FUZZ_SERIALIZE_QTEST=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
"$OUT/qemu-fuzz-x86_64" --fuzz-target=generic-fuzz "$crash" > "$dir/trace" 2>&1 || true
python3 "$SRC/scripts/oss-fuzz/reorder_fuzzer_qtest_trace.py" "$dir/trace" > "$dir/commands"
QEMU_PATH=$TOP/build/qemu/qemu-system-x86_64 \
QEMU_ARGS="-machine accel=qtest -m 512M $QEMU_FUZZ_ARGS" \
    python3 "$SRC/scripts/oss-fuzz/output_reproducer.py" -c -name test_fuzz_crash \
    "$dir/commands" > "$dir/reproducer.c"
echo "fuzz-reproduce: $(wc -l < "$dir/commands") qtest commands in $dir/commands"
echo "fuzz-reproduce: args: -machine accel=qtest -m 512M $QEMU_FUZZ_ARGS"
grep -m 5 -E 'SUMMARY|runtime error' "$dir/trace" || true
