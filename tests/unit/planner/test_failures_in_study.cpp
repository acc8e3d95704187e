// SPDX-License-Identifier: Apache-2.0
// Failures in a study: a named failure on a node a mix lacks is left out with a note instead of
// stopping the study, and a pool's failure settings follow its candidate into every mix.
#include <gtest/gtest.h>

#include "core/planner/mix.h"
#include "core/planner/planner.h"

using namespace drasim;
using namespace drasim::planner;

namespace study_failure_tests {

const std::string kSmallStudy = std::string(DRASIM_SOURCE_DIR) + "/tests/unit/planner/data/small/study.yaml";

std::optional<Plan> smallStudyPlan(Diagnostics& diags)
{
    auto study = loadStudy(kSmallStudy, diags);
    return study ? preparePlan(*study, diags) : std::nullopt;
}

sim::PoolFailures everyDay()
{
    sim::PoolFailures f;
    f.failures.emplace();
    f.failures->mtbf = sim::kDay;
    f.failures->repair.mean = 2 * sim::kHour;
    return f;
}

} // namespace study_failure_tests

using namespace study_failure_tests;

TEST(StudyFailures, ANamedFailureOnANodeAMixLacksIsSkippedWithANote)
{
    Diagnostics diags;
    auto plan = smallStudyPlan(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    scenario::ScenarioEvent failure;
    failure.at = 2 * sim::kHour;
    failure.type = sim::InjectedEvent::Type::NodeFailure;
    failure.node = "h100-0";
    failure.path = "spec.events[0]";
    plan->scenario.events.push_back(failure);
    plan->loads = { 1.0 };
    PlanOptions options;
    options.threads = 2;
    auto result = runPlan(*plan, options, diags);
    ASSERT_TRUE(result) << diags.formatAll();
    EXPECT_FALSE(diags.hasErrors());
    const std::string said = diags.formatAll();
    EXPECT_NE(
        said.find("spec.events[0]: NodeFailure skipped: Not found: \"h100-0\": no node of that name in the "
                  "cluster (in mixes without it, the first"),
        std::string::npos)
        << said;
    // Said once, however many mixes lack the node.
    EXPECT_EQ(said.find("NodeFailure skipped"), said.rfind("NodeFailure skipped"));
}

TEST(StudyFailures, APoolsFailureSettingsFollowItsCandidateIntoEveryMix)
{
    Diagnostics diags;
    auto plan = smallStudyPlan(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    ASSERT_EQ(plan->scenario.nodePools.size(), 1u);
    plan->scenario.nodePools[0].failures = everyDay(); // the h100 pool
    ASSERT_EQ(plan->candidates.size(), 2u);
    const scenario::Scenario both = scenarioForMix(plan->scenario, { 2, 3 }, plan->candidates);
    ASSERT_EQ(both.nodePools.size(), 2u);
    EXPECT_EQ(both.nodePools[0].name, "h100");
    ASSERT_TRUE(both.nodePools[0].failures.failures);
    EXPECT_EQ(both.nodePools[0].failures.failures->mtbf, sim::kDay);
    EXPECT_FALSE(both.nodePools[1].failures.any()); // l40s: the scenario gives it none
    // A mix without h100 servers has no failures of them.
    const scenario::Scenario none = scenarioForMix(plan->scenario, { 0, 3 }, plan->candidates);
    ASSERT_EQ(none.nodePools.size(), 1u);
    EXPECT_FALSE(none.nodePools[0].failures.any());
}
