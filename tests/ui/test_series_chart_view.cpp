// SPDX-License-Identifier: Apache-2.0
// A chart over a RunSeriesModel draws each series exactly once per sample, also when series
// appear while the run is going (a new pending reason, a node pool added at noon).
#include <cstdlib>
#include <ostream>

#include <QChart>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QValueAxis>

#include <gtest/gtest.h>

#include "core/sim/run_recorder.h"
#include "core/sim/sim_time.h"
#include "ui/charts/series_chart_view.h"
#include "ui/models/run_series_model.h"
#include "ui/models/tone_colors.h"

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

TEST(SeriesChartView, HoverShowsTheNearestSampleOfTheLine)
{
    RunSeriesModel model;
    SeriesChartView view(QStringLiteral("Utilisation"), QStringLiteral("utilization.model/"),
        QStringLiteral("allocated"), true, &model);
    model.append({ sample(0, { { "utilization.model", "H100", 0.25 } }),
        sample(1, { { "utilization.model", "H100", 0.5 } }),
        sample(2, { { "utilization.model", "H100", 0.875 } }) });
    EXPECT_EQ(view.valueText(0, 0.4).toStdString(), "H100 at 0s: 25.0%");
    EXPECT_EQ(view.valueText(0, 0.6).toStdString(), "H100 at 1h: 50.0%");
    EXPECT_EQ(view.valueText(0, 9.0).toStdString(), "H100 at 2h: 87.5%");
    EXPECT_EQ(view.valueText(0, -3.0).toStdString(), "H100 at 0s: 25.0%");
    EXPECT_TRUE(view.valueText(1, 0).isEmpty()); // no such line
}

TEST(SeriesChartView, ExportsTheDataAsShownAndThePicture)
{
    RunSeriesModel model;
    SeriesChartView view(QStringLiteral("Utilisation"), QStringLiteral("utilization.pool/"),
        QStringLiteral("allocated"), true, &model);
    model.append({ sample(0, { { "utilization.pool", "a100", 0.5 }, { "pods", "pending", 3 } }),
        sample(1, { { "utilization.pool", "a100", 0.75 }, { "utilization.pool", "burst, spot", 1 } }) });
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("chart.csv"));
    ASSERT_TRUE(view.exportCsv(csv));
    QFile f(csv);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_EQ(f.readAll().toStdString(), "hours,a100 (%),\"burst, spot (%)\"\n0,50,\n1,75,100\n");

    QString error;
    EXPECT_FALSE(view.exportCsv(dir.filePath(QStringLiteral("missing/x.csv")), &error));
    EXPECT_FALSE(error.isEmpty());

    view.resize(400, 300);
    const QString png = dir.filePath(QStringLiteral("chart.png"));
    ASSERT_TRUE(view.exportImage(png));
    EXPECT_EQ(QImage(png).size(), QSize(400, 300) * view.devicePixelRatio());
}

TEST(SeriesChartView, ThemeFollowsALightOrDarkPalette)
{
    RunSeriesModel model;
    SeriesChartView view(
        QStringLiteral("Pods"), QStringLiteral("pods/"), QStringLiteral("pods"), false, &model);
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::WindowText, Qt::white);
    view.setPalette(dark);
    EXPECT_EQ(view.chart()->theme(), QChart::ChartThemeDark);
    QPalette light;
    light.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
    view.setPalette(light);
    EXPECT_EQ(view.chart()->theme(), QChart::ChartThemeLight);

    if (const char* shots = std::getenv("DRASIM_SCREENSHOT_DIR")) {
        view.setPalette(dark);
        model.append({ sample(0, { { "pods", "pending", 2 }, { "pods", "running", 1 } }),
            sample(1, { { "pods", "pending", 4 }, { "pods", "running", 3 } }) });
        view.resize(500, 320);
        view.exportImage(QString::fromUtf8(shots) + QStringLiteral("/chart-dark.png"));
    }
}

