// SPDX-License-Identifier: Apache-2.0
// A driver that republishes a pool under new slice names leaves the outdated slices listed for a
// while: the simulator's device metrics and taint targets see only the newest generation.
#include <gtest/gtest.h>

#include "core/sim/sim_metrics.h"

using namespace drasim;
using namespace drasim::sim;

namespace {

api::ResourceSlice gpuSlice(const std::string& name, int64_t generation, int devices)
{
    api::ResourceSlice s;
    s.meta.name = name;
    s.driver = "gpu.example.com";
    s.pool.name = "node-1";
    s.pool.generation = generation;
    s.nodeName = "node-1";
    for (int i = 0; i < devices; ++i) {
        api::Device d;
        d.name = "gpu-" + std::to_string(i);
        s.devices.push_back(d);
    }
    return s;
}

NodeSpec republishedNode(bool outdatedFirst)
{
    NodeSpec spec;
    spec.node.meta.name = "node-1";
    auto outdated = gpuSlice("node-1-gpus-a", 1, 3);
    auto current = gpuSlice("node-1-gpus-b", 2, 1);
    if (outdatedFirst)
        spec.slices = { outdated, current };
    else
        spec.slices = { current, outdated };
    return spec;
}

} // namespace

TEST(SimMetricsGenerations, OnlyTheNewestGenerationIsCounted)
{
    for (bool outdatedFirst : { true, false }) {
        SimMetrics m;
        m.addNode(republishedNode(outdatedFirst), "pool");
        EXPECT_EQ(m.deviceCount(), 1) << "outdated first: " << outdatedFirst;
        const auto devices = m.devicesOf("node-1");
        ASSERT_EQ(devices.size(), 1u);
        EXPECT_EQ(devices[0].device, "gpu-0");
    }
}
