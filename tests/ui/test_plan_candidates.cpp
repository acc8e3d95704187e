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

TEST(PlanCandidatesModel, ATotalCostOfOwnershipAddsEnergyAndOwnedNodesReadAsBoughtOnTop)
{
    PlanCandidatesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto r = study(CostBasis::Purchase);
    model.setResult(r, 0);
    EXPECT_FALSE(model.ownsAny());
    EXPECT_EQ(
        model.headerData(PlanCandidatesModel::RecommendedColumn, Qt::Horizontal).toString().toStdString(),
        "Recommended");

    r->cost = CostBasis::Tco;
    r->tco = { 4, 1.3, 0.12 };
    r->candidates[0].ownedUnits = 2;
    model.setResult(r, 0);
    auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
        return model.index(row, column).data(role).toString().toStdString();
    };
    EXPECT_TRUE(model.ownsAny());
    EXPECT_EQ(cell(0, PlanCandidatesModel::OwnedColumn), "2");
    EXPECT_EQ(cell(1, PlanCandidatesModel::OwnedColumn), "0");
    // $373,000 + 10.2 kW x 1.3 x 8760 h x 4 years x $0.12/kWh = $373,000 + $55,756.
    EXPECT_EQ(cell(0, PlanCandidatesModel::PriceColumn), "$428,756");
    EXPECT_EQ(cell(0, PlanCandidatesModel::PriceColumn, Qt::ToolTipRole),
        "$428,756 a node ($373,000 purchase, 10.2 kW): total cost of ownership over 4 years: purchase + "
        "power x "
        "PUE 1.3 x 8760 h/year x $0.12/kWh");
    EXPECT_EQ(cell(1, PlanCandidatesModel::PriceColumn), "no price");
    EXPECT_EQ(model.headerData(PlanCandidatesModel::PriceColumn, Qt::Horizontal).toString().toStdString(),
        "Cost per node over 4 years");
    EXPECT_EQ(
        model.headerData(PlanCandidatesModel::RecommendedColumn, Qt::Horizontal).toString().toStdString(),
        "Buy on top");
    EXPECT_EQ(cell(0, PlanCandidatesModel::RecommendedColumn), "2"); // bought, beside the 2 owned
}

} // namespace plan_candidates_test
