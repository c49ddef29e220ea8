#!/usr/bin/env bash
# make fuzz-qemu (build half): QEMU's libFuzzer binary qemu-fuzz-x86_64 with
# the openenoc device, built by clang with ASan and UBSan.
#
# It lives in its OWN cache tree ($OPENENOC_CACHE/qemu-fuzz-tree, override
# with OPENENOC_QEMU_FUZZ_TREE) so the normal `make qemu` tree and its
# configure arguments are untouched. The same pinned tarball and the same
# graft are used. Output: build/qemu-fuzz/qemu-fuzz-x86_64. The first build
# takes tens of minutes on 2 cores (its time is written to
# build/qemu-fuzz/build-seconds); later runs rebuild only what changed.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
here=$TOP/scripts/qemu
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}
QEMU_VERSION=10.0.2
TREE=${OPENENOC_QEMU_FUZZ_TREE:-$CACHE/qemu-fuzz-tree}
OUT=$TOP/build/qemu-fuzz
JOBS=${JOBS:-$(nproc)}
CLANG=${CLANG:-clang-14}
CLANGXX=${CLANGXX:-clang++-14}

case "${1:-}" in
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "usage: $0 [--help]" >&2; exit 2 ;;
esac
command -v "$CLANG" >/dev/null || {
    echo "fuzz-build: $CLANG not found (apt-get install clang-14)" >&2; exit 1; }

start=$(date +%s)
mkdir -p "$OUT"
. "$here/tree.sh"
tree_prepare fuzz-build "$TREE"

# The fuzzer drives the machine through the qtest accelerator, so no TCG is
# built (KVM only satisfies the 'one accelerator' rule and is never used).
configure_args=(
    --cc="$CLANG" --cxx="$CLANGXX"
    --target-list=x86_64-softmmu
    --without-default-features
    --without-default-devices
    --with-devices-x86_64=openenoc
    --disable-tcg --enable-kvm --enable-fdt=system
    --enable-fuzzing --enable-asan --enable-ubsan
    --disable-docs --disable-install-blobs --disable-werror
    --python="$(command -v python3)"
)
tree_configure fuzz-build "${configure_args[@]}"

echo "fuzz-build: ninja qemu-fuzz-x86_64 (log: $BLD/ninja.log)" >&2
ninja -C "$BLD" -j "$JOBS" qemu-fuzz-x86_64 > "$BLD/ninja.log" 2>&1 || {
    grep -v '^\[' "$BLD/ninja.log" | tail -n 60 >&2
    echo "fuzz-build: build failed; full log in $BLD/ninja.log" >&2
    exit 1
}
cmp -s "$BLD/qemu-fuzz-x86_64" "$OUT/qemu-fuzz-x86_64" || {
    cp "$BLD/qemu-fuzz-x86_64" "$OUT/qemu-fuzz-x86_64.tmp"
    mv "$OUT/qemu-fuzz-x86_64.tmp" "$OUT/qemu-fuzz-x86_64"
}
ln -sfn "$TREE" "$OUT/tree"
echo $(( $(date +%s) - start )) > "$OUT/build-seconds"
echo "fuzz-build: $OUT/qemu-fuzz-x86_64 ($(cat "$OUT/build-seconds")s)" >&2
