// SPDX-License-Identifier: Apache-2.0
// The Compare tab, offscreen: the default scenario run with two seeds lands in the run store; the
// tab lists both, compares the newest two (KPIs with differences, series overlaid), and says why
// when a run cannot be compared.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/scenario/scenario_bundle.h"
#include "core/storage/run_store.h"
#include "ui/charts/compare_chart_view.h"
#include "ui/document/document.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/compare_models.h"
#include "ui/models/time_text.h"
#include "ui/pages/compare_page.h"
#include "ui/pages/simulation_page.h"

using drasim::ui::ComparePage;
using drasim::ui::KpiCompareModel;
using drasim::ui::MainWindow;
using drasim::ui::SimulationJob;

namespace {

bool waitRun(MainWindow& w)
{
    QSignalSpy spy(w.simulationPage()->job(), &SimulationJob::finished);
    return spy.wait(120000);
}

} // namespace

TEST(ComparePage, ComparesTheTwoNewestRunsKpisAndSeries)
{
    QTemporaryDir dir;
    MainWindow w;
    w.setRunStorePath(dir.filePath(QStringLiteral("runs.db")));
    w.resize(1400, 900);
    w.show();
    auto* page = w.comparePage();
    using Tester = QAbstractItemModelTester;
    Tester runsTester(page->runsModel(), Tester::FailureReportingMode::Fatal);
    Tester kpiTester(page->kpiModel(), Tester::FailureReportingMode::Fatal);

    w.openPaths(
        { QString::fromUtf8(DRASIM_SOURCE_DIR) + QStringLiteral("/scenarios/sim/default/scenario.yaml") });
    ASSERT_TRUE(waitRun(w));
    w.document()->setSeedOverride(43);
    w.simulationPage()->run();
    ASSERT_TRUE(waitRun(w));

    QSignalSpy listed(page, &ComparePage::runsListed);
    page->refreshRuns();
    ASSERT_TRUE(listed.wait(30000));
    ASSERT_EQ(page->runsModel()->rowCount(), 2);
    QSignalSpy shown(page, &ComparePage::comparisonShown);
    page->compareSelected();
    ASSERT_TRUE(shown.wait(30000));

    const auto* c = page->kpiModel()->comparison();
    ASSERT_TRUE(c);
    ASSERT_EQ(c->runs.size(), 2u);
    EXPECT_EQ(c->runs[0].seed, 42u); // A: the older run, the baseline
    EXPECT_EQ(c->runs[1].seed, 43u);
    auto* kpis = page->kpiModel();
    ASSERT_GT(kpis->rowCount(), 5);
    const int created = kpis->rowOf(QStringLiteral("pods.created"));
    ASSERT_GE(created, 0);
    const auto& k = c->kpis[size_t(created)];
    EXPECT_EQ(kpis->index(created, KpiCompareModel::BaseColumn).data().toString(),
        drasim::ui::kpiValueText(k.values[0], k.unit));
    EXPECT_EQ(kpis->index(created, KpiCompareModel::DeltaColumn).data().toString(),
        drasim::ui::kpiValueText(k.deltas[1], k.unit, true));
    // A wait only known as a bound carries the mark the Simulation tab gives it ("≥ 5h37m31s").
    const int p95 = kpis->rowOf(QStringLiteral("wait.p95"));
    ASSERT_GE(p95, 0);
    ASSERT_EQ(c->kpis[size_t(p95)].valueBounds[0], drasim::compare::Bound::AtLeast); // 8 never scheduled
    EXPECT_EQ(kpis->index(p95, KpiCompareModel::BaseColumn).data().toString(),
        QStringLiteral("≥ ") + drasim::ui::formatSeconds(*c->kpis[size_t(p95)].values[0]));
    // Every row's verdict agrees with the sign of its difference and the KPI's better direction.
    for (int row = 0; row < kpis->rowCount(); ++row) {
        const auto& kpi = c->kpis[size_t(row)];
        const int verdict = kpis->index(row, 0).data(KpiCompareModel::VerdictRole).toInt();
        if (!kpi.deltas[1] || kpi.better == drasim::compare::Better::Neither || *kpi.deltas[1] == 0) {
            EXPECT_EQ(verdict, 0) << kpi.name;
            continue;
        }
        const bool lowerWins = kpi.better == drasim::compare::Better::Lower;
        EXPECT_EQ(verdict, ((*kpi.deltas[1] < 0) == lowerWins) ? 1 : -1) << kpi.name;
    }
    // The series chart overlays both runs of pods.pending, in hours.
    EXPECT_EQ(page->chart()->lineCount(), 2);
    EXPECT_FALSE(page->chart()->points(0).isEmpty());
    EXPECT_FALSE(page->chart()->points(1).isEmpty());
    EXPECT_DOUBLE_EQ(page->chart()->points(0).last().x(), 24.0);
}

