#!/usr/bin/env bash
# The pinned QEMU source as a one-commit git repository in the cache
# ($OPENENOC_CACHE/qemu-<version>-git, tag v<version>-ds; made once from the
# tarball, about a minute), and clean worktrees of it: make qemu-patches
# commits the series in one, make check-qemu-patches applies it to another.
#
#   base-tree.sh [--help] DIR
#
# Makes DIR a worktree of that repository at the tag, reset and cleaned (a
# kept worktree only rewrites what changed since; a new one takes about a
# minute to check out). Prints the repository's path. The caller holds DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${OPENENOC_CACHE:-/var/cache/openenoc}
QEMU_VERSION=10.0.2
BASE=$CACHE/qemu-$QEMU_VERSION-git
TAG=v$QEMU_VERSION-ds
case "${1:-}" in
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    ""|-*) echo "usage: base-tree.sh [--help] DIR" >&2; exit 2 ;;
esac
dir=$1
git_base() { git -C "$BASE" -c user.name=openenoc-qemu -c user.email=none@invalid "$@"; }

tarball=$("$here/fetch.sh")
mkdir -p "$CACHE"
exec 8>"$BASE.lock"
flock 8
if [ ! -f "$BASE/.git/openenoc-base-v2" ]; then
    echo "base-tree: making $BASE from $(basename "$tarball")" >&2
    rm -rf "$BASE"
    mkdir -p "$BASE"
    tar -C "$BASE" --strip-components=1 -xf "$tarball"
    git_base init -q
    git_base config gc.auto 0       # one big commit: no background repack
    # -f: also what QEMU's .gitignore names, such as the vendored subprojects
    git_base add -A -f
    git_base commit -q -m "QEMU $QEMU_VERSION (Debian's +ds source)"
    git_base tag "$TAG"
    touch "$BASE/.git/openenoc-base-v2"
fi
if ! git -C "$dir" rev-parse --git-dir > /dev/null 2>&1; then
    rm -rf "$dir"
    git_base worktree prune
    git_base worktree add -q --detach "$dir" "$TAG"
fi
flock -u 8
git -C "$dir" am --abort > /dev/null 2>&1 || true
git -C "$dir" checkout -q -f --detach "$TAG"
git -C "$dir" reset -q --hard "$TAG"
git -C "$dir" clean -q -fdx
echo "$BASE"
