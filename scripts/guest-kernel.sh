#!/usr/bin/env bash
# Guest kernel for the demo and driver tests: Debian's linux-image package of
# the same version as the installed linux-headers-amd64 (the module is built
# against those headers, so the two must match; the host's `uname -r` is
# irrelevant). The package is downloaded, never installed: installing it would
# run update-initramfs and upgrade udev on the host.
#
# Output (in OUT, default build/guest/kernel):
#   vmlinux   ELF kernel extracted from the bzImage, bootable with PVH
#             (QEMU -kernel on an ELF with a PVH note skips the real-mode
#             setup and decompression: ~3 s to /init under TCG instead of ~8)
#   modules/  the few in-tree modules the tests load (e1000, fw_cfg)
#   kver      the kernel version string
#
# The .deb is cached in ${OPENENOC_CACHE:-/var/cache/openenoc}/guest so a CI
# machine that keeps that folder needs no download.
set -euo pipefail

usage() {
    cat <<EOF
usage: $0 [--print-kver] [OUT]
Fetch the guest kernel matching the installed linux-headers-*-amd64 and
extract a PVH-bootable vmlinux plus a few modules into OUT
(default build/guest/kernel).
  --print-kver   only print the kernel version and exit
EOF
}

die() { echo "guest-kernel: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
print_only=0
out=
while [ $# -gt 0 ]; do
    case $1 in
    -h|--help) usage; exit 0 ;;
    --print-kver) print_only=1 ;;
    -*) usage >&2; die "unknown option $1" ;;
    *) out=$1 ;;
    esac
    shift
done
out=${out:-$top/build/guest/kernel}

# The newest installed headers for the amd64 flavour decide the version.
hdr=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$hdr" ] || die "no /usr/src/linux-headers-*-amd64: run 'make deps' (installs linux-headers-amd64)"
kver=${hdr#/usr/src/linux-headers-}
if [ "$print_only" = 1 ]; then echo "$kver"; exit 0; fi

# Modules the guest may load besides ours. Paths inside the package.
# uio_pci_generic and vfio-pci (with what they need, in load order) are the
# userspace-driver routes of check-guest (guest/rootfs/bin/oe-uirq-tests).
modules=(
    kernel/drivers/net/ethernet/intel/e1000/e1000.ko
    kernel/drivers/firmware/qemu_fw_cfg.ko
    kernel/drivers/uio/uio.ko
    kernel/drivers/uio/uio_pci_generic.ko
    kernel/virt/lib/irqbypass.ko
    kernel/drivers/vfio/vfio.ko
    kernel/drivers/vfio/vfio_virqfd.ko
    kernel/drivers/vfio/pci/vfio-pci-core.ko
    kernel/drivers/vfio/pci/vfio-pci.ko
)

have_all() {
    local m
    [ -s "$out/vmlinux" ] && [ "$(cat "$out/kver" 2>/dev/null)" = "$kver" ] || return 1
    for m in "${modules[@]}"; do [ -f "$out/modules/${m##*/}" ] || return 1; done
}
have_all && exit 0

cache=${OPENENOC_CACHE:-/var/cache/openenoc}/guest
mkdir -p "$cache" "$out" 2>/dev/null || die "cannot create $cache or $out"
pkg=linux-image-$kver
deb=$(ls "$cache/${pkg}_"*_amd64.deb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$deb" ]; then
    echo "guest-kernel: downloading $pkg (not installed, only unpacked)"
    (cd "$cache" && apt-get download -q -o APT::Sandbox::User=root "$pkg") ||
        die "apt-get download $pkg failed: is the package list current ('apt-get update') and the mirror reachable?"
    deb=$(ls "$cache/${pkg}_"*_amd64.deb | sort -V | tail -n 1)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp" || die "cannot unpack $deb"
bz="$tmp/boot/vmlinuz-$kver"
[ -f "$bz" ] || die "$deb has no boot/vmlinuz-$kver"

# The bzImage wraps an XZ stream holding the ELF vmlinux. The magic
# FD 37 7A 58 5A 00 can also occur by chance, so try each hit until one
# decompresses to an ELF.
found=0
for off in $(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" | cut -d: -f1); do
    # xz stops reading at the end of the stream, so tail may die of SIGPIPE:
    # judge by xz's own status and the result, not by the pipeline's.
    if (set +o pipefail; tail -c +"$((off + 1))" "$bz" |
            xz -dc --single-stream > "$tmp/vmlinux" 2>/dev/null) &&
       [ "$(head -c 4 "$tmp/vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
        found=1
        break
    fi
done
[ "$found" = 1 ] || die "no XZ-compressed ELF found in $bz"

mkdir -p "$out/modules"
for m in "${modules[@]}"; do
    src="$tmp/lib/modules/$kver/$m"
    [ -f "$src" ] || die "$deb lacks $m"
    cp "$src" "$out/modules/"
done
mv "$tmp/vmlinux" "$out/vmlinux"
echo "$kver" > "$out/kver"
echo "guest-kernel: $out/vmlinux ($kver)"
