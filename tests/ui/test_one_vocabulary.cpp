// SPDX-License-Identifier: Apache-2.0
// One vocabulary across the views, offscreen, on the default scenario: devices are named as their
// ResourceSlices publish them ("gpu-0", never the topology's "gpu0"), and node tiles count each
// DeviceClass apart, so a DGX whose eight GPUs are all held reads as full however many NICs idle;
// every time and duration is written one way ("14h", "5h37m31s"), the way --time reads it.
#include <string>
#include <vector>

#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>

#include <gtest/gtest.h>

#include "core/sim/sim_time.h"
#include "tests/ui/replayed_window.h"
#include "tests/ui/source_path.h"
#include "ui/charts/series_chart_view.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/core_text.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/time_text.h"
#include "ui/models/workload_summary_model.h"
#include "ui/pages/pods_page.h"
#include "ui/pages/simulation_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/cluster_grid_view.h"
#include "ui/widgets/node_graph_view.h"
#include "ui/widgets/timeline_strip.h"

using namespace drasim;
using drasim::ui::MainWindow;

TEST(OneVocabulary, NodeTilesCountEachDeviceClassApart)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TopologyPage* page = w.topologyPage();
    w.pages()->setCurrentWidget(page);
    ASSERT_EQ(page->cluster()->classNames(), std::vector<std::string> { "gpu.nvidia.com" });
    ui::ClusterGridView* grid = page->gridView();
    // Some time of the day, an H100 node has all eight GPUs held while its NICs are free.
    bool seen = false;
    for (sim::SimTime t = 0; !seen && t <= sim::kDay; t += 30 * sim::kMinute) {
        w.timelinePage()->cursor()->setTime(t);
        for (const char* node : { "h100-0", "h100-1", "h100-2", "h100-3" }) {
            const QString name = QString::fromUtf8(node);
            if (grid->countsText(name) != QLatin1String("gpu.nvidia.com 8/8"))
                continue;
            seen = true;
            EXPECT_EQ(grid->utilisationOf(name), 1.0) << node;
            EXPECT_LT(page->state().heldOnNode(node), 20) << "its NICs are free";
        }
    }
    EXPECT_TRUE(seen) << "no H100 node had all its GPUs held";
    // An L40S server: four GPUs of the class, its NICs selected by none.
    EXPECT_TRUE(grid->countsText(QStringLiteral("l40s-0")).startsWith(QLatin1String("gpu.nvidia.com ")))
        << grid->countsText(QStringLiteral("l40s-0")).toStdString();
    EXPECT_TRUE(grid->countsText(QStringLiteral("l40s-0")).endsWith(QLatin1String("/4")));
}

TEST(OneVocabulary, DevicesAreNamedAsTheirSlicesPublishThem)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TopologyPage* page = w.topologyPage();
    w.timelinePage()->cursor()->setTime(12 * sim::kHour);
    page->openNode(QStringLiteral("h100-0"));
    const ui::NodeDevices* node = page->cluster()->node("h100-0");
    ASSERT_NE(node, nullptr);
    ASSERT_FALSE(node->devices.empty());
    for (const auto& d : node->devices) {
        ASSERT_GE(d.component, 0) << d.key.device;
        EXPECT_EQ(page->nodeView()->deviceLabel(d.component), QString::fromStdString(d.key.device));
        EXPECT_TRUE(page->nodeView()
                        ->toolTipFor(d.component)
                        .startsWith(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(d.key.device))));
    }
    // A claim of several GPUs states its farthest pair and distances in the same names.
    std::string multi;
    for (const auto& [claim, devices] : page->state().claimDevices)
        if (devices.size() >= 2 && devices.front().pool.rfind("h100-", 0) == 0)
            multi = claim;
    ASSERT_FALSE(multi.empty());
    ASSERT_TRUE(page->selectClaim(QString::fromStdString(multi)));
    const QString text = page->claimText();
    EXPECT_TRUE(text.contains(QLatin1String("gpu-"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QLatin1String("gpu0")) || text.contains(QLatin1String("gpu1")))
        << text.toStdString();
}

TEST(OneVocabulary, TheTimelinesPeakAndEventCountsSayWhatTheyCount)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    QSignalSpy finished(w.simulationPage()->job(), &ui::SimulationJob::finished);
    ASSERT_TRUE(openAndReplay(w));
    ASSERT_EQ(finished.size(), 1);
    const auto outcome = finished.front().at(0).value<std::shared_ptr<const ui::SimulationOutcome>>();
    ASSERT_TRUE(outcome && outcome->summary);
    // The peak of pending pods is the run summary's (drasim simulate states the same number).
    const QString peak = w.timelinePage()->strip()->peakText();
    EXPECT_TRUE(peak.startsWith(QStringLiteral("peak %1 pending · ").arg(outcome->summary->peakPendingPods)))
        << peak.toStdString();
    // The events counted are the pod events recorded plus the injected ones, each said apart.
    auto replay = w.timelinePage()->cursor()->replay();
    EXPECT_EQ(replay->podEventCount(), outcome->podEvents->size());
    EXPECT_EQ(replay->events().size(), outcome->podEvents->size() + outcome->conditions->events().size());
    // The summary line's tooltip names the number drasim simulate prints for the same run (1,578
    // simulator steps here) and says it counts something else.
    const QString simulatorEvents = QStringLiteral("The %1 events drasim simulate counts")
                                        .arg(ui::countText(qint64(outcome->summary->events)));
    int told = 0;
    for (const QLabel* label : w.timelinePage()->findChildren<QLabel*>())
        told += label->toolTip().contains(simulatorEvents) ? 1 : 0;
    EXPECT_EQ(told, 1) << simulatorEvents.toStdString();
}

