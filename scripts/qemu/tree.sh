# Sourced by build.sh (make qemu) and fuzz-build.sh (make fuzz-qemu): the
# steps every QEMU tree of this project shares. Each tree is its own folder
# (TREE) holding src/ (the pinned tarball, unpacked once, with the device
# grafted) and build/ (configured once per set of arguments).
# shellcheck shell=bash

# tree_prepare TAG TREE: fetch, lock TREE (fd 9, held until exit), unpack
# if needed and graft. Sets SRC and BLD.
tree_prepare() {
    local tag=$1 tarball
    TREE=$2
    tarball=$("$TOP/scripts/qemu/fetch.sh")
    mkdir -p "$TREE"
    exec 9>"$TREE/.lock"
    flock 9
    SRC=$TREE/src
    BLD=$TREE/build
    if [ ! -f "$SRC/.openenoc-unpacked" ]; then
        echo "$tag: unpacking $(basename "$tarball") into $SRC" >&2
        rm -rf "$SRC" "$BLD" "$TREE/unpack"
        mkdir -p "$TREE/unpack"
        tar -C "$TREE/unpack" -xf "$tarball"
        mv "$TREE/unpack/qemu-$QEMU_VERSION" "$SRC"
        rmdir "$TREE/unpack"
        touch "$SRC/.openenoc-unpacked"
    fi
    "$TOP/scripts/qemu/graft.sh" "$SRC"
}

# tree_configure TAG ARG...: (re)configure BLD when the arguments changed.
tree_configure() {
    local tag=$1 want
    shift
    want="$*"
    if [ -f "$BLD/build.ninja" ] && [ "$(cat "$BLD/.openenoc-configure" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    echo "$tag: configuring in $BLD" >&2
    rm -rf "$BLD"
    mkdir -p "$BLD"
    (cd "$BLD" && "$SRC/configure" "$@") > "$BLD/configure.log" 2>&1 || {
        tail -n 30 "$BLD/configure.log" >&2
        echo "$tag: configure failed; full log in $BLD/configure.log" >&2
        exit 1
    }
    echo "$want" > "$BLD/.openenoc-configure"
}
