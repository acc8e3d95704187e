// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "core/common/data_value.h"
#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenario_writer.h"
#include "core/sim/run_prepared.h"
#include "core/sim/run_summary.h"
#include "core/sim/series_writer.h"

using namespace drasim;
using namespace drasim::scenario;
using namespace drasim::sim;

namespace {

/// Prepares and runs a scenario with default options (what `drasim simulate` does).
std::optional<RunSummary> runScenario(const Scenario& s, const RunOptions& options, Diagnostics& diags)
{
    auto prepared = prepareScenario(s, {}, diags);
    if (!prepared)
        return std::nullopt;
    return runPrepared(*prepared, options, diags);
}

std::string errorsOf(const std::string& text)
{
    Diagnostics diags;
    auto s = parseScenario(text, "dir/s.yaml", diags);
    EXPECT_FALSE(s.has_value());
    return diags.formatAll();
}

const char* const kHeader = "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\n";

} // namespace

TEST(Scenario, ParsesAFullDocumentAndKeepsPathsAsWritten)
{
    std::string text = std::string(kHeader) + R"(spec:
  seed: 7
  duration: 2h
  metricInterval: 1m
  cluster:
    nodePools:
      - {name: big, shape: dgx-h100, count: 2, pricePerHour: 10}
    manifests: [cluster/dump.yaml]
  resources: classes.yaml
  scheduler: {scoring: most-allocated, podInitialBackoff: 2s, podMaxBackoff: 20s}
  events:
    - {at: 90m, type: NodeReturn, node: big-0}
    - {at: 1h, type: NodeFailure, node: big-0}
    - {at: 1h, type: DeviceTaint, node: big-1, key: k, effect: NoExecute}
    - {at: 100m, type: AddNodePool, pool: {name: extra, shape: dgx-h100, count: 1}}
    - {at: 110m, type: RemoveNodePool, name: extra}
)";
    Diagnostics diags;
    auto s = parseScenario(text, "dir/s.yaml", diags);
    ASSERT_TRUE(s.has_value()) << diags.formatAll();
    EXPECT_EQ(s->name, "t");
    EXPECT_EQ(s->seed, 7u);
    EXPECT_EQ(s->duration, 2 * kHour);
    EXPECT_EQ(s->metricInterval, kMinute);
    ASSERT_EQ(s->nodePools.size(), 1u);
    EXPECT_EQ(s->nodePools[0].namePrefix, "big");
    EXPECT_EQ(s->nodePools[0].pricePerHour.value_or(0), 10);
    EXPECT_EQ(s->manifests, std::vector<std::string> { "cluster/dump.yaml" });
    EXPECT_EQ(s->resources, std::vector<std::string> { "classes.yaml" });
    EXPECT_EQ(s->resolvedPath(s->manifests[0]), "dir/cluster/dump.yaml");
    EXPECT_EQ(s->resolvedPath("/abs/x.yaml"), "/abs/x.yaml");
    EXPECT_EQ(s->resolvedPath("../up.yaml"), "up.yaml");
    EXPECT_EQ(s->scoring, "most-allocated");
    EXPECT_EQ(s->podInitialBackoff, 2 * kSecond);
    ASSERT_EQ(s->events.size(), 5u);
    // Sorted by time, stable for equal times.
    EXPECT_EQ(s->events[0].type, InjectedEvent::Type::NodeFailure);
    EXPECT_EQ(s->events[1].type, InjectedEvent::Type::DeviceTaint);
    EXPECT_EQ(s->events[1].taint.effect, "NoExecute");
    EXPECT_EQ(s->events[2].type, InjectedEvent::Type::NodeReturn);
    EXPECT_EQ(s->events[3].newPool.name, "extra");
    EXPECT_EQ(s->events[4].poolName, "extra");
}

