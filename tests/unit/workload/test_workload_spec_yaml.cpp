// SPDX-License-Identifier: Apache-2.0
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>

#include "core/workload/workload_spec_yaml.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

const std::string kWorkloadData = DRASIM_SOURCE_DIR "/tests/data/workload";

std::optional<std::vector<WorkloadSpec>> parse(const std::string& yaml, Diagnostics& diags)
{
    auto docs = yamlio::parseYamlDocuments(yaml, "scenario.yaml", diags);
    if (docs.empty())
        return std::nullopt;
    const yamlio::YamlNode* list = docs[0].get("workloads");
    if (!list)
        return std::nullopt;
    return parseWorkloadList(*list, kWorkloadData, diags);
}

std::string errorsOf(const std::string& yaml)
{
    Diagnostics diags;
    EXPECT_FALSE(parse(yaml, diags));
    std::string out;
    for (const auto& d : diags.all())
        out += d.format() + "\n";
    return out;
}

} // namespace

TEST(WorkloadSpecYaml, ParsesAllSourcesAndOptions)
{
    Diagnostics diags;
    auto specs = parse(R"(
workloads:
- name: training
  namespace: ml
  seed: 7
  manifests: [jobs/train.yaml, /abs/other.yaml]
  arrival: {process: poisson, rate: 12/h, start: 1h, until: 2d}
  duration: {distribution: lognormal, median: 20m, sigma: 0.8, max: 6h}
  mix: {train-small: 3, train-large: 1}
- name: openb
  trace: {path: trace/pods_small.csv, timeScale: 0.01, limit: 10, gpuSpec: firstAvailable, sharing: partitions,
          partitionsPerGpu: 20}
- name: nightly
  pipeline:
    path: kfp/gpu_training_pipeline.yaml
    arguments: {epochs: 5, train_claim: {resourceClaimTemplateName: a100}}
    taskDurations: {train: 2h, default: exponential(5m)}
  arrival: {process: schedule, every: 1d, count: 3}
- name: steps
  manifests: x.yaml
  duration: {distribution: empirical, file: durations.txt}
  arrival: {process: bursts, every: 1h, size: 5, spacing: 10s, count: 100}
- name: daily
  manifests: x.yaml
  arrival: {process: diurnal, rate: 100/d, amplitude: 0.5, peak: 15h, until: 7d}
  duration: 45m
)",
        diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    ASSERT_EQ(specs->size(), 5u);
    const WorkloadSpec& t = (*specs)[0];
    EXPECT_EQ(t.namespace_, "ml");
    EXPECT_EQ(t.seed, 7u);
    EXPECT_EQ(
        t.manifests, (std::vector<std::string> { kWorkloadData + "/jobs/train.yaml", "/abs/other.yaml" }));
    EXPECT_EQ(t.arrival->process, ArrivalSpec::Process::Poisson);
    EXPECT_DOUBLE_EQ(t.arrival->ratePerSecond, 12.0 / 3600);
    EXPECT_EQ(t.arrival->start, 3600);
    EXPECT_EQ(t.arrival->until, 172800);
    EXPECT_EQ(t.duration->distribution, DurationSpec::Distribution::Lognormal);
    EXPECT_EQ(t.duration->median, 1200);
    EXPECT_EQ(t.duration->clampMax, 21600);
    EXPECT_EQ(t.mix.at("train-small"), 3);
    EXPECT_EQ(t.pos.line, 3);

    const TraceSpec& tr = *(*specs)[1].trace;
    EXPECT_EQ(tr.path, kWorkloadData + "/trace/pods_small.csv");
    EXPECT_EQ(tr.limit, 10u);
    EXPECT_EQ(tr.gpuSpec, GpuSpecMode::FirstAvailable);
    EXPECT_EQ(tr.sharing, GpuSharing::Partitions);
    EXPECT_EQ(tr.partitionsPerGpu, 20);

    const PipelineRunSpec& p = *(*specs)[2].pipeline;
    EXPECT_EQ(p.arguments.at("epochs"), DataValue(int64_t(5)));
    EXPECT_EQ(p.arguments.at("train_claim").find("resourceClaimTemplateName")->asString(), "a100");
    EXPECT_EQ(p.taskDurations.at("train").value, 7200);
    EXPECT_EQ(p.taskDurations.at("default").distribution, DurationSpec::Distribution::Exponential);

    const WorkloadSpec& s = (*specs)[3];
    ASSERT_TRUE(s.duration->samples);
    EXPECT_EQ(*s.duration->samples, (std::vector<double> { 300, 300, 420, 3600, 9000 }));
    EXPECT_EQ(s.arrival->burstSize, 5u);

    EXPECT_EQ((*specs)[4].arrival->amplitude, 0.5);
    EXPECT_EQ((*specs)[4].duration->value, 2700);
}

