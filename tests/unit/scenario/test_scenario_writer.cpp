// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/scenario/scenario.h"
#include "core/scenario/scenario_writer.h"

using namespace drasim;
using namespace drasim::scenario;

namespace {

const char* const kFull = R"(apiVersion: drasim.dev/v1alpha1
kind: Scenario
metadata: {name: full}
spec:
  seed: 7
  duration: 90m
  metricInterval: 30s
  cluster:
    catalog: ../hardware
    shapes: my-shape.yaml
    nodePools:
      - {name: big, shape: dgx-h100, count: 2, pricePerHour: 10.5}
      - {name: small, shape: l40s-pcie-4gpu, count: 3, namePrefix: l40s}
    manifests: [cluster/dump.yaml]
    trace: {nodes: ../data/nodes.csv, sharing: partitions, partitionsPerGpu: 4}
  resources: [classes.yaml]
  workloads:
    - name: steady
      manifests: [jobs/train.yaml]
      arrival: {process: poisson, rate: 3/h, until: 1h}
      duration: {distribution: lognormal, median: 20m, sigma: 0.5}
      mix: {a: 3, b: 1}
  scheduler: {scoring: most-allocated, podInitialBackoff: 2s, podMaxBackoff: 20s}
  events:
    - {at: 1h, type: DeviceTaint, node: big-1, driver: gpu.nvidia.com, device: gpu-0, key: ecc, value: "yes", effect: NoExecute}
    - {at: 30m, type: NodeFailure, node: big-0}
    - {at: 45m, type: NodeReturn, node: big-0}
    - {at: 70m, type: DeviceUntaint, node: big-1, key: ecc}
    - {at: 80m, type: AddNodePool, pool: {name: burst, shape: dgx-h100, count: 1}}
    - {at: 85m, type: RemoveNodePool, name: burst}
    - {at: 86m, type: DeviceTaintRule, name: drain, selector: {driver: gpu.nvidia.com, pool: big-1}, key: m, effect: NoSchedule}
    - {at: 87m, type: DeviceTaintRuleDelete, name: drain}
    - {at: 88m, type: NodeTaint, node: big-0, key: node.kubernetes.io/unreachable, effect: NoExecute}
    - {at: 89m, type: NodeUntaint, node: big-0, key: node.kubernetes.io/unreachable}
    - {at: 90m, type: PodGroupMinCount, workload: steady, minCount: 3}
)";

Scenario parsed(const std::string& text, const std::string& file)
{
    Diagnostics diags;
    auto s = parseScenario(text, file, diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll() << "\n" << text;
    return s.value_or(Scenario {});
}

} // namespace

TEST(ScenarioWriter, WritesPathsAsWrittenAndEveryField)
{
    Scenario s = parsed(kFull, "dir/full.yaml");
    std::string text = writeScenario(s);
    for (const char* expected : { "catalog: ../hardware", "- my-shape.yaml", "- cluster/dump.yaml",
             "nodes: ../data/nodes.csv", "- classes.yaml", "- jobs/train.yaml", "namePrefix: l40s",
             "pricePerHour: 10.5", "partitionsPerGpu: 4", "scoring: most-allocated", "podMaxBackoff: 20s",
             "duration: 1h30m", "metricInterval: 30s", "rate: 3/h", "value: \"yes\"", "effect: NoExecute",
             "type: RemoveNodePool", "type: DeviceTaintRule", "pool: big-1", "type: NodeUntaint",
             "type: PodGroupMinCount", "workload: steady", "minCount: 3" })
        EXPECT_NE(text.find(expected), std::string::npos) << expected << " missing in\n" << text;
    EXPECT_EQ(text.find("dir/"), std::string::npos) << text; // nothing resolved
    EXPECT_EQ(text.find("namePrefix: big"), std::string::npos) << text; // the default is not written
}

