// SPDX-License-Identifier: Apache-2.0
// The Plan tab's models over a study result built by hand: rows, roles, the load-growth answers
// and the recommendation in words, consistent under QAbstractItemModelTester.
#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "ui/models/plan_models.h"

using drasim::planner::LoadResult;
using drasim::planner::Metric;
using drasim::planner::MixResult;
using drasim::planner::ServiceLevel;
using drasim::planner::StudyResult;
using drasim::ui::PlanLoadsModel;
using drasim::ui::PlanMixesModel;

namespace {

MixResult mix(std::vector<int> counts, double cost, std::vector<double> pendingBySeed, bool feasible)
{
    MixResult m;
    m.mix = std::move(counts);
    m.footprint.costUsd = cost;
    m.footprint.nodes = 0;
    for (int c : m.mix)
        m.footprint.nodes += c;
    m.footprint.powerWatts = 1500.0 * double(m.footprint.nodes);
    m.footprint.rackSlots = 2 * m.footprint.nodes;
    m.feasible = feasible;
    m.withinConstraints = true;
    if (!feasible)
        m.miss = "longest pending <= 1h (seed 1: 2h)";
    drasim::planner::Spread s { pendingBySeed.front(), 0, pendingBySeed.front() };
    double sum = 0;
    for (double v : pendingBySeed) {
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        sum += v;
    }
    s.mean = sum / double(pendingBySeed.size());
    m.spread = { s };
    return m;
}

std::shared_ptr<StudyResult> study()
{
    auto r = std::make_shared<StudyResult>();
    r->study = "tiny";
    r->candidates.resize(2);
    r->candidates[0].name = "h100";
    r->candidates[1].name = "l40s";
    ServiceLevel pending;
    pending.metric = Metric::Pending;
    pending.limit = 3600;
    r->levels = { pending };
    r->seeds = { 1, 2 };
    LoadResult today;
    today.load = 1.0;
    today.mixes = { mix({ 0, 2 }, 200000, { 7200, 9000 }, false), mix({ 0, 4 }, 400000, { 1800, 2400 }, true),
        mix({ 1, 0 }, 373000, { 600, 1200 }, true), mix({ 2, 0 }, 746000, { 0, 60 }, true) };
    // Sorted by cost as the planner leaves them: 200k, 373k, 400k, 746k.
    std::swap(today.mixes[1], today.mixes[2]);
    today.recommended = 1;
    today.frontier = { 1, 3 };
    LoadResult more;
    more.load = 1.25;
    more.mixes = { mix({ 1, 0 }, 373000, { 4000, 5000 }, false), mix({ 2, 0 }, 746000, { 300, 900 }, true) };
    more.recommended = 1;
    more.frontier = { 1 };
    LoadResult most;
    most.load = 1.5;
    most.mixes = { mix({ 2, 0 }, 746000, { 8000, 9000 }, false) };
    r->loads = { today, more, most };
    return r;
}

} // namespace

