// SPDX-License-Identifier: Apache-2.0
#include "app/cli/plan_job.h"

#include <map>

#include "core/common/data_value.h"

namespace drasim::cli {

namespace {

// The user of the image (packaging/container/Dockerfile): pods run as it, and the volume is
// made writable to its group (fsGroup), whatever the volume's own owner.
constexpr int64_t kImageUser = 10001;
// How often a shard looks for the bisections' file, and the merge for the shards'.
constexpr int kPollSeconds = 10;

std::string planJobName(const JobSpec& s)
{
    return "drasim-plan-" + s.study;
}

std::string mergeJobName(const JobSpec& s)
{
    return "drasim-merge-" + s.study;
}

std::string reportFile(const JobSpec& s)
{
    return s.output == "json" ? "report.json" : "report.txt";
}

/// `text` with each {NAME} replaced by its value.
std::string fill(std::string text, const std::map<std::string, std::string>& values)
{
    for (const auto& [name, value] : values)
        for (size_t at; (at = text.find("{" + name + "}")) != std::string::npos;)
            text.replace(at, name.size() + 2, value);
    return text;
}

// Each shard runs its SQLite file on the pod's own emptyDir and copies it onto the shared volume
// once finished, under a temporary name renamed into place. The shared volume (ReadWriteMany,
// often NFS) then never holds a live database: SQLite's WAL needs shared memory that a network
// filesystem cannot give (https://www.sqlite.org/wal.html), and its locks are unreliable there.
// A file with the final name is complete, which is what the merge waits for.
// JOB_COMPLETION_INDEX is set by the Job controller in every pod of an Indexed Job (KEP-2214;
// pkg/controller/job/indexed_job_utils.go, completionIndexEnvName).
// The bisection of each shape is the same in every shard: pod 0 runs it once (unless an earlier
// try of pod 0 published it), published like a shard's file, and every shard waits for it and
// reads it rather than running it again. A shard's file then holds the bisections too, so the
// merge needs only the shards' files.
constexpr const char* kShardScript = R"(set -eu
k=$JOB_COMPLETION_INDEX
mkdir -p results
if [ "$k" = 0 ] && [ ! -f results/bisections.db ]; then
  drasim plan study.yaml --bisect-only --threads {THREADS} --db "$SCRATCH/bisections.db"
  cp "$SCRATCH/bisections.db" "results/.bisections.db.part"
  mv "results/.bisections.db.part" "results/bisections.db"
fi
[ -f results/bisections.db ] || echo "waiting for results/bisections.db"
until [ -f results/bisections.db ]; do sleep {POLL}; done
cp results/bisections.db "$SCRATCH/bisections-read.db"
drasim plan study.yaml --shard "$k/{N}" --bisections "$SCRATCH/bisections-read.db" --threads {THREADS} --db "$SCRATCH/shard-$k.db"
cp "$SCRATCH/shard-$k.db" "results/.shard-$k.db.part"
mv "results/.shard-$k.db.part" "results/shard-$k.db"
)";

// The merge copies the shards' files to its emptyDir before opening them (no database is ever
// opened on the shared volume) and publishes each output whole, like the shards.
constexpr const char* kMergeScript = R"(set -eu
for k in $(seq 0 {LAST}); do
  [ -f "results/shard-$k.db" ] || echo "waiting for results/shard-$k.db"
  until [ -f "results/shard-$k.db" ]; do sleep {POLL}; done
  cp "results/shard-$k.db" "$SCRATCH/"
done
drasim merge study.yaml "$SCRATCH"/shard-*.db{OUTPUT} --frontier-csv "$SCRATCH/frontier.csv" --frontier-json "$SCRATCH/result.json" > "$SCRATCH/{REPORT}"
for f in {REPORT} frontier.csv result.json; do
  cp "$SCRATCH/$f" "results/.$f.part"
  mv "results/.$f.part" "results/$f"
done
cat "results/{REPORT}"
)";

std::string shardScript(const JobSpec& s)
{
    return fill(kShardScript,
        { { "N", std::to_string(s.shards) }, { "THREADS", std::to_string(s.threads) },
            { "POLL", std::to_string(kPollSeconds) } });
}

std::string mergeScript(const JobSpec& s)
{
    return fill(kMergeScript,
        { { "LAST", std::to_string(s.shards - 1) }, { "POLL", std::to_string(kPollSeconds) },
            { "OUTPUT", s.output == "json" ? " -o json" : "" }, { "REPORT", reportFile(s) } });
}

DataValue named(const std::string& name)
{
    DataValue v = DataValue::map();
    v.set("name", name);
    return v;
}

DataValue cpus(unsigned n)
{
    DataValue v = DataValue::map();
    v.set("cpu", std::to_string(n));
    return v;
}

