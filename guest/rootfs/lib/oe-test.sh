# Sourced by the in-guest test scripts (bin/oe-*-tests): one result line per
# test, "OE-TEST <name> PASS|FAIL (<s> s) [why]", and the summary line
# "OE-TESTS: N passed, M failed" that scripts/guest-check.sh reads.
pass=0 fail=0
t0=$(cut -d' ' -f1 /proc/uptime)

result() {  # name status why; the time is the test's wall time in the guest
    t1=$(cut -d' ' -f1 /proc/uptime)
    dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    t0=$t1
    if [ "$2" = 0 ]; then echo "OE-TEST $1 PASS ($dt s)"; pass=$((pass + 1))
    else echo "OE-TEST $1 FAIL ($dt s) $3"; fail=$((fail + 1)); fi
}

summary() {
    echo "OE-TESTS: $pass passed, $fail failed"
    [ $fail = 0 ]
}

# Claim sequence numbers count up by one per event on each endpoint: the
# number of gaps in an `enocctl events` log.
seq_gaps() {
    awk '$2 == "seq" { if (n++ && $3 != (p + 1) % 65536) g++; p = $3 } END { print g + 0 }' "$1"
}
