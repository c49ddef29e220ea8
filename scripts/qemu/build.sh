#!/usr/bin/env bash
# make qemu: fetch the pinned QEMU, graft the openenoc device and qtests into
# it, configure a minimal x86_64 system emulator and build it.
#
# The unpacked tree and its build directory live in the cache
# ($OPENENOC_CACHE/qemu-<version>-tree, override with OPENENOC_QEMU_TREE) so
# a fresh clone on the same machine rebuilds only what changed; build/qemu/tree
# links to it. Outputs: build/qemu/qemu-system-x86_64, the qtest binaries
# in build/qemu/qtest/ and the benchmark build/qemu/openenoc-bench. Re-running after touching one device file rebuilds in
# seconds. Concurrent runs are serialised by a lock on the tree.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
here=$TOP/scripts/qemu
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}
QEMU_VERSION=10.0.2
TREE=${OPENENOC_QEMU_TREE:-$CACHE/qemu-$QEMU_VERSION-tree}
OUT=$TOP/build/qemu
JOBS=${JOBS:-$(nproc)}

case "${1:-}" in
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "usage: $0 [--help]" >&2; exit 2 ;;
esac

mkdir -p "$OUT"
. "$here/tree.sh"
tree_prepare qemu "$TREE"

"$here/configure.sh" "$SRC" "$BLD"

# Standalone qtests; the qos ones (libqos_init) are built into qos-test.
mapfile -t qtests < <(cd "$TOP/qtest" && grep -L '^libqos_init(' -- *-test.c | sed 's/\.c$//')
if grep -q '^libqos_init(' "$TOP"/qtest/*-test.c; then qtests+=(qos-test); fi
targets=(qemu-system-x86_64)
for t in "${qtests[@]}"; do targets+=("tests/qtest/$t"); done
targets+=(tests/qtest/openenoc-bench hw/openenoc/libopenenoc-engine.so
          hw/openenoc/libopenenoc-engine-stateless.so)
# through ccache: make check-qemu-patches compiles the same files again
echo "qemu: ninja ${targets[*]} (log: $BLD/ninja.log)" >&2
"$here/ccache-env.sh" ninja -C "$BLD" -j "$JOBS" "${targets[@]}" > "$BLD/ninja.log" 2>&1 || {
    grep -v '^\[' "$BLD/ninja.log" | tail -n 60 >&2
    echo "qemu: build failed; full log in $BLD/ninja.log" >&2
    exit 1
}

# Copy (not link) the products so this checkout keeps its own binaries even
# if another checkout later rebuilds the shared tree.
inst() { cmp -s "$1" "$2" || { cp "$1" "$2.tmp" && mv "$2.tmp" "$2"; }; }
inst "$BLD/qemu-system-x86_64" "$OUT/qemu-system-x86_64"
mkdir -p "$OUT/qtest"
rm -f "$OUT/qtest/"*-test
for t in "${qtests[@]}"; do inst "$BLD/tests/qtest/$t" "$OUT/qtest/$t"; done
inst "$BLD/tests/qtest/openenoc-bench" "$OUT/openenoc-bench"
inst "$BLD/hw/openenoc/libopenenoc-engine.so" "$OUT/libopenenoc-engine.so"
inst "$BLD/hw/openenoc/libopenenoc-engine-stateless.so" \
    "$OUT/libopenenoc-engine-stateless.so"
ln -sfn "$TREE" "$OUT/tree"
echo "qemu: $OUT/qemu-system-x86_64" >&2
