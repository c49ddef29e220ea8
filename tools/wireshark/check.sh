#!/usr/bin/env bash
# make check-wireshark: test the oETP dissector (tools/wireshark/oetp.lua).
#
#   check.sh [--help] [--keep]
#
# 1. Runs the qtests that capture (wire, pcap, hub multicast, hostile peer)
#    with OPENENOC_PCAP_DIR=build/wireshark/pcap, so each test case leaves
#    its pcap there (make qemu first).
# 2. Installs the dissector into a scratch HOME as make wireshark does and
#    compares the command codes and causes Wireshark loads with
#    include/openenoc/oetp.h (the block of oetp.lua generated from it by
#    scripts/gen-oetp.py is checked by make check-oetp-facts).
# 3. Decodes the captures with tshark -2 -X lua_script:... -T fields and
#    compares field values with the frames those tests exchange, plus a few
#    hand-made malformed frames (tools/wireshark/malformed.py) for the expert
#    infos no device sends.
# Exit status is non-zero on any difference.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
LUA=$TOP/tools/wireshark/oetp.lua
OUT=$TOP/build/wireshark
PCAP=$OUT/pcap
QOUT=$TOP/build/qemu
case "${1:-}" in
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
command -v tshark > /dev/null || { echo "check-wireshark: no tshark (make deps)" >&2; exit 1; }
[ -x "$QOUT/qemu-system-x86_64" ] || { echo "check-wireshark: run 'make qemu' first" >&2; exit 1; }
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }

# 1. captures from the qtests
rm -rf "$PCAP"
mkdir -p "$PCAP"
export QTEST_QEMU_BINARY=$QOUT/qemu-system-x86_64 G_TEST_SRCDIR=$TOP/qtest
export OPENENOC_PCAP_DIR=$PCAP
run_qtest() {
    local name=$1; shift
    if timeout 600 "$QOUT/qtest/$name" "$@" > "$OUT/$name.log" 2>&1; then
        ok "qtest $name $*"
    else
        bad "qtest $name $* (log: $OUT/$name.log)"
    fi
}
# the wire test is a qos test: its cases sit under the openenoc node
mapfile -t wire < <("$QOUT/qtest/qos-test" -l 2>/dev/null |
                    grep '^/.*/openenoc/openenoc-tests/wire/' | sed 's/^/-p\n/')
run_qtest qos-test "${wire[@]:--p/no-openenoc-wire-test-in-qos-test}"
run_qtest openenoc-pcap-test
run_qtest openenoc-hub-test -p /x86_64/openenoc/hub/multicast-1-to-2-no-responses
run_qtest openenoc-hostile-test -p /x86_64/openenoc/hostile/malicious-peer
python3 "$TOP/tools/wireshark/malformed.py" "$PCAP/malformed.pcap"

# 2. the dissector as installed, against oetp.h
# home: the dissector installed as make wireshark does; bare: none, for the
# -X lua_script runs (the user's own installed copy would register twice)
home=$(mktemp -d) bare=$(mktemp -d)
trap 'rm -rf "$home" "$bare"' EXIT
HOME=$home "$TOP/tools/wireshark/install.sh" > /dev/null
h=$TOP/include/openenoc/oetp.h
want=$( { sed -n 's/^ *OETP_\([A-Z_]*_\(REQ\|RSP\)\) *= *0x\([0-9A-Fa-f]*\),.*/cmd \3 \1/p' "$h"
          sed -n 's/^ *OETP_CAUSE_\([A-Z_]*\) *= *\([0-9]*\),.*/cause \2 \1/p' "$h"; } |
        while read -r kind val name; do
            [ "$kind" = cmd ] && val=$(printf '0x%02x' "0x$val")
            echo "$kind $val $name"
        done | sort)
