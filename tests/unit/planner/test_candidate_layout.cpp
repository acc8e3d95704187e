// SPDX-License-Identifier: Apache-2.0
// A study candidate's `layout`: read, checked against the shape, and given to the pool of each mix.
#include <gtest/gtest.h>

#include "core/planner/mix.h"
#include "core/planner/study.h"

using namespace drasim;
using namespace drasim::planner;

namespace {

std::string layoutStudy(const std::string& candidates)
{
    return "apiVersion: drasim.dev/v1alpha1\nkind: Study\nmetadata: {name: racks}\nspec:\n  scenario: "
           "s.yaml\n"
           "  candidates:\n"
        + candidates + "  serviceLevels:\n    - {metric: pending, max: 1h}\n";
}

std::optional<Study> parseLayoutStudy(const std::string& text, Diagnostics& diags)
{
    return parseStudy(text, "study.yaml", diags);
}

} // namespace

TEST(CandidateLayout, ReachesThePoolOfEveryMix)
{
    Diagnostics diags;
    auto study = parseLayoutStudy(
        layoutStudy("    - {shape: dgx-h100, name: h100, layout: {nodesPerRack: 4, racksPerBlock: 2}}\n"
                    "    - {shape: gb200-nvl72-tray, name: gb200}\n"),
        diags);
    ASSERT_TRUE(study) << diags.formatAll();
    EXPECT_EQ(study->candidates[0].layout, (topology::RackLayout { 4, 2 }));
    const auto priced = priceCandidates(*study, scenario::Scenario {}, diags);
    ASSERT_EQ(priced.size(), 2u) << diags.formatAll();
    const auto s = scenarioForMix(scenario::Scenario {}, Mix { 8, 18 }, priced);
    ASSERT_EQ(s.nodePools.size(), 2u);
    EXPECT_EQ(s.nodePools[0].layout, (topology::RackLayout { 4, 2 }));
    EXPECT_EQ(s.nodePools[1].layout, topology::RackLayout {});
}

TEST(CandidateLayout, ARackTheHardwareDoesNotHaveIsRefused)
{
    Diagnostics diags;
    auto study = parseLayoutStudy(
        layoutStudy("    - {shape: gb200-nvl72-tray, name: gb200, layout: {nodesPerRack: 16}}\n"), diags);
    ASSERT_TRUE(study) << diags.formatAll();
    EXPECT_TRUE(priceCandidates(*study, scenario::Scenario {}, diags).empty());
    EXPECT_EQ(diags.formatAll(),
        "study.yaml:7:7: Study racks: spec.candidates[0].layout: 16 nodes per rack: a rack of "
        "gb200-nvl72-tray is "
        "its NVLink domain of 18 nodes; give 18 or leave it out\n");
    Diagnostics strict;
    EXPECT_FALSE(parseLayoutStudy(
        layoutStudy("    - {shape: dgx-h100, name: h100, layout: {racksPerRow: 2}}\n"), strict));
    EXPECT_EQ(strict.formatAll(),
        "study.yaml:7:46: Study racks: spec.candidates[0].layout.racksPerRow: unknown field \"racksPerRow\"; "
        "expected one of: nodesPerRack, racksPerBlock\n");
}

TEST(CandidateLayout, WholeRacksCountRacksAndReportNodes)
{
    Diagnostics diags;
    auto study = parseLayoutStudy(
        layoutStudy(
            "    - {shape: dgx-h100, name: h100, maxNodes: 18, layout: {nodesPerRack: 4}, wholeRacks: true}\n"
            "    - {shape: gb200-nvl72-tray, name: gb200, maxNodes: 72, wholeRacks: true}\n"),
        diags);
    ASSERT_TRUE(study) << diags.formatAll();
    const auto priced = priceCandidates(*study, scenario::Scenario {}, diags);
    ASSERT_EQ(priced.size(), 2u) << diags.formatAll();
    EXPECT_EQ(priced[0].nodesPerUnit, 4);
    EXPECT_EQ(priced[1].nodesPerUnit, 18);
    const Mix mix { 2, 1 };
    const auto s = scenarioForMix(scenario::Scenario {}, mix, priced);
    ASSERT_EQ(s.nodePools.size(), 2u);
    EXPECT_EQ(s.nodePools[0].count, 8);
    EXPECT_EQ(s.nodePools[1].count, 18);
    EXPECT_EQ(formatMix(mix, priced), "h100=8 gb200=18");
    const MixFootprint f = footprint(mix, priced, CostBasis::Purchase, 1);
    EXPECT_EQ(f.nodes, 26);
    EXPECT_DOUBLE_EQ(f.costUsd, 8 * 373000.0 + 18 * 170000.0);
}

TEST(CandidateLayout, WholeRacksNeedARack)
{
    Diagnostics diags;
    auto study = parseLayoutStudy(
        layoutStudy("    - {shape: dgx-h100, name: h100, wholeRacks: true}\n"
                    "    - {shape: gb200-nvl72-tray, name: gb200, maxNodes: 17, wholeRacks: true}\n"),
        diags);
    ASSERT_TRUE(study) << diags.formatAll();
    EXPECT_TRUE(priceCandidates(*study, scenario::Scenario {}, diags).empty());
    EXPECT_EQ(diags.formatAll(),
        "study.yaml:7:7: Study racks: spec.candidates[0].wholeRacks: Invalid value: true: dgx-h100 has no "
        "rack of "
        "its own; give layout.nodesPerRack\n"
        "study.yaml:8:7: Study racks: spec.candidates[1].wholeRacks: Invalid value: true: maxNodes 17 is "
        "less than "
        "one rack of 18 nodes\n");
}
