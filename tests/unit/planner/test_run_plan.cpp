// SPDX-License-Identifier: Apache-2.0
// The planner end to end on a small study (two shapes, two seeds, half a simulated day).
#include <algorithm>

#include <gtest/gtest.h>

#include "core/planner/planner.h"

using namespace drasim;
using namespace drasim::planner;

namespace {

const std::string kStudy = std::string(DRASIM_SOURCE_DIR) + "/tests/unit/planner/data/small/study.yaml";

std::optional<Plan> smallPlan(Diagnostics& diags)
{
    auto study = loadStudy(kStudy, diags);
    return study ? preparePlan(*study, diags) : std::nullopt;
}

} // namespace

TEST(PlannerRun, SameStudySameResultWhateverTheThreadCount)
{
    Diagnostics diags;
    auto plan = smallPlan(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    PlanOptions one, three;
    one.threads = 1;
    three.threads = 3;
    PlanStats stats;
    auto a = runPlan(*plan, one, diags, &stats);
    auto b = runPlan(*plan, three, diags);
    ASSERT_TRUE(a && b) << diags.formatAll();
    EXPECT_EQ(toJson(toData(*a)), toJson(toData(*b)));
    EXPECT_EQ(stats.simulationsRun, a->simulations); // every seed an evaluation holds ran once
    ASSERT_EQ(a->loads.size(), 3u);
    ASSERT_TRUE(a->loads[0].recommended);
    // More load never needs a cheaper cluster here.
    for (size_t l = 1; l < a->loads.size(); ++l) {
        if (a->loads[l].recommended) {
            EXPECT_GE(a->loads[l].mixes[*a->loads[l].recommended].footprint.costUsd,
                a->loads[0].mixes[*a->loads[0].recommended].footprint.costUsd);
        }
    }
}

TEST(PlannerRun, AMixIsDecidedByItsFirstSeedThatMisses)
{
    Diagnostics diags;
    auto plan = smallPlan(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    std::vector<Evaluation> seen;
    PlanOptions options;
    options.threads = 2;
    options.onEvaluated = [&](const Evaluation& e) { seen.push_back(e); };
    PlanStats stats;
    auto result = runPlan(*plan, options, diags, &stats);
    ASSERT_TRUE(result) << diags.formatAll();
    const auto& levels = plan->study.serviceLevels;
    int64_t seeds = 0, missed = 0;
    for (const Evaluation& e : seen) {
        seeds += int64_t(e.seeds.size());
        int misses = 0;
        for (const SeedOutcome& s : e.seeds)
            misses += s.met(levels) ? 0 : 1;
        if (e.feasible(levels)) {
            EXPECT_EQ(e.seeds.size(), plan->seeds.size()) << probeKey(e.mix, e.load); // every seed ran
        } else {
            ++missed;
            EXPECT_EQ(misses, 1) << probeKey(e.mix, e.load); // nothing ran after the first miss
            ASSERT_LE(e.seeds.size(), plan->seeds.size());
        }
        for (size_t i = 1; i < e.seeds.size(); ++i) // kept in the study's order, whatever ran first
            EXPECT_LT(std::find(plan->seeds.begin(), plan->seeds.end(), e.seeds[i - 1].seed),
                std::find(plan->seeds.begin(), plan->seeds.end(), e.seeds[i].seed));
    }
    ASSERT_GT(missed, 0); // the small study has mixes that miss, or this checks nothing
    EXPECT_EQ(seeds, stats.simulationsRun);
    EXPECT_EQ(seeds, result->simulations);
    EXPECT_LT(seeds, int64_t(seen.size() * plan->seeds.size()));
    EXPECT_NE(formatText(*result).find(std::to_string(seeds) + " simulations"), std::string::npos);
}

TEST(PlannerRun, ReplayingTheEvaluationsGivesTheSameReport)
{
    Diagnostics diags;
    auto plan = smallPlan(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    std::vector<Evaluation> seen;
    PlanOptions options;
    options.onEvaluated = [&](const Evaluation& e) { seen.push_back(e); };
    auto direct = runPlan(*plan, options, diags);
    ASSERT_TRUE(direct) << diags.formatAll();
    auto replayed = replayPlan(*plan, seen, diags);
    ASSERT_TRUE(replayed) << diags.formatAll();
    EXPECT_EQ(formatText(*direct), formatText(*replayed));
    seen.pop_back();
    EXPECT_FALSE(replayPlan(*plan, seen, diags));
    EXPECT_NE(diags.formatAll().find("no result for mix"), std::string::npos);
}

TEST(PlannerRun, CancelledBeforeStartReturnsNothing)
{
    Diagnostics diags;
    auto plan = smallPlan(diags);
    ASSERT_TRUE(plan);
    CancelToken cancel;
    cancel.cancel();
    PlanOptions options;
    options.cancel = &cancel;
    PlanStats stats;
    EXPECT_FALSE(runPlan(*plan, options, diags, &stats));
    EXPECT_TRUE(stats.cancelled);
    EXPECT_FALSE(diags.hasErrors());
}

TEST(PlannerRun, AServiceLevelNamingAnUnknownWorkloadIsAnError)
{
    Diagnostics diags;
    auto study = loadStudy(kStudy, diags);
    ASSERT_TRUE(study);
    study->serviceLevels[0].workload = "trainig";
    EXPECT_FALSE(preparePlan(*study, diags));
    EXPECT_NE(
        diags.formatAll().find("spec.serviceLevels[0].workload: Not found: \"trainig\": the scenario has no "
                               "such workload (workloads: batch-inference, training)"),
        std::string::npos)
        << diags.formatAll();
}

TEST(PlannerRun, AnUnknownShapeIsAnErrorAtTheCandidate)
{
    Diagnostics diags;
    auto study = loadStudy(kStudy, diags);
    ASSERT_TRUE(study);
    study->candidates[1].shape = "dgx-h900";
    EXPECT_FALSE(preparePlan(*study, diags));
    EXPECT_NE(diags.formatAll().find("spec.candidates[1].shape: Not found: \"dgx-h900\""), std::string::npos)
        << diags.formatAll();
}

TEST(PlannerRun, OverriddenGatesReachTheScenarioAndTheFingerprint)
{
    Diagnostics diags;
    auto plan = smallPlan(diags);
    ASSERT_TRUE(plan) << diags.formatAll();
    const std::string before = plan->fingerprint;
    api::FeatureGates gates = plan->scenario.featureGates;
    ASSERT_EQ(gates.set("GenericWorkload", true), "");
    overrideFeatureGates(*plan, gates, "--feature-gates=GenericWorkload=true");
    EXPECT_TRUE(plan->scenario.featureGates.enabled("GenericWorkload"));
    EXPECT_NE(plan->fingerprint, before);
    EXPECT_EQ(plan->fingerprint.size(), before.size());
}
