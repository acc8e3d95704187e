#!/usr/bin/env bash
# A recorded run exports the series CSV `drasim simulate --series` wrote while it ran, byte for
# byte (same columns, same rows, same order). Usage: export_matches_series.sh DRASIM SCENARIO
set -eu
drasim=$1
scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$drasim" simulate "$scenario" --db "$work/s.db" --series "$work/series.csv" > /dev/null 2>&1
"$drasim" runs export 1 "$work/run" --db "$work/s.db" > /dev/null
cmp "$work/series.csv" "$work/run/series.csv" || { echo "runs export series.csv differs from --series"; exit 1; }
echo "runs export series.csv == simulate --series"
