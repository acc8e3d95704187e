// SPDX-License-Identifier: Apache-2.0
// Every chart of the window tells the values under the mouse and exports its data as CSV: the
// dashboard's series, the two runs of Compare and the Plan frontier, each over data built by hand.
#include <QApplication>
#include <QChart>
#include <QFile>
#include <QLineSeries>
#include <QMouseEvent>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

#include "core/sim/run_recorder.h"
#include "ui/charts/compare_chart_view.h"
#include "ui/charts/frontier_chart_view.h"
#include "ui/charts/series_chart_view.h"
#include "ui/models/plan_models.h"
#include "ui/models/run_series_model.h"

using drasim::ui::ChartView;
using drasim::ui::CompareChartView;
using drasim::ui::FrontierChartView;
using drasim::ui::PlanMixesModel;
using drasim::ui::RunSeriesModel;
using drasim::ui::SeriesChartView;

namespace {

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// Where a value of `series` is drawn, in the chart view's viewport coordinates.
QPoint viewportPosition(ChartView& view, const QPointF& value, QAbstractSeries* series)
{
    const QPointF inChart = view.chart()->mapToPosition(value, series);
    return view.mapFromScene(view.chart()->mapToScene(inChart));
}

/// Moves the mouse over the view, no button held, and returns the tooltip then shown.
QString hoverWithMouse(ChartView& view, const QPoint& at)
{
    QMouseEvent move(QEvent::MouseMove, QPointF(at), QPointF(view.viewport()->mapToGlobal(at)), Qt::NoButton,
        Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(view.viewport(), &move);
    return QToolTip::isVisible() ? QToolTip::text() : QString();
}

drasim::compare::AlignedSeries twoRuns(const char* metric)
{
    drasim::compare::AlignedSeries s;
    s.metric = metric;
    s.times = { 0, 3600, 7200 };
    s.values = { { 0.25, 0.5, 0.75 }, { std::nullopt, 1.0, 0.5 } };
    return s;
}

drasim::planner::MixResult mix(std::vector<int> counts, double cost, double worstPending, bool feasible)
{
    drasim::planner::MixResult m;
    m.mix = std::move(counts);
    m.footprint.costUsd = cost;
    m.feasible = feasible;
    m.withinConstraints = true;
    m.spread = { drasim::planner::Spread { worstPending, worstPending, worstPending } };
    return m;
}

std::shared_ptr<drasim::planner::StudyResult> tinyStudy()
{
    auto r = std::make_shared<drasim::planner::StudyResult>();
    r->study = "tiny";
    r->candidates.resize(2);
    r->candidates[0].name = "h100";
    r->candidates[1].name = "l40s";
    drasim::planner::ServiceLevel pending;
    pending.metric = drasim::planner::Metric::Pending;
    pending.limit = 3600;
    r->levels = { pending };
    r->seeds = { 1 };
    drasim::planner::LoadResult today;
    today.load = 1.0;
    today.mixes = { mix({ 0, 2 }, 200000, 7200, false), mix({ 1, 0 }, 373000, 1200, true),
        mix({ 2, 0 }, 746000, 60, true) };
    today.recommended = 1;
    today.frontier = { 1, 2 };
    r->loads = { today };
    return r;
}

} // namespace

TEST(ChartHover, TheDashboardSeriesShowEveryLinesValueAtTheTimeUnderTheMouse)
{
    RunSeriesModel model;
    SeriesChartView view(
        QStringLiteral("Pods"), QStringLiteral("pods/"), QStringLiteral("pods"), false, &model);
    view.resize(500, 320);
    view.show();
    drasim::sim::MetricSample a, b;
    a.time = 0;
    a.points = { { "pods", "pending", 2 }, { "pods", "running", 1 } };
    b.time = 2 * drasim::sim::kHour;
    b.points = { { "pods", "pending", 4 }, { "pods", "running", 3 } };
    model.append({ a, b });

    QLineSeries* pending = qobject_cast<QLineSeries*>(view.chart()->series().value(0));
    ASSERT_TRUE(pending);
    const QPoint over = viewportPosition(view, QPointF(1.9, 3.5), pending);
    EXPECT_EQ(hoverWithMouse(view, over).toStdString(), "pending at 2h: 4\nrunning at 2h: 3");
    // Outside the plot area (the title) there is nothing to tell, and the tooltip goes away.
    EXPECT_TRUE(view.hoverTextAt(QPoint(2, 2)).isEmpty());
    hoverWithMouse(view, QPoint(2, 2));
    EXPECT_TRUE(QTest::qWaitFor([]() { return !QToolTip::isVisible(); }, 5000));
}

TEST(ChartHover, CompareShowsEachRunsValueAndExportsTheAlignedSeries)
{
    CompareChartView view;
    view.resize(500, 320);
    view.show();
    QTemporaryDir dir;
    QString error;
    // Nothing chosen yet: nothing to export, and the user is told so.
    EXPECT_FALSE(view.exportCsv(dir.filePath(QStringLiteral("none.csv")), &error));
    EXPECT_EQ(error.toStdString(), "the chart has no data to export");

    const auto series = twoRuns("utilization.model/H100");
    view.setSeries(&series, { QStringLiteral("baseline"), QStringLiteral("more, nodes") });
    EXPECT_EQ(view.valueText(0, 0.4).toStdString(), "baseline at 0s: 25.0%");
    EXPECT_EQ(view.valueText(1, 0.4).toStdString(), "more, nodes at 1h: 100.0%"); // no sample at 0
    EXPECT_TRUE(view.valueText(2, 0).isEmpty());
    const QPoint over = viewportPosition(view, QPointF(1.1, 50), view.chart()->series().value(0));
    EXPECT_EQ(hoverWithMouse(view, over).toStdString(), "baseline at 1h: 50.0%\nmore, nodes at 1h: 100.0%");

    const QString csv = dir.filePath(QStringLiteral("compare.csv"));
    ASSERT_TRUE(view.exportCsv(csv, &error)) << error.toStdString();
    EXPECT_EQ(
        readAll(csv).toStdString(), "hours,baseline (%),\"more, nodes (%)\"\n0,25,\n1,50,100\n2,75,50\n");
    EXPECT_FALSE(view.exportCsv(dir.filePath(QStringLiteral("missing/compare.csv")), &error));
    EXPECT_FALSE(error.isEmpty());
    const QString svg = dir.filePath(QStringLiteral("compare.svg"));
    ASSERT_TRUE(view.exportImage(svg, &error)) << error.toStdString();
    EXPECT_TRUE(readAll(svg).contains(QStringLiteral("<title>utilization.model/H100</title>")));
}

TEST(ChartHover, TheFrontierNamesTheMixUnderTheMouseAndExportsEveryMix)
{
    auto study = tinyStudy();
    drasim::planner::SeedOutcome seed; // the run the cheapest mix missed on
    seed.seed = 1;
    seed.values = { 7200 };
    study->loads[0].mixes[0].seeds = { seed };
    PlanMixesModel model;
    model.setResult(study, 0);
    FrontierChartView view(&model);
    view.resize(500, 360);
    view.show();
    ASSERT_EQ(view.recommendedCount(), 1);

    QAbstractSeries* recommended = nullptr;
    for (auto* series : view.chart()->series())
        if (series->name() == QLatin1String("recommended"))
            recommended = series;
    ASSERT_NE(recommended, nullptr);
    const QPoint onIt = viewportPosition(view, QPointF(373, 20), recommended);
    EXPECT_EQ(hoverWithMouse(view, onIt).toStdString(),
        view.pointText(1).toStdString() + "\nfrontier: recommended");
    EXPECT_TRUE(view.pointText(1).startsWith(QStringLiteral("h100=1 l40s=0: $373,000")))
        << view.pointText(1).toStdString();
    // The cheapest mix misses the level, yet no mix as cheap beats it: on the frontier, ringed,
    // and hovering it says what it misses.
    EXPECT_EQ(view.frontierCount(), 3);
    EXPECT_EQ(view.frontierMissedCount(), 1);
    const QString cheapest = view.hoverTextAt(viewportPosition(view, QPointF(200, 120), recommended));
    EXPECT_TRUE(cheapest.contains(QStringLiteral("frontier: yes, misses a level"))) << cheapest.toStdString();
    EXPECT_TRUE(cheapest.contains(QStringLiteral("misses longest pending <= 1h by 1h (2h on seed 1)")))
        << cheapest.toStdString();
    // Between markers, far from each: no name.
    EXPECT_TRUE(view.hoverTextAt(viewportPosition(view, QPointF(560, 100), recommended)).isEmpty());

    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("frontier.csv"));
    QString error;
    ASSERT_TRUE(view.exportCsv(csv, &error)) << error.toStdString();
    EXPECT_EQ(readAll(csv).toStdString(),
        "mix,cost (USD),longest pending (min),meets every level,frontier,recommended\n"
        "h100=0 l40s=2,200000,120,no,yes,no\n"
        "h100=1 l40s=0,373000,20,yes,yes,yes\n"
        "h100=2 l40s=0,746000,1,yes,yes,no\n");
    const QString png = dir.filePath(QStringLiteral("frontier.png"));
    ASSERT_TRUE(view.exportImage(png, &error)) << error.toStdString();
    EXPECT_GT(QFile(png).size(), 1000);
}

