#!/usr/bin/env bash
# make check-qtest: run the openenoc qtests (built by make qemu) against
# build/qemu/qemu-system-x86_64 and print one summary line.
#
#   run-qtests.sh [-v] [--rtl LIB] [NAME-test ...]
#                 (default: every build/qemu/qtest/*-test)
#
# Each test program prints TAP; its log goes to build/qemu/qtest/NAME.log.
# Without names it also runs scripts/qemu/tcg-check.sh (skipped when the
# guest image of `make guest` is missing).
# --rtl LIB (make check-qtest-rtl) runs every device on the engine library
# LIB, the Verilator model of the RTL, and by default the suites that can
# run on it; logs go to NAME.rtl.log.
# Exit status is non-zero if any test case or program failed.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OPENENOC_QEMU_OUT:-$TOP/build/qemu}    # make check-qemu-patches points elsewhere
verbose=0 rtl= tag=qtest
# Not on the RTL model: pacing (the model moves well under a MB/s, below the
# rates the test sets).
RTL_PROGS=(openenoc-id-test qos-test openenoc-hub-test
           openenoc-xproc-test openenoc-pcap-test openenoc-hostile-test
           openenoc-migration-test)
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -v) verbose=1; shift ;;
        --rtl)
            [ $# -ge 2 ] || { echo "check-qtest: --rtl needs a library" >&2; exit 2; }
            rtl=$(realpath -e "$2" 2>/dev/null) ||
                { echo "check-qtest: no engine library $2 (make cosim)" >&2; exit 1; }
            tag=qtest-rtl; shift 2 ;;
        *) break ;;
    esac
done
[ -x "$OUT/qemu-system-x86_64" ] || { echo "check-qtest: run 'make qemu' first" >&2; exit 1; }

export QTEST_QEMU_BINARY=$OUT/qemu-system-x86_64
export G_TEST_SRCDIR=$TOP/qtest
# engine=rtl loader tests: the C engine as a library, with and without save/load
export OPENENOC_ENGINE_SO=$OUT/libopenenoc-engine.so
export OPENENOC_ENGINE_STATELESS_SO=$OUT/libopenenoc-engine-stateless.so
export OPENENOC_QTEST_RTL_MODEL=$rtl    # empty: the built-in C engine
if [ $# -gt 0 ]; then
    progs=("$@")
elif [ -n "$rtl" ]; then
    progs=("${RTL_PROGS[@]}")
else
    progs=()
    for p in "$OUT"/qtest/*-test; do [ -x "$p" ] && progs+=("$(basename "$p")"); done
fi
[ ${#progs[@]} -gt 0 ] || { echo "check-qtest: no qtest programs in $OUT/qtest" >&2; exit 1; }

# qos-test holds every qos test QEMU's build has; run only those of the
# openenoc node's test node (the generic pci-device nop test would start a
# machine with default devices): "-p PATH" for each (glib's -p does not
# take the node's path as a prefix here).
qos_args() {
    "$OUT/qtest/qos-test" -l 2>/dev/null | grep '^/.*/openenoc/openenoc-tests/' | sed 's/^/-p\n/'
}

pass=0 fail=0 skip=0 broken=()
for name in "${progs[@]}"; do
    log=$OUT/qtest/$name${rtl:+.rtl}.log
    start=$(date +%s)
    args=()
    [ "$name" = qos-test ] && mapfile -t args < <(qos_args)
    ( timeout 600 "$OUT/qtest/$name" --tap -k "${args[@]}" > "$log" 2>&1; exit $? ) 2>/dev/null
    rc=$?
    p=$(grep -c '^ok ' "$log")
    s=$(grep -c '^ok .*# SKIP' "$log")
    f=$(grep -c '^not ok ' "$log")
    p=$((p - s))
    pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + f))
    if [ $rc -ne 0 ]; then
        echo "not ok - $name exited with status $rc" >> "$log"
        [ "$f" = 0 ] && fail=$((fail + 1))
        broken+=("$name")
    fi
    printf '%s: %-28s %3d passed %3d failed %3d skipped  %ds\n' "$tag" \
        "$name" "$p" "$f" "$s" $(( $(date +%s) - start ))
    if [ $verbose = 1 ] || [ "$f" != 0 ] || [ $rc -ne 0 ]; then
        grep -E '^(not ok|# |Bail out|\*\*|ERROR)' "$log" | grep -v '^# starting QEMU' |
            tail -n 30 | sed 's/^/    /'
    fi
done
# The vCPU (TCG) side of blocking window accesses, with the guest image.
if [ $# -eq 0 ] && [ -z "$rtl" ]; then
    tcg=$("$TOP/scripts/qemu/tcg-check.sh" 2>&1)
    p=$(grep -c '^ok ' <<< "$tcg")
    f=$(grep -c '^not ok ' <<< "$tcg")
    s=$(grep -c 'skipped' <<< "$tcg")
    pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
    printf 'qtest: %-28s %3d passed %3d failed %3d skipped\n' tcg-check "$p" "$f" "$s"
    if [ $verbose = 1 ] || [ "$f" != 0 ]; then sed 's/^/    /' <<< "$tcg"; fi
fi
for b in "${broken[@]}"; do
    echo "$tag: $b ended abnormally; see $OUT/qtest/$b${rtl:+.rtl}.log"
done
echo "check-$tag: $pass passed, $fail failed, $skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