TEST(ScenarioWriter, LoadWriteLoadKeepsTheScenarioAndWritingTwiceIsByteStable)
{
    Scenario first = parsed(kFull, "dir/full.yaml");
    std::string once = writeScenario(first);
    Scenario second = parsed(once, "dir/full.yaml");
    std::string twice = writeScenario(second);
    EXPECT_EQ(once, twice);

    EXPECT_EQ(second.name, first.name);
    EXPECT_EQ(second.seed, first.seed);
    EXPECT_EQ(second.duration, first.duration);
    EXPECT_EQ(second.metricInterval, first.metricInterval);
    EXPECT_EQ(second.catalog, first.catalog);
    EXPECT_EQ(second.shapeFiles, first.shapeFiles);
    EXPECT_EQ(second.manifests, first.manifests);
    EXPECT_EQ(second.resources, first.resources);
    ASSERT_TRUE(second.traceCluster.has_value());
    EXPECT_EQ(second.traceCluster->nodesPath, "../data/nodes.csv");
    EXPECT_EQ(second.traceCluster->partitionsPerGpu, 4);
    ASSERT_EQ(second.nodePools.size(), 2u);
    EXPECT_EQ(second.nodePools[1].namePrefix, "l40s");
    EXPECT_EQ(second.nodePools[0].pricePerHour.value_or(0), 10.5);
    EXPECT_EQ(second.scoring, "most-allocated");
    EXPECT_EQ(second.podInitialBackoff, first.podInitialBackoff);
    EXPECT_EQ(second.podMaxBackoff, first.podMaxBackoff);
    ASSERT_EQ(second.events.size(), first.events.size());
    for (size_t i = 0; i < first.events.size(); ++i) {
        EXPECT_EQ(second.events[i].at, first.events[i].at) << i;
        EXPECT_EQ(second.events[i].type, first.events[i].type) << i;
        EXPECT_EQ(second.events[i].node, first.events[i].node) << i;
        EXPECT_EQ(second.events[i].driver, first.events[i].driver) << i;
        EXPECT_EQ(second.events[i].device, first.events[i].device) << i;
        EXPECT_EQ(second.events[i].taint.key, first.events[i].taint.key) << i;
        EXPECT_EQ(second.events[i].taint.value, first.events[i].taint.value) << i;
        EXPECT_EQ(second.events[i].taint.effect, first.events[i].taint.effect) << i;
        EXPECT_EQ(second.events[i].poolName, first.events[i].poolName) << i;
        EXPECT_EQ(second.events[i].newPool.name, first.events[i].newPool.name) << i;
        EXPECT_EQ(second.events[i].selector.has_value(), first.events[i].selector.has_value()) << i;
        if (first.events[i].selector && second.events[i].selector) {
            EXPECT_EQ(second.events[i].selector->driver, first.events[i].selector->driver) << i;
            EXPECT_EQ(second.events[i].selector->pool, first.events[i].selector->pool) << i;
            EXPECT_EQ(second.events[i].selector->device, first.events[i].selector->device) << i;
        }
    }
    ASSERT_EQ(second.workloads.size(), 1u);
    EXPECT_EQ(second.workloads[0].manifests, std::vector<std::string> { "dir/jobs/train.yaml" });
    EXPECT_EQ(second.workloadsDocument, first.workloadsDocument);
}

TEST(ScenarioWriter, ShippedScenariosRoundTrip)
{
    for (const char* rel :
        { "/scenarios/sim/default/scenario.yaml", "/scenarios/sim/alibaba-default/scenario.yaml" }) {
        std::string path = std::string(DRASIM_SOURCE_DIR) + rel;
        Diagnostics diags;
        auto s = loadScenario(path, diags);
        ASSERT_TRUE(s.has_value()) << diags.formatAll();
        std::string once = writeScenario(*s);
        EXPECT_EQ(writeScenario(parsed(once, path)), once) << rel;
        EXPECT_EQ(once.find(DRASIM_SOURCE_DIR), std::string::npos) << once;
    }
}

