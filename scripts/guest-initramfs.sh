#!/usr/bin/env bash
# Pack the guest initramfs: busybox-static with one link per applet, the
# rootfs overlay (guest/rootfs: /init and the guest-side scripts), the
# openenoc module, the in-tree modules fetched by guest-kernel.sh and the
# static userspace tools.
set -euo pipefail

usage() {
    cat <<EOF
usage: $0 -o OUT.cpio.gz -k KERNEL_DIR -r ROOTFS_DIR [-m MODULE.ko]... [-b BINARY]...
  -o  output file (gzip-compressed newc cpio)
  -k  output folder of guest-kernel.sh (modules/ is copied to /lib/modules)
  -r  overlay copied to / (must contain an executable init)
  -m  extra kernel module for /lib/modules (repeatable)
  -b  static binary for /bin (repeatable)
EOF
}
die() { echo "guest-initramfs: $*" >&2; exit 1; }

out= kdir= rootfs=
mods=() bins=()
while getopts "o:k:r:m:b:h" opt; do
    case $opt in
    o) out=$OPTARG ;;
    k) kdir=$OPTARG ;;
    r) rootfs=$OPTARG ;;
    m) mods+=("$OPTARG") ;;
    b) bins+=("$OPTARG") ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done
[ -n "$out" ] && [ -n "$kdir" ] && [ -n "$rootfs" ] || { usage >&2; exit 2; }
[ -x "$rootfs/init" ] || die "$rootfs/init missing or not executable"
bb=/bin/busybox
[ -x "$bb" ] && "$bb" --list >/dev/null 2>&1 || die "busybox-static not installed: run 'make deps'"
case $(ldd "$bb" 2>&1) in
*"not a dynamic"*) ;;
*) die "$bb is not static: install busybox-static" ;;
esac

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,lib/modules}
cp "$bb" "$stage/bin/busybox"
for applet in $("$bb" --list); do
    # `busybox --list` names busybox itself: linking it would replace the
    # binary by a link to itself.
    [ "$applet" = busybox ] && continue
    [ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
cp -a "$rootfs"/. "$stage"/
cp "$kdir"/modules/*.ko "$stage/lib/modules/"
for m in ${mods[@]+"${mods[@]}"}; do
    [ -f "$m" ] || die "module $m not built"
    cp "$m" "$stage/lib/modules/"
done
for b in ${bins[@]+"${bins[@]}"}; do
    [ -x "$b" ] || die "binary $b not built"
    rm -f "$stage/bin/$(basename "$b")"
    cp "$b" "$stage/bin/"
done
# Device nodes the kernel needs before devtmpfs is mounted.
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true
mknod -m 666 "$stage/dev/null" c 1 3 2>/dev/null || true

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet -R 0:0) |
    gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "guest-initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
