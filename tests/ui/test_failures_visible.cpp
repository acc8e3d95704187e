// SPDX-License-Identifier: Apache-2.0
// Failures are visible, offscreen, on the node-failure drill (three L40S servers down 10h-14h, a
// DGX H100 down 12h-20h, one H100 GPU tainted at 16h): the topology grid gives down and tainted
// nodes their own look, the Simulation charts show nodes and devices up and mark each injected
// event, and the Timeline lists those events among the pods'.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <QImage>
#include <QSignalSpy>
#include <QTabWidget>

#include <gtest/gtest.h>

#include "tests/ui/pixel_probe.h"
#include "tests/ui/replayed_window.h"
#include "tests/ui/source_path.h"
#include "ui/charts/series_chart_view.h"
#include "ui/mainwindow.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/run_series_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/tone_colors.h"
#include "ui/pages/simulation_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/cluster_grid_view.h"
#include "ui/widgets/node_legend.h"
#include "ui/widgets/timeline_strip.h"

using namespace drasim;
using drasim::ui::MainWindow;

namespace {

using ui::testing::hasColorNear;

ui::SeriesChartView* chartTitled(MainWindow& w, const QString& title)
{
    for (auto* chart : w.simulationPage()->charts())
        if (chart->chart()->title() == title)
            return chart;
    return nullptr;
}

} // namespace

TEST(FailuresVisible, DownAndTaintedNodesHaveTheirOwnLookInTheGrid)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w, sourcePath("scenarios/plan/node-failure-drill/scenario.yaml")));
    ui::TimeCursor* cursor = w.timelinePage()->cursor();
    ui::ClusterGridView* grid = w.topologyPage()->gridView();
    w.pages()->setCurrentWidget(w.topologyPage());
    using Look = ui::ClusterGridView::Look;

    cursor->setTime(9 * sim::kHour);
    for (const char* node : { "l40s-0", "h100-3", "h100-0" })
        EXPECT_EQ(grid->lookOf(QString::fromUtf8(node)), Look::Up) << node;
    cursor->setTime(13 * sim::kHour);
    for (const char* node : { "l40s-0", "l40s-1", "l40s-2", "h100-3" })
        EXPECT_EQ(grid->lookOf(QString::fromUtf8(node)), Look::Down) << node;
    EXPECT_EQ(grid->lookOf(QStringLiteral("l40s-3")), Look::Up);
    EXPECT_EQ(cursor->state().nodes.size(), 4u);

    // A down tile is framed in the Bad tone; the same tile at 9h is not.
    int index = -1;
    for (int i = 0; index < 0 && i < 10; ++i)
        if (grid->nodeAt(grid->tileRect(i).center()) == QLatin1String("l40s-0"))
            index = i;
    ASSERT_GE(index, 0);
    const QRect tile = grid->tileRect(index);
    const QRect leftEdge(tile.left(), tile.center().y() - 3, 3, 6);
    const QColor bad = ui::toneColor(ui::Tone::Bad, grid->palette());
    EXPECT_TRUE(hasColorNear(grid->grab().toImage(), leftEdge, bad));
    saveWindowShot(w, "failures-topology-13h.png");
    cursor->setTime(9 * sim::kHour);
    EXPECT_FALSE(hasColorNear(grid->grab().toImage(), leftEdge, bad));

    cursor->setTime(16 * sim::kHour + sim::kMinute);
    EXPECT_EQ(grid->lookOf(QStringLiteral("h100-0")), Look::Tainted);
    EXPECT_EQ(cursor->state().nodes.at("h100-0").taintedDevices,
        std::vector<std::string> { "gpu.nvidia.com/gpu-5" }); // as its ResourceSlice names it
    cursor->setTime(20 * sim::kHour);
    EXPECT_EQ(grid->lookOf(QStringLiteral("h100-3")), Look::Up);
    EXPECT_TRUE(w.topologyPage()->legend()->isVisible());
}