TEST(WorkloadSpecYaml, ErrorsAreLocated)
{
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: Bad_Name
  manifests: a.yaml
)"),
        "scenario.yaml:3:9: Workload Bad_Name: name: \"Bad_Name\" must be a DNS label (lowercase letters, "
        "digits, "
        "'-')\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  arival: {process: once}
)"),
        "scenario.yaml:5:3: Workload a: arival: unknown field \"arival\"; expected one of: name, namespace, "
        "seed, manifests, trace, pipeline, arrival, duration, mix, scheduling, checkpointInterval, speed\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  arrival: {process: poisson, rate: 12}
)"),
        "scenario.yaml:5:37: Workload a: arrival.rate: invalid rate \"12\": expected <number>/<s|m|h|d>, "
        "e.g. "
        "12/h\n"
        "scenario.yaml:5:12: Workload a: arrival: process poisson needs `until` or `count` (it would never "
        "end)\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  arrival: {process: once, every: 1h}
)"),
        "scenario.yaml:5:28: Workload a: arrival.every: unknown field \"every\" for process once; expected "
        "one of: "
        "process, start, until, count\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  duration: {distribution: lognormal, median: 10m}
)"),
        "scenario.yaml:5:13: Workload a: duration.sigma: Required value: needed by distribution lognormal\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  duration: 10 minutes
)"),
        "scenario.yaml:5:13: Workload a: duration: invalid duration \"10 minutes\": unknown unit \" "
        "minutes\"; "
        "expected seconds or a duration like 250ms, 90s, 15m, 2h, 1d, 1h30m, or forever\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  trace: {path: t.csv}
)"),
        "scenario.yaml:4:3: Workload a: has more than one source; use exactly one of manifests, trace, "
        "pipeline\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  trace: {path: t.csv, partitionsPerGpu: 3}
- name: a
  namespace: default
)"),
        "scenario.yaml:4:42: Workload a: trace.partitionsPerGpu: partitionsPerGpu must divide 1000 and be "
        "between 2 and 63 (2, 4, 5, 8, 10, 20, 25, 40, 50), got 3\n"
        "scenario.yaml:5:3: Workload a: needs one source: manifests, trace or pipeline\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
- name: a
  manifests: b.yaml
)"),
        "scenario.yaml:5:3: Workload a: name: duplicate workload name\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  duration: {distribution: empirical, file: missing.txt}
)"),
        kWorkloadData
            + "/missing.txt: Workload a: duration.file: cannot open empirical duration file\n"
              "scenario.yaml:5:45: Workload a: duration.file: cannot use empirical file "
            + kWorkloadData + "/missing.txt\n");
}

