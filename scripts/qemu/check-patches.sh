#!/usr/bin/env bash
# make check-qemu-patches: apply the series of make qemu-patches
# (build/qemu-patches/) with `git am` to a clean copy of the pinned QEMU
# source, build it, and run its qtests against it.
#
# The copy is configured exactly as make qemu configures its tree (the same
# configure arguments, scripts/qemu/configure.sh, and the same build
# configuration from graft.sh --config: minimal device set, no edk2 blobs)
# and lives beside it ($OPENENOC_CACHE/qemu-patches-tree/{src,build}), so the
# compiler command lines are the same. Both builds compile through ccache
# (/usr/lib/ccache, cache in $OPENENOC_CACHE/ccache, base dir
# $OPENENOC_CACHE): QEMU's own files compile once for both. The copy's build
# directory is kept between runs.
#
#   check-patches.sh [--help]
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
here=$TOP/scripts/qemu
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}
QEMU_VERSION=10.0.2
TREE=$CACHE/qemu-patches-tree
SRC=$TREE/src
BLD=$TREE/build
PATCHES=$TOP/build/qemu-patches
OUT=$TOP/build/qemu-patches-check
JOBS=${JOBS:-$(nproc)}
case "${1:-}" in
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "usage: check-patches.sh [--help]" >&2; exit 2 ;;
esac
ls "$PATCHES"/0001-*.patch > /dev/null 2>&1 ||
    { echo "check-qemu-patches: no series in $PATCHES; run 'make qemu-patches'" >&2; exit 1; }
start=$(date +%s)
mkdir -p "$TREE" "$OUT"
exec 9>"$TREE/.lock"
flock 9

# 1. a clean copy of the pinned source, then the series
"$here/base-tree.sh" "$SRC" > /dev/null
mapfile -t series < <(ls "$PATCHES"/[0-9]*.patch | grep -v '/0000-cover-letter.patch$')
git -C "$SRC" -c user.name=openenoc-qemu -c user.email=none@invalid am -q "${series[@]}"
echo "check-qemu-patches: applied $(git -C "$SRC" rev-list --count "v$QEMU_VERSION-ds..HEAD") patches" >&2
"$here/graft.sh" --config "$SRC"

# 2. configure as make qemu does, build through ccache
# QEMU defaults to -Werror in a git checkout (this copy), not in an unpacked
# tarball (make qemu's tree): say so, or no command line would be the same.
"$here/configure.sh" "$SRC" "$BLD" --disable-werror
# the qtest programs the series adds; its qos tests are built into qos-test
mapfile -t added < <(git -C "$SRC" diff --name-only "v$QEMU_VERSION-ds" HEAD -- 'tests/qtest/*-test.c')
mapfile -t tests < <(cd "$SRC" && grep -L '^libqos_init(' "${added[@]}" | xargs -n1 basename |
                     sed 's/\.c$//')
(cd "$SRC" && grep -q '^libqos_init(' "${added[@]}") && tests+=(qos-test)
targets=(qemu-system-x86_64 hw/net/openenoc/libopenenoc-engine.so
         hw/net/openenoc/libopenenoc-engine-stateless.so)
for t in "${tests[@]}"; do targets+=("tests/qtest/$t"); done
"$here/ccache-env.sh" --stats-zero
echo "check-qemu-patches: ninja (log: $BLD/ninja.log)" >&2
"$here/ccache-env.sh" ninja -C "$BLD" -j "$JOBS" "${targets[@]}" > "$BLD/ninja.log" 2>&1 || {
    grep -v '^\[' "$BLD/ninja.log" | tail -n 40 >&2
    echo "check-qemu-patches: build failed; full log in $BLD/ninja.log" >&2
    exit 1
}
built=$(date +%s)
"$here/ccache-env.sh" --stats-line >&2

# 3. the series' qtests against the series' QEMU
rm -rf "$OUT"
mkdir -p "$OUT/qtest"
cp "$BLD/qemu-system-x86_64" "$OUT/"
cp "$BLD/hw/net/openenoc/libopenenoc-engine.so" "$BLD/hw/net/openenoc/libopenenoc-engine-stateless.so" "$OUT/"
for t in "${tests[@]}"; do cp "$BLD/tests/qtest/$t" "$OUT/qtest/"; done
rc=0
OPENENOC_QEMU_OUT=$OUT "$here/run-qtests.sh" "${tests[@]}" || rc=$?
echo "check-qemu-patches: build $((built - start)) s, qtests $(( $(date +%s) - built )) s"
exit $rc
