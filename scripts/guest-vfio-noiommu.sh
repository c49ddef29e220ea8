#!/usr/bin/env bash
# vfio.ko with no-IOMMU mode for the guest (make guest). Debian's 6.1 kernel
# ships vfio.ko without CONFIG_VFIO_NOIOMMU, and the test guest has no IOMMU,
# so vfio-pci could not bind the openenoc device at all. This rebuilds only
# vfio.ko from Debian's own linux-source package of the guest kernel's
# version, with that option on (it only adds code inside vfio.ko: the
# "noiommu" group and container backend, and the enable_unsafe_noiommu_mode
# parameter). Debian's vfio-pci.ko and vfio-pci-core.ko load against it
# unchanged. The package is downloaded, never installed, and cached like the
# kernel image.
set -euo pipefail

usage() {
    cat <<EOF
usage: $0 [OUT_DIR]
Build vfio.ko with CONFIG_VFIO_NOIOMMU for the guest kernel (the version of
the installed linux-headers-*-amd64) into OUT_DIR (default
build/guest/vfio-noiommu). Does nothing when OUT_DIR/vfio.ko is current.
EOF
}
die() { echo "guest-vfio-noiommu: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h|--help) usage; exit 0 ;; -*) usage >&2; exit 2 ;; esac
out=${1:-$top/build/guest/vfio-noiommu}

kver=$("$top/scripts/guest-kernel.sh" --print-kver)
hdr=/usr/src/linux-headers-$kver
# The source package carries the upstream version (6.1) and the same Debian
# version as the headers package.
ver=$(dpkg-query -W -f='${Version}' "linux-headers-$kver")
series=$(cut -d. -f1,2 <<<"$kver")
[ -n "$ver" ] || die "cannot tell the version of linux-headers-$kver"
if [ -f "$out/vfio.ko" ] && [ "$(cat "$out/version" 2>/dev/null)" = "$kver $ver" ]; then
    exit 0
fi

cache=${OPENENOC_CACHE:-/var/cache/openenoc}/guest
pkg=linux-source-$series
deb="$cache/${pkg}_${ver}_all.deb"
if [ ! -f "$deb" ]; then
    echo "guest-vfio-noiommu: downloading $pkg $ver (not installed, only unpacked)"
    mkdir -p "$cache"
    (cd "$cache" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver") ||
        die "apt-get download $pkg=$ver failed: is the package list current ('apt-get update')?"
fi

src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
# Only drivers/vfio's own files (not its subfolders) are needed.
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" | xz -dc |
    tar -x -C "$src" --wildcards --no-wildcards-match-slash "$pkg/drivers/vfio/*.[ch]" \
        "$pkg/drivers/vfio/Makefile" ||
    die "cannot unpack drivers/vfio from $deb"
dir="$src/$pkg/drivers/vfio"
# Command-line variables beat the headers' auto.conf: vfio.o only, with
# no-IOMMU on (IS_ENABLED() and #ifdef both see the define).
make -s -C "$hdr" M="$dir" CONFIG_VFIO=m CONFIG_VFIO_NOIOMMU=y CONFIG_VFIO_VIRQFD= \
    CONFIG_VFIO_IOMMU_TYPE1= CONFIG_VFIO_IOMMU_SPAPR_TCE= CONFIG_VFIO_SPAPR_EEH= \
    CONFIG_VFIO_PCI= CONFIG_VFIO_PLATFORM= CONFIG_VFIO_MDEV= CONFIG_VFIO_FSL_MC= \
    KCFLAGS=-DCONFIG_VFIO_NOIOMMU=1 modules > "$src/build.log" 2>&1 ||
    { cat "$src/build.log"; die "building vfio.ko failed"; }
modinfo -p "$dir/vfio.ko" | grep -q '^enable_unsafe_noiommu_mode:' ||
    die "the rebuilt vfio.ko has no enable_unsafe_noiommu_mode parameter"
mkdir -p "$out"
cp "$dir/vfio.ko" "$out/vfio.ko"
echo "$kver $ver" > "$out/version"
echo "guest-vfio-noiommu: $out/vfio.ko ($pkg $ver, CONFIG_VFIO_NOIOMMU)"
