#!/usr/bin/env bash
# A scenario run from the store (store:NAME@N) prints and writes exactly what its export run as a
# folder does: summary text and JSON, series CSV, for a scenario and for a variant of it. A run
# of a stored scenario with --save is recorded under that same revision, and the private copy it
# ran from is gone afterwards. Usage: store_matches_export.sh DRASIM SCENARIO_FOLDER
set -eu
drasim=$1
folder=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR="$work/tmp" # the private copies land here, so it is seen that none is left
mkdir "$TMPDIR"
db="$work/s.db"
name=$("$drasim" scenarios import "$folder" --db "$db" | sed -n 's/^scenario \([^ ]*\) revision.*/\1/p')
"$drasim" scenarios variant wider --from "$name" --scoring most-allocated --db "$db" > /dev/null
compare() { # $1: the store name, $2: the main file of its export
    "$drasim" scenarios export "$1" "$work/export-$1" --db "$db" > /dev/null
    for out in text json; do
        "$drasim" simulate "store:$1@1" --db "$db" -o "$out" --series "$work/store.csv" \
            > "$work/store.$out" 2> /dev/null
        "$drasim" simulate "$work/export-$1/$2" -o "$out" --series "$work/export.csv" > "$work/export.$out"
        cmp "$work/store.$out" "$work/export.$out" || { echo "store:$1 -o $out differs from its export"; exit 1; }
        cmp "$work/store.csv" "$work/export.csv" || { echo "store:$1 series differ from its export"; exit 1; }
    done
}
compare "$name" scenario.yaml
compare wider wider.variant.yaml
# Four runs were recorded (--db implies --save), each under revision 1 of what ran.
runs=$("$drasim" runs list --db "$db" | tail -n +2 | awk '{print $2, $3}' | sort | uniq -c | awk '{print $1, $2, $3}')
expected=$(printf '2 %s 1\n2 wider 1\n' "$name" | sort)
[ "$runs" = "$expected" ] || { echo "runs recorded: $runs"; exit 1; }
[ -z "$(ls -A "$TMPDIR")" ] || { echo "left behind:"; ls -A "$TMPDIR"; exit 1; }
echo "store runs == export runs"
