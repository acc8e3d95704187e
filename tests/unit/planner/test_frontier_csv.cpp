// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/planner/study_result.h"

using namespace drasim::planner;

// Hourly cost is a price per hour times the simulated hours times the nodes: the CSV gives the
// cents, not the last bits of that arithmetic (3 x 98.32 x 720 is 212371.19999999998 in doubles).
TEST(PlannerFrontierCsv, MoneyHasCents)
{
    StudyResult r;
    r.cost = CostBasis::Hourly;
    r.durationHours = 720;
    r.candidates = { { "h100", "dgx-h100", 8, 373000, 98.32, 10200, 8, {} } };
    ServiceLevel level;
    level.metric = Metric::Pending;
    level.limit = 3600;
    r.levels = { level };
    MixResult m;
    m.mix = { 3 };
    m.footprint = footprint(m.mix, r.candidates, r.cost, r.durationHours);
    ASSERT_EQ(m.footprint.costUsd, 212371.19999999998);
    m.feasible = m.withinConstraints = true;
    m.spread = { { 60, 90, 120 } };
    LoadResult load;
    load.mixes = { m };
    load.recommended = 0;
    load.frontier = { 0 };
    r.loads = { load };
    EXPECT_EQ(frontierCsv(r),
        "load,recommended,h100,cost_usd,power_w,rack_slots,pending_max_s_min,pending_max_s_mean,"
        "pending_max_s_max,misses\n"
        "1,true,3,212371.20,30600,24,60,90,120,\n");
}