TEST(Scenario, ValidationErrorsArePositionedAndWorded)
{
    EXPECT_EQ(errorsOf("apiVersion: v1\nkind: Scenario\nmetadata: {name: t}\nspec: {}\n"),
        "dir/s.yaml:1:13: Scenario t: apiVersion: Unsupported value: \"v1\": supported values: "
        "\"drasim.dev/v1alpha1\"\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  duraton: 1d\n"),
        "dir/s.yaml:6:3: Scenario t: spec.duraton: unknown field \"duraton\"\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  duration: soon\n"),
        "dir/s.yaml:6:13: Scenario t: spec.duration: invalid duration \"soon\": expected seconds or a "
        "duration like 250ms, 90s, 15m, 2h, 1d or 1h30m\n");
    EXPECT_EQ(
        errorsOf(std::string(kHeader) + "spec:\n  cluster:\n    nodePools:\n      - {name: a, shape: s}\n"),
        "dir/s.yaml:8:9: Scenario t: spec.cluster.nodePools[0].count: Required value\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  events:\n    - {at: 1h, type: Meteor, node: n}\n"),
        "dir/s.yaml:7:22: Scenario t: spec.events[0].type: Unsupported value: \"Meteor\": supported values: "
        "\"NodeFailure\", \"NodeReturn\", \"DeviceTaint\", \"DeviceUntaint\", \"AddNodePool\", "
        "\"RemoveNodePool\", \"DeviceTaintRule\", \"DeviceTaintRuleDelete\", \"NodeTaint\", "
        "\"NodeUntaint\", \"PodGroupMinCount\"\n");
    // PodGroupMinCount: a workload and a minCount of at least 1.
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  events:\n    - {at: 1h, type: PodGroupMinCount}\n"),
        "dir/s.yaml:7:7: Scenario t: spec.events[0].workload: Required value: needed by type "
        "PodGroupMinCount\n"
        "dir/s.yaml:7:7: Scenario t: spec.events[0].minCount: Required value\n");
    EXPECT_EQ(errorsOf(std::string(kHeader)
                  + "spec:\n  events:\n    - {at: 1h, type: PodGroupMinCount, workload: w, minCount: 0}\n"),
        "dir/s.yaml:7:63: Scenario t: spec.events[0].minCount: Invalid value: 0: must be between 1 and "
        "2147483647\n");
    // DeviceTaintRule and NodeTaint events: what each needs.
    EXPECT_EQ(errorsOf(std::string(kHeader)
                  + "spec:\n  events:\n    - {at: 1h, type: DeviceTaintRule, name: r, key: k, effect: "
                    "NoExecute}\n"),
        "dir/s.yaml:7:7: Scenario t: spec.events[0].selector: Required value: needed by type DeviceTaintRule "
        "({} "
        "selects every device)\n");
    EXPECT_EQ(
        errorsOf(std::string(kHeader)
            + "spec:\n  events:\n    - {at: 1h, type: DeviceTaintRule, name: r, selector: {rack: 1}, key: k, "
              "effect: NoExecute}\n"),
        "dir/s.yaml:7:59: Scenario t: spec.events[0].selector.rack: unknown field \"rack\"\n");
    EXPECT_EQ(errorsOf(std::string(kHeader)
                  + "spec:\n  events:\n    - {at: 1h, type: NodeTaint, node: n, key: k, "
                    "effect: None}\n"),
        "dir/s.yaml:7:58: Scenario t: spec.events[0].effect: Unsupported value: \"None\": supported values: "
        "\"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"\n");
    EXPECT_EQ(
        errorsOf(std::string(kHeader) + "spec:\n  events:\n    - {at: 1h, type: DeviceTaintRuleDelete}\n"),
        "dir/s.yaml:7:7: Scenario t: spec.events[0].name: Required value: needed by type "
        "DeviceTaintRuleDelete\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  events:\n    - {at: 1h, type: NodeFailure}\n"),
        "dir/s.yaml:7:7: Scenario t: spec.events[0].node: Required value: needed by type NodeFailure\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  scheduler: {scoring: spread}\n"),
        "dir/s.yaml:6:24: Scenario t: spec.scheduler.scoring: Unsupported value: \"spread\": supported "
        "values: \"best-fit\", \"default\", \"dot-product\", \"fgd\", \"gpu-clustering\", \"gpu-packing\", "
        "\"least-allocated\", \"most-allocated\", \"random\"\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  scheduler: {tieBreak: random}\n"),
        "dir/s.yaml:6:25: Scenario t: spec.scheduler.tieBreak: Unsupported value: \"random\": supported "
        "values: \"node-name\", \"seeded-order\"\n");
    EXPECT_EQ(errorsOf("apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: t}\n"),
        "dir/s.yaml:1:1: Scenario t: spec: Required value\n"); // The wording every drasim document shares
                                                               // (yamlio/doc_reader.h).
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  events: {at: 1h}\n"),
        "dir/s.yaml:6:11: Scenario t: spec.events: expected a list, got map\n");
    EXPECT_EQ(errorsOf(std::string(kHeader)
                  + "spec:\n  cluster:\n    nodePools:\n      - {name: a, shape: s, count: 2000000, "
                    "pricePerHour: x}\n"),
        "dir/s.yaml:8:36: Scenario t: spec.cluster.nodePools[0].count: Invalid value: 2000000: must be "
        "between 0 "
        "and 1000000\n"
        "dir/s.yaml:8:59: Scenario t: spec.cluster.nodePools[0].pricePerHour: expected a number, got string "
        "\"x\"\n");
    EXPECT_EQ(errorsOf(std::string(kHeader)
                  + "spec:\n  resources: {a: b}\n  seed: -1\n  metricInterval: forever\n"),
        "dir/s.yaml:6:14: Scenario t: spec.resources: expected a path or a list of paths, got map\n"
        "dir/s.yaml:7:9: Scenario t: spec.seed: Invalid value: -1: must be greater than or equal to 0\n"
        "dir/s.yaml:8:19: Scenario t: spec.metricInterval: invalid duration \"forever\": must be finite "
        "here\n");
}

