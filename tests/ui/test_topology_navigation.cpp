// SPDX-License-Identifier: Apache-2.0
// Finding one's way in the Topology grid, offscreen on the default scenario: the legend stays in
// sight while the nodes scroll, the node opened in a heat map is ringed so it can be found among
// thousands, the filters chosen survive the scenario being opened again, and the node graph
// writes device names whole.
#include <cstdlib>

#include <QApplication>
#include <QComboBox>
#include <QFontMetricsF>
#include <QImage>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>

#include <gtest/gtest.h>

#include "core/sim/sim_time.h"
#include "tests/ui/pixel_probe.h"
#include "tests/ui/replayed_window.h"
#include "tests/ui/source_path.h"
#include "ui/mainwindow.h"
#include "ui/models/time_cursor.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/cluster_grid_view.h"
#include "ui/widgets/node_filter_bar.h"
#include "ui/widgets/node_graph_view.h"
#include "ui/widgets/node_legend.h"

using namespace drasim;
using drasim::ui::MainWindow;

namespace topology_navigation {

using ui::testing::hasColorNear;

} // namespace topology_navigation

TEST(TopologyNavigation, TheLegendStaysInSightWhileTheNodesScroll)
{
    MainWindow w;
    w.resize(1200, 700); // ten tiles do not fit: the grid scrolls
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TopologyPage* page = w.topologyPage();
    w.pages()->setCurrentWidget(page);
    QApplication::processEvents();
    ui::NodeLegend* legend = page->legend();
    ASSERT_TRUE(legend->isVisible());
    EXPECT_FALSE(page->gridScroll()->isAncestorOf(legend)) << "the legend scrolls with the nodes";
    QScrollBar* bar = page->gridScroll()->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0) << "the grid does not scroll at this size";
    const QPoint before = legend->mapTo(page, QPoint(0, 0));
    bar->setValue(bar->maximum());
    QApplication::processEvents();
    EXPECT_EQ(legend->mapTo(page, QPoint(0, 0)), before);
    EXPECT_GE(legend->height(), legend->sizeHint().height());
    // It still says what the looks mean, in its tooltip too.
    EXPECT_TRUE(legend->toolTip().contains(QLatin1String("<b>Down</b>")));
}

TEST(TopologyNavigation, TheNodeOpenedInAHeatMapIsRingedBeyondItsCell)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TopologyPage* page = w.topologyPage();
    w.pages()->setCurrentWidget(page);
    ui::NodeFilterBar* bar = page->filterBar();
    bar->modeBox()->setCurrentIndex(bar->modeBox()->findData(int(ui::ClusterGridView::Mode::HeatMap)));
    ui::ClusterGridView* grid = page->gridView();
    ASSERT_EQ(grid->mode(), ui::ClusterGridView::Mode::HeatMap);
    page->openNode(QStringLiteral("l40s-2"));
    QApplication::processEvents();
    const QColor highlight = grid->palette().color(QPalette::Highlight);
    const QImage image = grid->grab().toImage();
    if (const char* dir = std::getenv("DRASIM_SCREENSHOT_DIR"))
        image.save(QString::fromUtf8(dir) + QStringLiteral("/heat-map-ring.png"));
    // Left of the opened cell, in the gap between cells, the ring shows; beside another it does not.
    const QRect opened = grid->rectOf(QStringLiteral("l40s-2"));
    ASSERT_FALSE(opened.isNull());
    EXPECT_TRUE(topology_navigation::hasColorNear(
        image, QRect(opened.left() - 4, opened.center().y(), 2, 1), highlight));
    EXPECT_TRUE(topology_navigation::hasColorNear(
        image, QRect(opened.center().x(), opened.bottom() + 3, 1, 2), highlight));
    const QRect other = grid->rectOf(QStringLiteral("h100-0"));
    ASSERT_FALSE(other.isNull());
    EXPECT_FALSE(topology_navigation::hasColorNear(
        image, QRect(other.left() - 4, other.center().y(), 2, 1), highlight));
}

