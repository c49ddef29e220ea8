#!/usr/bin/env bash
# make wireshark: install the oETP dissector (tools/wireshark/oetp.lua) in
# the user's personal Lua plugin folder, where Wireshark and tshark load it
# at start. Without installing: tshark -X lua_script:tools/wireshark/oetp.lua
#
#   install.sh [--help] [DIR]   (DIR: another plugin folder)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
dir=${1:-}
if [ -z "$dir" ] && command -v tshark > /dev/null; then
    # the folder this Wireshark version searches ("Personal Lua Plugins")
    dir=$(tshark -G folders 2>/dev/null | sed -n 's/^Personal Lua Plugins:[[:space:]]*//p')
fi
dir=${dir:-$HOME/.local/lib/wireshark/plugins}
mkdir -p "$dir"
install -m 644 "$here/oetp.lua" "$dir/oetp.lua"
echo "wireshark: installed $dir/oetp.lua"