TEST(FrontierChart, MixesBeyondTheTopAreMarkedAndTheLevelIsDrawn)
{
    auto study = tinyStudy();
    // A mix that missed by days (a run stopped early): it sits on the top edge, marked as beyond it.
    study->loads[0].mixes.push_back(mix({ 0, 1 }, 100000, 16 * 86400.0, false));
    // And one whose run stopped once the level was surely missed: no value to plot.
    study->loads[0].mixes.push_back(mix({ 0, 3 }, 300000, 5000, false));
    study->loads[0].mixes.back().spread[0].known = false;
    PlanMixesModel model;
    model.setResult(study, 0);
    FrontierChartView view(&model);
    view.resize(500, 360);
    view.show();
    EXPECT_EQ(view.clippedCount(), 2);
    EXPECT_EQ(view.missedCount(), 3);
    EXPECT_DOUBLE_EQ(view.levelLine(), 60.0); // longest pending <= 1h, in minutes
    EXPECT_EQ(view.xTitle(), QStringLiteral("cost (thousand USD)"));
    // The waits read as every view writes a duration, the units in the labels: no "(min)", no "120".
    EXPECT_EQ(view.yTitle(), QStringLiteral("longest pending"));
    const QStringList waits = view.yTimeLabels();
    EXPECT_EQ(waits.value(0), QStringLiteral("0s")) << waits.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(waits.contains(QStringLiteral("1h"))) << waits.join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(waits.value(waits.size() - 1), QStringLiteral("2h"))
        << waits.join(QLatin1Char(' ')).toStdString();
    QStringList distinct = waits;
    EXPECT_EQ(distinct.removeDuplicates(), 0);
    EXPECT_EQ(view.xLabelFormat(), QStringLiteral("%.0f"));

    // Hovering the mark of the mix that missed by days gives its real value and says it is not
    // where it is drawn.
    QAbstractSeries* clipped = nullptr;
    for (auto* series : view.chart()->series())
        if (series->name().startsWith(QLatin1String("beyond the top")))
            clipped = series;
    ASSERT_NE(clipped, nullptr);
    const QString onTop = view.hoverTextAt(viewportPosition(view, QPointF(100, 120), clipped));
    EXPECT_TRUE(onTop.startsWith(QStringLiteral("beyond the chart's top: h100=0 l40s=1: $100,000")))
        << onTop.toStdString();
    EXPECT_TRUE(onTop.contains(QStringLiteral("16d"))) << onTop.toStdString();
    // A mix drawn where its value is says only that.
    EXPECT_FALSE(view.pointText(1).startsWith(QStringLiteral("beyond")));

    // A study that produced nothing: no level, no clipped mark, and ticks that do not repeat.
    PlanMixesModel empty;
    FrontierChartView nothing(&empty);
    nothing.resize(500, 360);
    nothing.show();
    EXPECT_EQ(nothing.clippedCount(), 0);
    EXPECT_EQ(nothing.levelLine(), -1);
    EXPECT_EQ(nothing.xLabelFormat(), QStringLiteral("%g"));
    EXPECT_EQ(nothing.chartTitle(), QStringLiteral("Nothing to show: the study evaluated no mix"));
    EXPECT_EQ(view.chartTitle(), QStringLiteral("Cost against the main service level (worst seed)"));
}

