#!/usr/bin/env bash
# A study split into N shards run as N local processes, merged, prints exactly what one process
# prints (stdout, frontier CSV and JSON), for N = 2 and 3: with every shard bisecting each shape
# itself, and with the bisections run once (--bisect-only) and read by every shard (--bisections),
# where the split runs exactly the single process's simulations. A study comparing scoring policies
# (spec.policies) splits and merges the same way. Usage: plan_shards_merge.sh DRASIM STUDY
set -eu
drasim=$1
study=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$drasim" plan "$study" --frontier-csv "$work/single.csv" --frontier-json "$work/single.json" > "$work/single.txt"
# The report's first line counts them all (a study comparing policies repeats it for each one).
single_sims=$(sed -n '1s/.* mixes evaluated, \([0-9]*\) simulations$/\1/p' "$work/single.txt")
[ -n "$single_sims" ] || { echo "no simulation count in the report"; head -1 "$work/single.txt"; exit 1; }
# The simulations a line "... (S simulations...) into FILE" says were run.
sims() { sed -n 's/.*(\([0-9]*\) simulations.*/\1/p' "$1"; }

"$drasim" plan "$study" --threads 1 --bisect-only --db "$work/bisections.db" > "$work/bisections.txt"
grep -q "^bisections of study " "$work/bisections.txt" || { cat "$work/bisections.txt"; exit 1; }
for mode in own shared; do
    for n in 2 3; do
        pids=()
        for ((k = 0; k < n; k++)); do
            extra=()
            [ "$mode" = own ] || extra=(--bisections "$work/bisections.db")
            "$drasim" plan "$study" --threads 1 --shard "$k/$n" "${extra[@]}" --db "$work/$mode-$n-$k.db" \
                > "$work/$mode-$n-$k.txt" &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid"; done
        "$drasim" merge "$study" "$work"/$mode-$n-*.db --frontier-csv "$work/merged.csv" \
            --frontier-json "$work/merged.json" > "$work/merged.txt"
        for f in txt csv json; do
            cmp "$work/single.$f" "$work/merged.$f" || { echo "$mode bisections, $n shards: merged .$f differs"; exit 1; }
        done
        if [ "$mode" = shared ]; then
            total=$(sims "$work/bisections.txt")
            for ((k = 0; k < n; k++)); do total=$((total + $(sims "$work/$mode-$n-$k.txt"))); done
            [ "$total" = "$single_sims" ] \
                || { echo "$n shards with shared bisections ran $total simulations, one process $single_sims"; exit 1; }
        fi
        # A shard left out is named.
        if "$drasim" merge "$study" "$work/$mode-$n-0.db" > "$work/partial.txt" 2> "$work/partial.err"; then
            echo "merge of one shard of $n succeeded"; exit 1
        fi
        grep -q "shards missing: " "$work/partial.err" || { cat "$work/partial.err"; exit 1; }
        [ ! -s "$work/partial.txt" ] || { echo "a failed merge printed on stdout"; exit 1; }
    done
done
# The bisections' file may join the shards' in a merge; alone it is no study.
"$drasim" merge "$study" "$work/bisections.db" "$work"/shared-2-*.db > "$work/merged.txt"
cmp "$work/single.txt" "$work/merged.txt" || { echo "merge with the bisections' file differs"; exit 1; }
if "$drasim" merge "$study" "$work/bisections.db" > /dev/null 2> "$work/alone.err"; then
    echo "merge of the bisections alone succeeded"; exit 1
fi
grep -q "no shard among the files" "$work/alone.err" || { cat "$work/alone.err"; exit 1; }
echo "shards merged == single process"
