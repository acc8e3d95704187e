// SPDX-License-Identifier: Apache-2.0
// The Timeline and Topology tabs end to end, offscreen: the default scenario runs in the
// background, the timeline scrubs its pod events, and the topology shows who holds which device
// at that time and how far apart a claim's devices are.
#include <cstdlib>

#include <QApplication>
#include <QFontInfo>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include "core/topology/topology.h"
#include "tests/ui/replayed_window.h"
#include "tests/ui/source_path.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/time_cursor.h"
#include "ui/pages/simulation_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/cluster_grid_view.h"
#include "ui/widgets/holder_colors.h"
#include "ui/widgets/node_graph_view.h"
#include "ui/widgets/timeline_strip.h"

using namespace drasim;
using drasim::ui::MainWindow;

TEST(TopologyTimeline, ScrubbedTimeShowsWhoHoldsEachDeviceAndAClaimsDistance)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TimelinePage* timeline = w.timelinePage();
    ui::TopologyPage* topology = w.topologyPage();
    ui::TimeCursor* cursor = timeline->cursor();
    ASSERT_TRUE(cursor->replay());
    EXPECT_EQ(cursor->endTime(), sim::kDay);
    ASSERT_TRUE(topology->cluster());
    EXPECT_EQ(topology->cluster()->nodes().size(), 10u); // 4 DGX H100 + 6 L40S servers

    // Scrub to noon; find, straight from the recorded events, a multi-GPU binding on an H100 node
    // that is still running then.
    cursor->setTime(12 * sim::kHour);
    const auto& events = cursor->replay()->events();
    const ui::ReplayEvent* binding = nullptr;
    for (const auto& e : events) {
        if (e.time > cursor->time())
            break;
        if (e.type == sim::PodEventType::Scheduled && e.node.rfind("h100-", 0) == 0 && e.devices.size() >= 2)
            binding = &e;
        else if (binding && e.pod == binding->pod && e.type != sim::PodEventType::Scheduled)
            binding = nullptr; // it ended before noon
    }
    ASSERT_NE(binding, nullptr) << "no multi-GPU pod runs on an H100 node at noon";
    const QString node = QString::fromStdString(binding->node);
    EXPECT_GT(topology->gridView()->utilisationOf(node), 0.0);

    // The node's graph colours that pod's GPUs with the pod's colour.
    topology->openNode(node);
    ui::NodeGraphView* graph = topology->nodeView();
    ASSERT_EQ(graph->node(), node);
    const auto* nodeDevices = topology->cluster()->node(binding->node);
    ASSERT_TRUE(nodeDevices && nodeDevices->topology);
    for (const auto& [claim, key] : binding->devices) {
        int component = -1;
        for (const auto& d : nodeDevices->devices)
            if (d.key == key)
                component = d.component;
        ASSERT_GE(component, 0) << key.device;
        EXPECT_EQ(graph->holderOf(component), QString::fromStdString(binding->pod));
        EXPECT_EQ(graph->colorOf(component),
            ui::holder_colors::forHolder(QString::fromStdString(binding->pod), graph->palette()));
        EXPECT_TRUE(graph->componentRect(component).isValid());
        EXPECT_EQ(graph->componentAt(graph->componentRect(component).center()), component);
        EXPECT_TRUE(graph->toolTipFor(component).contains(QString::fromStdString(key.device)));
    }

    // Selecting its claim lights up exactly its devices; every H100 pair in a DGX is NV18 apart
    // (all eight GPUs hang off the NVSwitch fabric).
    const QString claim = QString::fromStdString(binding->devices.front().first);
    ASSERT_TRUE(topology->selectClaim(claim));
    const auto& placement = topology->claimPlacement();
    EXPECT_EQ(placement.node, binding->node);
    EXPECT_EQ(graph->highlighted(), placement.components);
    size_t claimDevices = 0;
    for (const auto& [c, key] : binding->devices)
        claimDevices += c == claim.toStdString() ? 1 : 0;
    EXPECT_EQ(placement.components.size(), claimDevices);
    EXPECT_EQ(placement.quality.worst.label(), "NV18");
    for (const auto& [a, b, label] : placement.pairs) {
        EXPECT_EQ(label, nodeDevices->topology->distance(a, b).label());
        EXPECT_EQ(label, "NV18");
    }
    EXPECT_TRUE(topology->claimText().contains(QStringLiteral("NV18")));
    w.pages()->setCurrentWidget(topology);
    saveWindowShot(w, "topology.png");

    // After the pod ends its GPUs are free again and the claim holds nothing.
    sim::SimTime ended = -1;
    for (const auto& e : events)
        if (e.pod == binding->pod && e.time > binding->time && e.type != sim::PodEventType::Scheduled) {
            ended = e.time;
            break;
        }
    if (ended >= 0) {
        cursor->setTime(ended);
        EXPECT_FALSE(topology->selectClaim(claim));
        EXPECT_TRUE(graph->highlighted().empty());
    }
}

