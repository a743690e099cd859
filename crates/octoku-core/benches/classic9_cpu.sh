#!/bin/sh
# CPU-time figures of docs/solver.md: every public 9×9 set of data/classic9,
# as published and through five seeded shuffles (family_times shuffle, seeds
# 1-5), solving and counting to 2, octoku and the `sudoku` crate
# (examples/classic_loop) and tdoku in turn on each file. Prints CSV rows
# (the header first) like those of classic9_cpu.csv.
#
#   cargo build --release -p octoku-core --example classic_loop --example family_times
#   TDOKU_DRIVER=/path/to/tdoku_cpu crates/octoku-core/benches/classic9_cpu.sh 3 > figures.csv
#
# The argument is the number of rounds (default 1). TDOKU_DRIVER is a
# program you build yourself beside tdoku (never in this repository; see
# docs/solver.md): `TDOKU_DRIVER FILE LIMIT PASSES` solves each line-form
# puzzle of FILE up to LIMIT solutions PASSES times (after one untimed
# pass) and prints the thread CPU µs per puzzle and tdoku's guesses per
# puzzle. Without it the tdoku columns are empty.
set -eu
rounds=${1:-1}
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=$root/target/release/examples
data=$root/crates/octoku-core/data/classic9
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //; s/,/ /g') ($(nproc) CPUs)"
command="classic9_cpu.sh $rounds"
echo "round,set,layout,task,octoku_us,sudoku_us,tdoku_us,tdoku_guesses,machine,date,command"
for set in clue17 top1465 hardest11 hardest1106 minimal; do
    cp "$data/$set.txt" "$work/$set.published.txt"
    for seed in 1 2 3 4 5; do
        "$bin/family_times" shuffle "$data/$set.txt" "$seed" > "$work/$set.shuffle$seed.txt"
    done
done
for round in $(seq 1 "$rounds"); do
    for set in clue17 top1465 hardest11 hardest1106 minimal; do
        # Passes of the set for about a third of a second each.
        case $set in
            clue17) passes=60 ;; top1465) passes=20 ;; hardest11) passes=3 ;;
            hardest1106) passes=12 ;; *) passes=100 ;;
        esac
        for layout in published shuffle1 shuffle2 shuffle3 shuffle4 shuffle5; do
            file=$work/$set.$layout.txt
            for task in solve count2; do
                limit=1 p=$passes
                if [ "$task" = count2 ]; then limit=2 p=$(((passes + 1) / 2)); fi
                ours=$("$bin/classic_loop" "octoku-$task" "$file" "$p")
                theirs=$("$bin/classic_loop" "sudoku-$task" "$file" "$p")
                tdoku=","
                if [ -n "${TDOKU_DRIVER:-}" ]; then
                    tdoku=$("$TDOKU_DRIVER" "$file" "$limit" "$p" | awk '{print $1 "," $2}')
                fi
                echo "$round,$set,$layout,$task,$ours,$theirs,$tdoku,$machine,$(date -u +%FT%TZ),$command"
            done
        done
    done
done
