// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/topology/topology.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

const NodeShape& shape(const char* name)
{
    const NodeShape* s = testing::catalog().find(name);
    if (!s)
        throw std::runtime_error(std::string("catalog shape missing: ") + name);
    return *s;
}

TEST(Topology, DgxH100DistanceClassesMatchNvidiaSmi)
{
    Topology t(shape("dgx-h100"));
    const auto& s = t.shape();
    const int gpu0 = s.find("gpu0"), gpu1 = s.find("gpu1"), gpu4 = s.find("gpu4");
    const int nic0 = s.find("nic0"), nic1 = s.find("nic1"), nic4 = s.find("nic4");
    EXPECT_EQ(t.distance(gpu0, gpu0).label(), "X");
    EXPECT_EQ(t.distance(gpu0, gpu1).label(), "NV18");
    EXPECT_EQ(t.distance(gpu0, gpu4).label(), "NV18");
    EXPECT_EQ(t.distance(gpu0, nic0).label(), "PIX");
    EXPECT_EQ(t.distance(gpu0, nic1).label(), "NODE");
    EXPECT_EQ(t.distance(gpu0, nic4).label(), "SYS");
    EXPECT_EQ(t.distance(nic0, nic4).label(), "SYS");
    EXPECT_EQ(t.numaNode(gpu0), 0);
    EXPECT_EQ(t.numaNode(gpu4), 1);
    EXPECT_EQ(t.socket(gpu4), 1);
    EXPECT_EQ(t.pcieRoot(gpu0), "pci0000:15");
    EXPECT_EQ(t.pcieRoot(nic0), "pci0000:15");
    ASSERT_EQ(t.fabricIslands().size(), 1u);
    EXPECT_EQ(t.fabricIslands()[0].size(), 8u);
    EXPECT_EQ(t.islandOf(nic0), -1);
    EXPECT_EQ(t.describePath(gpu0, nic0), "gpu0 -> sw-0 -> nic0");
    EXPECT_EQ(
        t.describePath(nic0, nic4), "nic0 -> sw-0 -> rc-15 -> NUMA 0 => NUMA 1 -> rc-97 -> sw-4 -> nic4");
}

TEST(Topology, DevicesByRootGroupsGpuWithItsRailNic)
{
    Topology t(shape("dgx-h100"));
    auto byRoot = t.devicesByRoot();
    ASSERT_TRUE(byRoot.count("rc-15"));
    std::vector<std::string> names;
    for (int c : byRoot["rc-15"])
        names.push_back(t.shape().components[c].name);
    EXPECT_EQ(names, (std::vector<std::string> { "nic0", "gpu0" }));
}

TEST(Topology, ParseDistanceLabels)
{
    EXPECT_EQ(parseDistanceLabel("NV12")->links, 12);
    EXPECT_EQ(parseDistanceLabel("NV12")->cls, DistanceClass::Fabric);
    EXPECT_EQ(parseDistanceLabel("PXB")->cls, DistanceClass::Pxb);
    EXPECT_EQ(parseDistanceLabel("X")->cls, DistanceClass::Self);
    EXPECT_FALSE(parseDistanceLabel("NV"));
    EXPECT_FALSE(parseDistanceLabel("NVx"));
    EXPECT_FALSE(parseDistanceLabel("PCI"));
}

} // namespace
} // namespace drasim::topology
