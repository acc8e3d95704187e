// SPDX-License-Identifier: Apache-2.0
// Racks, blocks and NVLink domains as Node labels (rack_layout.h), and what a GB200 NVL72 tray
// publishes.
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "core/topology/cluster_builder.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

using testing::shape;

std::string rackLabelOf(const api::ObjectSet& set, size_t node, const std::string& key)
{
    const auto& labels = set.nodes.at(node).meta.labels;
    const auto it = labels.find(key);
    return it == labels.end() ? "<none>" : it->second;
}

TEST(RackLayout, ServersFillRacksAndRacksFillBlocks)
{
    auto set = generateNodePool(shape("dgx-h100"), 10, "h100", {}, nullptr, RackLayout { 4, 2 });
    ASSERT_EQ(set.nodes.size(), 10u);
    EXPECT_EQ(rackLabelOf(set, 0, kRackLabel), "h100-rack-0");
    EXPECT_EQ(rackLabelOf(set, 3, kRackLabel), "h100-rack-0");
    EXPECT_EQ(rackLabelOf(set, 4, kRackLabel), "h100-rack-1");
    EXPECT_EQ(rackLabelOf(set, 8, kRackLabel), "h100-rack-2");
    EXPECT_EQ(rackLabelOf(set, 9, kRackLabel), "h100-rack-2");
    EXPECT_EQ(rackLabelOf(set, 7, kBlockLabel), "h100-block-0");
    EXPECT_EQ(rackLabelOf(set, 8, kBlockLabel), "h100-block-1");
    // An 8-GPU server has no multi-node NVLink domain.
    EXPECT_EQ(rackLabelOf(set, 0, kCliqueLabel), "<none>");
}

TEST(RackLayout, NoLayoutNoRackLabels)
{
    auto set = generateNodePool(shape("dgx-h100"), 2, "h100");
    EXPECT_EQ(rackLabelOf(set, 1, kRackLabel), "<none>");
    EXPECT_EQ(rackLabelOf(set, 1, kBlockLabel), "<none>");
}

TEST(RackLayout, RacksWithoutBlocks)
{
    auto set = generateNodePool(shape("hgx-b200"), 3, "b", {}, nullptr, RackLayout { 2, 0 });
    EXPECT_EQ(rackLabelOf(set, 2, kRackLabel), "b-rack-1");
    EXPECT_EQ(rackLabelOf(set, 2, kBlockLabel), "<none>");
}

TEST(RackLayout, Nvl72TrayRackIsItsNvlinkDomain)
{
    // 72 GPUs over 18 compute trays: consecutive trays fill one rack, one NVLink domain each.
    auto set = generateNodePool(shape("gb200-nvl72-tray"), 37, "gb");
    EXPECT_EQ(rackLabelOf(set, 0, kRackLabel), "gb-rack-0");
    EXPECT_EQ(rackLabelOf(set, 17, kRackLabel), "gb-rack-0");
    EXPECT_EQ(rackLabelOf(set, 18, kRackLabel), "gb-rack-1");
    EXPECT_EQ(rackLabelOf(set, 36, kRackLabel), "gb-rack-2");
    std::set<std::string> cliques;
    for (size_t i = 0; i < 18; ++i)
        cliques.insert(rackLabelOf(set, i, kCliqueLabel));
    EXPECT_EQ(cliques.size(), 1u);
    EXPECT_NE(rackLabelOf(set, 17, kCliqueLabel), rackLabelOf(set, 18, kCliqueLabel));
    // "<cluster UUID>.<clique id>", as GPU feature discovery and the compute-domain plugin write it.
    const std::regex form("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[0-9]+");
    EXPECT_TRUE(std::regex_match(rackLabelOf(set, 0, kCliqueLabel), form))
        << rackLabelOf(set, 0, kCliqueLabel);
    auto blocks = generateNodePool(shape("gb200-nvl72-tray"), 36, "gb", {}, nullptr, RackLayout { 18, 8 });
    EXPECT_EQ(rackLabelOf(blocks, 35, kBlockLabel), "gb-block-0");
}

