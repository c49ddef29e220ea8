#!/usr/bin/env bash
# make bench-qemu: the transport baseline (UDP ping-pong on loopback) and the
# openenoc figures measured against it in the same run. Prints BENCH lines.
#   qemu-bench.sh [--mib N] [--rmem-reads N]   (defaults: 64 MiB, 2000 reads)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$TOP/build/qemu
case "${1:-}" in -h|--help) sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --mib) args+=(--mib "$2"); shift 2 ;;
        --rmem-reads) args+=(--rmem-reads "$2"); shift 2 ;;
        *) echo "qemu-bench: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -x "$OUT/openenoc-bench" ] || { echo "qemu-bench: run 'make qemu' first" >&2; exit 1; }

cc -O2 -Wall -o "$OUT/udp-pingpong" "$TOP/bench/qemu_udp_pingpong.c"
# openenoc-bench runs the UDP baseline itself right before each measurement.
# libqtest announces each QEMU it starts on stdout: keep only the figures.
QTEST_QEMU_BINARY=$OUT/qemu-system-x86_64 timeout 900 "$OUT/openenoc-bench" \
    --udp "$OUT/udp-pingpong" "${args[@]}" | grep -v '^# starting QEMU'
exit "${PIPESTATUS[0]}"