// `scheduling:` gives every job of the workload a PodGroup, as a 1.37 Job's spec.scheduling.
TEST(WorkloadSpecYaml, SchedulingGivesAPodGroup)
{
    Diagnostics diags;
    auto specs = parse(R"(
workloads:
- name: train
  manifests: a.yaml
  scheduling:
    schedulingPolicy: {gang: {minCount: 8}}
    schedulingConstraints: {topology: [{key: topology.kubernetes.io/rack}]}
- name: gang-default
  manifests: a.yaml
  scheduling: {schedulingPolicy: {gang: {}}}
- name: basic
  manifests: a.yaml
  scheduling: {schedulingPolicy: {basic: {}}}
- name: omitted
  manifests: a.yaml
  scheduling: {}
- name: plain
  manifests: a.yaml
)",
        diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    ASSERT_EQ(specs->size(), 5u);
    const auto& train = *(*specs)[0].scheduling;
    EXPECT_TRUE(train.gang);
    EXPECT_EQ(train.minCount, 8);
    EXPECT_EQ(train.topologyKey, "topology.kubernetes.io/rack");
    EXPECT_TRUE((*specs)[1].scheduling->gang);
    EXPECT_EQ((*specs)[1].scheduling->minCount, 0); // the job's parallelism, as the controller defaults it
    EXPECT_FALSE((*specs)[2].scheduling->gang);
    EXPECT_FALSE((*specs)[3].scheduling->gang); // no policy: basic
    EXPECT_FALSE((*specs)[4].scheduling);
}

// disruptionMode is the 1.37 union of Job spec.scheduling: all makes the group one preemption unit.
TEST(WorkloadSpecYaml, SchedulingDisruptionMode)
{
    Diagnostics diags;
    auto specs = parse(R"(
workloads:
- name: whole
  manifests: a.yaml
  scheduling: {schedulingPolicy: {gang: {}}, disruptionMode: {all: {}}}
- name: members
  manifests: a.yaml
  scheduling: {schedulingPolicy: {gang: {}}, disruptionMode: {single: {}}}
- name: omitted
  manifests: a.yaml
  scheduling: {schedulingPolicy: {gang: {}}}
)",
        diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    EXPECT_TRUE((*specs)[0].scheduling->disruptAll);
    EXPECT_FALSE((*specs)[1].scheduling->disruptAll);
    EXPECT_FALSE((*specs)[2].scheduling->disruptAll);
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling: {disruptionMode: {single: {}, all: {}}}
)"),
        "scenario.yaml:5:32: Workload a: scheduling.disruptionMode: Invalid value: \"{`single`, `all`}\": "
        "exactly one of `single`, `all` is required, but multiple fields are set\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling: {disruptionMode: {}}
)"),
        "scenario.yaml:5:32: Workload a: scheduling.disruptionMode: Invalid value: \"\": must specify one "
        "of: "
        "`single`, `all`\n");
}

// checkpointInterval is drasim's knob: a time, above zero; absent means no checkpoint.
TEST(WorkloadSpecYaml, CheckpointIntervalIsAPositiveTime)
{
    Diagnostics diags;
    auto specs = parse(R"(
workloads:
- name: train
  manifests: a.yaml
  checkpointInterval: 30m
- name: batch
  manifests: a.yaml
)",
        diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    EXPECT_EQ((*specs)[0].checkpointInterval, 1800.0);
    EXPECT_FALSE((*specs)[1].checkpointInterval);
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  checkpointInterval: 0s
)"),
        "scenario.yaml:5:23: Workload a: checkpointInterval: must be greater than 0\n");
}

TEST(WorkloadSpecYaml, SchedulingErrorsAreTheApiServers)
{
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling: {schedulingPolicy: {basic: {}, gang: {minCount: 2}}}
)"),
        "scenario.yaml:5:34: Workload a: scheduling.schedulingPolicy: Invalid value: \"{`basic`, `gang`}\": "
        "exactly one of `basic`, `gang` is required, but multiple fields are set\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling: {schedulingPolicy: {}}
)"),
        "scenario.yaml:5:34: Workload a: scheduling.schedulingPolicy: Invalid value: \"\": must specify one "
        "of: `basic`, `gang`\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling: {schedulingPolicy: {gang: {minCount: 0}}}
)"),
        "scenario.yaml:5:52: Workload a: scheduling.schedulingPolicy.gang.minCount: Invalid value: 0: must "
        "be "
        "greater than zero\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling:
    schedulingConstraints: {topology: [{key: rack}, {key: "bad key"}]}
    scheduleing: {}
)"),
        "scenario.yaml:6:59: Workload a: scheduling.schedulingConstraints.topology[1].key: Invalid value: "
        "\"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
        "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
        "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n"
        "scenario.yaml:6:39: Workload a: scheduling.schedulingConstraints.topology: Too many: 2: must have "
        "at "
        "most 1 items\n"
        "scenario.yaml:7:5: Workload a: scheduling.scheduleing: unknown field \"scheduleing\"; expected one "
        "of: schedulingPolicy, schedulingConstraints, disruptionMode, resourceClaims\n");
}

