#!/usr/bin/env bash
# A study split into N shards run as N local processes, merged, prints exactly what one process
# prints (stdout, frontier CSV and JSON), for N = 2 and 3. Usage: plan_shards_merge.sh DRASIM STUDY
set -eu
drasim=$1
study=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$drasim" plan "$study" --frontier-csv "$work/single.csv" --frontier-json "$work/single.json" > "$work/single.txt"
for n in 2 3; do
    pids=()
    for ((k = 0; k < n; k++)); do
        "$drasim" plan "$study" --threads 1 --shard "$k/$n" --db "$work/shard-$n-$k.db" > /dev/null &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    "$drasim" merge "$study" "$work"/shard-$n-*.db --frontier-csv "$work/merged.csv" \
        --frontier-json "$work/merged.json" > "$work/merged.txt"
    for f in txt csv json; do
        cmp "$work/single.$f" "$work/merged.$f" || { echo "$n shards: merged .$f differs"; exit 1; }
    done
    # A shard left out is named.
    if "$drasim" merge "$study" "$work/shard-$n-0.db" > "$work/partial.txt" 2> "$work/partial.err"; then
        echo "merge of one shard of $n succeeded"; exit 1
    fi
    grep -q "shards missing: " "$work/partial.err" || { cat "$work/partial.err"; exit 1; }
    [ ! -s "$work/partial.txt" ] || { echo "a failed merge printed on stdout"; exit 1; }
done
echo "shards merged == single process"