// One table spells the event types: every spelling reads back as the type it names, and the
// names are distinct (the reader, the writer and the refusal's list share it).
TEST(Scenario, EveryEventTypeNameReadsBackAsItsType)
{
    const std::vector<std::string> names = sim::injectedEventTypeNames();
    ASSERT_EQ(names.size(), 11u);
    std::set<std::string> distinct(names.begin(), names.end());
    EXPECT_EQ(distinct.size(), names.size());
    for (const std::string& name : names) {
        const auto type = sim::parseInjectedEventType(name);
        ASSERT_TRUE(type.has_value()) << name;
        EXPECT_EQ(sim::injectedEventTypeName(*type), name);
    }
    EXPECT_FALSE(sim::parseInjectedEventType("nodefailure").has_value());
}

TEST(Scenario, MissingFileIsADiagnostic)
{
    Diagnostics diags;
    EXPECT_FALSE(loadScenario("/nonexistent/scenario.yaml", diags).has_value());
    EXPECT_NE(diags.formatAll().find("/nonexistent/scenario.yaml: Scenario: cannot read scenario file"),
        std::string::npos)
        << diags.formatAll();
}

TEST(ScenarioPrepare, UnknownShapeAndUnknownNodeAreReported)
{
    std::string text = std::string(kHeader) + R"(spec:
  cluster:
    nodePools:
      - {name: a, shape: no-such-shape, count: 1}
)";
    Diagnostics diags;
    auto s = parseScenario(text, "s.yaml", diags);
    ASSERT_TRUE(s.has_value()) << diags.formatAll();
    EXPECT_FALSE(runScenario(*s, {}, diags).has_value());
    EXPECT_NE(diags.formatAll().find("s.yaml:8:9: Scenario t: spec.cluster.nodePools[0].shape: Not found: "
                                     "\"no-such-shape\""),
        std::string::npos)
        << diags.formatAll();

    text = std::string(kHeader) + R"(spec:
  cluster:
    nodePools:
      - {name: a, shape: dgx-h100, count: 1}
  events:
    - {at: 1h, type: NodeFailure, node: a-7}
)";
    Diagnostics d2;
    s = parseScenario(text, "s.yaml", d2);
    ASSERT_TRUE(s.has_value()) << d2.formatAll();
    EXPECT_FALSE(runScenario(*s, {}, d2).has_value());
    EXPECT_NE(d2.formatAll().find("s.yaml:10:7: Scenario t: spec.events[0].node: Not found: \"a-7\""),
        std::string::npos)
        << d2.formatAll();
}