TEST(ComparePage, ARunMissingFromTheStoreIsExplained)
{
    QTemporaryDir dir;
    MainWindow w;
    w.setRunStorePath(dir.filePath(QStringLiteral("runs.db")));
    auto* page = w.comparePage();
    QSignalSpy shown(page, &ComparePage::comparisonShown);
    page->compareRuns(7, 8);
    ASSERT_TRUE(shown.wait(30000));
    EXPECT_FALSE(page->kpiModel()->comparison());
    EXPECT_EQ(page->kpiModel()->rowCount(), 0);
    EXPECT_EQ(page->chart()->lineCount(), 0);
}

TEST(CompareText, ValuesReadAsPeopleWriteThem)
{
    using drasim::ui::kpiValueText;
    EXPECT_EQ(kpiValueText(843.0, "s").toStdString(), "14m3s");
    EXPECT_EQ(kpiValueText(-60.0, "s", true).toStdString(), "-1m");
    EXPECT_EQ(kpiValueText(61.54, "%").toStdString(), "61.5%");
    EXPECT_EQ(kpiValueText(3.0, "pods", true).toStdString(), "+3 pods");
    EXPECT_EQ(kpiValueText(-12.5, "USD", true).toStdString(), "-$12.50");
    EXPECT_EQ(kpiValueText(std::nullopt, "pods").toStdString(), "–");
    EXPECT_EQ(kpiValueText(1.0, "pods").toStdString(), "1 pod");
    EXPECT_EQ(kpiValueText(-1.0, "claims", true).toStdString(), "-1 claim");
    EXPECT_EQ(kpiValueText(0.0, "pods").toStdString(), "0 pods");
    using drasim::ui::kpiDisplayName;
    EXPECT_EQ(kpiDisplayName(QStringLiteral("neverScheduled")), QStringLiteral("never scheduled"));
    EXPECT_EQ(kpiDisplayName(QStringLiteral("pendingAtEnd")), QStringLiteral("pending at end"));
    EXPECT_EQ(kpiDisplayName(QStringLiteral("p95/training")), QStringLiteral("p95/training"));
}

// A run from the window refers to the same revision as `drasim simulate --save` of the same
// folder: the folder is saved and the run carries its bundle hash, not the Scenario file's alone.
TEST(ComparePage, ARunFromTheWindowIsRecordedUnderTheScenarioFoldersRevision)
{
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("runs.db"));
    const std::string scenario = std::string(DRASIM_SOURCE_DIR) + "/scenarios/sim/default/scenario.yaml";
    MainWindow w;
    w.setRunStorePath(store);
    w.openPaths({ QString::fromStdString(scenario) });
    ASSERT_TRUE(waitRun(w));

    drasim::Diagnostics diags;
    const auto bundle = drasim::scenario::readBundle(scenario, diags);
    ASSERT_TRUE(bundle) << diags.formatAll();
    drasim::storage::RunStore runs(store.toStdString());
    const auto recorded = runs.runs();
    ASSERT_EQ(recorded.size(), 1u);
    EXPECT_EQ(recorded.front().scenarioHash, bundle->hash);
    const auto revisions = runs.revisionsOf(bundle->name);
    ASSERT_EQ(revisions.size(), 1u);
    EXPECT_EQ(revisions.front().hash, bundle->hash);
    EXPECT_EQ(revisions.front().runs, 1);
}

TEST(ComparePage, TheRunListIsReadWhenTheTabIsShownNotBehindItsBack)
{
    // Listing opens the store and checks all of it: a run finished while another tab is shown
    // leaves the list for when the tab is opened, then it lists that run at once.
    QTemporaryDir dir;
    MainWindow w;
    w.setRunStorePath(dir.filePath(QStringLiteral("runs.db")));
    w.show();
    auto* page = w.comparePage();
    QSignalSpy listed(page, &ComparePage::runsListed);
    w.openPaths({ QString::fromUtf8(DRASIM_SOURCE_DIR)
        + QStringLiteral("/scenarios/learn/14-gang-scheduling/scenario.yaml") });
    ASSERT_TRUE(waitRun(w));
    EXPECT_FALSE(listed.wait(1000));
    w.pages()->setCurrentWidget(page);
    ASSERT_TRUE(listed.count() > 0 || listed.wait(30000));
    EXPECT_EQ(page->runsModel()->rowCount(), 1);
    // While the tab is shown, a finished run is listed as it lands.
    listed.clear();
    w.document()->setSeedOverride(7);
    w.simulationPage()->run();
    ASSERT_TRUE(waitRun(w));
    ASSERT_TRUE(listed.count() > 0 || listed.wait(30000));
    EXPECT_EQ(page->runsModel()->rowCount(), 2);
}
