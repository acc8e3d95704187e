// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/topology/cluster_builder.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

class Placement : public ::testing::Test
{
protected:
    void SetUp() override
    {
        builder.addPool(*testing::catalog().find("dgx-h100"), 2, "dgx");
        GenerateOptions mig;
        mig.mig = MigMode::Dynamic;
        builder.addPool(*testing::catalog().find("a100-pcie-8gpu"), 1, "a100", mig);
        index = builder.placementIndex();
    }
    ClusterBuilder builder;
    std::shared_ptr<const PlacementIndex> index;
};

TEST_F(Placement, GpuAndNicOnOneSwitchArePix)
{
    auto q = index->assess(
        "dgx-1", { { "gpu.nvidia.com", "dgx-1", "gpu-0" }, { "dra.net", "dgx-1", "pci-0000-18-00-0" } });
    EXPECT_EQ(q.devices, 2);
    EXPECT_TRUE(q.unknown.empty());
    EXPECT_EQ(q.worst.label(), "PIX");
    EXPECT_EQ(q.worstPair, "gpu0 <-> nic0");
    EXPECT_EQ(q.numaNodes, (std::vector<int> { 0 }));
    EXPECT_EQ(q.sockets, 1);
    EXPECT_EQ(q.fabricIslands, 1);
}

TEST_F(Placement, AcrossSocketsIsSysAndSpreadsNuma)
{
    auto q = index->assess("dgx-0",
        { { "gpu.nvidia.com", "dgx-0", "gpu-0" }, { "dra.net", "dgx-0", "pci-0000-18-00-0" },
            { "dra.net", "dgx-0", "pci-0000-9a-00-0" } });
    EXPECT_EQ(q.worst.label(), "SYS");
    EXPECT_EQ(q.numaNodes, (std::vector<int> { 0, 1 }));
    EXPECT_EQ(q.sockets, 2);
}

TEST_F(Placement, GpusOnTheNvSwitchAreOneIsland)
{
    auto q = index->assess(
        "dgx-0", { { "gpu.nvidia.com", "dgx-0", "gpu-0" }, { "gpu.nvidia.com", "dgx-0", "gpu-7" } });
    EXPECT_EQ(q.worst.label(), "NV18");
    EXPECT_EQ(q.fabricIslands, 1);
    EXPECT_EQ(q.offFabric, 0);
}

TEST_F(Placement, BridgedPairsAreSeparateIslandsAndMigMapsToItsGpu)
{
    auto pair = index->assess("a100-0",
        { { "gpu.nvidia.com", "a100-0", "gpu-0-mig-3g40gb-9-0" },
            { "gpu.nvidia.com", "a100-0", "gpu-1-mig-1g10gb-19-6" } });
    EXPECT_EQ(pair.worst.label(), "NV12");
    EXPECT_EQ(pair.fabricIslands, 1);
    auto apart = index->assess("a100-0",
        { { "gpu.nvidia.com", "a100-0", "gpu-0-mig-3g40gb-9-0" },
            { "gpu.nvidia.com", "a100-0", "gpu-2-mig-7g80gb-0-0" } });
    EXPECT_EQ(apart.worst.label(), "NODE");
    EXPECT_EQ(apart.fabricIslands, 2);
    auto same = index->assess("a100-0",
        { { "gpu.nvidia.com", "a100-0", "gpu-3-mig-1g10gb-19-0" },
            { "gpu.nvidia.com", "a100-0", "gpu-3-mig-1g10gb-19-1" } });
    EXPECT_EQ(same.worst.label(), "X");
}

TEST_F(Placement, UnknownDevicesAndNodesAreReportedNotGuessed)
{
    auto q = index->assess("dgx-0",
        { { "gpu.nvidia.com", "dgx-0", "gpu-0" }, { "gpu.nvidia.com", "dgx-0", "gpu-99" },
            { "other.example.com", "dgx-0", "x" } });
    EXPECT_EQ(q.devices, 1);
    EXPECT_EQ(
        q.unknown, (std::vector<std::string> { "gpu.nvidia.com/dgx-0/gpu-99", "other.example.com/dgx-0/x" }));
    EXPECT_EQ(q.worst.label(), "X");
    auto none = index->assess("nowhere", { { "gpu.nvidia.com", "nowhere", "gpu-0" } });
    EXPECT_EQ(none.devices, 0);
    EXPECT_EQ(none.unknown.size(), 1u);
    EXPECT_FALSE(index->locate("nowhere", { "gpu.nvidia.com", "nowhere", "gpu-0" }));
    auto loc = index->locate("dgx-1", { "gpu.nvidia.com", "dgx-1", "gpu-5" });
    ASSERT_TRUE(loc);
    EXPECT_EQ(loc->generator->topology().shape().components[loc->location.component].name, "gpu5");
}

TEST_F(Placement, AllocationResultOverloadReadsEveryResult)
{
    api::AllocationResult alloc;
    for (const char* dev : { "gpu-4", "gpu-5" }) {
        api::DeviceRequestAllocationResult r;
        r.request = "gpus";
        r.driver = "gpu.nvidia.com";
        r.pool = "dgx-0";
        r.device = dev;
        alloc.results.push_back(r);
    }
    auto q = index->assess("dgx-0", alloc);
    EXPECT_EQ(q.devices, 2);
    EXPECT_EQ(q.worst.label(), "NV18");
    EXPECT_EQ(q.numaNodes, (std::vector<int> { 1 }));
}

} // namespace
} // namespace drasim::topology
