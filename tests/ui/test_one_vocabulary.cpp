// SPDX-License-Identifier: Apache-2.0
// One vocabulary across the views, offscreen, on the default scenario: devices are named as their
// ResourceSlices publish them ("gpu-0", never the topology's "gpu0"), and node tiles count each
// DeviceClass apart, so a DGX whose eight GPUs are all held reads as full however many NICs idle.
#include <string>
#include <vector>

#include <QSignalSpy>
#include <QTabWidget>

#include <gtest/gtest.h>

#include "tests/ui/replayed_window.h"
#include "tests/ui/source_path.h"
#include "ui/jobs/simulation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/time_cursor.h"
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
}
