#!/usr/bin/env bash
# The replication demo: 1 master + N slave VMs, one QEMU process each with one
# openenoc device, on one loopback Ethernet segment. The master replicates a
# memory block to every slave with one multicast oETP DMA block; slaves verify
# per-chunk checksums and get missing/wrong chunks re-sent by unicast DMA; one
# slave also does RMEM reads/writes against the master. Runs once without and
# once with injected loss unless --loss is given. Prints a table per run and
# exits 0 only if every check passed. Every QEMU process is killed on exit,
# failure or Ctrl-C.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
    cat <<EOF
usage: $0 [options]
  --slaves N       slave VMs (default 2)
  --size BYTES     replicated block (default 4M; K/M suffixes)
  --chunk BYTES    checksum and recovery granularity (default 64K)
  --fragment B     DMA max fragment size, 4..8160 (default 8160)
  --loss PCT       one run with this frame loss in percent (default: two runs,
                   0 and 2); loss > 0 puts the VMs behind scripts/demo-hub.py
  --pcap FILE      capture the segment as seen by the master (filter-dump);
                   with two runs, FILE gets a .lossN suffix per run
  --timeout S      per run (default 600)
  --out DIR        logs and results (default build/demo)
  --quiet          only the tables
EOF
}
die() { echo "demo: $*" >&2; exit 2; }

slaves=2 size=4M chunk=64K fragment=8160 losses="0 2" pcap= timeout_s=600
out=$top/build/demo quiet=0
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) usage; exit 0 ;;
    --slaves) slaves=${2:?}; shift ;;
    --size) size=${2:?}; shift ;;
    --chunk) chunk=${2:?}; shift ;;
    --fragment) fragment=${2:?}; shift ;;
    --loss) losses=${2:?}; shift ;;
    --pcap) pcap=${2:?}; shift ;;
    --timeout) timeout_s=${2:?}; shift ;;
    --out) out=${2:?}; shift ;;
    --quiet) quiet=1 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
    esac
    shift
done

bytes() {   # 4M -> 4194304
    local v=$1 m=1
    case $v in *[kK]) m=1024; v=${v%?} ;; *[mM]) m=1048576; v=${v%?} ;; esac
    case $v in ''|*[!0-9]*) die "'$1' is not a size" ;; esac
    echo $((v * m))
}
size_b=$(bytes "$size")
chunk_b=$(bytes "$chunk")
case $slaves in ''|*[!0-9]*) die "--slaves wants a number" ;; esac
[ "$slaves" -ge 1 ] && [ "$slaves" -le 16 ] || die "--slaves must be 1..16"
[ $((size_b % 4)) = 0 ] && [ "$size_b" -gt 0 ] || die "--size must be a positive multiple of 4"
[ "$size_b" -le $((256 << 20)) ] || die "--size is limited to 256M"
for l in $losses; do
    awk -v l="$l" 'BEGIN { exit !(l >= 0 && l < 100) }' || die "--loss must be 0..99"
done

# Every slave's window must sit at one bus address (a group write carries
# one remote address), so each VM reserves the same physical range and the
# driver carves its buffer from it.
pool_mb=$(( (size_b + (1 << 20) - 1) / (1 << 20) + 1 ))
pool_base=0x8000000         # 128 MiB
mem_mb=$(( 128 + pool_mb + 96 ))
[ "$mem_mb" -ge 256 ] || mem_mb=256
kparams="memmap=${pool_mb}M\$$pool_base openenoc.dma_pool=${pool_mb}M@$pool_base"

mac_of() { printf '02:0e:0c:00:00:%02x' $(($1 + 1)); }   # VM 0 = master
group=03:0e:0c:00:00:01

pids=()
hub_pid=
cleanup() {
    local p
    for p in ${pids[@]+"${pids[@]}"} $hub_pid; do
        kill "$p" 2>/dev/null || true
    done
    for p in ${pids[@]+"${pids[@]}"} $hub_pid; do
        wait "$p" 2>/dev/null || true
    done
    pids=()
    hub_pid=
}
trap cleanup EXIT
trap 'echo "demo: interrupted" >&2; cleanup; exit 130' INT TERM

# Ports from the pid, so two demos on one host do not share a segment.
base_port=$(( 20000 + ($$ % 2000) * 16 ))