TEST(FrontierChart, AShareLevelKeepsAPercentageAxis)
{
    auto study = tinyStudy();
    study->levels[0].metric = drasim::planner::Metric::NeverScheduled;
    study->levels[0].limit = 0.01;
    for (auto& m : study->loads[0].mixes)
        m.spread[0] = drasim::planner::Spread { 0.005, 0.005, 0.005 };
    PlanMixesModel model;
    model.setResult(study, 0);
    FrontierChartView view(&model);
    view.resize(500, 360);
    view.show();
    EXPECT_TRUE(view.yTimeLabels().isEmpty());
    EXPECT_TRUE(view.yTitle().endsWith(QStringLiteral("(%)"))) << view.yTitle().toStdString();
    EXPECT_DOUBLE_EQ(view.levelLine(), 1.0);
    // Back to a wait: the time axis returns with its labels.
    model.setResult(tinyStudy(), 0);
    EXPECT_EQ(view.yTitle(), QStringLiteral("longest pending"));
    EXPECT_TRUE(view.yTimeLabels().contains(QStringLiteral("1h")));
}

TEST(PlanChart, ALongLevelNameIsCutToThePlotsHeightAndWholeWhenItFits)
{
    auto study = tinyStudy();
    study->levels[0].metric = drasim::planner::Metric::Wait;
    study->levels[0].workload = "distributed-training-of-the-large-language-model-on-h100";
    PlanMixesModel model;
    model.setResult(study, 0);
    FrontierChartView view(&model);
    view.resize(520, 260);
    view.show();
    QApplication::processEvents();
    const QString whole = view.yTitleWhole();
    ASSERT_TRUE(whole.contains(QStringLiteral("distributed-training-of-the-large-language-model-on-h100")))
        << whole.toStdString();
    const QChart* chart = view.chart();
    const QFontMetrics metrics(chart->axes(Qt::Vertical).first()->titleFont());
    // Too long for 260 pixels: cut in its middle, both ends kept, within the plot's height.
    EXPECT_NE(view.yTitle(), whole);
    EXPECT_TRUE(view.yTitle().contains(QChar(0x2026))) << view.yTitle().toStdString();
    EXPECT_TRUE(view.yTitle().startsWith(whole.left(4))) << view.yTitle().toStdString();
    EXPECT_TRUE(view.yTitle().endsWith(whole.right(4))) << view.yTitle().toStdString();
    EXPECT_LE(metrics.horizontalAdvance(view.yTitle()), chart->plotArea().height());
    // A taller chart has room for all of it.
    view.resize(520, 1000);
    QApplication::processEvents();
    EXPECT_EQ(view.yTitle(), whole);
}
