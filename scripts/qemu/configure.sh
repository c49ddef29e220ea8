#!/usr/bin/env bash
# Configure a QEMU build directory as this project builds QEMU (make qemu and
# make check-qemu-patches use the same arguments, so the two trees compile
# identical command lines and share ccache entries). Reconfigures only when
# the arguments changed (a full rebuild: about 10 minutes on 2 cores).
#
#   configure.sh [--help] QEMU_SRC BUILD_DIR [EXTRA_ARG ...]
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/qemu/tree.sh"
case "${1:-}" in
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -ge 2 ] || { echo "usage: configure.sh [--help] QEMU_SRC BUILD_DIR [EXTRA_ARG ...]" >&2; exit 2; }
SRC=$1
BLD=$2
shift 2

configure_args=(
    --target-list=x86_64-softmmu
    --without-default-features
    --without-default-devices
    --with-devices-x86_64=openenoc
    --enable-tcg --enable-kvm --enable-slirp --enable-fdt=system
    --disable-docs --disable-install-blobs
    # Debian's seabios and qemu-system-data packages hold the BIOS and the
    # option ROMs: search them like a distro QEMU does, so no -L is needed.
    --firmwarepath=/usr/share/seabios:/usr/share/qemu
    --python="$(command -v python3)"
    "$@"
)
tree_configure qemu "${configure_args[@]}"