TEST(ScenarioPrepare, DefaultScenarioIsDeterministic)
{
    auto once = [](uint64_t seed) {
        Diagnostics diags;
        auto s = loadScenario(DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml", diags);
        EXPECT_TRUE(s.has_value()) << diags.formatAll();
        if (!s)
            return std::string();
        SeriesWriter series;
        RunOptions opts;
        opts.recorders.push_back(&series);
        PrepareOptions prepare;
        prepare.seed = seed;
        auto prepared = prepareScenario(*s, prepare, diags);
        EXPECT_TRUE(prepared.has_value()) << diags.formatAll();
        if (!prepared)
            return std::string();
        auto summary = runPrepared(*prepared, opts, diags);
        EXPECT_TRUE(summary.has_value()) << diags.formatAll();
        if (!summary)
            return std::string();
        EXPECT_GT(summary->podsScheduled, 100);
        EXPECT_EQ(summary->podsEvicted, 1); // the NoExecute taint at 16h
        return toJson(toData(*summary)) + series.csv();
    };
    std::string a = once(42);
    EXPECT_EQ(a, once(42));
    EXPECT_NE(a, once(43));
}

// Pods of a workload that name one pre-created ResourceClaim share its devices (like NVIDIA's
// gpu-test3 quickstart): the claim must reach the cluster, or both pods stay pending "not found".
TEST(ScenarioPrepare, SharedClaimFromAWorkloadManifestIsAllocatedOnceForBothPods)
{
    std::string tmpl = (std::filesystem::temp_directory_path() / "drasim-shared-XXXXXX").string();
    std::filesystem::path dir = mkdtemp(tmpl.data());
    auto write = [&](const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; };
    write("shared.yaml", R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared-gpu, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.nvidia.com}
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: default, annotations: {drasim.dev/duration: 1h}}
spec:
  containers: [{name: c, image: x, resources: {claims: [{name: g}]}}]
  resourceClaims: [{name: g, resourceClaimName: shared-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: default, annotations: {drasim.dev/duration: 1h}}
spec:
  containers: [{name: c, image: x, resources: {claims: [{name: g}]}}]
  resourceClaims: [{name: g, resourceClaimName: shared-gpu}]
)");
    write("scenario.yaml",
        std::string(kHeader)
            + "spec:\n  duration: 2h\n  cluster:\n    nodePools:\n"
              "      - {name: h100, shape: dgx-h100, count: 1}\n  resources: [" DRASIM_SOURCE_DIR
              "/scenarios/sim/default/classes.yaml]\n  workloads:\n    - name: shared\n      manifests: "
              "[shared.yaml]\n");
    Diagnostics diags;
    auto scenario = loadScenario((dir / "scenario.yaml").string(), diags);
    ASSERT_TRUE(scenario.has_value()) << diags.formatAll();
    auto summary = runScenario(*scenario, {}, diags);
    ASSERT_TRUE(summary.has_value()) << diags.formatAll();
    EXPECT_EQ(summary->podsScheduled, 2);
    EXPECT_EQ(summary->podsPendingAtEnd, 0);
    EXPECT_EQ(summary->podsSucceeded, 2);
    std::filesystem::remove_all(dir);
}

// A workload's manifests are read with the scenario's Kubernetes version and gates, as its cluster
// manifests are: with GenericWorkload on, a PodGroup and a pod's spec.schedulingGroup are kept.
TEST(ScenarioPrepare, WorkloadManifestsAreReadWithTheScenarioFeatureGates)
{
    std::string tmpl = (std::filesystem::temp_directory_path() / "drasim-gates-XXXXXX").string();
    std::filesystem::path dir = mkdtemp(tmpl.data());
    std::ofstream(dir / "gang.yaml") << R"(apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: workers}
spec:
  schedulingPolicy: {gang: {minCount: 1}}
---
apiVersion: v1
kind: Pod
metadata: {name: worker, annotations: {drasim.dev/duration: 1h}}
spec:
  schedulingGroup: {podGroupName: workers}
  containers: [{name: c, image: x}]
)";
    auto prepareWith = [&](const std::string& gates) {
        std::ofstream(dir / "scenario.yaml") << std::string(kHeader)
                + "spec:\n  duration: 2h\n  cluster:\n    nodePools:\n"
                  "      - {name: h100, shape: dgx-h100, count: 1}\n"
                  "  scheduler: {featureGates: {"
                + gates
                + "}}\n"
                  "  workloads:\n    - name: gang\n      manifests: [gang.yaml]\n";
        Diagnostics diags;
        auto scenario = loadScenario((dir / "scenario.yaml").string(), diags);
        EXPECT_TRUE(scenario.has_value()) << diags.formatAll();
        if (scenario)
            prepareScenario(*scenario, {}, diags);
        std::string out = diags.formatAll();
        const std::string dirText = dir.string() + "/";
        for (size_t at; (at = out.find(dirText)) != std::string::npos;)
            out.erase(at, dirText.size());
        return out;
    };
    // Kept: the only finding is simulate's warning that it schedules the group's pods one by one.
    EXPECT_EQ(prepareWith("GenericWorkload: true"),
        "gang.yaml:7:1: warning: Pod default/worker: spec.schedulingGroup: PodGroup \"workers\" is among the "
        "workload's manifests: drasim simulate schedules these pods one by one, as pods of no group (it "
        "makes a "
        "PodGroup only for a Job, from its spec.scheduling); drasim allocate and explain schedule the group "
        "as one "
        "unit\n");
    EXPECT_EQ(prepareWith("GenericWorkload: false"),
        "gang.yaml:1:13: PodGroup default/workers: apiVersion: no matches for kind \"PodGroup\" in version "
        "\"scheduling.k8s.io/v1beta1\" (Kubernetes 1.37 serves it only with the feature gate GenericWorkload "
        "on)\n"
        "gang.yaml:11:20: warning: Pod default/worker: spec.schedulingGroup: dropped: feature gate "
        "GenericWorkload is disabled, so the API server clears this field\n");
    std::filesystem::remove_all(dir);
}

