#!/usr/bin/env bash
# usage: tools/fuzz-bench.sh [RUNS] [OCTOKU]  (make fuzz-bench)
#
# forge's fuzzer and `octoku fuzz` on the same property, side by side in one
# run: golf agrees with the reference on generate, on raw fill seeds and on
# verify of random pairs, valid grids, mutations and Latin squares.
# forge runs the six fuzz tests of tests/Golf.t.sol RUNS times each (golf
# against the reference in forge's EVM); octoku runs 6 x RUNS cases of
# `--puzzle reference,golf` (golf and the reference against the mirror, in
# revm). Each is reported in cases per CPU-second: the user + system time of
# its own process (forge's worker threads included), so other load on the
# machine does not count. forge builds first, untimed.
set -euo pipefail
runs=${1:-20000}
octoku=${2:-target/release/octoku}
forge=node_modules/.bin/forge
tests='testFuzz_(generate_matches_reference|fill_matches_reference|verify_random_pairs|verify_valid_grids|verify_mutations|verify_latin_squares)'
cases=$((6 * runs))
times=$(mktemp)
trap 'rm -f "$times"' EXIT

# CPU seconds (user + system) of one command, its output discarded.
cpu() {
    /usr/bin/time -f '%U %S' -o "$times" "$@" >/dev/null
    awk '{ printf "%.2f", $1 + $2 }' "$times"
}

"$forge" build >/dev/null
forge_s=$(cpu "$forge" test --match-contract '^GolfTest$' --match-test "$tests" --fuzz-runs "$runs" --fuzz-seed 1)
octoku_s=$(cpu "$octoku" fuzz --cases "$cases" --seed 1 --threads 1 --puzzle reference,golf)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v c="$cases" -v f="$forge_s" -v o="$octoku_s" -v r="$runs" 'BEGIN {
    printf "forge test (6 properties x %d runs):     %8d cases  %7.2f CPU-s  %9.0f cases/CPU-s\n", r, c, f, c / f
    printf "octoku fuzz --puzzle reference,golf:    %8d cases  %7.2f CPU-s  %9.0f cases/CPU-s\n", c, o, c / o
    printf "octoku / forge: %.1fx\n", f / o
}'