TEST(RackLayout, TwoPoolsOfNvl72RacksAreTwoNvlinkDomains)
{
    ClusterBuilder b;
    ASSERT_TRUE(b.addPool(shape("gb200-nvl72-tray"), 18, "west"));
    ASSERT_TRUE(b.addPool(shape("gb200-nvl72-tray"), 18, "east"));
    auto set = b.build();
    ASSERT_EQ(set.nodes.size(), 36u);
    EXPECT_NE(rackLabelOf(set, 0, kCliqueLabel), rackLabelOf(set, 18, kCliqueLabel));
    EXPECT_EQ(rackLabelOf(set, 18, kRackLabel), "east-rack-0");
}

TEST(RackLayout, LabelsAreDeterministic)
{
    auto a = generateNodePool(shape("gb200-nvl72-tray"), 20, "gb");
    auto b = generateNodePool(shape("gb200-nvl72-tray"), 20, "gb");
    for (size_t i = 0; i < 20; ++i)
        EXPECT_EQ(a.nodes[i].meta.labels, b.nodes[i].meta.labels);
}

TEST(RackLayout, RefusedLayouts)
{
    const NodeShape gb = shape("gb200-nvl72-tray");
    EXPECT_EQ(rackLayoutError(gb, RackLayout { 16, 0 }, "gb", 32),
        "16 nodes per rack: a rack of gb200-nvl72-tray is its NVLink domain of 18 nodes; give 18 or leave it "
        "out");
    EXPECT_EQ(rackLayoutError(gb, RackLayout { 18, 2 }, "gb", 36), "");
    EXPECT_EQ(rackLayoutError(shape("dgx-h100"), RackLayout { 0, 2 }, "h", 4),
        "racks per block need nodes per rack: dgx-h100 has no rack of its own");
    const std::string longPrefix(56, 'p');
    EXPECT_EQ(rackLayoutError(shape("dgx-h100"), RackLayout { 1, 0 }, longPrefix, 100),
        "rack name \"" + longPrefix
            + "-rack-99\" is longer than the 63 characters of a label value; use a shorter name prefix");
    Diagnostics diags;
    ClusterBuilder b;
    EXPECT_FALSE(b.addPool(gb, 32, "gb", {}, &diags, RackLayout { 16, 0 }));
    EXPECT_NE(diags.formatAll().find("16 nodes per rack: a rack of gb200-nvl72-tray"), std::string::npos);
    EXPECT_EQ(b.nodeCount(), 0);
}

TEST(RackLayout, Gb200TrayPublishesWhatTheNvidiaDriverDoes)
{
    auto set = generateNodePool(shape("gb200-nvl72-tray"), 1, "gb");
    std::vector<const api::Device*> gpus;
    for (const auto& s : set.resourceSlices)
        if (s.driver == "gpu.nvidia.com")
            for (const auto& d : s.devices)
                gpus.push_back(&d);
    ASSERT_EQ(gpus.size(), 4u);
    const api::Device& gpu = *gpus[0];
    EXPECT_EQ(gpu.name, "gpu-0");
    EXPECT_EQ(gpu.attributes.at("type").stringValue, "gpu");
    EXPECT_EQ(gpu.attributes.at("productName").stringValue, "NVIDIA GB200");
    EXPECT_EQ(gpu.attributes.at("architecture").stringValue, "Blackwell");
    EXPECT_EQ(gpu.attributes.at("cudaComputeCapability").stringValue, "10.0.0");
    EXPECT_EQ(gpu.attributes.at("addressingMode").stringValue, "ATS");
    EXPECT_EQ(gpu.attributes.at("uuid").stringValue.rfind("GPU-", 0), 0u);
    // The clique is a Node label, not a device attribute: the GPU plugin publishes none.
    for (const auto& [name, value] : gpu.attributes)
        EXPECT_EQ(name.find("clique"), std::string::npos) << name;
    EXPECT_EQ(rackLabelOf(set, 0, "kubernetes.io/arch"), "arm64");
    EXPECT_EQ(rackLabelOf(set, 0, "nvidia.com/gpu.product"), "NVIDIA-GB200");
}

} // namespace
} // namespace drasim::topology