TEST(Scenario, SchedulerFeatureGateSchedulerPopFromBackoffQ)
{
    Diagnostics diags;
    auto byDefault
        = parseScenario(std::string(kHeader) + "spec:\n  scheduler: {scoring: default}\n", "s.yaml", diags);
    ASSERT_TRUE(byDefault.has_value()) << diags.formatAll();
    EXPECT_TRUE(
        byDefault->featureGates.enabled("SchedulerPopFromBackoffQ")); // on by default, as in Kubernetes 1.33+
    auto off = parseScenario(
        std::string(kHeader) + "spec:\n  scheduler:\n    featureGates: {SchedulerPopFromBackoffQ: false}\n",
        "s.yaml", diags);
    ASSERT_TRUE(off.has_value()) << diags.formatAll();
    EXPECT_FALSE(off->featureGates.enabled("SchedulerPopFromBackoffQ"));

    EXPECT_EQ(errorsOf(std::string(kHeader)
                  + "spec:\n  scheduler:\n    featureGates: {DRAPrioritizedList: true}\n"),
        "dir/s.yaml:7:20: Scenario t: spec.scheduler.featureGates.DRAPrioritizedList: unrecognized feature "
        "gate: DRAPrioritizedList\n");
    std::string notBool = errorsOf(
        std::string(kHeader) + "spec:\n  scheduler:\n    featureGates: {SchedulerPopFromBackoffQ: maybe}\n");
    EXPECT_NE(
        notBool.find("dir/s.yaml:7:46: Scenario t: spec.scheduler.featureGates.SchedulerPopFromBackoffQ: "),
        std::string::npos)
        << notBool;
}

TEST(Scenario, KubernetesVersionAndEveryFeatureGate)
{
    Diagnostics diags;
    auto s = parseScenario(std::string(kHeader)
            + "spec:\n  scheduler:\n    featureGates: {GenericWorkload: true, GangScheduling: true}\n"
              "    kubernetesVersion: \"1.36\"\n",
        "s.yaml", diags);
    ASSERT_TRUE(s.has_value()) << diags.formatAll();
    EXPECT_EQ(s->featureGates.version(), api::KubernetesVersion::V1_36); // applied first, wherever written
    EXPECT_TRUE(s->featureGates.enabled("GangScheduling"));
    EXPECT_TRUE(s->featureGates.enabled("SchedulerPopFromBackoffQ"));
    auto byDefault = parseScenario(std::string(kHeader) + "spec: {}\n", "s.yaml", diags);
    ASSERT_TRUE(byDefault.has_value());
    EXPECT_EQ(byDefault->featureGates, api::FeatureGates());

    EXPECT_EQ(
        errorsOf(std::string(kHeader) + "spec:\n  scheduler:\n    featureGates: {GangScheduling: true}\n"),
        "dir/s.yaml:7:20: Scenario t: spec.scheduler.featureGates.GangScheduling: unrecognized feature gate: "
        "GangScheduling\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  scheduler:\n    kubernetesVersion: \"1.34\"\n"),
        "dir/s.yaml:7:24: Scenario t: spec.scheduler.kubernetesVersion: Unsupported value: \"1.34\": "
        "supported "
        "values: \"1.35\", \"1.36\", \"1.37\"\n");
    EXPECT_EQ(
        errorsOf(std::string(kHeader) + "spec:\n  scheduler:\n    featureGates: {CompositePodGroup: true}\n"),
        "dir/s.yaml:7:19: Scenario t: spec.scheduler.featureGates: CompositePodGroup is enabled, but depends "
        "on "
        "features that are disabled: [GenericWorkload TopologyAwareWorkloadScheduling]\n");
    EXPECT_EQ(errorsOf(std::string(kHeader)
                  + "spec:\n  scheduler:\n    featureGates: {DRAExtendedResource: false}\n"),
        "dir/s.yaml:7:20: Scenario t: spec.scheduler.featureGates.DRAExtendedResource: cannot set feature "
        "gate "
        "DRAExtendedResource to false, feature is locked to true\n");
}

