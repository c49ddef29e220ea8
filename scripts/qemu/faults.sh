#!/usr/bin/env bash
# make check-faults / make soak: run the fault matrix or the soak (qtest
# programs built by make qemu) and print their table and BENCH lines.
#
#   faults.sh matrix            two QEMUs, every fault at 1/5/20 %, peer
#                               killed, link down/up (qtest/openenoc-faults-test.c)
#   faults.sh soak SECONDS      three QEMUs, mixed traffic through filter-fault
#                               on every link, two live migrations
#                               (qtest/openenoc-soak-test.c)
#
# The full TAP log goes to build/qemu/qtest/<name>.log. Exit status is
# non-zero if any check failed.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/qemu
case "${1:-}" in
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    matrix) prog=openenoc-faults-test; export OPENENOC_FAULTS=1; limit=900 ;;
    soak)
        secs=${2:-600}
        [[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -ge 10 ] ||
            { echo "soak: SECONDS must be a number >= 10" >&2; exit 2; }
        prog=openenoc-soak-test; export OPENENOC_SOAK_SECONDS=$secs
        limit=$((secs * 2 + 300)) ;;
    *) echo "usage: $0 matrix | soak SECONDS" >&2; exit 2 ;;
esac
[ -x "$OUT/qtest/$prog" ] || { echo "$prog: run 'make qemu' first" >&2; exit 1; }
export QTEST_QEMU_BINARY=$OUT/qemu-system-x86_64
log=$OUT/qtest/$prog.log
start=$(date +%s)
timeout "$limit" "$OUT/qtest/$prog" --tap > "$log" 2>&1
rc=$?
# the table and figures the program printed as test messages
sed -n 's/^# \(FAULTS\|SOAK\) //p; s/^# \(BENCH .*\)/\1/p' "$log"
grep -E '^(not ok|Bail out|ERROR)' "$log" | sed 's/^/    /'
echo "$1: $(( $(date +%s) - start )) s, log $log"
[ $rc -eq 0 ] && ! grep -q '^not ok' "$log"
