#!/usr/bin/env bash
# The vCPU side of RMEM window accesses under TCG (qtests use -accel qtest,
# where accesses come from the main loop instead). Needs the guest image of
# `make guest`; prints a skip line without it.
#  1. a window read/write from the vCPU blocks it (BQL dropped) until the
#     other device on the hub answers: the values round-trip;
#  2. two vCPUs reading the window at once each get their own answers;
#  3. a window read from a silent peer with no timeout blocks the vCPU for
#     good; SIGTERM must still end QEMU promptly (the access is abandoned).
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
run=$TOP/scripts/guest-run.sh
if [ ! -e "$TOP/build/guest/kernel/vmlinux" ] || [ ! -x "$run" ]; then
    echo "tcg-check: skipped (no guest image: make guest)"
    exit 0
fi
script=$TOP/scripts/qemu/guest/tcg-rmem.sh
enoc=(--enoc 02:0e:0c:00:00:10=hubport,hubid=0 --enoc 02:0e:0c:00:00:11=hubport,hubid=0)
pass=0 fail=0
out=$("$run" --timeout 120 "${enoc[@]}" --script "$script" 2>&1)
if grep -q "window read back: 0xC0FFEE11" <<< "$out" &&
   grep -q "window read back: 0x12345678" <<< "$out"; then
    echo "ok - tcg: RMEM window round trip from a blocked vCPU"; pass=$((pass + 1))
else
    echo "not ok - tcg: RMEM window round trip from a blocked vCPU"; fail=$((fail + 1))
    tail -n 20 <<< "$out" | sed 's/^/    /'
fi

# Two vCPUs reading the window at once (QEMU gets -smp 2 through a wrapper).
wrap=$(mktemp -d)
printf '#!/bin/sh\nexec "%s" -smp 2 "$@"\n' "${OPENENOC_QEMU:-$TOP/build/qemu/qemu-system-x86_64}" \
    > "$wrap/qemu-system-x86_64"
chmod +x "$wrap/qemu-system-x86_64"
{ echo "#!/bin/sh"; echo "CONCURRENT=1"; tail -n +2 "$script"; } > "$wrap/run.sh"
out=$(OPENENOC_QEMU=$wrap/qemu-system-x86_64 "$run" --timeout 180 "${enoc[@]}" \
      --script "$wrap/run.sh" 2>&1)
if grep -q "reader 1 mismatches: 0" <<< "$out" &&
   grep -q "reader 2 mismatches: 0" <<< "$out"; then
    echo "ok - tcg: two vCPUs reading the RMEM window concurrently"; pass=$((pass + 1))
else
    echo "not ok - tcg: two vCPUs reading the RMEM window concurrently"
    fail=$((fail + 1))
    tail -n 20 <<< "$out" | sed 's/^/    /'
fi
rm -rf "$wrap"

log=$(mktemp)
silent=$(mktemp)
{ echo "#!/bin/sh"; echo "SILENT=1"; tail -n +2 "$script"; } > "$silent"
"$run" --timeout 120 "${enoc[@]}" --script "$silent" > "$log" 2>&1 &
pid=$!
for _ in $(seq 1 900); do grep -q "blocking on a silent peer" "$log" && break; sleep 0.1; done
sleep 1
t0=$(date +%s%N)
kill -TERM "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if grep -q "blocking on a silent peer" "$log" && ! grep -q "not reached" "$log" &&
   ! kill -0 "$pid" 2>/dev/null; then
    echo "ok - tcg: QEMU stops ${ms} ms after SIGTERM with a vCPU blocked on a silent peer"
    pass=$((pass + 1))
else
    echo "not ok - tcg: QEMU with a vCPU blocked on a silent peer did not stop on SIGTERM"
    kill -KILL "$pid" 2>/dev/null || true
    tail -n 20 "$log" | sed 's/^/    /'
    fail=$((fail + 1))
fi
rm -f "$log" "$silent"
echo "tcg-check: $pass passed, $fail failed"
[ "$fail" = 0 ]
