#!/usr/bin/env bash
# The Jobs `plan --emit-job` prints, run here as a cluster would run them: the exported folder is
# copied to a fresh folder standing for the volume, each shard's command (read from the Indexed
# Job's manifest, as written there; pod 0 runs the bisections every shard reads) runs with its
# JOB_COMPLETION_INDEX and an emptyDir of its own,
# the merge's command (from the second manifest) waits for them, and the merged report, frontier
# CSV and JSON are byte for byte what one process prints. The manifests load in drasim's own
# loader. Usage: plan_emit_job.sh DRASIM STUDY
set -eu
drasim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
study=$2
shards=3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$drasim" plan "$study" --frontier-csv "$work/single.csv" --frontier-json "$work/single.json" > "$work/single.txt"

"$drasim" plan "$study" --emit-job "$work/export/small-job" --shards "$shards" --threads 1 > "$work/jobs.yaml"
"$drasim" validate "$work/jobs.yaml" > "$work/validate.txt" 2> "$work/validate.err" \
    || { cat "$work/validate.err"; exit 1; }
[ "$(cat "$work/validate.txt")" = "Job: 2" ] || { cat "$work/validate.txt"; exit 1; }

# Document N (1 or 2) of the stream: its container's workingDir, command items and script.
doc() { awk -v n="$1" 'BEGIN { d = 1 } /^---$/ { d++; next } d == n' "$work/jobs.yaml"; }
field() { doc "$1" | sed -n "s/^ *$2: //p"; }
commandOf() { doc "$1" | awk '/^ *command:$/ { on = 1; next } on && /^ *- / { sub(/^ *- /, ""); gsub(/^"|"$/, ""); print; next } { on = 0 }'; }
scriptOf() {
    doc "$1" | awk '/^ *args:$/ { a = 1; next }
        a && /^ *- \|$/ { match($0, /^ */); ind = RLENGTH + 2; s = 1; a = 0; next }
        s { match($0, /^ */); if (RLENGTH < ind) exit; print substr($0, ind + 1) }'
}

# The volume: the exported folder at its root, mounted at /data.
vol=$work/volume
mkdir "$vol"
cp -r "$work/export/small-job" "$vol/"
for n in 1 2; do
    dir=$(field "$n" workingDir)
    case "$dir" in /data/*) ;; *) echo "document $n: workingDir $dir is not on the volume"; exit 1 ;; esac
done
cd "$vol/$(field 1 workingDir | sed 's|^/data/||')"
export PATH="$(dirname "$drasim"):$PATH"
mapfile -t plan_cmd < <(commandOf 1)
mapfile -t merge_cmd < <(commandOf 2)
plan_script=$(scriptOf 1)
merge_script=$(scriptOf 2)
[ -n "$plan_script" ] && [ -n "$merge_script" ] || { echo "no script in the manifests"; exit 1; }
[ "$(field 1 completions)" = "$shards" ] || { echo "completions is not $shards"; exit 1; }

run_shard() {
    mkdir "$work/scratch-$1"
    JOB_COMPLETION_INDEX=$1 SCRATCH=$work/scratch-$1 "${plan_cmd[@]}" "$plan_script" > "$work/shard-$1.log"
    # Shard 0 bisects each shape once; every shard reads those bisections rather than running them.
    grep -q "^shard $1/$shards of study .* of the mixes read from " "$work/shard-$1.log" \
        || { echo "shard $1 did not read the shared bisections"; cat "$work/shard-$1.log"; exit 1; }
}
# All shards but the last, then the merge, which must wait for the last one.
for ((k = 0; k < shards - 1; k++)); do run_shard "$k"; done
mkdir "$work/scratch-merge"
SCRATCH=$work/scratch-merge "${merge_cmd[@]}" "$merge_script" > "$work/merge.log" &
merge=$!
run_shard $((shards - 1))
wait "$merge" || { cat "$work/merge.log"; exit 1; }
grep -q "^waiting for results/shard-$((shards - 1)).db$" "$work/merge.log" \
    || { echo "the merge did not wait for the last shard"; cat "$work/merge.log"; exit 1; }

cmp "$work/single.txt" results/report.txt || { echo "merged report differs"; exit 1; }
cmp "$work/single.csv" results/frontier.csv || { echo "merged frontier CSV differs"; exit 1; }
cmp "$work/single.json" results/result.json || { echo "merged JSON differs"; exit 1; }
ls -A results | grep -q part && { echo "a partial file was left: $(ls -A results)"; exit 1; }
echo "the emitted Jobs, run as written, merge to the single-process answer"
