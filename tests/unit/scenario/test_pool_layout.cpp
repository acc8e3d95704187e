// SPDX-License-Identifier: Apache-2.0
// A node pool laid out over racks (spec.cluster.nodePools[].layout): read, written back, refused
// where the hardware says otherwise, and turned into Node labels.
#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenario_writer.h"

using namespace drasim;
using namespace drasim::scenario;

namespace {

std::string poolLayoutScenario(const std::string& pool)
{
    return "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\nspec:\n  cluster:\n"
           "    nodePools:\n      - "
        + pool + "\n";
}

std::optional<Scenario> parsePoolScenario(const std::string& text, Diagnostics& diags)
{
    return parseScenario(text, "dir/s.yaml", diags);
}

std::string preparedLabel(const sim::PreparedScenario& p, const std::string& node, const std::string& key)
{
    for (const auto& n : p.objects->nodes)
        if (n.meta.name == node) {
            const auto it = n.meta.labels.find(key);
            return it == n.meta.labels.end() ? "<none>" : it->second;
        }
    return "<no node>";
}

TEST(PoolLayout, ReadAndWrittenBack)
{
    Diagnostics diags;
    auto s = parsePoolScenario(
        poolLayoutScenario(
            "{name: h100, shape: dgx-h100, count: 8, layout: {nodesPerRack: 4, racksPerBlock: 2}}"),
        diags);
    ASSERT_TRUE(s) << diags.formatAll();
    EXPECT_EQ(s->nodePools[0].layout, (topology::RackLayout { 4, 2 }));
    const std::string text = writeScenario(*s);
    EXPECT_NE(
        text.find("      layout:\n        nodesPerRack: 4\n        racksPerBlock: 2\n"), std::string::npos)
        << text;
    auto again = parsePoolScenario(text, diags);
    ASSERT_TRUE(again) << diags.formatAll();
    EXPECT_EQ(again->nodePools[0].layout, s->nodePools[0].layout);
}

TEST(PoolLayout, StrictFields)
{
    Diagnostics diags;
    EXPECT_FALSE(parsePoolScenario(
        poolLayoutScenario("{name: h, shape: dgx-h100, count: 8, layout: {nodesPerRack: 0, racks: 2}}"),
        diags));
    EXPECT_EQ(diags.formatAll(),
        "dir/s.yaml:8:69: Scenario t: spec.cluster.nodePools[0].layout.nodesPerRack: Invalid value: 0: must "
        "be "
        "between 1 and 1000000\n"
        "dir/s.yaml:8:72: Scenario t: spec.cluster.nodePools[0].layout.racks: unknown field \"racks\"; "
        "expected one "
        "of: nodesPerRack, racksPerBlock\n");
}

TEST(PoolLayout, PreparedNodesCarryRackAndBlockLabels)
{
    Diagnostics diags;
    auto s = parsePoolScenario(
        poolLayoutScenario(
            "{name: h100, shape: dgx-h100, count: 8, layout: {nodesPerRack: 2, racksPerBlock: 2}}"),
        diags);
    ASSERT_TRUE(s) << diags.formatAll();
    auto p = prepareScenario(*s, {}, diags);
    ASSERT_TRUE(p) << diags.formatAll();
    EXPECT_EQ(preparedLabel(*p, "h100-5", topology::kRackLabel), "h100-rack-2");
    EXPECT_EQ(preparedLabel(*p, "h100-5", topology::kBlockLabel), "h100-block-1");
}

TEST(PoolLayout, Nvl72RackIsItsNvlinkDomain)
{
    Diagnostics diags;
    auto s = parsePoolScenario(
        poolLayoutScenario("{name: gb, shape: gb200-nvl72-tray, count: 36, layout: {nodesPerRack: 16}}"),
        diags);
    ASSERT_TRUE(s) << diags.formatAll();
    EXPECT_FALSE(prepareScenario(*s, {}, diags));
    EXPECT_EQ(diags.formatAll(),
        "dir/s.yaml:8:9: Scenario t: spec.cluster.nodePools[0].layout: 16 nodes per rack: a rack of "
        "gb200-nvl72-tray "
        "is its NVLink domain of 18 nodes; give 18 or leave it out\n");
}

} // namespace