TEST(FailuresVisible, ChartsShowNodesAndDevicesUpAndMarkEachInjectedEvent)
{
    MainWindow w;
    w.resize(1500, 1000);
    w.show();
    ASSERT_TRUE(openAndReplay(w, sourcePath("scenarios/plan/node-failure-drill/scenario.yaml")));
    ui::RunSeriesModel* series = w.simulationPage()->seriesModel();
    const int l40s = series->columnOf(QStringLiteral("devices.up/NVIDIA L40S"));
    const int nodes = series->columnOf(QStringLiteral("nodes.up/l40s"));
    ASSERT_GE(l40s, 1);
    ASSERT_GE(nodes, 1);
    auto valueAt = [&](int column, double hours) {
        for (int r = 0; r < series->rowCount(); ++r)
            if (series->index(r, 0).data().toDouble() >= hours)
                return series->index(r, column).data().toDouble();
        return -1.0;
    };
    EXPECT_EQ(valueAt(l40s, 9), 24.0); // six 4-GPU servers
    EXPECT_EQ(valueAt(l40s, 11), 12.0); // three of them down
    EXPECT_EQ(valueAt(l40s, 15), 24.0);
    EXPECT_EQ(valueAt(nodes, 11), 3.0);

    w.pages()->setCurrentWidget(w.simulationPage());
    ui::SeriesChartView* up = chartTitled(w, QStringLiteral("Devices up by model"));
    ASSERT_NE(up, nullptr);
    ASSERT_NE(chartTitled(w, QStringLiteral("Nodes up by pool")), nullptr);
    EXPECT_EQ(up->eventMarks().size(), 9);
    EXPECT_EQ(up->markLabel(10.0), QStringLiteral("NodeFailure ×3"));
    EXPECT_EQ(up->markLabel(16.0), QStringLiteral("DeviceTaint"));
    for (auto* chart : w.simulationPage()->charts())
        EXPECT_EQ(chart->eventMarks().size(), 9) << chart->chart()->title().toStdString();
    // The mark is drawn: its column of the plot holds the Bad tone, an hour earlier does not.
    const QImage image = up->grab().toImage();
    const QRect plot = up->mapFromScene(up->chart()->mapRectToScene(up->chart()->plotArea())).boundingRect();
    auto column = [&](double hours) {
        const int x = int(std::lround(up->viewportX(hours)));
        return QRect(x - 1, plot.top() + 2, 3, plot.height() - 4);
    };
    const QColor bad = ui::toneColor(ui::Tone::Bad, up->palette());
    EXPECT_TRUE(hasColorNear(image, column(12.0), bad));
    EXPECT_FALSE(hasColorNear(image, column(7.0), bad));
    EXPECT_NE(up->hoverTextAt(QPoint(int(up->viewportX(12.0)), plot.center().y()))
                  .indexOf(QStringLiteral("NodeFailure h100-3")),
        -1);
    saveWindowShot(w, "failures-simulation.png");
}

TEST(FailuresVisible, TheTimelineListsEveryInjectedEvent)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w, sourcePath("scenarios/plan/node-failure-drill/scenario.yaml")));
    ui::ReplayEventsModel* events = w.timelinePage()->eventsModel();
    QStringList injected;
    for (int row = 0; row < events->rowCount(); ++row) {
        const QString kind = events->index(row, ui::ReplayEventsModel::EventColumn).data().toString();
        if (kind.startsWith(QLatin1String("Node")) || kind.startsWith(QLatin1String("Device")))
            injected << kind + QLatin1Char(' ')
                    + events->index(row, ui::ReplayEventsModel::NodeColumn).data().toString();
    }
    EXPECT_EQ(injected,
        (QStringList { QStringLiteral("NodeFailure l40s-0"), QStringLiteral("NodeFailure l40s-1"),
            QStringLiteral("NodeFailure l40s-2"), QStringLiteral("NodeFailure h100-3"),
            QStringLiteral("NodeReturn l40s-0"), QStringLiteral("NodeReturn l40s-1"),
            QStringLiteral("NodeReturn l40s-2"), QStringLiteral("DeviceTaint h100-0"),
            QStringLiteral("NodeReturn h100-3") }));
    EXPECT_EQ(w.timelinePage()->strip()->marks().size(), 9u);
    w.pages()->setCurrentWidget(w.timelinePage());
    w.timelinePage()->cursor()->setTime(10 * sim::kHour);
    saveWindowShot(w, "failures-timeline.png");
}
