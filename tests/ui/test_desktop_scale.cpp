// SPDX-License-Identifier: Apache-2.0
// The window with the Alibaba trace's 1,213 nodes and 150 days: a Topology grid that scrolls to
// every node, filters, groups and draws a heat map; timeline ticks in days that never overlap;
// a Pods table that says what its emptiness at the end of the run means and fits its columns to
// the rows of a later time.
#include <algorithm>

#include <QApplication>
#include <QComboBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>

#include <gtest/gtest.h>

#include "tests/ui/replayed_window.h"
#include "tests/ui/source_path.h"
#include "ui/mainwindow.h"
#include "ui/models/time_cursor.h"
#include "ui/pages/pods_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/cluster_grid_view.h"
#include "ui/widgets/holder_colors.h"
#include "ui/widgets/node_filter_bar.h"
#include "ui/widgets/timeline_strip.h"

using namespace drasim;
using drasim::ui::ClusterGridView;
using drasim::ui::MainWindow;

namespace {

bool openAlibaba(MainWindow& w)
{
    QSignalSpy cluster(w.topologyPage(), &ui::TopologyPage::clusterReady);
    if (!openAndReplay(w, sourcePath("scenarios/sim/alibaba-default/scenario.yaml")))
        return false;
    return w.topologyPage()->cluster() || cluster.wait(60000);
}

void choose(QComboBox* box, const QString& text)
{
    const int at = box->findText(text);
    ASSERT_GE(at, 0) << text.toStdString();
    box->setCurrentIndex(at);
}

} // namespace

TEST(DesktopScale, TopologyHeatMapScrollsToEveryNodeFiltersAndGroups)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAlibaba(w));
    ui::TopologyPage* page = w.topologyPage();
    w.pages()->setCurrentWidget(page);
    w.timelinePage()->cursor()->setTime(60 * sim::kDay);
    QApplication::processEvents();
    ClusterGridView* grid = page->gridView();
    ASSERT_EQ(grid->tilesModel()->rowCount(), 1213);
    EXPECT_EQ(grid->mode(), ClusterGridView::Mode::HeatMap);
    EXPECT_EQ(page->filterBar()->countLabel(), QStringLiteral("1,213 nodes"));

    // Every node has a cell inside the grid, and the scroll area reaches the last one.
    const QRect last = grid->tileRect(1212);
    ASSERT_FALSE(last.isNull());
    EXPECT_LE(last.bottom(), grid->height());
    EXPECT_GT(page->gridScroll()->verticalScrollBar()->maximum(), 0);
    const QString lastNode = grid->nodeAt(last.center());
    page->openNode(lastNode);
    const int top = page->gridScroll()->verticalScrollBar()->value();
    EXPECT_GT(top, 0);
    EXPECT_GE(last.top(), top);
    EXPECT_LE(last.bottom(), top + page->gridScroll()->viewport()->height());

    // A cell is painted in the colour of its node's use.
    int busiest = 0;
    for (int i = 0; i < grid->filter()->rowCount(); ++i)
        if (grid->filter()->tileAt(i).use() > grid->filter()->tileAt(busiest).use())
            busiest = i;
    const double use = grid->filter()->tileAt(busiest).use();
    ASSERT_GT(use, 0.0) << "nothing held at day 60";
    const QImage image = grid->grab().toImage();
    EXPECT_EQ(image.pixelColor(grid->tileRect(busiest).center()).rgb(),
        ui::holder_colors::utilisation(use, grid->palette()).rgb());

    // Filter by a model: only nodes with its devices; the count says how many of all.
    ui::NodeFilterBar* bar = page->filterBar();
    int a10 = 0;
    for (const auto& node : page->cluster()->nodes())
        a10 += std::count(node.models.begin(), node.models.end(), "A10") > 0 ? 1 : 0;
    ASSERT_GT(a10, 0);
    choose(bar->modelBox(), QStringLiteral("A10"));
    EXPECT_EQ(grid->filter()->rowCount(), a10);
    EXPECT_EQ(bar->countLabel(), QStringLiteral("%1 of 1,213 nodes").arg(a10));
    bar->modelBox()->setCurrentIndex(0);

    // Grouped by model: one heading per model, its nodes under it.
    choose(bar->groupBox(), QStringLiteral("by model"));
    const QStringList groups = grid->groupTitles();
    EXPECT_EQ(groups.size(), grid->tilesModel()->models().size());
    ASSERT_FALSE(groups.isEmpty());
    EXPECT_TRUE(groups.front().startsWith(QStringLiteral("A10 · %1 nodes").arg(a10)))
        << groups.front().toStdString();
    saveWindowShot(w, "scale-topology-heatmap.png");

    // Tiles wide enough for every name.
    choose(bar->modeBox(), QStringLiteral("tiles"));
    QFont bold = grid->font();
    bold.setBold(true);
    const QFontMetrics names(bold);
    for (int i = 0; i < grid->filter()->rowCount(); i += 97)
        EXPECT_GE(grid->tileRect(i).width() - 16, names.horizontalAdvance(grid->filter()->tileAt(i).name))
            << grid->filter()->tileAt(i).name.toStdString();
}

TEST(DesktopScale, TimelineTicksOfA150DayRunAreDaysThatDoNotOverlap)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAlibaba(w));
    w.pages()->setCurrentWidget(w.timelinePage());
    QApplication::processEvents();
    ui::TimelineStrip* strip = w.timelinePage()->strip();
    const auto ticks = strip->ticks();
    ASSERT_GE(ticks.size(), 5u);
    const double perMs = (strip->width() - 16.0) / double(150 * sim::kDay);
    for (size_t i = 1; i < ticks.size(); ++i) {
        EXPECT_TRUE(ticks[i].label.endsWith(QLatin1Char('d'))) << ticks[i].label.toStdString();
        EXPECT_GE(double(ticks[i].time - ticks[i - 1].time) * perMs, strip->tickLabelWidth());
    }
    const QFontMetrics fm(strip->font());
    EXPECT_GT(strip->tickLabelWidth(), fm.horizontalAdvance(QStringLiteral("150d")) * 0.85);
}

TEST(DesktopScale, PodsTableSaysWhatEmptyMeansAndFitsLaterRows)
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ASSERT_TRUE(openAlibaba(w));
    ui::PodsPage* pods = w.podsPage();
    w.pages()->setCurrentWidget(pods);
    QApplication::processEvents();
    ui::EmptyTextTreeView* table = pods->podsView();
    ASSERT_EQ(table->model()->rowCount(), 0);
    EXPECT_EQ(table->shownText(), QStringLiteral("8,152 pods succeeded; none running or pending at 150d."));

    // Day 125: rows again, each column as wide as its text.
    w.timelinePage()->cursor()->setTime(125 * sim::kDay);
    QApplication::processEvents();
    const int rows = table->model()->rowCount();
    ASSERT_GT(rows, 0);
    EXPECT_TRUE(table->shownText().isEmpty());
    const QFontMetrics fm(table->font());
    for (int c = 0; c + 1 < table->model()->columnCount(); ++c)
        for (int r = 0; r < std::min(rows, 40); ++r) {
            const QString text = table->model()->index(r, c).data().toString();
            EXPECT_GE(table->columnWidth(c), fm.horizontalAdvance(text)) << c << " " << text.toStdString();
        }
    pods->filter()->setText(QStringLiteral("no-such-pod"));
    EXPECT_EQ(table->shownText(), QStringLiteral("No pod matches “no-such-pod”."));
}