TEST(WorkloadSpecYaml, TraceDeviceClass)
{
    Diagnostics diags;
    auto specs = parse(R"(
workloads:
- name: t
  trace: {path: pods.csv, deviceClass: gpu.nvidia.com}
)",
        diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    EXPECT_EQ((*specs)[0].trace->deviceClass, "gpu.nvidia.com");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: t
  trace: {path: pods.csv, deviceClass: gpu.nvidia.com, sharing: partitions}
)"),
        "scenario.yaml:4:40: Workload t: trace.deviceClass: cannot be combined with sharing (those shape the "
        "trace driver's devices)\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: t
  trace: {path: pods.csv, format: csv, deviceClass: gpu.nvidia.com}
)"),
        "scenario.yaml:4:53: Workload t: trace.deviceClass: only for format alibaba-2023 (csv rows name "
        "their own "
        "device_class)\n");
}

TEST(WorkloadSpecYaml, TraceCluster)
{
    Diagnostics diags;
    auto docs = yamlio::parseYamlDocuments("trace: {nodes: n.csv, sharing: capacity}\n", "c.yaml", diags);
    auto spec = parseTraceClusterSpec(*docs[0].get("trace"), "/data", diags);
    ASSERT_TRUE(spec) << diags.formatAll();
    EXPECT_EQ(spec->nodesPath, "/data/n.csv");
    auto bad = yamlio::parseYamlDocuments("trace: {sharing: mig}\n", "c.yaml", diags);
    EXPECT_FALSE(parseTraceClusterSpec(*bad[0].get("trace"), "/data", diags));
    std::string out;
    for (const auto& d : diags.all())
        out += d.format() + "\n";
    EXPECT_EQ(out,
        "c.yaml:1:18: Cluster: trace.sharing: unknown sharing \"mig\"; expected capacity or partitions\n"
        "c.yaml:1:8: Cluster: trace.nodes: Required value\n");
}

// The snippets in scenarios/workloads must stay valid: parse each and build its sources.
TEST(WorkloadSpecYaml, ShippedScenarioSnippetsBuild)
{
    const std::string dir = DRASIM_SOURCE_DIR "/scenarios/workloads";
    for (const char* file : { "alibaba-default.yaml", "generated-mix.yaml", "kfp-nightly.yaml" }) {
        SCOPED_TRACE(file);
        std::string text;
        ASSERT_TRUE(yamlio::readFile(dir + "/" + file, text));
        Diagnostics diags;
        auto docs = yamlio::parseYamlDocuments(text, file, diags);
        ASSERT_EQ(docs.size(), 1u) << diags.formatAll();
        auto specs = parseWorkloadList(*docs[0].get("workloads"), dir, diags);
        ASSERT_TRUE(specs) << diags.formatAll();
        auto source = makeScenarioSource(*specs, 1, api::FeatureGates(), diags);
        ASSERT_TRUE(source) << diags.formatAll();
        size_t jobs = 0;
        double last = 0;
        while (auto j = source->next()) {
            EXPECT_GE(j->arrivalSeconds, last);
            last = j->arrivalSeconds;
            ++jobs;
        }
        EXPECT_GT(jobs, 0u);
        EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
    }
}

