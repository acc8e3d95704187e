// SPDX-License-Identifier: Apache-2.0
// Failures in a study: a named failure on a node a mix lacks is left out with a note instead of
// stopping the study, and a pool's failure settings follow its candidate into every mix.
#include <gtest/gtest.h>

#include "core/planner/mix.h"
#include "core/planner/planner.h"
#include "core/scenario/prepare.h"
#include "core/yamlio/yaml_tree.h"

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

namespace study_failure_tests {

/// The small study with `failures` appended to its spec, read as if from its own file.
std::optional<Study> smallStudyWithFailures(const std::string& failures, Diagnostics& diags)
{
    std::string text;
    EXPECT_TRUE(yamlio::readFile(kSmallStudy, text));
    return parseStudy(text + "  failures: " + failures + "\n", kSmallStudy, diags);
}

} // namespace study_failure_tests

// A study's failures by device model reach the pools of every mix whose shape carries the model
// (the L40S servers here), whatever the base scenario's pools are; a mix without the model runs
// without them rather than stopping the study.
TEST(StudyFailures, ACandidatesPoolsGetTheFailuresOfTheirDeviceModel)
{
    Diagnostics diags;
    auto study = smallStudyWithFailures("{byDeviceModel: {L40S: {mtbf: 12h, repair: {mean: 1h}}}}", diags);
    ASSERT_TRUE(study) << diags.formatAll();
    auto plan = preparePlan(*study, diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    ASSERT_EQ(plan->scenario.failuresByDeviceModel.size(), 1u);
    const scenario::Scenario both = scenarioForMix(plan->scenario, { 2, 3 }, plan->candidates);
    auto prepared = scenario::prepareScenario(both, {}, diags);
    ASSERT_TRUE(prepared) << diags.formatAll();
    ASSERT_EQ(prepared->pools.size(), 2u);
    EXPECT_EQ(prepared->pools[0]->name, "h100");
    EXPECT_FALSE(prepared->pools[0]->failures.any());
    EXPECT_EQ(prepared->pools[1]->name, "l40s");
    ASSERT_EQ(prepared->pools[1]->failures.deviceModelFailures.size(), 1u);
    EXPECT_EQ(prepared->pools[1]->failures.deviceModelFailures[0].mtbf, 12 * sim::kHour);

    plan->loads = { 1.0 };
    PlanOptions options;
    options.threads = 2;
    auto result = runPlan(*plan, options, diags);
    ASSERT_TRUE(result) << diags.formatAll();
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
}

TEST(StudyFailures, AStudysModelSettingReplacesTheScenariosOfTheSameModel)
{
    scenario::DeviceModelFailures h100, l40s, l40sAgain;
    h100.model = "H100-SXM5-80GB";
    h100.process.mtbf = 100 * sim::kHour;
    l40s.model = "L40S";
    l40s.process.mtbf = 200 * sim::kHour;
    l40sAgain.model = "L40S";
    l40sAgain.process.mtbf = 5 * sim::kHour;
    const auto merged = scenario::withDeviceModelFailures({ h100, l40s }, { l40sAgain });
    ASSERT_EQ(merged.size(), 2u);
    EXPECT_EQ(merged[0].process.mtbf, 100 * sim::kHour);
    EXPECT_EQ(merged[1].model, "L40S");
    EXPECT_EQ(merged[1].process.mtbf, 5 * sim::kHour);
}

TEST(StudyFailures, AnUnknownModelInAStudyIsAnErrorAtItsField)
{
    Diagnostics diags;
    auto study
        = smallStudyWithFailures("{byDeviceModel: {NVIDIA L40S: {mtbf: 12h, repair: {mean: 1h}}}}", diags);
    ASSERT_TRUE(study) << diags.formatAll();
    EXPECT_FALSE(preparePlan(*study, diags));
    EXPECT_EQ(diags.formatAll(),
        kSmallStudy
            + ":17:30: Study small: spec.failures.byDeviceModel.NVIDIA L40S: Not found: \"NVIDIA L40S\": no "
              "such "
              "device model in the catalog; that is the product name of L40S; name a model by its catalog "
              "id: "
              "L40S\n");
    Diagnostics bad;
    EXPECT_FALSE(smallStudyWithFailures("{byDeviceModel: {L40S: {mtbf: 12h}}}", bad));
    EXPECT_EQ(bad.formatAll(),
        kSmallStudy + ":17:36: Study small: spec.failures.byDeviceModel.L40S.repair: Required value\n");
}
