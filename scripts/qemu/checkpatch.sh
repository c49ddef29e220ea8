#!/usr/bin/env bash
# make checkpatch: run QEMU's own scripts/checkpatch.pl (from the pinned
# QEMU source that make qemu unpacks) on the device (hw/qemu) and its qtests
# (qtest/). Each file is checked under the path it has in QEMU's tree
# (hw/net/openenoc/..., tests/qtest/...), because checkpatch's rules depend
# on it: glib's non-aborting g_assert_cmp* are allowed only under tests/.
# Fails on any error or warning.
#
#   checkpatch.sh [--help] [FILE ...]
#       (default: hw/qemu/*.[ch], its trace-events, Kconfig and meson.build,
#        qtest/*.[ch], qtest/libqos/*.[ch])
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}
TREE=${OPENENOC_QEMU_TREE:-$CACHE/qemu-10.0.2-tree}
CP=$TREE/src/scripts/checkpatch.pl
case "${1:-}" in
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ -f "$CP" ] || { echo "checkpatch: no $CP; run 'make qemu' first" >&2; exit 1; }
cd "$TOP"
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(hw/qemu/*.[ch] hw/qemu/trace-events hw/qemu/Kconfig
                                 hw/qemu/meson.build qtest/*.[ch] qtest/libqos/*.[ch])

# A scratch tree of links: QEMU path -> file here.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qpaths=()
for f in "${files[@]}"; do
    case "$f" in
        hw/qemu/*) q=hw/net/openenoc/${f#hw/qemu/} ;;
        qtest/*) q=tests/qtest/${f#qtest/} ;;
        *) echo "checkpatch: $f is neither in hw/qemu nor in qtest" >&2; exit 2 ;;
    esac
    mkdir -p "$tmp/$(dirname "$q")"
    ln -s "$TOP/$f" "$tmp/$q"
    qpaths+=("$q")
done
cd "$tmp"
errors=0 warnings=0
for q in "${qpaths[@]}"; do
    out=$(perl "$CP" --no-tree --terse --no-summary -f "$q" 2>&1) || true
    [ -z "$out" ] && continue
    echo "$out"
    errors=$((errors + $(grep -c ': ERROR:' <<< "$out" || true)))
    warnings=$((warnings + $(grep -c ': WARNING:' <<< "$out" || true)))
done
echo "checkpatch: ${#qpaths[@]} files, $errors errors, $warnings warnings"
[ "$errors" = 0 ] && [ "$warnings" = 0 ]