TEST(SeriesChartView, EachLineKeepsItsHueInLightAndDarkThemes)
{
    RunSeriesModel model;
    SeriesChartView view(
        QStringLiteral("Pods"), QStringLiteral("pods/"), QStringLiteral("pods"), false, &model);
    QPalette light;
    light.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    view.setPalette(light);
    model.append(
        { sample(0, { { "pods", "pending", 2 }, { "pods", "running", 1 }, { "pods", "other", 1 } }) });
    ASSERT_EQ(view.lineCount(), 3);
    const auto colour = [&](const char* name) { return line(view, QString::fromUtf8(name))->pen().color(); };
    // Pending is the warning hue and running the good one whatever order they arrive in; a line
    // without a role takes the hue of its position.
    EXPECT_EQ(colour("pending"), drasim::ui::seriesColor(drasim::ui::SeriesHue::Amber, false));
    EXPECT_EQ(colour("running"), drasim::ui::seriesColor(drasim::ui::SeriesHue::Green, false));
    EXPECT_EQ(colour("other"), drasim::ui::seriesColor(drasim::ui::seriesHue(2), false));
    view.setPalette(dark);
    ASSERT_EQ(view.chart()->theme(), QChart::ChartThemeDark);
    EXPECT_EQ(colour("pending"), drasim::ui::seriesColor(drasim::ui::SeriesHue::Amber, true));
    EXPECT_EQ(colour("running"), drasim::ui::seriesColor(drasim::ui::SeriesHue::Green, true));
    EXPECT_EQ(colour("other"), drasim::ui::seriesColor(drasim::ui::seriesHue(2), true));
    view.setPalette(light);
    EXPECT_EQ(colour("pending"), drasim::ui::seriesColor(drasim::ui::SeriesHue::Amber, false));
}

// Every hue is its own colour in each theme, and its light and dark shades differ.
TEST(SeriesChartView, SeriesHuesAreDistinctPerTheme)
{
    for (bool dark : { false, true })
        for (int a = 0; a < drasim::ui::kSeriesHues; ++a) {
            EXPECT_NE(drasim::ui::seriesColor(drasim::ui::seriesHue(a), dark),
                drasim::ui::seriesColor(drasim::ui::seriesHue(a), !dark));
            for (int b = a + 1; b < drasim::ui::kSeriesHues; ++b)
                EXPECT_NE(drasim::ui::seriesColor(drasim::ui::seriesHue(a), dark),
                    drasim::ui::seriesColor(drasim::ui::seriesHue(b), dark));
        }
    EXPECT_EQ(drasim::ui::seriesHue(drasim::ui::kSeriesHues), drasim::ui::seriesHue(0));
}

TEST(SeriesChartView, ExportsAVectorPictureWithTheTitleAndLines)
{
    RunSeriesModel model;
    SeriesChartView view(
        QStringLiteral("Pods over time"), QStringLiteral("pods/"), QStringLiteral("pods"), false, &model);
    model.append({ sample(0, { { "pods", "pending", 2 } }), sample(1, { { "pods", "pending", 4 } }) });
    view.resize(400, 300);
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("chart.svg"));
    QString error;
    ASSERT_TRUE(view.exportImage(svg, &error)) << error.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    EXPECT_TRUE(text.contains("<svg")) << text.left(200).toStdString();
    EXPECT_TRUE(text.contains("<title>Pods over time</title>"));
    EXPECT_TRUE(text.contains("<polyline") || text.contains("<path")); // the line, as vectors
    EXPECT_TRUE(text.contains("viewBox=\"0 0 400 300\""));

    EXPECT_FALSE(view.exportImage(dir.filePath(QStringLiteral("missing/chart.svg")), &error));
    EXPECT_FALSE(error.isEmpty());
}

