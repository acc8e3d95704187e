// SPDX-License-Identifier: Apache-2.0
// The Simulation tab's gang charts, offscreen: a run with gang jobs charts the simulator's gangs.*
// series point for point as the run store recorded them, under a gang policy and with the pods
// bound one by one; a run without gang jobs shows neither chart.
#include <cstdlib>

#include <QApplication>
#include <QChart>
#include <QLineSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/storage/run_store.h"
#include "tests/ui/source_path.h"
#include "ui/charts/series_chart_view.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/run_series_model.h"
#include "ui/pages/simulation_page.h"

using drasim::ui::MainWindow;
using drasim::ui::SeriesChartView;
using drasim::ui::SimulationJob;

namespace {

std::shared_ptr<const drasim::ui::SimulationOutcome> runScenario(MainWindow& w, const QString& path)
{
    QSignalSpy spy(w.simulationPage()->job(), &SimulationJob::finished);
    w.openPaths({ path });
    if (!spy.wait(180000))
        return nullptr;
    return spy.takeFirst().at(0).value<std::shared_ptr<const drasim::ui::SimulationOutcome>>();
}

QList<QPointF> chartPoints(SeriesChartView* chart)
{
    auto* line = qobject_cast<QLineSeries*>(chart->chart()->series().value(0));
    return line ? line->points() : QList<QPointF>();
}

const char* const kGangMetrics[] = { "gangs.not_started", "gangs.idle_devices" };

/// Both gang charts are shown with one line each, point for point the series the run store
/// recorded for the run; returns each series' largest value.
std::vector<double> expectChartedAsRecorded(
    drasim::ui::SimulationPage* page, const QString& store, int64_t runId, const char* scenario)
{
    drasim::storage::RunStore runs(store.toStdString());
    std::vector<double> most;
    for (int i = 0; i < 2; ++i) {
        SeriesChartView* chart = page->gangCharts()[i];
        EXPECT_TRUE(chart->isVisible()) << scenario << " " << kGangMetrics[i];
        EXPECT_EQ(chart->lineCount(), 1) << scenario << " " << kGangMetrics[i];
        QList<QPointF> expected;
        double top = 0;
        for (const auto& p : runs.series(runId, kGangMetrics[i])) {
            expected << QPointF(p.time / 3600.0, p.value);
            top = std::max(top, p.value);
        }
        EXPECT_FALSE(expected.isEmpty()) << scenario << " " << kGangMetrics[i];
        EXPECT_EQ(chartPoints(chart), expected) << scenario << " " << kGangMetrics[i];
        most.push_back(top);
    }
    return most;
}

} // namespace

TEST(GangCharts, AGangRunChartsItsGangSeriesAndARunWithoutGangsHidesThem)
{
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("runs.db"));
    MainWindow w;
    w.setRunStorePath(store);
    w.resize(1400, 1000);
    w.show();
    drasim::ui::SimulationPage* page = w.simulationPage();
    w.pages()->setCurrentWidget(page);
    const QList<SeriesChartView*> gangCharts = page->gangCharts();
    ASSERT_EQ(gangCharts.size(), 2);
    EXPECT_EQ(gangCharts[0]->chart()->title(), QStringLiteral("Gangs not started"));
    EXPECT_EQ(gangCharts[1]->chart()->title(), QStringLiteral("Devices held by partly started gangs"));
    for (auto* chart : gangCharts)
        EXPECT_TRUE(page->charts().contains(chart));

    // Two days of two-worker training Jobs under a gang policy: some wait for their second
    // worker's server, and none holds devices while partly started.
    auto gang = runScenario(w, sourcePath("scenarios/learn/14-gang-scheduling/scenario.yaml"));
    ASSERT_TRUE(gang && gang->summary);
    ASSERT_GT(gang->runId, 0);
    QApplication::processEvents();
    std::vector<double> most = expectChartedAsRecorded(page, store, gang->runId, "gang");
    ASSERT_EQ(most.size(), 2u);
    EXPECT_GT(most[0], 0);
    EXPECT_EQ(most[1], 0);

    // The same jobs with the Workload API gates off: their pods are bound one by one, and a job
    // that started one worker holds its devices idle; the charts show that waste.
    auto oneByOne = runScenario(w, sourcePath("scenarios/learn/14-gang-scheduling/pods-one-by-one.yaml"));
    ASSERT_TRUE(oneByOne && oneByOne->summary);
    QApplication::processEvents();
    most = expectChartedAsRecorded(page, store, oneByOne->runId, "pods one by one");
    ASSERT_EQ(most.size(), 2u);
    EXPECT_GT(most[1], 0);

    if (const char* shots = std::getenv("DRASIM_SCREENSHOT_DIR")) {
        // The gang charts are the last row: scroll them into view first.
        QApplication::processEvents();
        if (auto* scroll = page->findChild<QScrollArea*>())
            scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        QApplication::processEvents();
        w.grab().save(QString::fromUtf8(shots) + QStringLiteral("/gang-charts.png"));
    }

    // A run without a gang job: no gang series, and neither chart.
    auto plain = runScenario(w, defaultScenario());
    ASSERT_TRUE(plain && plain->summary);
    QApplication::processEvents();
    for (const QString& name : page->seriesModel()->seriesNames())
        EXPECT_FALSE(name.startsWith(QStringLiteral("gangs."))) << name.toStdString();
    for (int i = 0; i < 2; ++i) {
        EXPECT_FALSE(gangCharts[i]->isVisible()) << kGangMetrics[i];
        EXPECT_EQ(gangCharts[i]->lineCount(), 0) << kGangMetrics[i];
    }
    EXPECT_TRUE(page->charts().front()->isVisible()); // the other charts stay
}
