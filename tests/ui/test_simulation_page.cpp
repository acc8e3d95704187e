// SPDX-License-Identifier: Apache-2.0
// The Simulation tab end to end, offscreen: a scenario runs in the background, charts fill, the run
// lands in the SQLite store, cancel stops it, and a broken scenario is reported inline.
#include <cstdlib>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/storage/run_store.h"
#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/run_series_model.h"
#include "ui/models/workload_summary_model.h"
#include "ui/pages/simulation_page.h"

using drasim::ui::MainWindow;
using drasim::ui::SimulationJob;

namespace {

std::shared_ptr<const drasim::ui::SimulationOutcome> waitFinished(MainWindow& w)
{
    QSignalSpy spy(w.simulationPage()->job(), &SimulationJob::finished);
    if (!spy.wait(120000))
        return nullptr;
    return spy.takeFirst().at(0).value<std::shared_ptr<const drasim::ui::SimulationOutcome>>();
}

} // namespace

TEST(SimulationPage, RunsTheDefaultScenarioAndRecordsTheRun)
{
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("runs.db"));
    MainWindow w;
    w.setRunStorePath(store);
    w.resize(1400, 900);
    w.show();
    // The models stay consistent while a real run fills them batch by batch.
    using Tester = QAbstractItemModelTester;
    Tester seriesTester(w.simulationPage()->seriesModel(), Tester::FailureReportingMode::Fatal);
    Tester workloadTester(w.simulationPage()->workloadModel(), Tester::FailureReportingMode::Fatal);
    Tester problemsTester(w.diagnosticsModel(), Tester::FailureReportingMode::Fatal);
    w.openPaths({ defaultScenario() });
    auto outcome = waitFinished(w);
    ASSERT_TRUE(outcome);
    ASSERT_TRUE(outcome->summary.has_value());
    EXPECT_FALSE(outcome->cancelled);
    EXPECT_GT(outcome->summary->podsCreated, 0);

    auto* series = w.simulationPage()->seriesModel();
    // One sample every 5 minutes over one day, plus the one at time 0.
    EXPECT_EQ(series->rowCount(), int(outcome->summary->samples));
    EXPECT_GE(series->columnOf(QStringLiteral("pods.pending")), 1);
    EXPECT_GT(w.simulationPage()->workloadModel()->rowCount(), 0);

    drasim::storage::RunStore runs(store.toStdString());
    auto recorded = runs.run(outcome->runId);
    ASSERT_TRUE(recorded.has_value());
    EXPECT_EQ(recorded->status, "finished");
    EXPECT_EQ(recorded->scenario, "default");
    EXPECT_FALSE(runs.series(outcome->runId, "pods.pending").empty());

    if (const char* shots = std::getenv("DRASIM_SCREENSHOT_DIR"))
        w.grab().save(QString::fromUtf8(shots) + QStringLiteral("/simulation.png"));
}

TEST(SimulationPage, BrokenScenarioIsReportedInlineWithItsLocation)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.yaml"));
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: bad\nspec:\n"
                "  duration: forever\n");
    }
    MainWindow w;
    w.setRunStorePath(QString());
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    QSignalSpy started(w.simulationPage()->job(), &SimulationJob::started);
    w.openPaths({ path });
    ASSERT_TRUE(opened.wait(20000));
    EXPECT_TRUE(w.document()->isScenario());
    EXPECT_EQ(w.document()->prepared(), nullptr);
    EXPECT_EQ(started.count(), 0); // nothing to simulate
    ASSERT_GE(w.diagnosticsModel()->errorCount(), 1);
    const auto* d = w.diagnosticsModel()->diagnosticAt(0);
    EXPECT_EQ(d->pos.line, 6);
    EXPECT_NE(d->fieldPath.find("duration"), std::string::npos) << d->format();
}

TEST(SimulationPage, TheHeaderNamesTheScenarioAndEveryWorkloadShowsWithItsP90)
{
    MainWindow w;
    w.setRunStorePath(QString());
    w.resize(1400, 900);
    w.show();
    w.openPaths({ sourcePath("scenarios/plan/node-failure-drill/scenario.yaml") });
    auto outcome = waitFinished(w);
    ASSERT_TRUE(outcome && outcome->summary);
    auto* page = w.simulationPage();
    // Every example's file is scenario.yaml: the header names the scenario itself.
    EXPECT_EQ(page->title(), QStringLiteral("Scenario: node-failure-drill"));
    auto* model = page->workloadModel();
    using M = drasim::ui::WorkloadSummaryModel;
    EXPECT_EQ(model->headerData(M::WaitP90Column, Qt::Horizontal).toString(), QStringLiteral("Wait p90"));
    ASSERT_EQ(model->rowCount(), 4);
    QTableView* view = page->workloadView();
    QApplication::processEvents();
    for (int row = 0; row < 4; ++row)
        EXPECT_TRUE(view->viewport()->rect().contains(view->visualRect(model->index(row, 0))))
            << "row " << row << " is scrolled out of sight";
}
