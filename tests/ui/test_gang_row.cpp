// SPDX-License-Identifier: Apache-2.0
// A gang in the window, on scenarios/learn/15-topology-aware-gang (four DGX H100 in two racks; a
// two-worker training gang that must run inside one rack waits from 30m until 2h, then runs in
// h100-rack-0): the Pods tab shows the PodGroup as one row with its workers under it, the
// explanation pane gives core's account of the group (the same words as `drasim explain --at`),
// and the Topology tab outlines the rack the gang runs in. The Timeline's strip marks preemptions.
#include <cstdlib>
#include <vector>

#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include "tests/ui/pixel_probe.h"
#include "tests/ui/replayed_window.h"
#include "tests/ui/source_path.h"
#include "ui/mainwindow.h"
#include "ui/models/pods_model.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/replay_pods_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/tone_colors.h"
#include "ui/pages/pods_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/cluster_grid_view.h"
#include "ui/widgets/node_graph_view.h"
#include "ui/widgets/timeline_strip.h"

using namespace drasim;
using drasim::ui::MainWindow;
using drasim::ui::PodsModel;

// Named, so that a unity build does not meet other window tests' helpers of the same names.
namespace gang_row_test {

QString gangScenario()
{
    return sourcePath("scenarios/learn/15-topology-aware-gang/scenario.yaml");
}

QString currentCell(ui::PodsPage* page, int column)
{
    return page->podsView()->currentIndex().siblingAtColumn(column).data().toString();
}

/// Whether a pixel on the line `y` from x0 to x1 (or the column x from y0 to y1) of the image is
/// near `color`: the dashed ring is broken, so the whole edge is searched.
bool edgeHasColor(const QImage& image, QPoint from, QPoint to, const QColor& color)
{
    return ui::testing::hasColorNear(image, QRect(from, to), color);
}

/// The ring above a node's tile (in the gap between tiles), in device pixels of the grab.
bool ringAbove(ui::ClusterGridView* grid, const QImage& image, const QString& node)
{
    const QRect r = grid->rectOf(node);
    const qreal dpr = image.devicePixelRatio();
    const int y = int((r.top() - 3) * dpr);
    return edgeHasColor(image, QPoint(int(r.left() * dpr), y - 1), QPoint(int(r.right() * dpr), y + 1),
        grid->palette().color(QPalette::Highlight));
}

} // namespace gang_row_test

using namespace gang_row_test;

TEST(GangRow, ThePodGroupIsOneRowWithItsWorkersAndItsStateFollowsTheTime)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w, gangScenario()));
    ui::TimeCursor* cursor = w.timelinePage()->cursor();
    ui::PodsPage* pods = w.podsPage();
    w.pages()->setCurrentWidget(pods);

    // An hour in: both workers exist, no rack holds both, so the group is pending.
    cursor->setTime(1 * sim::kHour);
    ASSERT_GT(pods->replayPodsModel()->groupCount(), 0);
    EXPECT_TRUE(pods->podsView()->rootIsDecorated());
    ASSERT_TRUE(pods->selectGroup(QStringLiteral("default/train")));
    const QModelIndex group = pods->podsView()->currentIndex();
    EXPECT_TRUE(group.data(PodsModel::IsGroupRole).toBool());
    EXPECT_EQ(currentCell(pods, PodsModel::NameColumn), QStringLiteral("train"));
    EXPECT_EQ(currentCell(pods, PodsModel::StatusColumn), QStringLiteral("Pending"));
    EXPECT_EQ(currentCell(pods, PodsModel::MessageColumn), QStringLiteral("gang, minCount 2 · 0 of 2 bound"));
    EXPECT_TRUE(currentCell(pods, PodsModel::NodeColumn).isEmpty());
    // Its workers under it, shown (the group is open) and pending.
    const QModelIndex first = group.siblingAtColumn(0);
    EXPECT_TRUE(pods->podsView()->isExpanded(first));
    ASSERT_EQ(pods->podsView()->model()->rowCount(first), 2);
    for (int m = 0; m < 2; ++m) {
        const QModelIndex worker = pods->podsView()->model()->index(m, PodsModel::StatusColumn, first);
        EXPECT_EQ(worker.data().toString(), QStringLiteral("Pending"));
        EXPECT_TRUE(
            worker.data(PodsModel::PodKeyRole).toString().startsWith(QStringLiteral("default/train-")));
    }

    // At 2h30m the gang runs in h100-rack-0; the row follows the time and stays selected.
    cursor->setTime(2 * sim::kHour + 30 * sim::kMinute);
    EXPECT_TRUE(pods->podsView()->currentIndex().data(PodsModel::IsGroupRole).toBool());
    EXPECT_EQ(currentCell(pods, PodsModel::StatusColumn), QStringLiteral("Scheduled"));
    EXPECT_EQ(currentCell(pods, PodsModel::NodeColumn), QStringLiteral("h100-rack-0"));
    EXPECT_EQ(currentCell(pods, PodsModel::MessageColumn), QStringLiteral("gang, minCount 2 · 2 of 2 bound"));
    EXPECT_EQ(pods->podsView()->currentIndex().data(PodsModel::DomainRole).toString(),
        QStringLiteral("topology.kubernetes.io/rack=h100-rack-0"));

    // The filter on a worker's name keeps its group's row.
    pods->filter()->setText(QStringLiteral("train-1"));
    ASSERT_EQ(pods->podsView()->model()->rowCount(), 1);
    EXPECT_TRUE(pods->podsView()->model()->index(0, 0).data(PodsModel::IsGroupRole).toBool());
    pods->filter()->clear();
    saveWindowShot(w, "gang-row-pods.png");
}

