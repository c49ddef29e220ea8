#!/usr/bin/env bash
# make check-guest: the in-guest driver tests (one VM, two openenoc devices
# on one QEMU hub), the INTx path, and a shortened replication demo (1 MiB:
# multicast segment with and without injected loss, hub segment). Pass/fail
# is read back from the guests' consoles.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

case ${1:-} in
-h|--help)
    echo "usage: $0   (run by make check-guest; logs in build/check-guest)"
    exit 0 ;;
esac

out=$top/build/check-guest
rm -rf "$out"
mkdir -p "$out"
pass=0 fail=0
note() { if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "PASS $1"; else fail=$((fail + 1)); echo "FAIL $1${3:+: $3}"; fi; }

pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT INT TERM

# Driver tests. The hub joins the two devices; irq_mode stays auto (MSI-X).
"$top/scripts/guest-run.sh" --timeout 300 --mem 512 \
    --enoc 02:0e:0c:00:0a:01=hubport,hubid=0 --enoc 02:0e:0c:00:0b:01=hubport,hubid=0 \
    --log "$out/driver.log" -- oe-driver-tests > "$out/driver.qemu.log" 2>&1 &
pid=$!
wait "$pid" || true
pid=
grep -a '^OE-TEST ' "$out/driver.log" | tr -d '\r' || true
summary=$(grep -a '^OE-TESTS:' "$out/driver.log" | tr -d '\r' || true)
if [ -z "$summary" ]; then
    note driver-tests 1 "no summary from the guest ($(tail -n 2 "$out/driver.qemu.log" "$out/driver.log" 2>/dev/null | tr '\n' ' '))"
else
    p=$(sed 's/.*: \([0-9]*\) passed.*/\1/' <<<"$summary")
    f=$(sed 's/.*, \([0-9]*\) failed.*/\1/' <<<"$summary")
    pass=$((pass + p))
    fail=$((fail + f))
fi

# The same checks once more with legacy interrupts: the INTx path.
"$top/scripts/guest-run.sh" --timeout 120 --append openenoc.irq_mode=intx \
    --enoc 02:0e:0c:00:0a:01 --log "$out/intx.log" -- sh -c "enocctl info && enocctl selftest" \
    > "$out/intx.qemu.log" 2>&1 &
pid=$!
wait "$pid" || true
pid=
grep -a -q 'irq INTx' "$out/intx.log" && grep -a -q '^OE-EXIT 0' "$out/intx.log"
note selftest-intx $? "$(grep -a FAIL "$out/intx.log" | head -3 | tr '\r\n' '  ')"

# The short demo, without and with injected loss; with loss, the recovery
# must have had something to do (else the loss was not injected at all).
if "$top/scripts/demo.sh" --size 1M --chunk 64K --loss "0 2" --timeout 300 --out "$out/demo" \
        > "$out/demo.txt" 2>&1; then
    note demo-short 0
else
    note demo-short 1 "see $out/demo.txt"
fi
cat "$out/demo.txt"
awk '/role=slave/ { for (i = 1; i <= NF; i++) if ($i ~ /^recovered=/) { split($i, kv, "="); r += kv[2] } }
     END { exit !(r > 0) }' "$out/demo/loss2/results" 2>/dev/null
note demo-loss-recovered $? "no slave recovered anything with 2% injected loss"

# The other segment (the benchmark's): a hub in the master, stream links.
if "$top/scripts/demo.sh" --size 1M --loss 0 --segment hub --timeout 300 --out "$out/demo-hub" \
        > "$out/demo-hub.txt" 2>&1; then
    note demo-hub 0
else
    note demo-hub 1 "see $out/demo-hub.txt"
fi

echo "check-guest: $pass passed, $fail failed"
[ "$fail" = 0 ]