TEST(PlanMixesModel, OneRowPerMixWithItsRoleAndTheMainLevelOnItsWorstSeed)
{
    PlanMixesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    model.setResult(study(), 0);
    ASSERT_EQ(model.rowCount(), 4);
    auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
        return model.index(row, column).data(role);
    };
    EXPECT_EQ(cell(1, PlanMixesModel::MixColumn).toString().toStdString(), "h100=1 l40s=0");
    EXPECT_EQ(cell(1, PlanMixesModel::CostColumn).toString().toStdString(), "$373,000");
    EXPECT_EQ(cell(1, PlanMixesModel::MainColumn).toString().toStdString(), "20m");
    EXPECT_EQ(cell(0, PlanMixesModel::VerdictColumn).toString().toStdString(),
        "misses longest pending <= 1h (seed 1: 2h)");
    EXPECT_EQ(cell(1, PlanMixesModel::VerdictColumn).toString().toStdString(), "meets every level");
    EXPECT_TRUE(cell(1, 0, PlanMixesModel::RecommendedRole).toBool());
    EXPECT_FALSE(cell(3, 0, PlanMixesModel::RecommendedRole).toBool());
    EXPECT_TRUE(cell(3, 0, PlanMixesModel::FrontierRole).toBool());
    EXPECT_FALSE(cell(2, 0, PlanMixesModel::FrontierRole).toBool());
    // The cheapest mix misses the level, yet nothing as cheap beats it: on the frontier, marked.
    EXPECT_TRUE(cell(0, 0, PlanMixesModel::FrontierRole).toBool());
    EXPECT_EQ(cell(0, PlanMixesModel::FrontierColumn).toString().toStdString(), "yes, misses a level");
    EXPECT_EQ(cell(1, PlanMixesModel::FrontierColumn).toString().toStdString(), "recommended");
    EXPECT_EQ(cell(2, PlanMixesModel::FrontierColumn).toString().toStdString(), "");
    EXPECT_EQ(cell(3, PlanMixesModel::FrontierColumn).toString().toStdString(), "yes");
    EXPECT_FALSE(cell(0, 0, PlanMixesModel::FeasibleRole).toBool());
    // The chart's y value is the worst seed in minutes; x is the cost in dollars.
    EXPECT_DOUBLE_EQ(cell(1, 0, PlanMixesModel::MainValueRole).toDouble(), 20.0);
    EXPECT_DOUBLE_EQ(cell(1, 0, PlanMixesModel::CostRole).toDouble(), 373000.0);
    EXPECT_TRUE(model.headerData(PlanMixesModel::MainColumn, Qt::Horizontal)
                    .toString()
                    .startsWith(QStringLiteral("longest pending <= 1h")));

    model.setResult(study(), 2);
    EXPECT_EQ(model.load(), 2);
    EXPECT_EQ(model.rowCount(), 1);
    model.setResult(study(), 7); // out of range: today's load
    EXPECT_EQ(model.load(), 0);
    model.setResult(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(PlanLoadsModel, AnswersWhatToBuyAtEachLoadAndHowItDiffersFromToday)
{
    PlanLoadsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResult(study());
    ASSERT_EQ(model.rowCount(), 3);
    auto cell = [&](int row, int column) { return model.index(row, column).data().toString().toStdString(); };
    EXPECT_EQ(cell(0, PlanLoadsModel::LoadColumn), "today's load");
    EXPECT_EQ(cell(0, PlanLoadsModel::MixColumn), "h100=1 l40s=0");
    EXPECT_EQ(cell(0, PlanLoadsModel::VersusColumn), "");
    EXPECT_EQ(cell(0, PlanLoadsModel::SpreadColumn), "10m / 15m / 20m");
    EXPECT_EQ(cell(1, PlanLoadsModel::LoadColumn), "load +25%");
    EXPECT_EQ(cell(1, PlanLoadsModel::VersusColumn), "+1 h100, +$373,000");
    EXPECT_EQ(cell(1, PlanLoadsModel::SpreadColumn), "5m / 10m / 15m");
    EXPECT_EQ(cell(2, PlanLoadsModel::MixColumn), "no mix meets every level");
    EXPECT_EQ(cell(2, PlanLoadsModel::CostColumn), "");
}

TEST(PlanText, RecommendationNamesTheMixItsFootprintAndSpreadOrWhyNothingQualified)
{
    auto r = study();
    const QString today = drasim::ui::recommendationHtml(*r, 0);
    EXPECT_TRUE(today.contains(QStringLiteral("<b>h100=1 l40s=0</b>"))) << today.toStdString();
    EXPECT_TRUE(today.contains(QStringLiteral("$373,000, 1.5 kW, 2 rack slots, 1 node.")));
    EXPECT_TRUE(today.contains(QStringLiteral("longest pending &lt;= 1h: 10m / 15m / 20m")));
    const QString none = drasim::ui::recommendationHtml(*r, 2);
    EXPECT_TRUE(none.contains(QStringLiteral("no mix"))) << none.toStdString();
    EXPECT_TRUE(none.contains(QStringLiteral("h100=2 l40s=0, misses longest pending &lt;= 1h")));
    EXPECT_TRUE(drasim::ui::recommendationHtml(*r, 3).isEmpty());
}

TEST(PlanText, RecommendationSaysWhatIsOwnedWhatCostsCountAndHowTheLoadGrows)
{
    auto r = study();
    const QString plain = drasim::ui::recommendationHtml(*r, 0);
    EXPECT_FALSE(plain.contains(QStringLiteral("Owned already"))) << plain.toStdString();
    EXPECT_FALSE(plain.contains(QStringLiteral("Costs:")));
    EXPECT_FALSE(plain.contains(QStringLiteral("Load growth:")));

    r->candidates[1].ownedUnits = 3;
    r->cost = drasim::planner::CostBasis::Tco;
    r->tco = { 4, 1.3, 0.12 };
    r->growth = drasim::planner::Growth::Jobs;
    const QString owned = drasim::ui::recommendationHtml(*r, 0);
    // The mix reads as what is bought on top, and the paragraph below says of what.
    EXPECT_TRUE(owned.contains(QStringLiteral("<b>h100=+1 (owns l40s=3)</b>"))) << owned.toStdString();
    EXPECT_TRUE(owned.contains(QStringLiteral("Owned already: 3 l40s. Every mix holds them")));
    EXPECT_TRUE(
        owned.contains(QStringLiteral("Costs: total cost of ownership over 4 years: purchase + power x PUE "
                                      "1.3 x 8760 h/year x $0.12/kWh.")));
    EXPECT_TRUE(owned.contains(QStringLiteral("Load growth: more jobs over the same span")));
    // Nothing qualifies at the third load: the costs are still explained.
    EXPECT_TRUE(drasim::ui::recommendationHtml(*r, 2).contains(QStringLiteral("Owned already: 3 l40s.")));
}

TEST(PlanText, AxesShowTimesInMinutesAndFractionsInPercent)
{
    ServiceLevel wait;
    wait.metric = Metric::Wait;
    wait.workload = "training";
    wait.limit = 600;
    auto axis = drasim::ui::levelAxis(wait);
    EXPECT_DOUBLE_EQ(axis.scale, 1.0 / 60.0);
    EXPECT_FALSE(axis.percent);
    EXPECT_DOUBLE_EQ(axis.limit, 10.0);
    EXPECT_EQ(axis.title.toStdString(), "p95 wait of training (min)");
    ServiceLevel never;
    never.metric = Metric::NeverScheduled;
    never.limit = 0.01;
    axis = drasim::ui::levelAxis(never);
    EXPECT_DOUBLE_EQ(axis.scale, 100.0);
    EXPECT_TRUE(axis.percent);
}