namespace {

// One line per job: every field the simulator reads, times printed exactly (%a hex floats), so
// any change in the random streams or the mapping shows up as a diff.
std::string dumpStream(ArrivalSource& source)
{
    std::string out;
    char buf[64];
    while (auto j = source.next()) {
        std::snprintf(buf, sizeof buf, "%a", j->arrivalSeconds);
        out += j->name + " " + j->kind + " " + j->workload + " t=" + buf;
        for (const TaskSpec& t : j->tasks) {
            std::snprintf(buf, sizeof buf, "%a", t.durationSeconds);
            out += " [" + t.name + " d=" + buf;
            for (const auto& c : t.pod->spec.resourceClaims)
                out += " claim=" + c.resourceClaimTemplateName.value_or("?");
            out += "]";
        }
        if (j->labels)
            for (const auto& [k, v] : *j->labels)
                out += " " + k + "=" + v;
        out += "\n";
    }
    return out;
}

} // namespace

// Golden regression: the shipped generated-mix snippet with seed 1 must keep producing exactly
// this stream (regenerate the file deliberately when a change of streams is intended).
TEST(WorkloadSpecYaml, GeneratedStreamMatchesGolden)
{
    const std::string dir = DRASIM_SOURCE_DIR "/scenarios/workloads";
    std::string text, golden;
    ASSERT_TRUE(yamlio::readFile(dir + "/generated-mix.yaml", text));
    Diagnostics diags;
    auto docs = yamlio::parseYamlDocuments(text, "generated-mix.yaml", diags);
    auto specs = parseWorkloadList(*docs[0].get("workloads"), dir, diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    auto a = makeScenarioSource(*specs, 1, api::FeatureGates(), diags);
    auto b = makeScenarioSource(*specs, 1, api::FeatureGates(), diags);
    ASSERT_TRUE(a && b) << diags.formatAll();
    const std::string first = dumpStream(*a);
    EXPECT_EQ(first, dumpStream(*b));
    const std::string goldenPath = DRASIM_SOURCE_DIR "/tests/data/workload/golden/generated-mix-seed1.txt";
    if (std::getenv("DRASIM_UPDATE_GOLDEN")) {
        std::FILE* f = std::fopen(goldenPath.c_str(), "w");
        ASSERT_TRUE(f);
        std::fputs(first.c_str(), f);
        std::fclose(f);
    }
    ASSERT_TRUE(yamlio::readFile(goldenPath, golden)) << goldenPath;
    EXPECT_EQ(first, golden);
    auto other = makeScenarioSource(*specs, 2, api::FeatureGates(), diags);
    EXPECT_NE(dumpStream(*other), first);
}

// speed is drasim's knob: the catalog's speeds (dense BF16 TFLOPS) with the workload's over them,
// and the reference model the durations were measured on.
TEST(WorkloadSpecYaml, SpeedTableTakesTheCatalogsSpeedsUnderTheWorkloads)
{
    Diagnostics diags;
    auto specs = parse(R"(
workloads:
- name: train
  manifests: a.yaml
  speed:
    reference: NVIDIA A100-SXM4-80GB
    models: {NVIDIA H200: 1150, My GPU: 100}
- name: trace
  manifests: a.yaml
  speed: {reference: V100M32, attribute: model, models: {V100M32: 1, A10: 0.5}}
- name: batch
  manifests: a.yaml
)",
        diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    const workload::SpeedTable& t = *(*specs)[0].speed;
    EXPECT_EQ(t.reference, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(t.attribute, "");
    EXPECT_DOUBLE_EQ(t.factor("NVIDIA H100 80GB HBM3"), 989.0 / 312);
    EXPECT_DOUBLE_EQ(t.factor("NVIDIA H200"), 1150.0 / 312);
    EXPECT_DOUBLE_EQ(t.factor("NVIDIA B200"), 2250.0 / 312);
    EXPECT_DOUBLE_EQ(t.factor("My GPU"), 100.0 / 312);
    EXPECT_EQ(t.factor("unlisted"), 0);
    const workload::SpeedTable& trace = *(*specs)[1].speed;
    EXPECT_EQ(trace.attribute, "model");
    EXPECT_DOUBLE_EQ(trace.factor("A10"), 0.5);
    EXPECT_FALSE((*specs)[2].speed);
}

TEST(WorkloadSpecYaml, SpeedTableErrorsAreLocated)
{
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  speed:
    reference: NVIDIA A100
    attribute: ""
    models: {NVIDIA H100 80GB HBM3: 0, Mine: -2, Other: fast, Big: .inf}
    scale: 2
- name: b
  manifests: a.yaml
  speed: {models: {X: 1}}
- name: c
  manifests: a.yaml
  speed: fast
- name: d
  manifests: a.yaml
  speed: {reference: Mine, models: {Mine: -1}}
)"),
        "scenario.yaml:7:16: Workload a: speed.attribute: Invalid value: \"\": must name a device attribute\n"
        "scenario.yaml:8:37: Workload a: speed.models[NVIDIA H100 80GB HBM3]: Invalid value: 0: must be a "
        "finite number greater than 0\n"
        "scenario.yaml:8:46: Workload a: speed.models[Mine]: Invalid value: -2: must be a finite number "
        "greater than 0\n"
        "scenario.yaml:8:57: Workload a: speed.models[Other]: expected a number, got string \"fast\"\n"
        "scenario.yaml:8:68: Workload a: speed.models[Big]: Invalid value: .inf: must be a finite number "
        "greater than 0\n"
        "scenario.yaml:9:5: Workload a: speed.scale: unknown field \"scale\"; expected one of: reference, "
        "attribute, models\n"
        "scenario.yaml:6:16: Workload a: speed.reference: Invalid value: \"NVIDIA A100\": unknown model: "
        "neither the catalog nor speed.models gives its speed\n"
        "scenario.yaml:12:10: Workload b: speed.reference: Required value\n"
        "scenario.yaml:15:10: Workload c: speed: expected a map, got string \"fast\"\n"
        "scenario.yaml:18:43: Workload d: speed.models[Mine]: Invalid value: -1: must be a finite number "
        "greater than 0\n");
}