got=$(HOME=$home tshark -G values 2>/dev/null |
      awk -F'\t' '$2 == "oetp.cmd" { print "cmd", $3, $4 }
                  $2 == "oetp.error_code" { print "cause", $3, $4 }' | sort)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
    ok "command codes and causes equal oetp.h ($(wc -l <<< "$got") values)"
else
    bad "command codes and causes differ from oetp.h"
    diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
fi
# (the constants are the generated block of oetp.lua: make check-wireshark
# runs scripts/gen-oetp.py --check first)

# 3. field values. expect NAME PCAP FILTER FIELD... <<< expected lines
# (fields joined by '|', every occurrence, two passes so requests learn
# their response).
fields() {
    local file=$1 filter=$2; shift 2
    local args=()
    for f in "$@"; do args+=(-e "$f"); done
    HOME=$bare tshark -n -2 -X "lua_script:$LUA" -r "$PCAP/$file" -Y "$filter" -T fields \
        -E separator='|' -E occurrence=a -E aggregator=, "${args[@]}" 2>&1 |
        grep -v '^Running as user'
}
expect() {
    local name=$1 file=$2 filter=$3; shift 3
    local want got
    want=$(cat)
    got=$(fields "$file" "$filter" "$@")
    if [ "$want" = "$got" ]; then ok "$name"
    else
        bad "$name ($file, $filter)"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
    fi
}
F=(frame.number oetp.cmd oetp.request_id)
X=_ws.expert.message

# wire-*: the qtest plays the remote endpoint (02:0e:0c:00:00:aa) over a
# socketpair; its frames are written out byte by byte in
# qtest/openenoc-wire-test.c.
# A DMA write of 5 bytes ('ABCDE', 3 bytes of word padding), twice; the
# second reply is padded to 60 bytes with 0x5A as an external MAC would.
expect "DMA_WRITE_REQ/RSP: data, word padding, Ethernet padding, pairing" \
    wire-dma-write-request-bytes.pcap oetp "${F[@]}" oetp.address oetp.length \
    oetp.data oetp.word_padding oetp.eod oetp.eth_padding oetp.response_in \
    oetp.request_in <<'EOF'
1|0x40|0|0x12345678|5|4142434445|000000|0xe0d0e0d0||2|
2|0x41|0||||||||1
3|0x40|1|0x12345678|5|4142434445|000000|0xe0d0e0d0||4|
4|0x41|1||||||5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a||3
EOF
# DMA reads of 7 bytes: the reply's length comes from the request; the
# second reply has EndOfData 0xE0D0E0D1 (the bad trailer).
expect "DMA_READ_REQ/RSP: length from the request, bad EndOfData" \
    wire-dma-read-request-bytes.pcap oetp "${F[@]}" oetp.address oetp.length \
    oetp.data_len oetp.data oetp.word_padding oetp.eod oetp.response_in \
    oetp.request_in $X <<'EOF'
1|0x30|0|0xa0000002|7|||||2||
2|0x31|0|||7|b09655c9c533d4|00|0xe0d0e0d0||1|
3|0x30|1|0xa0000002|7|||||4||
4|0x31|1|||7|b09655c9c533d4|00|0xe0d0e0d1||3|EndOfData is 0xE0D0E0D1, expected 0xE0D0E0D0
EOF
# ERROR_RSP with each cause 1..7, each answering the DMA write before it.
expect "ERROR_RSP: causes 1..7 and their requests" wire-error-rsp-causes.pcap \
    "oetp.cmd == 0xff" frame.number oetp.request_id oetp.error_code \
    oetp.request_in $X <<'EOF'
2|0|1|1|Request failed: cause 1 (INVALID)
4|1|2|3|Request failed: cause 2 (AXIS)
6|2|3|5|Request failed: cause 3 (OVERFLOW)
8|3|4|7|Request failed: cause 4 (RD_SLVERR)
10|4|5|9|Request failed: cause 5 (RD_DECERR)
12|5|6|11|Request failed: cause 6 (WR_SLVERR)
14|6|7|13|Request failed: cause 7 (WR_DECERR)
EOF
# The device as responder: RMEM write (BitEnable), RMEM read (request
# padded to 60 bytes), a refused read (ERROR_RSP 1), one from an unknown
# source (no reply), DMA write and read of 9 bytes, a DMA write with a bad
# EndOfData (ERROR_RSP 2) and a multicast write (no reply).
expect "responder: all requests, ERROR_RSP, Ethernet padding, multicast" \
    wire-responder-bytes.pcap oetp "${F[@]}" oetp.address oetp.bit_enable \
    oetp.rmem_data oetp.length oetp.data oetp.eod oetp.error_code \
    oetp.eth_padding oetp.multicast oetp.response_in oetp.request_in <<'EOF'
1|0x20|4097|0x01000010|0x0000ff0f|0xaabbccdd|||||||2|
2|0x21|4097|||||||||||1
3|0x10|4098|0x01000010|||||||5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a||4|
4|0x11|4098|||0x1122cc4d||||||||3
5|0x10|4099|0x01000100|||||||||6|
6|0xff|4099|||||||1||||5
7|0x10|4100|0x01000010||||||||||
8|0x40|8193|0x01000021|||9|563f4dd11a45fbd3e0|0xe0d0e0d0||||9|
9|0x41|8193|||||||||||8
10|0x30|8194|0x01000021|||9||||||11|
11|0x31|8194|||||563f4dd11a45fbd3e0|0xe0d0e0d0|||||10
12|0x40|8195|0x01000040|||4|563f4dd1|0x12345678||||13|
13|0xff|8195|||||||2||||12
14|0x40|8196|0x01000060|||9|563f4dd11a45fbd3e0|0xe0d0e0d0|||1||
EOF
expect "responder: expert infos" wire-responder-bytes.pcap "_ws.expert" \
    frame.number $X <<'EOF'
6|Request failed: cause 1 (INVALID)
12|EndOfData is 0x12345678, expected 0xE0D0E0D0
13|Request failed: cause 2 (AXIS)
14|Multicast write
EOF
# The device as RMEM initiator (window reads and writes).
expect "RMEM initiator" wire-rmem-initiator-bytes.pcap oetp "${F[@]}" \
    oetp.address oetp.bit_enable oetp.rmem_data oetp.response_in \
    oetp.request_in <<'EOF'
1|0x10|0|0x80000008|||2|
2|0x11|0|||0xcafef00d||1
3|0x20|1|0x8000000c|0x00ff0000|0x00ab0000|4|
4|0x21|1|||||3
5|0x20|2|0x80000000|0xffff0000|0x12340000|6|
6|0x21|2|||||5
EOF
# Two devices on a hub (qtest/openenoc-pcap-test.c): a 20000-byte push in
# fragments of 8160, 8160, 3680 bytes, then an RMEM read and write.
expect "device to device: fragments, RMEM, response times" \
    pcap-filter-dump-frame-by-frame.pcap oetp "${F[@]}" oetp.address \
    oetp.length oetp.data_len oetp.eod oetp.rmem_data oetp.response_in \
    oetp.request_in oetp.time <<'EOF'
1|0x40|0|0x02000001|8160|8160|0xe0d0e0d0||2||
2|0x41|0|||||||1|0.000000000
3|0x40|1|0x02001fe1|8160|8160|0xe0d0e0d0||4||
4|0x41|1|||||||3|0.000000000
5|0x40|2|0x02003fc1|3680|3680|0xe0d0e0d0||6||
6|0x41|2|||||||5|0.000000000
7|0x10|3|0x02100004|||||8||
8|0x11|3|||||0x600df00d||7|0.000000000
9|0x20|4|0x02100008||||0xfeedbeef|10||
10|0x21|4|||||||9|0.000000000
EOF
# A multicast block of 50001 bytes to 0x04000003 in fragments of 4000 from
# the master's port (qtest/openenoc-hub-test.c): marked, never paired; the
# last fragment (2001 bytes) has 3 bytes of word padding.
multicast_frames() {
    for i in $(seq 0 12); do
        n=$(( i < 12 ? 4000 : 2001 ))
        printf '%d|0x40|%d|0x%08x|%d|%s|0xe0d0e0d0|1|\n' $((i + 1)) "$i" \
            $((0x04000003 + 4000 * i)) "$n" "$( [ "$n" = 2001 ] && echo 000000)"
    done
}
expect "multicast block" hub-multicast-1-to-2-no-responses.pcap oetp \
    "${F[@]}" oetp.address oetp.length oetp.word_padding oetp.eod \
    oetp.multicast oetp.response_in < <(multicast_frames)
# Hand-made frames (tools/wireshark/malformed.py lists them).
expect "malformed frames: expert infos; pairing needs both MACs" \
    malformed.pcap "frame" "${F[@]}" oetp.length oetp.data_len oetp.data \
    oetp.eod oetp.trailing oetp.response_in oetp.request_in oetp.time \
    $X <<'EOF'
1|0x7e||||||||||Unknown Cmd 0x7E (reserved)
2|0xff|5|||||||||Error Code 9 is outside the wire causes 1..7
3|0xff|6|||||||||Error Code 0 is outside the wire causes 1..7
4|0x10|7|||||efbeadde||||4 bytes after the 10-byte PDU
5|0x20|8|||||||||RMEM_WRITE_REQ needs 16 bytes of parameters, the frame has 8
6|0x40|9|0|0||0xe0d0e0d0|||||Length 0 is outside 1..8160
7|0x40|10|16|16|616263646566||||||EndOfData missing: the frame ends after 6 of 16 data bytes
8|0x31|11||8|6162636465666768|0xe0d0e0d0|||||
9|||||||||||
10|0x10|13||||||12|||
11|0x11|13|||||||||
12|0x11|13|||||||10|0.002000000|
EOF
# The malicious-peer capture (qtest/openenoc-hostile-test.c): thousands of
# random and crafted frames. No Lua error, and every frame with EtherType
# 0x88B5 and Magic 0x0E is decoded as oETP.
hostile=$PCAP/hostile-malicious-peer.pcap
count() { HOME=$bare tshark -n -X "lua_script:$LUA" -r "$hostile" -Y "$1" 2>/dev/null | wc -l; }
n_magic=$(count 'eth.type == 0x88b5 && frame[14] == 0e')
n_oetp=$(count 'oetp.cmd')
lua_err=$(HOME=$bare tshark -n -X "lua_script:$LUA" -r "$hostile" -V 2>&1 | grep -c 'Lua Error')
if [ "$n_magic" -gt 1000 ] && [ "$n_magic" = "$n_oetp" ] && [ "$lua_err" = 0 ]; then
    ok "hostile capture: $n_oetp oETP frames decoded, no Lua error"
else
    bad "hostile capture: $n_magic frames with the magic, $n_oetp decoded, $lua_err Lua errors"
fi

echo "check-wireshark: $pass passed, $fail failed"
[ "$fail" = 0 ]
