#!/usr/bin/env bash
# make qemu-patches: the openenoc device as a `git format-patch` series
# against the pinned QEMU source, for QEMU's mailing list, in
# build/qemu-patches/ (cover letter + 5 patches):
#   1 the endpoint engine and its headers    hw/net/openenoc/{engine,include}
#   2 the PCI device, Kconfig, meson, trace  hw/net/openenoc/, hw/net/*, meson.build
#     and the filter-fault netfilter          qapi/qom.json, system/vl.c
#   3 its documentation                      docs/system/devices/openenoc.rst
#   4 the libqos node and the qtests         tests/qtest/
#   5 the MAINTAINERS entry
# The files are those scripts/qemu/graft.sh --device puts into the tree with
# OPENENOC_DEV_DIR=hw/net/openenoc (the same sources as make qemu) plus
# hw/qemu/upstream/ (documentation page, MAINTAINERS entry, cover letter).
# The series is made in a clean worktree of the pristine source (see
# scripts/qemu/base-tree.sh), $OPENENOC_CACHE/qemu-patches-work.
#
#   patches.sh [--help] [--out DIR]
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
here=$TOP/scripts/qemu
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}
QEMU_VERSION=10.0.2
OUT=$TOP/build/qemu-patches
UP=$TOP/hw/qemu/upstream
AUTHOR_NAME=openenoc-qemu
AUTHOR_EMAIL=openenoc-qemu@users.noreply.github.com
as_author() { git -C "$work" -c user.name="$AUTHOR_NAME" -c user.email="$AUTHOR_EMAIL" "$@"; }

while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --out) OUT=$2; shift 2 ;;
        *) echo "usage: patches.sh [--help] [--out DIR]" >&2; exit 2 ;;
    esac
done

# A worktree of the pristine source kept between runs, under a lock.
work=$CACHE/qemu-patches-work
mkdir -p "$CACHE"
exec 9>"$work.lock"
flock 9
"$here/base-tree.sh" "$work" > /dev/null
OPENENOC_DEV_DIR=hw/net/openenoc "$here/graft.sh" --device "$work" 2> /dev/null
rm -f "$work/.openenoc-graft-manifest"
dev=hw/net/openenoc
install -D -m 644 "$UP/openenoc.rst" "$work/docs/system/devices/openenoc.rst"
# the device's page after igb's in the device list
grep -q 'devices/openenoc.rst' "$work/docs/system/device-emulation.rst" ||
    sed -i 's|^   devices/igb.rst$|&\n   devices/openenoc.rst|' "$work/docs/system/device-emulation.rst"
# MAINTAINERS: the entry after igb's, in the network devices section
awk -v entry="$UP/MAINTAINERS" '
    { print }
    /^igb$/ { in_igb = 1 }
    in_igb && /^$/ { while ((getline l < entry) > 0) print l; print ""; in_igb = 0 }
' "$work/MAINTAINERS" > "$work/MAINTAINERS.new"
mv "$work/MAINTAINERS.new" "$work/MAINTAINERS"

commit() {
    local subject=$1 body=$2; shift 2
    git -C "$work" add -A -- "$@"
    as_author commit -q -s -m "$subject" -m "$body"
}
commit "hw/net/openenoc: add the openENOC endpoint engine" \
"The openENOC endpoint engine as plain C11: the CSRs, the DMA engine and
the oETP protocol engine (remote memory, bulk DMA, multicast, raw frames)
behind a small host interface (include/openenoc/engine.h). It is built as
its own static library; the QEMU device that hosts it follows." \
    "$dev/engine" "$dev/include"
commit "hw/net/openenoc: add the openenoc PCI device" \
"A PCI device whose BAR0 is the 8 KiB CSR aperture of an openENOC
endpoint, with MSI-X, MSI and INTx, function level reset, migration, and
trace events. The endpoint talks oETP (EtherType 0x88B5) to other
endpoints through a netdev." \
    "$dev" hw/net/Kconfig hw/net/meson.build meson.build qapi/qom.json system/vl.c
commit "docs/system/devices: document the openenoc device" \
"How to use the device, its properties, and how to watch it." \
    docs/system/devices/openenoc.rst docs/system/device-emulation.rst
commit "tests/qtest: add a libqos node and qtests for openenoc" \
"The qos graph node \"openenoc\" (libqos/openenoc.c) and the device's
qtests: wire conformance as qos tests, and standalone tests for what needs
several devices or QEMU processes (hub, migration, two processes)." \
    tests/qtest
commit "MAINTAINERS: add an entry for openenoc" "" MAINTAINERS
if [ -n "$(git -C "$work" status --porcelain)" ]; then
    git -C "$work" status --short >&2
    echo "qemu-patches: files left out of the series (above)" >&2
    exit 1
fi

rm -rf "$OUT"
mkdir -p "$OUT"
as_author format-patch -q --cover-letter -o "$OUT" "v$QEMU_VERSION-ds"
# the cover letter's subject and blurb
cover=$(ls "$OUT"/0000-*.patch)
subject=$(sed -n '1p' "$UP/cover-letter.txt")
python3 - "$cover" "$subject" "$UP/cover-letter.txt" <<'PY'
import sys
path, subject, blurb_file = sys.argv[1:]
blurb = open(blurb_file).read().split("\n", 2)[2]
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject)
text = text.replace("*** BLURB HERE ***", blurb.rstrip("\n"))
open(path, "w").write(text)
PY
echo "qemu-patches: $(ls "$OUT" | wc -l) files in $OUT" >&2
ls "$OUT"
