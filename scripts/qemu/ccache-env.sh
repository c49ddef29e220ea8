#!/usr/bin/env bash
# Run a command (ninja) with the compiler going through ccache, as make qemu
# and make check-qemu-patches build QEMU, so that the two trees share
# compiled objects: QEMU's build files call plain "cc", which resolves to
# /usr/lib/ccache/cc first. The cache is $OPENENOC_CACHE/ccache; paths under
# $OPENENOC_CACHE are hashed relative (base dir), and the build directory
# is not hashed, so the same file compiled in either tree is one entry.
# The device's include directory (hw/openenoc/include in make qemu's tree,
# hw/net/openenoc/include in the series) reaches every libcommon object's
# command line through the device's meson dependency; it is left out of the
# hash. That is safe: in direct mode ccache still checks each header a file
# actually included, by path and content, so the device's own files (the
# only ones that include from there) miss and recompile.
# Without ccache installed the command runs unchanged.
#
#   ccache-env.sh COMMAND [ARG ...]
#   ccache-env.sh --stats-zero | --stats-line
set -euo pipefail
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}
export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$CACHE CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_IGNOREOPTIONS="-I../src/hw/openenoc/include -I../src/hw/net/openenoc/include"
case "${1:-}" in
    -h|--help|"") sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ]; exit ;;
    --stats-zero) command -v ccache > /dev/null && ccache -z > /dev/null; exit 0 ;;
    --stats-line)
        command -v ccache > /dev/null || { echo "ccache: not installed"; exit 0; }
        ccache --print-stats | awk -F'\t' '
            $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { hit += $2 }
            $1 == "cache_miss" { miss = $2 }
            END { printf "ccache: %d hits, %d misses since the build started\n", hit, miss }'
        exit 0 ;;
esac
[ -d /usr/lib/ccache ] && export PATH=/usr/lib/ccache:$PATH
exec "$@"
