#!/usr/bin/env bash
# Fetch the pinned QEMU source tarball from Debian's source packages into the
# cache and verify it. Prints the tarball path on stdout.
#
# The version and hash are pinned so that every machine builds the same QEMU:
# the device model is grafted into this exact tree.
set -euo pipefail

QEMU_VERSION=10.0.2
QEMU_TARBALL=qemu_${QEMU_VERSION}+ds.orig.tar.xz
QEMU_SHA256=0901da33844a331bf8b3602b9c1fbd178e60b737c8e3ade678255bd090c9b9f1
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}

usage() {
    cat <<USAGE
usage: $0 [--help]
Fetch $QEMU_TARBALL (sha256 $QEMU_SHA256)
from Debian's bookworm-backports source packages into \$OPENENOC_CACHE
(now $CACHE) unless it is already there, verify it and print its path.
USAGE
}
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) usage >&2; exit 2 ;;
esac

mkdir -p "$CACHE"
dest=$CACHE/$QEMU_TARBALL

verify() {
    echo "$QEMU_SHA256  $1" | sha256sum --check --status
}

if [ -f "$dest" ] && verify "$dest"; then
    echo "$dest"
    exit 0
fi
rm -f "$dest"

command -v apt-get >/dev/null || {
    echo "qemu-fetch: apt-get not found; place $QEMU_TARBALL (sha256 $QEMU_SHA256) in $CACHE by hand" >&2
    exit 1
}
tmp=$(mktemp -d "$CACHE/fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt-get may fail on the .dsc/.debian.tar.xz (they have answered 404) while
# the orig tarball, the only file needed, arrives: judge by the tarball.
(cd "$tmp" && apt-get source --download-only -t bookworm-backports qemu) \
    >"$tmp/apt.log" 2>&1 || true
if [ ! -f "$tmp/$QEMU_TARBALL" ]; then
    echo "qemu-fetch: could not download $QEMU_TARBALL from Debian's source packages." >&2
    echo "qemu-fetch: is deb-src for bookworm-backports configured (scripts/apt-sources.sh) and" >&2
    echo "qemu-fetch: does the mirror still carry QEMU $QEMU_VERSION? apt-get said:" >&2
    tail -n 5 "$tmp/apt.log" >&2
    echo "qemu-fetch: alternatively place the tarball (sha256 $QEMU_SHA256) in $CACHE" >&2
    exit 1
fi
if ! verify "$tmp/$QEMU_TARBALL"; then
    echo "qemu-fetch: $QEMU_TARBALL has the wrong sha256 (want $QEMU_SHA256); refusing it" >&2
    exit 1
fi
mv "$tmp/$QEMU_TARBALL" "$dest"
echo "$dest"
