#!/usr/bin/env bash
# make check-docs: the repository's Markdown stands alone and does not drift.
#
#   check-docs.sh [FILE.md ...]     (default: every tracked *.md)
#
# Fails (exit 1, one line per finding) when a document
#   - names a path outside the repository (a workspace folder such as
#     /work/... or a sibling checkout such as ../something or shared/spec/...);
#   - links ([text](target)) to a relative path that does not exist;
#   - hard-codes a test count ("49 qtests", "24 passed"): counts change with
#     every test added, so docs name the command that prints them instead.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
cd "$TOP" || exit 1
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(git ls-files '*.md'); fi

bad=0
report() { echo "check-docs: $1"; bad=1; }
for f in "${files[@]}"; do
    [ -f "$f" ] || { report "$f: no such file"; continue; }
    # Paths outside the repository: workspace folders, and ../ paths that
    # leave the repository from where the document stands.
    dir=$(dirname "$f")
    while IFS= read -r hit; do
        report "$f:$hit: names a path outside the repository"
    done < <(grep -nE '(^|[^A-Za-z0-9_.-])(/work/|shared/(spec|notes)/)' "$f" | cut -d: -f1)
    while IFS=: read -r line rel; do
        case "$(realpath -m "$dir/$rel")/" in
            "$TOP"/*) ;;
            *) report "$f:$line: names a path outside the repository ($rel)" ;;
        esac
    done < <(grep -noE '(\.\./)+[A-Za-z0-9_.-]+' "$f")
    # Relative links must resolve (anchors and URLs are not checked).
    while IFS=: read -r line target; do
        target=${target%%#*}
        [ -n "$target" ] || continue
        case "$target" in http://*|https://*|mailto:*) continue ;; esac
        [ -e "$dir/$target" ] || report "$f:$line: link to missing $target"
    done < <(grep -noE '\]\([^) ]+\)' "$f" | sed -E 's/^([0-9]+):\]\((.*)\)$/\1:\2/')
    # Hard-coded test counts.
    while IFS= read -r hit; do
        report "$f:$hit: hard-codes a test count"
    done < <(grep -nP '(?<![0-9.])[0-9]+ (qtests|tests|test cases|test programs|passed)\b(?!/)' "$f" | cut -d: -f1)
done
[ $bad = 0 ] && echo "check-docs: ${#files[@]} documents stand alone, links resolve, no test counts"
exit $bad