/// Runs `scriptToken` (replaced by the script itself, see literalScripts) with sh in the folder.
DataValue container(
    const JobSpec& s, const std::string& name, const std::string& scriptToken, unsigned threads)
{
    DataValue c = named(name);
    c.set("image", s.image);
    c.set("workingDir", "/data/" + s.folder);
    c.set("command", DataValue(DataValue::List { DataValue("sh"), DataValue("-c") }));
    c.set("args", DataValue(DataValue::List { DataValue(scriptToken) }));
    DataValue scratch = named("SCRATCH");
    scratch.set("value", "/scratch");
    c.set("env", DataValue(DataValue::List { scratch }));
    // Requests equal to limits: each shard gets the cores its threads keep busy, no more.
    DataValue resources = DataValue::map();
    resources.set("requests", cpus(threads));
    resources.set("limits", cpus(threads));
    c.set("resources", resources);
    DataValue data = named("data"), tmp = named("scratch");
    data.set("mountPath", "/data");
    tmp.set("mountPath", "/scratch");
    c.set("volumeMounts", DataValue(DataValue::List { data, tmp }));
    return c;
}

DataValue labels(const JobSpec& s)
{
    DataValue l = DataValue::map();
    l.set("app.kubernetes.io/name", "drasim");
    l.set("drasim.dev/study", s.study);
    return l;
}

DataValue podTemplate(const JobSpec& s, DataValue c)
{
    DataValue security = DataValue::map();
    security.set("runAsUser", kImageUser);
    security.set("runAsGroup", kImageUser);
    security.set("runAsNonRoot", true);
    security.set("fsGroup", kImageUser);
    DataValue claim = DataValue::map();
    claim.set("claimName", s.claim);
    DataValue data = named("data"), scratch = named("scratch");
    data.set("persistentVolumeClaim", claim);
    scratch.set("emptyDir", DataValue::map());

    DataValue spec = DataValue::map();
    spec.set("restartPolicy", "Never");
    spec.set("securityContext", security);
    spec.set("containers", DataValue(DataValue::List { std::move(c) }));
    spec.set("volumes", DataValue(DataValue::List { data, scratch }));
    DataValue meta = DataValue::map();
    meta.set("labels", labels(s));
    DataValue tmpl = DataValue::map();
    tmpl.set("metadata", meta);
    tmpl.set("spec", spec);
    return tmpl;
}

DataValue job(const JobSpec& s, const std::string& name, DataValue spec)
{
    DataValue meta = named(name);
    meta.set("labels", labels(s));
    DataValue j = DataValue::map();
    j.set("apiVersion", "batch/v1");
    j.set("kind", "Job");
    j.set("metadata", meta);
    j.set("spec", spec);
    return j;
}

DataValue planJob(const JobSpec& s)
{
    DataValue spec = DataValue::map();
    spec.set("completionMode", "Indexed");
    spec.set("completions", int64_t(s.shards));
    spec.set("parallelism", int64_t(s.shards));
    spec.set("backoffLimitPerIndex", int64_t(1));
    // A shard that fails for good fails the Job at once, ending the shards that still run or wait
    // for shard 0's bisections (KEP-3850, Backoff Limit Per Index: maxFailedIndexes).
    spec.set("maxFailedIndexes", int64_t(0));
    spec.set("template", podTemplate(s, container(s, "plan", "drasim-script-plan", s.threads)));
    return job(s, planJobName(s), spec);
}

DataValue mergeJob(const JobSpec& s)
{
    DataValue spec = DataValue::map();
    spec.set("backoffLimit", int64_t(1));
    spec.set("template", podTemplate(s, container(s, "merge", "drasim-script-merge", 1)));
    return job(s, mergeJobName(s), spec);
}

/// `yaml` with each list item `- TOKEN` replaced by its script as a literal block scalar, which
/// reads as the script itself, line for line (toYaml writes a string with newlines as one
/// escaped line).
std::string literalScripts(std::string yaml, const std::map<std::string, std::string>& scripts)
{
    for (const auto& [token, script] : scripts) {
        const size_t at = yaml.find("- " + token + "\n");
        const size_t lineStart = yaml.rfind('\n', at) + 1;
        const std::string indent(at - lineStart + 2, ' ');
        std::string block = "- |\n";
        for (size_t from = 0; from < script.size();) {
            const size_t end = script.find('\n', from);
            block += indent + script.substr(from, end - from) + "\n";
            from = end + 1;
        }
        yaml.replace(at, token.size() + 3, block);
    }
    return yaml;
}

} // namespace

std::string checkJobNames(const JobSpec& spec)
{
    const std::string longest = mergeJobName(spec);
    if (longest.size() <= 63)
        return {};
    return "the Job name " + longest + " is " + std::to_string(longest.size())
        + " characters, more than Kubernetes' 63; give the study a shorter metadata.name";
}

std::string jobManifests(const JobSpec& s)
{
    const std::string header = "# Study " + s.study + " as " + std::to_string(s.shards)
        + " shards, then merged. The volume of claim " + s.claim + " holds the folder " + s.folder
        + " at its root\n"
          "# (ReadWriteMany when the shards run on several nodes); shard 0 writes results/bisections.db "
          "there\n"
          "# (the bisection of each shape, which every shard reads), the shards results/shard-K.db,\n"
          "# the merge results/"
        + reportFile(s) + ", frontier.csv and result.json.\n";
    const std::map<std::string, std::string> scripts
        = { { "drasim-script-plan", shardScript(s) }, { "drasim-script-merge", mergeScript(s) } };
    return literalScripts(header + toYaml(planJob(s)) + "---\n" + toYaml(mergeJob(s)), scripts);
}

} // namespace drasim::cli