TEST(SeriesChartView, ZoomKeepsItsWindowWhileSamplesArriveAndResetShowsAll)
{
    RunSeriesModel model;
    SeriesChartView view(
        QStringLiteral("Pods"), QStringLiteral("pods/"), QStringLiteral("pods"), false, &model);
    view.resize(600, 400);
    view.show();
    model.append({ sample(0, { { "pods", "pending", 10 } }), sample(10, { { "pods", "pending", 50 } }) });
    auto* x = qobject_cast<QValueAxis*>(view.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_TRUE(x);
    EXPECT_DOUBLE_EQ(x->max(), 10.0);
    EXPECT_FALSE(view.isZoomed());

    // The left half of the plot area, as a rubber band would select it.
    const QRectF plot = view.chart()->plotArea();
    view.zoomTo(QRectF(plot.left(), plot.top(), plot.width() / 2, plot.height()));
    EXPECT_TRUE(view.isZoomed());
    EXPECT_NEAR(x->max(), 5.0, 0.01);
    // The time axis labels the window shown, at round times within it, as --time reads them.
    const QStringList zoomed = view.timeTickLabels();
    ASSERT_GE(zoomed.size(), 2) << zoomed.join(QLatin1Char(' ')).toStdString();
    for (const QString& label : zoomed) {
        drasim::sim::SimTime t = -1;
        ASSERT_TRUE(drasim::sim::parseDuration(label.toStdString(), t)) << label.toStdString();
        EXPECT_LE(t, 5 * drasim::sim::kHour + drasim::sim::kMinute) << label.toStdString();
    }

    model.append({ sample(20, { { "pods", "pending", 70 } }) });
    EXPECT_NEAR(x->max(), 5.0, 0.01); // new samples do not undo the zoom
    EXPECT_EQ(line(view, QStringLiteral("pending"))->count(), 3);

    view.resetZoom();
    EXPECT_FALSE(view.isZoomed());
    EXPECT_DOUBLE_EQ(x->min(), 0.0);
    EXPECT_DOUBLE_EQ(x->max(), 20.0); // everything, including what came while zoomed
    EXPECT_EQ(view.timeTickLabels().front(), QStringLiteral("0s"));
    // Round steps across the whole run again: the last tick is past the zoomed window.
    drasim::sim::SimTime last = -1;
    ASSERT_TRUE(drasim::sim::parseDuration(view.timeTickLabels().back().toStdString(), last));
    EXPECT_GT(last, 10 * drasim::sim::kHour);
    EXPECT_LE(last, 20 * drasim::sim::kHour);
}

TEST(SeriesChartView, AChartWithoutLinesSaysWhyAndExcludedSeriesStayOut)
{
    RunSeriesModel model;
    SeriesChartView reasons(QStringLiteral("Pending pods by reason"), QStringLiteral("unschedulable.reason/"),
        QStringLiteral("pods"), false, &model);
    reasons.setEmptyText(QStringLiteral("Nothing pending"));
    SeriesChartView pods(
        QStringLiteral("Pods"), QStringLiteral("pods."), QStringLiteral("pods"), false, &model);
    pods.setExcluded({ QStringLiteral("pods.pending.longest_s") });
    EXPECT_EQ(reasons.shownEmptyText(), QString()); // nothing ran yet: nothing to say
    model.append({ sample(0, { { "pods.pending", "", 0 }, { "pods.pending.longest_s", "", 4000 } }),
        sample(1, { { "pods.pending", "", 0 }, { "pods.pending.longest_s", "", 7600 } }) });
    EXPECT_EQ(reasons.shownEmptyText(), QStringLiteral("Nothing pending"));
    EXPECT_EQ(pods.lineCount(), 1); // seconds are no count of pods
    EXPECT_EQ(line(pods, QStringLiteral("pending.longest_s")), nullptr);
    model.append({ sample(2, { { "unschedulable.reason", "gpu", 3 } }) });
    EXPECT_EQ(reasons.shownEmptyText(), QString());
}
