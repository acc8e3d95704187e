// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/topology/topo_render.h"
#include "core/topology/topology.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

using testing::shape;

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

TEST(Topology, MatrixViewLooksLikeNvidiaSmi)
{
    Topology t(shape("l40s-pcie-4gpu"));
    const std::string m = renderMatrix(t);
    EXPECT_EQ(
        m.substr(0, m.find('\n')), "     gpu0 gpu1 gpu2 gpu3 nic0 eth0 nic1 CPU Affinity    NUMA Affinity");
    EXPECT_NE(m.find("\ngpu2 SYS  SYS  X    NODE SYS  SYS  NODE 32-63,96-127    1\n"), std::string::npos)
        << m;
    EXPECT_NE(m.find("PIX  = Connection traversing at most a single PCIe bridge"), std::string::npos);
    EXPECT_EQ(cpuAffinity(t.shape(), 0), "0-31,64-95");
}

TEST(Topology, TreeViewShowsSocketsRootsAndSharedRoots)
{
    Topology t(shape("a100-pcie-8gpu"));
    const std::string tree = renderTree(t);
    EXPECT_NE(tree.find("Socket 1 (Intel Xeon Platinum 8380)"), std::string::npos) << tree;
    EXPECT_NE(tree.find("rc-98 [root complex] pci0000:98"), std::string::npos) << tree;
    EXPECT_NE(tree.find("pci0000:16: gpu0 gpu1 nic0"), std::string::npos) << tree;
    EXPECT_NE(tree.find("Fabric islands: gpu0 gpu1 | gpu2 gpu3 | gpu4 gpu5 | gpu6 gpu7"), std::string::npos)
        << tree;
    EXPECT_NE(tree.find("Price: $150000 purchase, $24.00/hour; power 3500 W"), std::string::npos) << tree;
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