TEST(TopologyNavigation, TheFiltersChosenSurviveTheScenarioOpenedAgain)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TopologyPage* page = w.topologyPage();
    ui::NodeFilterBar* bar = page->filterBar();
    bar->poolBox()->setCurrentIndex(bar->poolBox()->findData(QStringLiteral("l40s")));
    bar->sortBox()->setCurrentIndex(bar->sortBox()->findData(int(ui::NodeTilesFilter::SortBy::Use)));
    bar->groupBox()->setCurrentIndex(bar->groupBox()->findData(int(ui::NodeTilesFilter::GroupBy::Pool)));
    ASSERT_EQ(page->gridView()->filter()->rowCount(), 6);
    const QString counted = bar->countLabel();
    EXPECT_EQ(counted, QStringLiteral("6 of 10 nodes"));

    ASSERT_TRUE(openAndReplay(w)); // File › Open of the same scenario, or Reload
    const ui::NodeTilesFilter* filter = page->gridView()->filter();
    EXPECT_EQ(bar->poolBox()->currentData().toString(), QStringLiteral("l40s"));
    EXPECT_EQ(filter->pool(), QStringLiteral("l40s"));
    EXPECT_EQ(filter->sortBy(), ui::NodeTilesFilter::SortBy::Use);
    EXPECT_EQ(filter->groupBy(), ui::NodeTilesFilter::GroupBy::Pool);
    EXPECT_EQ(bar->countLabel(), counted);

    // A scenario without that pool (three H100 nodes of one pool) shows all of its nodes, not none.
    ASSERT_TRUE(openAndReplay(w, sourcePath("scenarios/plan/inference-slo/scenario.yaml")));
    EXPECT_TRUE(filter->pool().isEmpty());
    EXPECT_EQ(filter->rowCount(), 3);
    EXPECT_EQ(filter->sortBy(), ui::NodeTilesFilter::SortBy::Use);
}

TEST(TopologyNavigation, TheNodeGraphShowsEveryDeviceNameWhole)
{
    MainWindow w;
    w.resize(1280, 800); // the README's window: the graph is wide and short in its pane
    w.show();
    ASSERT_TRUE(openAndReplay(w));
    ui::TopologyPage* page = w.topologyPage();
    w.pages()->setCurrentWidget(page);
    page->openNode(QStringLiteral("h100-0"));
    QApplication::processEvents();
    const ui::NodeDevices* node = page->cluster()->node("h100-0");
    ASSERT_NE(node, nullptr);
    int wrapped = 0;
    for (const auto& d : node->devices) {
        const QStringList lines = page->nodeView()->deviceLabelLines(d.component);
        ASSERT_FALSE(lines.isEmpty()) << d.key.device;
        // Nothing elided: the lines put together are the name the ResourceSlice publishes.
        EXPECT_EQ(lines.join(QString()), QString::fromStdString(d.key.device));
        wrapped += lines.size() > 1 ? 1 : 0;
    }
    EXPECT_GT(wrapped, 0) << "the NICs' PCI names (pci-0000-18-00-0) take two lines";
}

TEST(TopologyNavigation, ANodeTileCountsEveryDeviceClassWhole)
{
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QSignalSpy ready(w.topologyPage(), &ui::TopologyPage::clusterReady);
    w.openPaths({ sourcePath("scenarios/learn/06-gpu-nic-same-pcie-root") });
    ASSERT_TRUE(ready.wait(60000));
    w.pages()->setCurrentWidget(w.topologyPage());
    QApplication::processEvents();
    ui::ClusterGridView* grid = w.topologyPage()->gridView();
    QFont small = grid->font();
    small.setPointSizeF(grid->font().pointSizeF() * 0.85);
    const QFontMetricsF fm(small);
    // A DGX read from its slices has GPUs and NICs, two classes: both counts show, none cut.
    const QString counts = grid->countsText(QStringLiteral("h100-0"));
    EXPECT_TRUE(counts.contains(QStringLiteral(" · "))) << counts.toStdString();
    const QRect tile = grid->rectOf(QStringLiteral("h100-0"));
    ASSERT_FALSE(tile.isNull());
    EXPECT_LE(fm.horizontalAdvance(counts), tile.width() - 16) << counts.toStdString();
}