// Every file a scenario names that is not there is reported, each at the field naming it, before
// preparation reads any: a list item at its item, a single path at its value, a workload's trace
// and pipeline at their `path`, the trace cluster at `nodes`.
TEST(Scenario, EveryMissingFileIsReportedAtItsField)
{
    Diagnostics diags;
    auto s = parseScenario(std::string(kHeader) + R"(spec:
  cluster:
    catalog: no-catalog
    shapes: [no-shape.yaml]
    manifests: no-dump.yaml
    trace: {nodes: no-nodes.csv}
  resources: [no-classes.yaml, no-templates.yaml]
  workloads:
    - name: jobs
      manifests: [no-jobs.yaml]
      arrival: {process: once}
    - name: trace
      trace: {path: no-trace.csv}
    - name: pipe
      pipeline: {path: no-pipeline.yaml}
)",
        "dir/s.yaml", diags);
    ASSERT_TRUE(s.has_value()) << diags.formatAll();
    EXPECT_FALSE(prepareScenario(*s, {}, diags).has_value());
    const std::string missing = ": No such file or directory\n";
    EXPECT_EQ(diags.formatAll(),
        "dir/s.yaml:7:14: Scenario t: spec.cluster.catalog: cannot read dir/no-catalog" + missing
            + "dir/s.yaml:8:14: Scenario t: spec.cluster.shapes[0]: cannot read dir/no-shape.yaml" + missing
            + "dir/s.yaml:9:16: Scenario t: spec.cluster.manifests[0]: cannot read dir/no-dump.yaml" + missing
            + "dir/s.yaml:10:20: Scenario t: spec.cluster.trace.nodes: cannot read dir/no-nodes.csv" + missing
            + "dir/s.yaml:11:15: Scenario t: spec.resources[0]: cannot read dir/no-classes.yaml" + missing
            + "dir/s.yaml:11:32: Scenario t: spec.resources[1]: cannot read dir/no-templates.yaml" + missing
            + "dir/s.yaml:14:19: Scenario t: spec.workloads[0].manifests[0]: cannot read dir/no-jobs.yaml"
            + missing
            + "dir/s.yaml:17:21: Scenario t: spec.workloads[1].trace.path: cannot read dir/no-trace.csv"
            + missing
            + "dir/s.yaml:19:24: Scenario t: spec.workloads[2].pipeline.path: cannot read "
              "dir/no-pipeline.yaml"
            + missing);
}

TEST(Scenario, PercentageOfNodesToScoreIsReadCheckedAndWrittenBack)
{
    Diagnostics diags;
    auto unset
        = parseScenario(std::string(kHeader) + "spec:\n  scheduler: {scoring: default}\n", "s.yaml", diags);
    ASSERT_TRUE(unset.has_value()) << diags.formatAll();
    EXPECT_FALSE(unset->percentageOfNodesToScore);
    // Unset stays unset when written back, so a saved scenario keeps its content.
    EXPECT_EQ(writeScenario(*unset).find("percentageOfNodesToScore"), std::string::npos);

    auto set = parseScenario(
        std::string(kHeader) + "spec:\n  scheduler: {percentageOfNodesToScore: 30}\n", "s.yaml", diags);
    ASSERT_TRUE(set.has_value()) << diags.formatAll();
    EXPECT_EQ(set->percentageOfNodesToScore, 30);
    auto again = parseScenario(writeScenario(*set), "s.yaml", diags);
    ASSERT_TRUE(again.has_value()) << diags.formatAll();
    EXPECT_EQ(again->percentageOfNodesToScore, 30);

    // KubeSchedulerConfiguration accepts 0-100.
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  scheduler: {percentageOfNodesToScore: 101}\n"),
        "dir/s.yaml:6:41: Scenario t: spec.scheduler.percentageOfNodesToScore: Invalid value: 101: must be "
        "between 0 and 100\n");
    EXPECT_EQ(errorsOf(std::string(kHeader) + "spec:\n  scheduler: {percentageOfNodesToScore: all}\n"),
        "dir/s.yaml:6:41: Scenario t: spec.scheduler.percentageOfNodesToScore: expected an integer, got "
        "string "
        "\"all\"\n");
}
