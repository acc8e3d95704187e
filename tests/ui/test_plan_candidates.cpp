// SPDX-License-Identifier: Apache-2.0
// The Plan tab's candidates: one row per candidate shape with its price (purchase, or per hour on
// an hourly study), power and rack slots per node, the search's bound and what the
// recommendation at the load shown buys; consistent under QAbstractItemModelTester.
#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "ui/models/plan_candidates_model.h"

// A namespace of its own: a unity build puts this file beside the other plan model tests.
namespace plan_candidates_test {

using drasim::planner::CostBasis;
using drasim::planner::LoadResult;
using drasim::planner::MixResult;
using drasim::planner::StudyResult;
using drasim::ui::PlanCandidatesModel;

std::shared_ptr<StudyResult> study(CostBasis cost)
{
    auto r = std::make_shared<StudyResult>();
    r->cost = cost;
    // name, shape, maxNodes, purchase, per hour, power (W), rack slots per node
    r->candidates = { { "h100", "dgx-h100", 8, 373000, 98.32, 10200, 8, {} },
        { "l40s", "l40s-4u", 16, 0, 0, 2500, 4, {} } };
    MixResult today;
    today.mix = { 2, 3 };
    LoadResult first;
    first.mixes = { today };
    first.recommended = 0;
    LoadResult none; // nothing qualifies at the second load
    none.load = 1.25;
    r->loads = { first, none };
    return r;
}

TEST(PlanCandidatesModel, OneRowPerCandidateWithItsPricePowerRackSlotsAndWhatTheRecommendationBuys)
{
    PlanCandidatesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    model.setResult(study(CostBasis::Purchase), 0);
    ASSERT_EQ(model.rowCount(), 2);
    auto cell = [&](int row, int column) { return model.index(row, column).data().toString().toStdString(); };
    EXPECT_EQ(cell(0, PlanCandidatesModel::NameColumn), "h100");
    EXPECT_EQ(cell(0, PlanCandidatesModel::ShapeColumn), "dgx-h100");
    EXPECT_EQ(cell(0, PlanCandidatesModel::PriceColumn), "$373,000");
    EXPECT_EQ(cell(1, PlanCandidatesModel::PriceColumn), "no price"); // not "$0"
    EXPECT_EQ(cell(0, PlanCandidatesModel::PowerColumn), "10.2");
    EXPECT_EQ(cell(0, PlanCandidatesModel::RackColumn), "8");
    EXPECT_EQ(cell(1, PlanCandidatesModel::MaxColumn), "16");
    EXPECT_EQ(cell(0, PlanCandidatesModel::RecommendedColumn), "2");
    EXPECT_EQ(cell(1, PlanCandidatesModel::RecommendedColumn), "3");
    EXPECT_EQ(model.headerData(PlanCandidatesModel::PriceColumn, Qt::Horizontal).toString().toStdString(),
        "Price per node");

    model.setResult(study(CostBasis::Purchase), 1);
    EXPECT_EQ(cell(0, PlanCandidatesModel::RecommendedColumn), "none qualifies");

    model.setResult(study(CostBasis::Hourly), 0);
    EXPECT_EQ(cell(0, PlanCandidatesModel::PriceColumn), "$98.32/h");
    EXPECT_EQ(model.headerData(PlanCandidatesModel::PriceColumn, Qt::Horizontal).toString().toStdString(),
        "Price per node-hour");
    model.setResult(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

} // namespace plan_candidates_test
