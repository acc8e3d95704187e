// SPDX-License-Identifier: Apache-2.0
// A run the planner stopped early has no results: its stopping level is reported as a bound with
// the time of the stop, its other values not at all, in text and in JSON.
#include <gtest/gtest.h>

#include "core/planner/study_result.h"

using namespace drasim;
using namespace drasim::planner;

namespace {

std::vector<ServiceLevel> levels()
{
    ServiceLevel pending;
    pending.metric = Metric::Pending;
    pending.limit = 3600;
    ServiceLevel never;
    never.metric = Metric::NeverScheduled;
    never.limit = 0.01;
    return { pending, never };
}

/// Seed 1 ran to the end and met both levels; seed 2 was stopped at 0.34 simulated days, when
/// a pod had waited past 1 h (its never-scheduled share then, 83 %, is no result).
Evaluation stoppedMix()
{
    Evaluation e;
    e.mix = { 1 };
    e.seeds.push_back(SeedOutcome { 1, { 1800, 0.0 }, false });
    e.seeds.push_back(SeedOutcome { 2, { 3700, 0.83 }, true, 29376 });
    return e;
}

} // namespace

TEST(PlannerStoppedRuns, TheMissIsABoundWithTheStopTimeNeverTheValuesOfTheStoppedRun)
{
    const Evaluation e = stoppedMix();
    EXPECT_FALSE(e.feasible(levels()));
    EXPECT_EQ(e.firstMiss(levels()), "longest pending <= 1h (seed 2: > 1h, run stopped at 8h9m36s)");
    // The never-scheduled level comes first: the stopped seed's 83 % is not a miss to report.
    const std::vector<ServiceLevel> neverFirst { levels()[1], levels()[0] };
    Evaluation swapped = e;
    for (auto& s : swapped.seeds)
        std::swap(s.values[0], s.values[1]);
    EXPECT_EQ(swapped.firstMiss(neverFirst), "longest pending <= 1h (seed 2: > 1h, run stopped at 8h9m36s)");
}

TEST(PlannerStoppedRuns, JsonGivesBoundsAndNoSpreadForAMixWithAStoppedRun)
{
    StudyResult h;
    h.study = "s";
    PricedCandidate c;
    c.name = "a100";
    c.maxNodes = 4;
    h.candidates = { c };
    h.levels = levels();
    h.seeds = { 1, 2 };
    SearchResult search;
    search.byLoad = { { stoppedMix() } };
    search.probes = 1;
    const StudyResult r = summarize(search, { 1.0 }, Constraints {}, h);
    ASSERT_EQ(r.loads.size(), 1u);
    ASSERT_EQ(r.loads[0].mixes.size(), 1u);
    EXPECT_EQ(worstMainText(r.loads[0].mixes[0], r.levels), "> 1h, run stopped at 8h9m36s");
    const std::string json = toJson(toData(r), 0); // numbers in their shortest exact form
    EXPECT_NE(json.find(R"({"level":"pending_max_s","min":null,"mean":null,"max":null,)"
                        R"("bySeed":[1.8e+03,{"stoppedAtSeconds":29376,"above":3.6e+03}]})"),
        std::string::npos)
        << json;
    EXPECT_NE(json.find(R"({"level":"never_scheduled","min":null,"mean":null,"max":null,)"
                        R"("bySeed":[0,{"stoppedAtSeconds":29376}]})"),
        std::string::npos)
        << json;
    EXPECT_NE(json.find(R"x("missed":"longest pending <= 1h (seed 2: > 1h, run stopped at 8h9m36s)")x"),
        std::string::npos);
}