TEST(GangRow, APreferredSelectionPicksTheGroupBeforeTheFirstPendingPod)
{
    // What `drasim-gui --select default/train` asks of the Pods tab.
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    w.podsPage()->setPreferredSelection(QStringLiteral("default/train"));
    ASSERT_TRUE(openAndReplay(w, gangScenario()));
    w.timelinePage()->cursor()->setTime(1 * sim::kHour);
    const QModelIndex current = w.podsPage()->podsView()->currentIndex();
    EXPECT_TRUE(current.data(PodsModel::IsGroupRole).toBool());
    EXPECT_EQ(current.data(PodsModel::GroupKeyRole).toString(), QStringLiteral("default/train"));
    // A key the run does not show leaves the first pending pod chosen, as without one.
    w.podsPage()->podsView()->setCurrentIndex({});
    w.podsPage()->setPreferredSelection(QStringLiteral("default/nothing"));
    w.timelinePage()->cursor()->setTime(45 * sim::kMinute);
    EXPECT_EQ(w.podsPage()->podsView()->currentIndex().data(PodsModel::PodKeyRole).toString(),
        QStringLiteral("default/train-0"));
}

TEST(GangRow, TheGroupsExplanationIsCoresAccountOfIt)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w, gangScenario()));
    ui::PodsPage* pods = w.podsPage();
    w.pages()->setCurrentWidget(pods);
    w.timelinePage()->cursor()->setTime(1 * sim::kHour);

    QSignalSpy at(pods, &ui::PodsPage::diagnosisAtShown);
    ASSERT_TRUE(pods->selectGroup(QStringLiteral("default/train")));
    // The recorded facts at once, core's account once worked out.
    QString text = pods->diagnosisView()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("Pod group default/train at 1h: pending")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("0 of its 2 members bound, 2 pending"))) << text.toStdString();
    ASSERT_TRUE(at.wait(180000));
    EXPECT_EQ(at.takeFirst().at(0).toString(), QStringLiteral("default/train-0"));
    text = pods->diagnosisView()->toPlainText();

    // The same words as `drasim explain --at 1h` prints on the worker: its group line.
    QProcess explain;
    explain.start(QStringLiteral(DRASIM_CLI_PATH),
        { QStringLiteral("explain"), QStringLiteral("--at"), QStringLiteral("1h"),
            QStringLiteral("default/train-0"), gangScenario() });
    ASSERT_TRUE(explain.waitForFinished(180000));
    EXPECT_EQ(explain.exitCode(), 0) << explain.readAllStandardError().toStdString();
    QString groupLine;
    for (const QString& line : QString::fromUtf8(explain.readAllStandardOutput()).split(QLatin1Char('\n')))
        if (line.trimmed().startsWith(QStringLiteral("pod group default/train")))
            groupLine = line.trimmed();
    ASSERT_TRUE(groupLine.contains(QStringLiteral("h100-rack-0 1, h100-rack-1 1")))
        << groupLine.toStdString();
    EXPECT_TRUE(text.contains(groupLine)) << text.toStdString() << "\n---\n" << groupLine.toStdString();

    // A worker: the group's line leads its own explanation, and its recorded account names the group.
    at.clear();
    ASSERT_TRUE(pods->selectPod(QStringLiteral("default/train-1")));
    text = pods->diagnosisView()->toPlainText();
    EXPECT_TRUE(text.contains(
        QStringLiteral("Member of pod group default/train (gang, minCount 2 · 0 of 2 bound): pending")))
        << text.toStdString();
    ASSERT_TRUE(at.wait(180000));
    text = pods->diagnosisView()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("is pending with its pod group"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("The group decides first: pod group default/train")))
        << text.toStdString();
}

