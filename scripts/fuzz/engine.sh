#!/usr/bin/env bash
# The engine fuzz target (tests/fuzz/fuzz_engine.c) under libFuzzer:
#
#   engine.sh check SECONDS     bounded run from the seeds and the corpus
#   engine.sh campaign SECONDS  long run, then merge what it found into
#                               tests/fuzz/corpus/ (minimised)
#   engine.sh bench [RUNS]      fixed-seed run of RUNS inputs (default
#                               5000) mutated from tests/fuzz/seeds/, then
#                               one run of tests/fuzz/corpus/; nothing is
#                               written; prints BENCH fuzz.engine.* lines
#
# FUZZ_BIN names the libFuzzer binary (make builds it: ASan, or UBSan with
# FUZZ_SANITIZER=undefined). Work files go to
# build/fuzz/: corpus/ (grows between runs), crashes/ (crash-*, leak-*,
# timeout-* reproducers), *.log. A crash makes the run fail; once fixed,
# copy the reproducer into tests/fuzz/seeds/ so every make check replays it.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${FUZZ_BIN:-$TOP/build/meson-fuzz-address/tests/fuzz/fuzz_engine}
WORK=$TOP/build/fuzz
SEEDS=$TOP/tests/fuzz/seeds
CORPUS=$TOP/tests/fuzz/corpus
# A unit slower than this is a finding (a bound that does not hold).
ARGS=(-max_len=16384 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1)

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    check|campaign|bench) ;;
    *) usage >&2; exit 2 ;;
esac
[ -x "$BIN" ] || { echo "fuzz: $BIN not built" >&2; exit 1; }
mkdir -p "$WORK/corpus" "$WORK/crashes" "$CORPUS"

# stat NAME LOG: a libFuzzer final statistic.
stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }
# cov LOG: the last "cov: N ft: M" pair of the run.
cov() { grep -o 'cov: [0-9]* ft: [0-9]*' "$1" | tail -n 1; }

run() {   # LOG SECONDS: fuzz, failing on any finding
    local log=$1 secs=$2 rc=0
    "$BIN" "${ARGS[@]}" -max_total_time="$secs" \
        -artifact_prefix="$WORK/crashes/" "$WORK/corpus" "$CORPUS" "$SEEDS" \
        > "$log" 2>&1 || rc=$?
    echo "fuzz: $(stat number_of_executed_units "$log") execs in ${secs}s," \
        "$(stat average_exec_per_sec "$log") exec/s, $(cov "$log")," \
        "slowest unit $(stat slowest_unit_time_sec "$log") s (log: $log)"
    if [ "$rc" != 0 ]; then
        grep -m 20 -E '^(==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|.*ERROR)' "$log" >&2 || true
        echo "fuzz: FAILED (exit $rc); reproduce with build/meson/tests/fuzz/fuzz_replay FILE" >&2
        return 1
    fi
}

case "$1" in
check)
    run "$WORK/check.log" "${2:?seconds}"
    ;;
campaign)
    secs=${2:?seconds}
    run "$WORK/campaign.log" "$secs" || exit 1
    # Minimise: keep the smallest set of inputs covering every feature
    # seen (old corpus, this campaign's finds), then replace the corpus.
    rm -rf "$WORK/merged" && mkdir -p "$WORK/merged"
    "$BIN" -merge=1 "${ARGS[@]}" "$WORK/merged" "$CORPUS" "$WORK/corpus" \
        > "$WORK/merge.log" 2>&1
    rm -rf "$CORPUS" && mv "$WORK/merged" "$CORPUS"
    echo "fuzz: corpus tests/fuzz/corpus/: $(ls "$CORPUS" | wc -l) inputs," \
        "$(du -sk "$CORPUS" | cut -f1) KiB ($(grep -o 'MERGE-OUTER: [0-9]* new files.*' "$WORK/merge.log" | tail -n 1))"
    ;;
bench)
    runs=${2:-5000}
    # timed NAME ARGS...: run the binary on ARGS, its log in
    # $WORK/NAME.log; sets execs, real, user, sys.
    timed() {
        local name=$1; shift
        TIMEFORMAT='%R %U %S'
        { time "$BIN" "${ARGS[@]}" -artifact_prefix="$WORK/crashes/" "$@" \
            > "$WORK/$name.log" 2>&1; } 2> "$WORK/$name.time"
        read -r real user sys < "$WORK/$name.time"
        execs=$(stat number_of_executed_units "$WORK/$name.log")
    }
    rate() {  # NAME PER: executions per PER seconds
        awk -v n="$execs" -v t="$2" -v name="$1" \
            'BEGIN { printf "BENCH fuzz.engine.%s %.0f exec/s\n", name, n / t }'
    }
    # Inputs as -seed_inputs and no corpus directory: what a run finds
    # stays in memory, so the figures are the target's rate (with
    # libFuzzer's mutation and bookkeeping), not that of writing files.
    ls "$SEEDS"/* | paste -sd, > "$WORK/bench.seeds"
    ls "$CORPUS"/* | paste -sd, > "$WORK/bench.corpus"
    # 1. RUNS inputs mutated from the seeds (short: a fuzzer's first seconds)
    timed bench -seed=1 -runs="$runs" -seed_inputs=@"$WORK/bench.seeds"
    rate execs_per_s "$real"
    rate execs_per_cpu_s "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
    echo "fuzz: $execs execs in ${real}s wall, ${user}s+${sys}s CPU; $(cov "$WORK/bench.log")"
    # 2. The kept corpus run once (the long programs a campaign keeps)
    timed bench-corpus -runs=0 -seed_inputs=@"$WORK/bench.corpus"
    rate corpus_execs_per_cpu_s "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
    echo "fuzz: corpus: $execs execs in ${real}s wall, ${user}s+${sys}s CPU"
    ;;
esac