TEST(TopologyTimeline, ScrubberStepsPlaysAndJumpsBetweenEvents)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TimelinePage* timeline = w.timelinePage();
    ui::TimeCursor* cursor = timeline->cursor();
    w.pages()->setCurrentWidget(timeline);
    auto replay = cursor->replay();
    ASSERT_TRUE(replay);
    ASSERT_GT(replay->events().size(), 100u);

    cursor->setTime(6 * sim::kHour);
    timeline->nextEvent();
    EXPECT_EQ(cursor->time(), replay->nextEventTime(6 * sim::kHour));
    const sim::SimTime at = cursor->time();
    timeline->previousEvent();
    EXPECT_LT(cursor->time(), at);
    EXPECT_EQ(cursor->time(), replay->previousEventTime(at));

    cursor->setTime(6 * sim::kHour);
    timeline->step(+1);
    EXPECT_EQ(cursor->time(), 6 * sim::kHour + 5 * sim::kMinute); // the default step
    timeline->step(-1);
    timeline->step(-1);
    EXPECT_EQ(cursor->time(), 6 * sim::kHour - 5 * sim::kMinute);

    // Playing moves time forward on the UI thread's timer; pausing stops it.
    QSignalSpy moved(cursor, &ui::TimeCursor::timeChanged);
    timeline->play();
    EXPECT_TRUE(timeline->isPlaying());
    ASSERT_TRUE(moved.wait(2000));
    timeline->pause();
    EXPECT_FALSE(timeline->isPlaying());
    const sim::SimTime paused = cursor->time();
    EXPECT_GT(paused, 6 * sim::kHour - 5 * sim::kMinute);
    QTest::qWait(300);
    EXPECT_EQ(cursor->time(), paused);

    // Clicking the run's outline moves there.
    ui::TimelineStrip* strip = timeline->strip();
    QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(strip->width() / 2, strip->height() / 2));
    EXPECT_EQ(cursor->time(), strip->timeAt(strip->width() / 2));
    EXPECT_NEAR(double(cursor->time()), double(sim::kDay) / 2, double(sim::kHour));

    // The events table marks everything up to the cursor.
    EXPECT_EQ(timeline->eventsModel()->rowAt(paused), int(replay->eventsUpTo(paused)) - 1);
    cursor->setTime(14 * sim::kHour);
    w.pages()->setCurrentWidget(timeline);
    saveWindowShot(w, "timeline.png");
}

TEST(TopologyTimeline, GraphTextReadsAtWindowSizeAndTheDevicesColumnShows)
{
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TopologyPage* topology = w.topologyPage();
    w.pages()->setCurrentWidget(topology);
    ASSERT_GT(topology->claimsList()->topLevelItemCount(), 0);
    topology->openNode(QStringLiteral("h100-0"));
    QApplication::processEvents();
    ui::NodeGraphView* graph = topology->nodeView();
    ASSERT_EQ(graph->node(), QStringLiteral("h100-0"));
    // A DGX graph is wider than the view and scaled down to fit; its labels stay near the
    // widget's font size.
    EXPECT_GE(graph->smallTextPixels(), 0.7 * QFontInfo(graph->font()).pixelSize());

    // Every column fits in the list: nothing scrolls sideways, the Devices count is whole, and a
    // shortened claim name keeps its full text in the tooltip.
    QTreeWidget* claims = topology->claimsList();
    QHeaderView* header = claims->header();
    EXPECT_LE(header->sectionViewportPosition(3) + header->sectionSize(3), claims->viewport()->width());
    for (int i = 0; i < claims->topLevelItemCount(); ++i)
        EXPECT_GE(header->sectionSize(3),
            claims->fontMetrics().horizontalAdvance(claims->topLevelItem(i)->text(3)));
    EXPECT_FALSE(claims->horizontalScrollBar()->isVisible());
    QTreeWidgetItem* first = claims->topLevelItem(0);
    EXPECT_TRUE(first->toolTip(0).endsWith(first->text(0)));
}
