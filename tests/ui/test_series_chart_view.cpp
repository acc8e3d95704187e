// SPDX-License-Identifier: Apache-2.0
// A chart over a RunSeriesModel draws each series exactly once per sample, also when series
// appear while the run is going (a new pending reason, a node pool added at noon).
#include <ostream>

#include <QChart>
#include <QLineSeries>

#include <gtest/gtest.h>

#include "core/sim/run_recorder.h"
#include "ui/charts/series_chart_view.h"
#include "ui/models/run_series_model.h"

using drasim::sim::kHour;
using drasim::sim::MetricSample;
using drasim::sim::SeriesPoint;
using drasim::ui::RunSeriesModel;
using drasim::ui::SeriesChartView;

// Readable failure messages for point lists.
void PrintTo(const QPointF& p, std::ostream* os)
{
    *os << '(' << p.x() << ", " << p.y() << ')';
}

namespace {

MetricSample sample(int hour, std::vector<SeriesPoint> points)
{
    MetricSample s;
    s.time = hour * kHour;
    s.points = std::move(points);
    return s;
}

QLineSeries* line(SeriesChartView& view, const QString& name)
{
    for (auto* s : view.chart()->series())
        if (s->name() == name)
            return qobject_cast<QLineSeries*>(s);
    return nullptr;
}

} // namespace

TEST(SeriesChartView, SeriesAppearingMidRunDoNotRedrawEarlierLines)
{
    RunSeriesModel model;
    SeriesChartView view(QStringLiteral("Pending"), QStringLiteral("unschedulable.reason/"),
        QStringLiteral("pods"), false, &model);
    model.append({ sample(0, { { "unschedulable.reason", "cpu", 1 } }),
        sample(1, { { "unschedulable.reason", "cpu", 2 } }) });
    // A second reason shows up at hour 2, in its own batch and together with the first.
    model.append(
        { sample(2, { { "unschedulable.reason", "cpu", 3 }, { "unschedulable.reason", "gpu", 5 } }) });
    model.append(
        { sample(3, { { "unschedulable.reason", "cpu", 4 }, { "unschedulable.reason", "gpu", 6 } }) });

    ASSERT_EQ(view.lineCount(), 2);
    QLineSeries* cpu = line(view, QStringLiteral("cpu"));
    QLineSeries* gpu = line(view, QStringLiteral("gpu"));
    ASSERT_TRUE(cpu && gpu);
    const QList<QPointF> expectedCpu { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 } };
    EXPECT_EQ(cpu->points(), expectedCpu);
    const QList<QPointF> expectedGpu { { 2, 5 }, { 3, 6 } };
    EXPECT_EQ(gpu->points(), expectedGpu);
}

TEST(SeriesChartView, AViewCreatedAfterSamplesShowsTheirHistoryOnce)
{
    RunSeriesModel model;
    model.append({ sample(0, { { "pods", "pending", 2 }, { "pods", "running", 1 } }),
        sample(1, { { "pods", "pending", 0 }, { "pods", "running", 3 } }) });
    SeriesChartView view(
        QStringLiteral("Pods"), QStringLiteral("pods/"), QStringLiteral("pods"), false, &model);
    ASSERT_EQ(view.lineCount(), 2);
    EXPECT_EQ(line(view, QStringLiteral("pending"))->count(), 2);
    EXPECT_EQ(line(view, QStringLiteral("running"))->count(), 2);
    model.append({ sample(2, { { "pods", "pending", 1 }, { "pods", "running", 2 } }) });
    EXPECT_EQ(line(view, QStringLiteral("pending"))->count(), 3);
    EXPECT_EQ(line(view, QStringLiteral("running"))->count(), 3);

    // A new run starts from nothing.
    model.clear();
    EXPECT_EQ(view.lineCount(), 0);
    model.append({ sample(0, { { "pods", "pending", 7 } }) });
    ASSERT_EQ(view.lineCount(), 1);
    EXPECT_EQ(line(view, QStringLiteral("pending"))->points(), QList<QPointF> { QPointF(0, 7) });
}
