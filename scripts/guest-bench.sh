#!/usr/bin/env bash
# make bench-guest: figures measured inside the guests, all in one run.
#   guest.replicate.mbps        the demo's multicast block (1 master, 2 slaves,
#                               no injected loss) on the lossless segment (a
#                               QEMU hub in the master with a stream netdev per
#                               slave): block bytes / time from the block's
#                               start to the slowest slave's copy being
#                               complete, on the master's clock
#   guest.replicate.mcast.mbps  the same on the socket-multicast segment with
#                               the demo's pacing (recovery of datagrams the
#                               host dropped included)
#   guest.rmem.read_us_p50      median RMEM window read latency seen by a slave
#   guest.tcp.mbps              the same payload over TCP between two VMs on
#                               e1000 NICs (dgram pair on loopback), enoc-tcp
#                               with 64 KiB writes, timed first to last byte
#   guest.replicate.tcp_ratio   guest.replicate.mbps / guest.tcp.mbps (the
#                               issue's target is >= 5)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in
-h|--help) echo "usage: $0 [SIZE]   (default 8M; run by make bench-guest; logs in build/bench-guest)"; exit 0 ;;
esac
size=${1:-8M}
out=$top/build/bench-guest
rm -rf "$out"
mkdir -p "$out"

# Slowest slave's MB/s (bytes per microsecond) and slave 1's RMEM p50.
replicate() {   # $1 = segment
    local dir=$out/$1
    if ! "$top/scripts/demo.sh" --loss 0 --size "$size" --segment "$1" --out "$dir" \
            --quiet > "$dir.txt" 2>&1; then
        cat "$dir.txt" >&2
        echo "bench-guest: the replication run on the $1 segment failed" >&2
        exit 1
    fi
    awk '/role=slave/ {
            delete v
            for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            mbps = (v["time_us"] > 0) ? v["bytes"] / v["time_us"] : 0
            if (min == "" || mbps < min) min = mbps
            if (v["rmem"] == "ok") p50 = v["rmem_read_us_p50"]
         }
         END { printf "%.1f %s\n", min, p50 }' "$dir/loss0/results"
}
read -r hub_mbps p50 < <(replicate hub)
read -r mcast_mbps _ < <(replicate mcast)

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
line=$(grep -a '^OE-RESULT role=tcp-recv' "$out/tcp0.log" | tr -d '\r' || true)
if [ -z "$line" ]; then
    echo "bench-guest: the TCP run gave no result (see $out/tcp0.log)" >&2
    exit 1
fi
tcp_mbps=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                  printf "%.1f", (v["time_us"] > 0) ? v["bytes"] / v["time_us"] : 0 }' <<<"$line")

echo "BENCH guest.replicate.mbps $hub_mbps MB/s"
echo "BENCH guest.replicate.mcast.mbps $mcast_mbps MB/s"
[ -z "$p50" ] || echo "BENCH guest.rmem.read_us_p50 $p50 us"
echo "BENCH guest.tcp.mbps $tcp_mbps MB/s"
awk -v a="$hub_mbps" -v b="$tcp_mbps" 'BEGIN { printf "BENCH guest.replicate.tcp_ratio %.2f x\n", (b > 0) ? a / b : 0 }'
