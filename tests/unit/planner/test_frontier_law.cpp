// SPDX-License-Identifier: Apache-2.0
// The law between the planner and `drasim simulate`: each frontier mix of a study, run as a plain
// scenario on the same seeds, meets or misses the service levels as the planner said, with the
// same values where the planner's run went to the end. Guards the planner's shortcuts (a catalog
// read once, runs stopped early, its own service-level recorder) against drifting from simulate.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/planner/planner.h"
#include "core/planner/recommendation_reasons.h"
#include "core/scenario/run_scenario.h"

using namespace drasim;
using namespace drasim::planner;

namespace frontier_law {

const std::string kStudy
    = std::string(DRASIM_SOURCE_DIR) + "/scenarios/plan/alibaba-capacity-trimmed/study.yaml";

const sim::WorkloadSummary* workloadOf(const sim::RunSummary& s, const std::string& name)
{
    for (const auto& w : s.workloads)
        if (w.name == name)
            return &w;
    return nullptr;
}

/// A level's value as simulate's summary reports it (the levels this study uses).
double simulatedValue(const ServiceLevel& l, const sim::RunSummary& s)
{
    switch (l.metric) {
    case Metric::Pending:
        return l.workload.empty() ? s.waitSeconds.max : workloadOf(s, l.workload)->waitSeconds.max;
    case Metric::Wait: {
        EXPECT_EQ(l.percentile, 95) << "this law test reads simulate's p95 only";
        return l.workload.empty() ? s.waitSeconds.p95 : workloadOf(s, l.workload)->waitSeconds.p95;
    }
    case Metric::NeverScheduled:
        return s.podsCreated == 0 ? 0.0 : double(s.podsCreated - s.podsScheduled) / double(s.podsCreated);
    case Metric::Placement:
        break;
    }
    ADD_FAILURE() << "no simulate figure for " << l.describe();
    return 0;
}

} // namespace frontier_law

TEST(PlannerFrontierLaw, EveryFrontierMixMeetsTheLevelsUnderSimulateAsThePlannerSaid)
{
    Diagnostics diags;
    auto study = loadStudy(frontier_law::kStudy, diags);
    auto plan = study ? preparePlan(*study, diags) : std::nullopt;
    ASSERT_TRUE(plan) << diags.formatAll();
    PlanOptions options;
    options.threads = 2;
    auto result = runPlan(*plan, options, diags);
    ASSERT_TRUE(result) << diags.formatAll();
    ASSERT_FALSE(result->loads.empty());
    const LoadResult& today = result->loads.front(); // simulate runs the scenario's own rates
    ASSERT_EQ(today.load, 1.0);
    // The frontier as printed: the mixes that meet every level and those that miss one.
    const std::vector<size_t> frontier = loadReasons(*result, 0).frontier;
    ASSERT_GE(frontier.size(), 2u); // a mix that misses and one that meets, at least
    const auto& levels = plan->study.serviceLevels;
    int stoppedSeen = 0;
    for (size_t index : frontier) {
        const MixResult& m = today.mixes[index];
        const scenario::Scenario sc = scenarioForMix(plan->scenario, m.mix, plan->candidates);
        bool meetsEverywhere = true;
        for (const SeedOutcome& planned : m.seeds) {
            scenario::ScenarioRunOptions run;
            run.seed = planned.seed;
            auto summary = scenario::runScenario(sc, run, diags);
            ASSERT_TRUE(summary) << diags.formatAll();
            const std::string where
                = formatMix(m.mix, plan->candidates) + " seed " + std::to_string(planned.seed);
            bool meets = true;
            for (size_t i = 0; i < levels.size(); ++i) {
                const double simulated = frontier_law::simulatedValue(levels[i], *summary);
                meets = meets && levels[i].met(simulated);
                if (!planned.stoppedEarly) {
                    EXPECT_DOUBLE_EQ(planned.values[i], simulated) << where << ": " << levels[i].describe();
                }
            }
            if (planned.stoppedEarly) {
                ++stoppedSeen;
                const int stopping = planned.stoppingLevel(levels);
                ASSERT_GE(stopping, 0) << where;
                EXPECT_FALSE(levels[size_t(stopping)].met(
                    frontier_law::simulatedValue(levels[size_t(stopping)], *summary)))
                    << where << ": the planner stopped the run for a level simulate finds met";
            }
            meetsEverywhere = meetsEverywhere && meets;
        }
        EXPECT_EQ(meetsEverywhere, m.feasible) << formatMix(m.mix, plan->candidates);
    }
    EXPECT_GT(stoppedSeen, 0); // the law covers runs the planner stopped early too
}
