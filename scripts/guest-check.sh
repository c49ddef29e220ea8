#!/usr/bin/env bash
# make check-guest: the in-guest driver tests (one VM, two openenoc devices
# on one QEMU hub), userspace interrupt service (oe-uirq-tests: the driver's
# userspace-interrupt mode, uio_pci_generic, vfio-pci), the INTx path, and a
# shortened replication demo (1 MiB:
# multicast segment with and without injected loss, hub segment). Pass/fail
# is read back from the guests' consoles.
# make check-guest-rtl (--rtl MODEL): the driver tests that matter, with both
# devices on the RTL engine (guest/rootfs/bin/oe-rtl-tests), and nothing else.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

rtl_model=
case ${1:-} in
-h|--help)
    cat <<EOF
usage: $0 [--rtl MODEL]
  (no option)  make check-guest; logs in build/check-guest
  --rtl MODEL  make check-guest-rtl: every device on engine=rtl with the
               Verilator model library MODEL (build/cosim/libopenenoc_rtl.so);
               logs in build/check-guest-rtl
EOF
    exit 0 ;;
--rtl)
    [ -f "${2:-}" ] || { echo "guest-check: no RTL model at '${2:-}': run 'make cosim'" >&2; exit 2; }
    rtl_model=$(realpath "$2") ;;
'') ;;
*) echo "guest-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

out=$top/build/check-guest${rtl_model:+-rtl}
rm -rf "$out"
mkdir -p "$out"
pass=0 fail=0
note() { if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "PASS $1"; else fail=$((fail + 1)); echo "FAIL $1${3:+: $3}"; fi; }

pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT INT TERM

# One guest with the given devices (hub2: two joined by a hub), running an
# in-guest suite (guest/rootfs/bin/NAME) whose OE-TEST lines and summary are
# counted here.
hub2=(--enoc 02:0e:0c:00:0a:01=hubport,hubid=0 --enoc 02:0e:0c:00:0b:01=hubport,hubid=0)
guest_suite() {  # NAME TIMEOUT guest-run.sh options (the devices)...
    local name=$1 tmo=$2 p f summary
    shift 2
    "$top/scripts/guest-run.sh" --timeout "$tmo" --mem 512 "$@" \
        --log "$out/$name.log" -- "$name" > "$out/$name.qemu.log" 2>&1 &
    pid=$!
    wait "$pid" || true
    pid=
    grep -a '^OE-TEST ' "$out/$name.log" | tr -d '\r' || true
    summary=$(grep -a '^OE-TESTS:' "$out/$name.log" | tr -d '\r' || true)
    if [ -z "$summary" ]; then
        note "$name" 1 "no summary from the guest ($(tail -n 2 "$out/$name.qemu.log" "$out/$name.log" 2>/dev/null | tr '\n' ' '))"
        return
    fi
    p=$(sed 's/.*: \([0-9]*\) passed.*/\1/' <<<"$summary")
    f=$(sed 's/.*, \([0-9]*\) failed.*/\1/' <<<"$summary")
    pass=$((pass + p))
    fail=$((fail + f))
}

if [ -n "$rtl_model" ]; then
    guest_suite oe-rtl-tests 600 "${hub2[@]}" --enoc-prop engine=rtl --enoc-prop "rtl-model=$rtl_model"
    echo "check-guest-rtl: $pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit
fi

# Driver tests; irq_mode stays auto (MSI-X).
guest_suite oe-driver-tests 300 "${hub2[@]}"

# Firmware-style IRQ service from userspace: openenoc.ko's userspace-
# interrupt mode (MSI-X, INTx), uio_pci_generic and vfio-pci (no-IOMMU).
# One device with no network: its storm of frames is never held back.
guest_suite oe-uirq-tests 300 --enoc 02:0e:0c:00:0a:01
grep -a '^OE-UIRQ ' "$out/oe-uirq-tests.log" | tr -d '\r' || true

# Each interrupt mode the driver falls back to, forced in turn (the driver
# tests above ran with MSI-X): module reloaded with irq_mode=..., selftest.
cat > "$out/irq-modes.sh" <<'EOF'
for m in msix:MSI-X msi:MSI intx:INTx; do
    : > /tmp/st
    insmod /lib/modules/openenoc.ko irq_mode=${m%%:*} || exit 1
    enocctl info | grep -q "irq ${m#*:} " && enocctl selftest > /tmp/st 2>&1
    rc=$?
    echo "OE-IRQ-MODE ${m#*:} $([ $rc = 0 ] && echo PASS || echo FAIL) $(grep FAIL /tmp/st | tr '\n' ' ')"
    rmmod openenoc || exit 1
done
EOF
"$top/scripts/guest-run.sh" --timeout 120 --append oe.noload --enoc 02:0e:0c:00:0a:01 \
    --script "$out/irq-modes.sh" --log "$out/irq-modes.log" > "$out/irq-modes.qemu.log" 2>&1 &
pid=$!
wait "$pid" || true
pid=
for m in MSI-X MSI INTx; do
    grep -a -q "^OE-IRQ-MODE $m PASS" "$out/irq-modes.log"
    note "selftest-irq-$m" $? "$(grep -a "^OE-IRQ-MODE $m" "$out/irq-modes.log" | tr -d '\r')"
done

# The short demo, without and with injected loss; with loss, the recovery
# must have had something to do (else the loss was not injected at all).
if "$top/scripts/demo.sh" --size 1M --loss "0 2" --timeout 300 --out "$out/demo" \
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