TEST(ScenarioWriter, MinimalScenarioWritesDefaultsExplicitly)
{
    Scenario s = parsed(
        "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: m}\nspec: {}\n", "m.yaml");
    EXPECT_EQ(writeScenario(s),
        "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: m\nspec:\n  seed: 1\n  "
        "duration: 1d\n"
        "  metricInterval: 5m\n  scheduler:\n    scoring: default\n    podInitialBackoff: 1s\n"
        "    podMaxBackoff: 10s\n");
}

TEST(ScenarioWriter, FeatureGateIsWrittenOnlyWhenOff)
{
    Scenario s = parsed(kFull, "dir/full.yaml");
    EXPECT_EQ(writeScenario(s).find("featureGates"), std::string::npos); // default: not written
    ASSERT_EQ(s.featureGates.set("SchedulerPopFromBackoffQ", false), "");
    std::string text = writeScenario(s);
    EXPECT_NE(text.find("SchedulerPopFromBackoffQ: false"), std::string::npos) << text;
    EXPECT_FALSE(parsed(text, "dir/full.yaml").featureGates.enabled("SchedulerPopFromBackoffQ"));
}

TEST(ScenarioWriter, KubernetesVersionAndGatesAreWrittenBackWhenSet)
{
    Scenario s = parsed(std::string("apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: m}\n")
            + "spec:\n  scheduler:\n    kubernetesVersion: \"1.36\"\n"
              "    featureGates: {GenericWorkload: true, TopologyAwareWorkloadScheduling: true}\n",
        "m.yaml");
    const std::string text = writeScenario(s);
    EXPECT_NE(text.find("kubernetesVersion: \"1.36\""), std::string::npos) << text;
    EXPECT_NE(text.find("GenericWorkload: true"), std::string::npos) << text;
    const Scenario again = parsed(text, "m.yaml");
    EXPECT_EQ(again.featureGates, s.featureGates);
    EXPECT_TRUE(again.kubernetesVersionSet);
}

TEST(ScenarioWriter, TheDraPreemptionWhatIfIsReadAndWrittenBackOnlyWhenOn)
{
    const std::string head = "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: m}\n";
    Scenario on = parsed(head + "spec:\n  scheduler:\n    whatIf: {draPreemption: true}\n", "m.yaml");
    EXPECT_TRUE(on.whatIfDraPreemption);
    const std::string text = writeScenario(on);
    EXPECT_NE(text.find("draPreemption: true"), std::string::npos) << text;
    EXPECT_TRUE(parsed(text, "m.yaml").whatIfDraPreemption);
    Scenario off = parsed(head + "spec:\n  scheduler: {scoring: default}\n", "m.yaml");
    EXPECT_FALSE(off.whatIfDraPreemption);
    EXPECT_EQ(writeScenario(off).find("whatIf"), std::string::npos);
}

TEST(ScenarioWriter, QueueingHintsAreOnUnlessTurnedOffAndOnlyOffIsWrittenBack)
{
    const std::string head = "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: m}\n";
    Scenario off = parsed(head + "spec:\n  scheduler:\n    queueingHints: false\n", "m.yaml");
    EXPECT_FALSE(off.queueingHints);
    const std::string text = writeScenario(off);
    EXPECT_NE(text.find("queueingHints: false"), std::string::npos) << text;
    EXPECT_FALSE(parsed(text, "m.yaml").queueingHints);
    Scenario on = parsed(head + "spec:\n  scheduler: {scoring: default}\n", "m.yaml");
    EXPECT_TRUE(on.queueingHints);
    EXPECT_EQ(writeScenario(on).find("queueingHints"), std::string::npos);

    Diagnostics diags;
    EXPECT_FALSE(
        parseScenario(head + "spec:\n  scheduler:\n    queueingHints: sometimes\n", "m.yaml", diags));
    EXPECT_NE(
        diags.formatAll().find("m.yaml:6:20: Scenario m: spec.scheduler.queueingHints: expected a boolean"),
        std::string::npos)
        << diags.formatAll();
}