namespace one_vocabulary {

/// The texts of the labels under `page` that start with `prefix`.
QStringList labelsStartingWith(QWidget* page, const QString& prefix)
{
    QStringList found;
    for (const QLabel* label : page->findChildren<QLabel*>())
        if (label->text().startsWith(prefix))
            found << label->text();
    return found;
}

} // namespace one_vocabulary

TEST(OneVocabulary, EveryViewWritesTimesAndDurationsOneWay)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    QSignalSpy finished(w.simulationPage()->job(), &ui::SimulationJob::finished);
    ASSERT_TRUE(openAndReplay(w));
    ASSERT_EQ(finished.size(), 1);
    const auto outcome = finished.front().at(0).value<std::shared_ptr<const ui::SimulationOutcome>>();
    ASSERT_TRUE(outcome && outcome->summary);

    // The Simulation charts' time axes: round times since the start, each one --time would take.
    ui::SimulationPage* simulation = w.simulationPage();
    w.pages()->setCurrentWidget(simulation);
    QApplication::processEvents();
    for (ui::SeriesChartView* chart : simulation->charts()) {
        if (chart->isHidden())
            continue; // the gang charts of a run without gangs
        const QStringList ticks = chart->timeTickLabels();
        ASSERT_GE(ticks.size(), 3) << ticks.join(QLatin1Char(' ')).toStdString();
        EXPECT_EQ(ticks.front(), QStringLiteral("0s"));
        EXPECT_EQ(ticks.back(), QStringLiteral("1d")) << "the run is a day long";
        EXPECT_TRUE(ticks.contains(QStringLiteral("12h"))) << ticks.join(QLatin1Char(' ')).toStdString();
        for (const QString& tick : ticks) {
            sim::SimTime t = -1;
            EXPECT_TRUE(sim::parseDuration(tick.toStdString(), t)) << tick.toStdString();
        }
    }
    // Waits as durations, in the table and the totals, the number to sort by kept.
    const ui::WorkloadSummaryModel* workloads = simulation->workloadModel();
    ASSERT_EQ(size_t(workloads->rowCount()), outcome->summary->workloads.size());
    for (int row = 0; row < workloads->rowCount(); ++row) {
        const auto& wait = outcome->summary->workloads[size_t(row)].waitSeconds;
        const QModelIndex p95 = workloads->index(row, ui::WorkloadSummaryModel::WaitP95Column);
        EXPECT_EQ(p95.data().toString(), ui::formatSeconds(wait.p95, wait.atLeast.p95));
        EXPECT_EQ(p95.data(ui::WorkloadSummaryModel::SecondsRole).toDouble(), wait.p95);
    }
    const auto& all = outcome->summary->waitSeconds;
    EXPECT_EQ(one_vocabulary::labelsStartingWith(simulation, QStringLiteral("Finished.")).size(), 1);
    EXPECT_TRUE(
        one_vocabulary::labelsStartingWith(simulation, QStringLiteral("Finished."))
            .front()
            .contains(QStringLiteral("Wait p95 <b>%1</b>").arg(ui::formatSeconds(all.p95, all.atLeast.p95))));

    // The replaying views say the same time the same way.
    w.timelinePage()->cursor()->setTime(14 * sim::kHour);
    QApplication::processEvents();
    EXPECT_EQ(one_vocabulary::labelsStartingWith(w.timelinePage(), QStringLiteral("At 14h: ")).size(), 1);
    EXPECT_EQ(one_vocabulary::labelsStartingWith(w.podsPage(), QStringLiteral("At 14h: ")).size(), 1);
    EXPECT_EQ(
        one_vocabulary::labelsStartingWith(w.topologyPage(), QStringLiteral("At <b>14h</b>")).size(), 1);
    const ui::ReplayEventsModel* events = w.timelinePage()->eventsModel();
    const int row = events->rowAt(14 * sim::kHour);
    ASSERT_GE(row, 0);
    const auto& event = w.timelinePage()->cursor()->replay()->events()[size_t(row)];
    const QModelIndex time = events->index(row, ui::ReplayEventsModel::TimeColumn);
    EXPECT_EQ(time.data().toString(), ui::formatSimTime(event.time));
    EXPECT_EQ(time.data(Qt::ToolTipRole).toString(), ui::formatExactSimTime(event.time));
    // Pod and injected event counts, grouped as the locale groups them, with what the CLI counts
    // apart in the tooltip.
    const QStringList summary
        = one_vocabulary::labelsStartingWith(w.timelinePage(), QStringLiteral("At 14h: "));
    ASSERT_EQ(summary.size(), 1);
    EXPECT_TRUE(summary.front().contains(
        QStringLiteral("(%1 pod events").arg(ui::countText(qint64(outcome->podEvents->size())))))
        << summary.front().toStdString();
}

TEST(OneVocabulary, ATimePastTheRunsEndIsSaidInTheWindow)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    w.timelinePage()->setInitialTime(5 * sim::kDay);
    QSignalSpy clamped(w.timelinePage(), &ui::TimelinePage::initialTimeClamped);
    ASSERT_TRUE(openAndReplay(w));
    ASSERT_EQ(clamped.size(), 1);
    EXPECT_EQ(w.timelinePage()->cursor()->time(), sim::kDay);
    QStringList said;
    for (const QLabel* label : w.statusBar()->findChildren<QLabel*>())
        said << label->text();
    EXPECT_TRUE(said.contains(QStringLiteral("Showing the end of the run (1d): 5d is after it")))
        << said.join(QLatin1Char('|')).toStdString();
}
