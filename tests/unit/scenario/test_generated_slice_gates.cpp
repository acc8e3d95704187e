// SPDX-License-Identifier: Apache-2.0
// The ResourceSlices a Scenario's node pools generate from hardware shapes obey the same feature
// gates as the slices the loader reads (core/api/dra_field_gates.h): on Kubernetes 1.35, where
// DRAPartitionableDevices is off, the counters of a shape with dynamic MIG partitions are cleared,
// with one warning per gate.
#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"

using namespace drasim;
using namespace drasim::scenario;

namespace {

// Beside the teaching scenario whose shape file (one H100 with dynamic MIG) it uses.
const std::string kFile = DRASIM_SOURCE_DIR "/scenarios/learn/08-partitionable-mig/t.yaml";

std::string migScenario(const std::string& scheduler)
{
    return "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\nspec:\n"
           "  duration: 1h\n"
        + scheduler
        + "  cluster:\n"
          "    shapes: [shape/h100-1gpu-vm.yaml]\n"
          "    nodePools:\n"
          "      - {name: mig, shape: h100-1gpu-vm, count: 2}\n";
}

struct Prepared
{
    size_t sharedCounterSets = 0;
    size_t devicesConsumingCounters = 0;
    size_t slices = 0;
    std::string warnings;
};

Prepared prepare(const std::string& scheduler)
{
    Prepared out;
    Diagnostics diags;
    auto s = parseScenario(migScenario(scheduler), kFile, diags);
    EXPECT_TRUE(s) << diags.formatAll();
    if (!s)
        return out;
    auto p = prepareScenario(*s, {}, diags);
    EXPECT_TRUE(p) << diags.formatAll();
    if (!p)
        return out;
    for (const auto& slice : p->objects->resourceSlices) {
        ++out.slices;
        out.sharedCounterSets += slice.sharedCounters.size();
        for (const auto& d : slice.devices)
            out.devicesConsumingCounters += d.consumesCounters.empty() ? 0 : 1;
    }
    for (const auto& d : diags.all())
        if (d.severity == Severity::Warning)
            out.warnings += d.format() + "\n";
    return out;
}

} // namespace

TEST(GeneratedSliceGates, Kubernetes135ClearsTheCountersOfGeneratedSlices)
{
    const Prepared v137 = prepare("");
    ASSERT_GT(v137.slices, 0u);
    EXPECT_GT(v137.sharedCounterSets, 0u);
    EXPECT_GT(v137.devicesConsumingCounters, 0u);
    EXPECT_EQ(v137.warnings, "");

    const Prepared v135 = prepare("  scheduler: {kubernetesVersion: \"1.35\"}\n");
    EXPECT_EQ(v135.slices, v137.slices);
    EXPECT_EQ(v135.sharedCounterSets, 0u);
    EXPECT_EQ(v135.devicesConsumingCounters, 0u);
    EXPECT_EQ(v135.warnings,
        kFile
            + ":11:9: warning: Scenario t: spec.cluster.nodePools[0].shape: dropped: "
              "feature gate DRAPartitionableDevices is disabled, so the API server clears "
              "spec.devices[].consumesCounters, spec.sharedCounters of the generated ResourceSlices\n");
}

TEST(GeneratedSliceGates, AGateSetOnIn135KeepsItsFields)
{
    const Prepared on = prepare(
        "  scheduler: {kubernetesVersion: \"1.35\", featureGates: {DRAPartitionableDevices: true}}\n");
    EXPECT_GT(on.sharedCounterSets, 0u);
    EXPECT_GT(on.devicesConsumingCounters, 0u);
    EXPECT_EQ(on.warnings, "");
}