TEST(GangRow, TheTopologyTabOutlinesTheRackTheGangRunsIn)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w, gangScenario()));
    ui::PodsPage* pods = w.podsPage();
    ui::TopologyPage* topology = w.topologyPage();
    if (!topology->cluster()) {
        QSignalSpy ready(topology, &ui::TopologyPage::clusterReady);
        ASSERT_TRUE(ready.wait(60000));
    }
    ui::ClusterGridView* grid = topology->gridView();

    // Pending: nothing runs, so nothing is outlined, and the line says so.
    w.timelinePage()->cursor()->setTime(1 * sim::kHour);
    ASSERT_TRUE(pods->selectGroup(QStringLiteral("default/train")));
    EXPECT_TRUE(grid->markedNodes().isEmpty());
    EXPECT_TRUE(topology->groupText().contains(QStringLiteral("no member runs")))
        << topology->groupText().toStdString();

    // Running in h100-rack-0: both of its servers outlined, the other rack's not.
    w.timelinePage()->cursor()->setTime(2 * sim::kHour + 30 * sim::kMinute);
    EXPECT_EQ(grid->markedNodes(), (QSet<QString> { QStringLiteral("h100-0"), QStringLiteral("h100-1") }));
    EXPECT_TRUE(
        topology->groupText().contains(QStringLiteral("topology.kubernetes.io/rack <b>h100-rack-0</b>")))
        << topology->groupText().toStdString();
    // The tab opens one of the group's nodes, once: a node the user opens then stays open.
    const QString opened = topology->nodeView()->node();
    EXPECT_TRUE(opened == QStringLiteral("h100-0") || opened == QStringLiteral("h100-1"))
        << opened.toStdString();
    topology->openNode(QStringLiteral("h100-3"));
    w.timelinePage()->cursor()->setTime(2 * sim::kHour + 40 * sim::kMinute);
    EXPECT_EQ(topology->nodeView()->node(), QStringLiteral("h100-3"));
    w.timelinePage()->cursor()->setTime(2 * sim::kHour + 30 * sim::kMinute);
    topology->openNode(opened);
    w.pages()->setCurrentWidget(topology);
    const QImage image = grid->grab().toImage();
    EXPECT_TRUE(ringAbove(grid, image, QStringLiteral("h100-0")));
    EXPECT_TRUE(ringAbove(grid, image, QStringLiteral("h100-1")));
    EXPECT_FALSE(ringAbove(grid, image, QStringLiteral("h100-2")));
    EXPECT_FALSE(ringAbove(grid, image, QStringLiteral("h100-3")));
    saveWindowShot(w, "gang-row-topology.png");

    // A worker outlines its group too; a pod placed on its own (the evaluation Job's, whose
    // basic PodGroup has no topology key) clears the outline.
    ASSERT_TRUE(pods->selectPod(QStringLiteral("default/train-0")));
    EXPECT_EQ(grid->markedNodes().size(), 2);
    ASSERT_TRUE(pods->selectPod(QStringLiteral("default/preprocess-0")));
    EXPECT_TRUE(grid->markedNodes().isEmpty());
    EXPECT_TRUE(topology->groupText().isEmpty());
}

TEST(GangRow, TheTimelineMarksEachPreemptionOnItsStrip)
{
    // scenarios/learn/17-workload-aware-preemption with the KEP-5690 what-if: production gangs
    // preempt research gangs, both workers of a gang at one instant.
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(
        openAndReplay(w, sourcePath("scenarios/learn/17-workload-aware-preemption/kep5690/scenario.yaml")));
    w.pages()->setCurrentWidget(w.timelinePage());
    const ui::ReplayEventsModel* events = w.timelinePage()->eventsModel();
    std::vector<sim::SimTime> times;
    for (int r = 0; r < events->rowCount(); ++r)
        if (events->index(r, ui::ReplayEventsModel::EventColumn).data().toString()
            == QLatin1String("Preempted"))
            if (const auto t = events->index(r, 0).data(ui::ReplayEventsModel::TimeRole).toLongLong();
                times.empty() || times.back() != t)
                times.push_back(t);
    ASSERT_FALSE(times.empty());
    ui::TimelineStrip* strip = w.timelinePage()->strip();
    EXPECT_EQ(strip->preemptions(), times);

    // Each is a triangle in the events' warning tone hanging from the strip's top edge.
    const QImage image = strip->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    const QColor warning = ui::toneColor(ui::Tone::Warning, strip->palette());
    for (sim::SimTime t : times) {
        const QPointF tip = strip->preemptionTip(t);
        const QPoint inside = (QPointF(tip.x(), tip.y() - 3) * dpr).toPoint();
        EXPECT_TRUE(edgeHasColor(image, inside - QPoint(1, 1), inside + QPoint(1, 1), warning)) << t;
    }
}
