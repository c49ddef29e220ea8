#!/usr/bin/env bash
# Prove that synth.py's checks fire: each seeded violation in
# scripts/synth/bad/ must fail with its expected message, and the clean
# control case must pass. Usage: selftest.sh [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
    -h|--help)
        sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
        exit 0;;
esac
out=${1:-$here/../../build/synth-selftest}
mkdir -p "$out"
fail=0
while read -r name top src expect; do
    case "$name" in ''|'#'*) continue;; esac
    printf '%s %s %s\n' "$name" "$top" "$src" >"$out/$name.tops"
    if python3 "$here/synth.py" --tops "$out/$name.tops" --rtl "$here/bad" --out "$out" \
            >"$out/$name.txt" 2>&1; then rc=0; else rc=1; fi
    if [ "$expect" = "-" ]; then
        if [ $rc -ne 0 ]; then
            echo "synth selftest: $name: the clean design failed"; cat "$out/$name.txt"; fail=1
        fi
    elif [ $rc -eq 0 ] || ! grep -Eq "$expect" "$out/$name.txt"; then
        echo "synth selftest: $name: not rejected with /$expect/ (exit $rc)"; cat "$out/$name.txt"; fail=1
    fi
done <"$here/bad/tops.txt"
[ $fail -eq 0 ] && echo "synth selftest: every seeded violation was rejected, the control passed"
exit $fail
