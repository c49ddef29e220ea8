#!/usr/bin/env bash
# Install every system and Python package the project needs. Idempotent: it
# only calls apt/pip for what is missing. Package lists live in scripts/deps/,
# one file per part of the project (<part>.apt, <part>.pip, and <part>.debconf
# for debconf answers), so each part declares its own needs in one place.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}

apt_pkgs=()
for f in "$here"/deps/*.apt; do
    [ -e "$f" ] || continue
    while read -r line; do
        line=${line%%#*}
        for p in $line; do apt_pkgs+=("$p"); done
    done < "$f"
done
pip_pkgs=()
for f in "$here"/deps/*.pip; do
    [ -e "$f" ] || continue
    while read -r line; do
        line=${line%%#*}
        for p in $line; do pip_pkgs+=("$p"); done
    done < "$f"
done

# apt: spec "name" or "name@suite" (install from that suite, e.g. backports).
missing=()
backports=()
for spec in "${apt_pkgs[@]}"; do
    name=${spec%@*}
    if ! dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed"; then
        if [ "$spec" != "$name" ]; then backports+=("$name/${spec#*@}"); else missing+=("$name"); fi
    fi
done
if [ ${#missing[@]} -gt 0 ] || [ ${#backports[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "deps: missing Debian packages: ${missing[*]} ${backports[*]}" >&2
        echo "deps: run 'make deps' as root (or install them yourself)" >&2
        exit 1
    fi
    "$here/apt-sources.sh"
    export DEBIAN_FRONTEND=noninteractive
    # Answers to packages' install-time questions (deps/<part>.debconf).
    for f in "$here"/deps/*.debconf; do
        if [ -e "$f" ]; then debconf-set-selections "$f"; fi
    done
    [ ${#missing[@]} -gt 0 ] && apt-get install -y --no-install-recommends "${missing[@]}"
    [ ${#backports[@]} -gt 0 ] && apt-get install -y --no-install-recommends "${backports[@]}"
fi

# pip: only what the interpreter cannot import/find yet.
need_pip=()
for spec in "${pip_pkgs[@]}"; do
    if ! "$PYTHON" -m pip show -q "${spec%%[<>=]*}" >/dev/null 2>&1; then need_pip+=("$spec"); fi
done
if [ ${#need_pip[@]} -gt 0 ]; then
    "$PYTHON" -m pip install -q --disable-pip-version-check "${need_pip[@]}"
fi
echo "deps: ok"