// scheduling.resourceClaims: the claims the PodGroup's members share, validated as the API server
// validates a PodGroupResourceClaim.
TEST(WorkloadSpecYaml, SchedulingResourceClaims)
{
    Diagnostics diags;
    auto specs = parse(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling:
    schedulingPolicy: {gang: {}}
    resourceClaims: [{name: gpus, resourceClaimTemplateName: gpu-8}, {name: fabric, resourceClaimName: rack}]
)",
        diags);
    ASSERT_TRUE(specs) << diags.formatAll();
    const auto& claims = (*specs)[0].scheduling->resourceClaims;
    ASSERT_EQ(claims.size(), 2u);
    EXPECT_EQ(claims[0].name, "gpus");
    EXPECT_EQ(claims[0].resourceClaimTemplateName, "gpu-8");
    EXPECT_FALSE(claims[0].resourceClaimName);
    EXPECT_EQ(claims[1].resourceClaimName, "rack");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling: {resourceClaims: [{name: x, resourceClaimName: a, resourceClaimTemplateName: b}, {name: x, resourceClaimName: A}]}
)"),
        "scenario.yaml:5:33: Workload a: scheduling.resourceClaims[0]: Invalid value: must specify one of: "
        "`resourceClaimName`, `resourceClaimTemplateName`\n"
        "scenario.yaml:5:125: Workload a: scheduling.resourceClaims[1].resourceClaimName: Invalid value: "
        "\"A\": "
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n"
        "scenario.yaml:5:103: Workload a: scheduling.resourceClaims[1].name: Duplicate value: \"x\"\n");
    EXPECT_EQ(errorsOf(R"(
workloads:
- name: a
  manifests: a.yaml
  scheduling: {resourceClaims: [{name: a, resourceClaimName: a}, {name: b, resourceClaimName: a}, {name: c, resourceClaimName: a}, {name: d, resourceClaimName: a}, {name: e, resourceClaimName: a}]}
)"),
        "scenario.yaml:5:32: Workload a: scheduling.resourceClaims: Too many: 5: must have at most 4 "
        "items\n");
}
