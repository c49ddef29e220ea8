#!/usr/bin/env bash
# Part of make check-guest: the replication protocol's own checks (about
# 60-90 s on a 2-core host).
#   demo-netns      the demo (1 MiB, 2 slaves, 0 and 2 % injected loss) with
#                   every VM in its own network namespace, real IP multicast
#                   across a bridge; with loss, slaves must have recovered
#                   fragments and the master's --trace must show the repair
#                   blocks; no namespace may be left behind
#   repl-vanish     two VMs: a master and a slave 2 that exits silently once
#                   ready (--x-vanish) in one, slave 1 in the other;
#                   the master must report it gone (missing=2, slaves_ok=1,
#                   exit 1) after --vanish 3 s instead of waiting, and the
#                   other slave must still verify
# Prints PASS/FAIL lines; exits 1 if any failed. Logs in build/repl-check.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

case ${1:-} in
-h|--help)
    echo "usage: $0   (run by make check-guest; logs in build/repl-check)"
    exit 0 ;;
esac

out=$top/build/repl-check
rm -rf "$out"
mkdir -p "$out"
fail=0
note() { if [ "$2" = 0 ]; then echo "PASS $1"; else fail=1; echo "FAIL $1${3:+: $3}"; fi; }

pid=
# shellcheck disable=SC2086
trap '[ -z "$pid" ] || kill $pid 2>/dev/null || true' EXIT INT TERM

if [ "$(id -u)" = 0 ] && command -v ip > /dev/null; then
    before=$(ip netns list | wc -l)
    rc=0
    "$top/scripts/demo.sh" --netns --size 1M --loss "0 2" --timeout 300 --trace --out "$out/demo-netns" \
        > "$out/demo-netns.txt" 2>&1 || rc=$?
    cat "$out/demo-netns.txt"
    recovered=$(awk '/role=slave/ { for (i = 1; i <= NF; i++) if ($i ~ /^lost_fragments=/) {
                                        split($i, kv, "="); n += kv[2] } } END { print n + 0 }' \
                "$out/demo-netns/loss2/results" 2>/dev/null || echo 0)
    traced=$(grep -a -c '^OE-TRACE .* repair ' "$out/demo-netns/loss2/vm0.log" 2>/dev/null || true)
    left=$(( $(ip netns list | wc -l) - before ))
    [ "$rc" = 0 ] && [ "$recovered" -gt 0 ] && [ "${traced:-0}" -gt 0 ] && [ "$left" = 0 ]
    note demo-netns $? "exit $rc, $recovered fragments recovered at 2 % loss, ${traced:-0} repair blocks traced, $left namespaces left"
else
    note demo-netns 1 "needs root and ip (iproute2) to create network namespaces"
fi

# Two VMs on a socket-multicast segment: VM A holds the master and the
# vanishing slave 2, VM B slave 1. Slave 2 maps its buffer before the master
# does, so both slaves' windows sit at the pool's start (a group write
# carries one address).
repl="--master-mac 02:0e:0c:00:00:01 --group 03:0e:0c:00:00:01 --size 256K --timeout 100"
port=$(( 30000 + ($$ % 2000) * 2 ))
net="socket,mcast=230.0.14.13:$port,localaddr=127.0.0.1"
cat > "$out/vanish-a.sh" <<EOF
enoc-repl slave --dev 1 --id 2 --mac 02:0e:0c:00:00:03 --x-vanish $repl > /tmp/s2.log 2>&1 &
sleep 3
enoc-repl master --dev 0 --slaves 2 --vanish 3 --mac 02:0e:0c:00:00:01 $repl
echo "OE-VANISH-MASTER-RC \$?"
cat /tmp/s2.log
EOF
echo "enoc-repl slave --id 1 --mac 02:0e:0c:00:00:02 $repl" > "$out/vanish-b.sh"
pool="memmap=4M\$0x8000000 openenoc.dma_pool=4M@0x8000000"
"$top/scripts/guest-run.sh" --timeout 200 --mem 300 --append "$pool" \
    --enoc "02:0e:0c:00:00:01=$net" --enoc "02:0e:0c:00:00:03=$net" \
    --script "$out/vanish-a.sh" --log "$out/vanish-a.log" > "$out/vanish-a.qemu.log" 2>&1 &
pid=$!
"$top/scripts/guest-run.sh" --timeout 200 --mem 300 --append "$pool" \
    --enoc "02:0e:0c:00:00:02=$net" \
    --script "$out/vanish-b.sh" --log "$out/vanish-b.log" > "$out/vanish-b.qemu.log" 2>&1 &
pid="$pid $!"
# shellcheck disable=SC2086
wait $pid || true
pid=
master=$(grep -a '^OE-RESULT role=master' "$out/vanish-a.log" | tr -d '\r' || true)
slave1=$(grep -a '^OE-RESULT role=slave id=1' "$out/vanish-b.log" | tr -d '\r' || true)
grep -a -q '^OE-VANISH-MASTER-RC 1' "$out/vanish-a.log" && grep -q ' slaves_ok=1 missing=2 ' <<<"$master" &&
    grep -q ' verify=ok' <<<"$slave1"
note repl-vanish $? "master: ${master:-no result}; slave 1: ${slave1:-no result}"

exit $fail
