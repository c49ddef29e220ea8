#!/usr/bin/env bash
# make bench-guest: figures measured inside the guests.
#   guest.replicate.mbps    multicast block as in the demo (no loss), the
#                           slowest slave: block bytes / block time
#   guest.rmem.read_us_p50  median RMEM window read latency seen by a slave
#   guest.tcp.mbps          the same payload over TCP between two VMs on
#                           e1000 NICs (dgram pair on loopback), enoc-tcp
#                           with 64 KiB writes, timed first to last byte
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
-h|--help) echo "usage: $0 [SIZE]   (default 8M; run by make bench-guest)"; exit 0 ;;
esac
size=${1:-8M}
out=$top/build/bench-guest
mkdir -p "$out"
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

# TCP baseline between two VMs joined by a dgram pair.
bytes=$(awk -v s="$size" 'BEGIN { m = 1; if (s ~ /[kK]$/) m = 1024; if (s ~ /[mM]$/) m = 1048576; printf "%d", s * m }')
port=$(( 40000 + ($$ % 1000) * 2 ))
pids=()
trap 'for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null || true; done' EXIT INT TERM
for k in 0 1; do
    net="dgram,local.type=inet,local.host=127.0.0.1,local.port=$((port + k)),remote.type=inet,remote.host=127.0.0.1,remote.port=$((port + 1 - k))"
    if [ $k = 0 ]; then cmd=(enoc-tcp recv --port 5201)
    else cmd=(enoc-tcp send --host 10.0.0.1 --port 5201 --bytes "$bytes"); fi
    "$top/scripts/guest-run.sh" --timeout 300 --append "oe.e1000 oe.ip=10.0.0.$((k + 1))/24" \
        --nic "e1000,52:54:00:0e:0c:0$k=$net" --log "$out/tcp$k.log" -- "${cmd[@]}" \
        > "$out/tcp$k.qemu.log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
pids=()
line=$(grep -a '^OE-RESULT role=tcp-recv' "$out/tcp0.log" || true)
if [ -z "$line" ]; then
    echo "bench-guest: the TCP run gave no result (see $out/tcp0.log)" >&2
    exit 1
fi
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
       printf "BENCH guest.tcp.mbps %.1f MB/s\n", v["time_us"] > 0 ? v["bytes"] / v["time_us"] : 0 }' <<<"$line"