run_once() {    # $1 = loss percent; prints the table, returns 0 if all passed
    local loss=$1 dir=$out/loss$1 n=$((slaves + 1)) k
    local seg_args=() rc=0
    rm -rf "$dir"
    mkdir -p "$dir"
    if awk -v l="$loss" 'BEGIN { exit !(l > 0) }'; then
        local hub_ports=()
        for ((k = 0; k < n; k++)); do
            hub_ports+=(--port "$((base_port + 8 + k)):$((base_port + k))")
        done
        python3 "$top/scripts/demo-hub.py" --loss "$(awk -v l="$loss" 'BEGIN { print l / 100 }')" \
            --stats "$dir/hub.stats" "${hub_ports[@]}" &
        hub_pid=$!
    fi
    for ((k = 0; k < n; k++)); do
        local net
        if [ -n "$hub_pid" ]; then
            net="dgram,local.type=inet,local.host=127.0.0.1,local.port=$((base_port + k)),remote.type=inet,remote.host=127.0.0.1,remote.port=$((base_port + 8 + k))"
        else
            net="socket,mcast=230.0.14.12:$((base_port + 15)),localaddr=127.0.0.1"
        fi
        local cmd
        if [ "$k" = 0 ]; then
            cmd="enoc-repl master --slaves $slaves"
        else
            cmd="enoc-repl slave --id $k"
            [ "$k" = 1 ] && cmd="$cmd --rmem"
        fi
        cmd="$cmd --mac $(mac_of "$k") --master-mac $(mac_of 0) --group $group"
        cmd="$cmd --size $size_b --chunk $chunk_b --fragment $fragment --timeout $((timeout_s - 30))"
        echo "$cmd" > "$dir/vm$k.sh"
        local extra=()
        if [ "$k" = 0 ] && [ -n "$pcap" ]; then
            local f=$pcap
            [ "$(echo $losses | wc -w)" -gt 1 ] && f=$pcap.loss$loss
            extra=(--pcap "$f")
        fi
        "$top/scripts/guest-run.sh" --mem "$mem_mb" --timeout "$timeout_s" \
            --enoc "$(mac_of "$k")=$net" ${extra[@]+"${extra[@]}"} \
            --append "$kparams" --script "$dir/vm$k.sh" --log "$dir/vm$k.log" \
            > "$dir/vm$k.qemu.log" 2>&1 &
        pids+=($!)
    done
    [ "$quiet" = 1 ] || echo "demo: loss ${loss}%: $n VMs booting (logs in $dir)"
    for ((k = 0; k < n; k++)); do
        wait "${pids[$k]}" || true
    done
    pids=()
    if [ -n "$hub_pid" ]; then kill "$hub_pid" 2>/dev/null || true; wait "$hub_pid" 2>/dev/null || true; hub_pid=; fi

    local drop=""
    [ -f "$dir/hub.stats" ] && drop=" ($(cat "$dir/hub.stats"))"
    echo
    echo "Replication of $size_b bytes to $slaves slaves, loss ${loss}%$drop"
    printf '%-4s %-7s %-17s %10s %9s %8s %10s  %s\n' VM role MAC bytes time_s MB/s recovered verification
    for ((k = 0; k < n; k++)); do
        local line
        line=$(grep -a '^OE-RESULT' "$dir/vm$k.log" 2>/dev/null | tail -n 1 || true)
        if [ -z "$line" ]; then
            local why
            why=$(grep -a -m1 -E 'enoc-repl:|Kernel panic|OE-WARN' "$dir/vm$k.log" 2>/dev/null ||
                  tail -n 1 "$dir/vm$k.qemu.log" 2>/dev/null || true)
            printf '%-4s %-7s %-17s %10s %9s %8s %10s  %s\n' "vm$k" "$([ $k = 0 ] && echo master || echo slave)" \
                "$(mac_of "$k")" - - - - "FAIL: no result (${why:-no output})"
            rc=1
            continue
        fi
        local role mac b us rec ver rmem p50 mbps vtext
        role=$(sed -n 's/.*role=\([^ ]*\).*/\1/p' <<<"$line")
        mac=$(sed -n 's/.* mac=\([^ ]*\).*/\1/p' <<<"$line")
        b=$(sed -n 's/.* bytes=\([^ ]*\).*/\1/p' <<<"$line")
        us=$(sed -n 's/.* time_us=\([^ ]*\).*/\1/p' <<<"$line")
        rec=$(sed -n 's/.* recovered=\([^ ]*\).*/\1/p' <<<"$line")
        ver=$(sed -n 's/.* verify=\([^ ]*\).*/\1/p' <<<"$line")
        rmem=$(sed -n 's/.* rmem=\([^ ]*\).*/\1/p' <<<"$line")
        [ -n "$rmem" ] || rmem=$(sed -n 's/.* rmem_area=\([^ ]*\).*/\1/p' <<<"$line")
        p50=$(sed -n 's/.* rmem_read_us_p50=\([^ ]*\).*/\1/p' <<<"$line")
        mbps=$(awk -v b="$b" -v us="$us" 'BEGIN { printf "%.1f", us > 0 ? b / us : 0 }')
        vtext=$ver
        if [ "$role" = master ]; then
            vtext="$ver (all slaves verified: $(sed -n 's/.* slaves_ok=\([^ ]*\).*/\1/p' <<<"$line"), RMEM area: $rmem)"
        elif [ "$rmem" != "-" ]; then
            vtext="$ver, RMEM $rmem (read p50 ${p50} us)"
        fi
        printf '%-4s %-7s %-17s %10s %9s %8s %10s  %s\n' "vm$k" "$role" "$mac" "$b" \
            "$(awk -v us="$us" 'BEGIN { printf "%.3f", us / 1e6 }')" "$mbps" "${rec:--}" "$vtext"
        [ "$ver" = ok ] || rc=1
        [ "$rmem" = FAIL ] && rc=1
        echo "$line" >> "$dir/results"
    done
    return $rc
}

status=0
for loss in $losses; do
    run_once "$loss" || status=1
done
echo
if [ "$status" = 0 ]; then echo "demo: all checks passed"; else echo "demo: FAILED (see $out)"; fi
exit $status
