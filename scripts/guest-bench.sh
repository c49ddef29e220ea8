#!/usr/bin/env bash
# make bench-guest: figures measured inside the guests.
#   guest.replicate.mbps    multicast block as in the demo (no loss), the
#                           slowest slave: block bytes / block time
#   guest.rmem.read_us_p50  median RMEM window read latency seen by a slave
# guest.tcp.mbps (the same payload over TCP between two VMs on an emulated
# NIC) is not measured yet: see docs/guest.md.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
-h|--help) echo "usage: $0 [SIZE]   (default 8M; run by make bench-guest)"; exit 0 ;;
esac
size=${1:-8M}
out=$top/build/bench-guest
"$top/scripts/demo.sh" --loss 0 --size "$size" --out "$out" --quiet > "$out.txt" 2>&1 || {
    cat "$out.txt" >&2
    echo "bench-guest: the replication run failed" >&2
    exit 1
}
res=$out/loss0/results
awk '/role=slave/ {
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        mbps = v["push_us"] > 0 ? v["bytes"] / v["push_us"] : 0
        if (min == "" || mbps < min) min = mbps
        if (v["rmem"] == "ok") p50 = v["rmem_read_us_p50"]
     }
     END {
        printf "BENCH guest.replicate.mbps %.1f MB/s\n", min
        if (p50 != "") printf "BENCH guest.rmem.read_us_p50 %s us\n", p50
     }' "$res"
