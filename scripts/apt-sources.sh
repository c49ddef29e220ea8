#!/usr/bin/env bash
# Make bookworm-backports (binary) and deb-src (QEMU source) reachable, then
# refresh the package lists once. Idempotent.
set -euo pipefail
f=/etc/apt/sources.list.d/openenoc-extra.sources
if [ ! -e "$f" ]; then
    cat > "$f" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    rm -f /var/lib/apt/openenoc-updated
fi
stamp=/var/lib/apt/openenoc-updated
if [ ! -e "$stamp" ] || [ -n "$(find "$stamp" -mmin +720)" ]; then
    apt-get update -q
    touch "$stamp"
fi
