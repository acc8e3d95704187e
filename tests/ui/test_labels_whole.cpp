// SPDX-License-Identifier: Apache-2.0
// Labels are shown whole: chart legends (device model names are long, and a legend in one row
// under a narrow chart cut them to "MT2892 Family [Con…"), table columns sized from a sample of
// rows, the allocation inspector's headers before any trace; and an empty page says why it is.
#include <QChart>
#include <QCoreApplication>
#include <QFile>
#include <QFontMetrics>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLegend>
#include <QLineSeries>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include "ui/charts/chart_view.h"
#include "ui/document/document.h"
#include "ui/jobs/allocation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/pods_model.h"
#include "ui/models/trace_steps_model.h"
#include "ui/pages/inspector_page.h"
#include "ui/pages/pods_page.h"
#include "ui/widgets/column_widths.h"

namespace {

const QStringList kModels { QStringLiteral("MT2892 Family [ConnectX-6 Dx]"),
    QStringLiteral("MT2910 Family [ConnectX-7]"), QStringLiteral("NVIDIA H100 80GB HBM3"),
    QStringLiteral("NVIDIA L40S") };

/// A chart of one line per name, shown at a width, its layout settled.
std::unique_ptr<drasim::ui::ChartView> showChart(const QStringList& names, int width)
{
    auto view = std::make_unique<drasim::ui::ChartView>();
    auto* chart = new QChart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    view->setChart(chart);
    view->resize(width, 300);
    view->show();
    for (const QString& name : names) {
        auto* line = new QLineSeries(chart);
        line->append(0, 1);
        line->append(1, 2);
        line->setName(name);
        chart->addSeries(line); // after show: the legend is placed again as series arrive
    }
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    return view;
}

/// The text the legend draws for each label (as laid out, possibly shortened).
QStringList legendTexts(drasim::ui::ChartView& view)
{
    QStringList texts;
    for (QGraphicsItem* item : view.scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            text && text->isVisible() && text->parentItem() && text->parentItem() != view.chart())
            texts << text->toPlainText();
    return texts;
}

} // namespace

TEST(ChartLegend, LongModelNamesAreNotCutShortInANarrowChart)
{
    auto view = showChart(kModels, 620); // a dashboard chart in a 1280-pixel window
    const QStringList texts = legendTexts(*view);
    for (const QString& model : kModels)
        EXPECT_TRUE(texts.contains(model))
            << model.toStdString() << " drawn as: " << texts.join(QStringLiteral(" | ")).toStdString();
    // Under the plot, inside the chart.
    const QRectF legend = view->chart()->legend()->geometry();
    EXPECT_GE(legend.top(), view->chart()->plotArea().bottom());
    EXPECT_LE(legend.bottom(), view->chart()->size().height());
    // A wide view needs one row again: the legend goes back to its place and the plot grows.
    const qreal plotHeight = view->chart()->plotArea().height();
    view->resize(1600, 300);
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    EXPECT_TRUE(view->chart()->legend()->isAttachedToChart());
    EXPECT_GT(view->chart()->plotArea().height(), plotHeight);
    for (const QString& model : kModels)
        EXPECT_TRUE(legendTexts(*view).contains(model)) << model.toStdString();
}

TEST(ChartLegend, ShortNamesStayInOneRowUnderThePlot)
{
    auto view = showChart({ QStringLiteral("pending"), QStringLiteral("running") }, 620);
    EXPECT_TRUE(view->chart()->legend()->isAttachedToChart());
    EXPECT_EQ(view->chart()->legend()->alignment(), Qt::AlignBottom);
    EXPECT_EQ(view->chart()->margins(), QChart().margins()); // no band kept for more rows
}

TEST(ColumnWidths, TheSampleReachesLateRowsAndMeasuresBoldTextInBold)
{
    // A run's events: short pod names first, longer ones late; the events before the time shown
    // are in bold (the timeline's rows), here up to row 1200.
    QStandardItemModel model(2000, 2);
    QFont boldFont;
    boldFont.setBold(true);
    for (int r = 0; r < model.rowCount(); ++r) {
        model.setItem(r, 0, new QStandardItem(QStringLiteral("default/batch-inference-%1").arg(r)));
        model.setItem(r, 1, new QStandardItem(QStringLiteral("reason")));
        if (r <= 1200)
            model.item(r, 0)->setFont(boldFont);
    }
    const int bold = 1111; // digits are as wide as each other: any bold four-digit row
    QTableView view;
    view.setModel(&model);
    drasim::ui::fitColumnsToSample(&view);
    const QString last = model.index(model.rowCount() - 1, 0).data().toString();
    EXPECT_GE(view.columnWidth(0), QFontMetrics(view.font()).horizontalAdvance(last));
    boldFont = view.font();
    boldFont.setBold(true);
    const QString boldText = model.index(bold, 0).data().toString();
    EXPECT_GE(view.columnWidth(0), QFontMetrics(boldFont).horizontalAdvance(boldText));
}

TEST(EmptyPages, ManifestsWithoutPodsAndAScenarioSayWhereToLook)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("class.yaml"));
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec: {}\n");
    }
    drasim::ui::MainWindow w;
    w.setRunStorePath(QString());
    w.show();
    QSignalSpy scheduled(w.podsPage()->job(), &drasim::ui::AllocationJob::scheduled);
    w.openPaths({ path });
    ASSERT_TRUE(scheduled.wait(60000));
    EXPECT_TRUE(w.podsPage()->diagnosisView()->placeholderText().contains(QStringLiteral("no pods")))
        << w.podsPage()->diagnosisView()->placeholderText().toStdString();

    // A scenario starts without pods: the inspector says where its pods show.
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    w.openPaths(
        { QString::fromUtf8(DRASIM_SOURCE_DIR) + QStringLiteral("/scenarios/sim/default/scenario.yaml") });
    ASSERT_TRUE(opened.wait(60000));
    EXPECT_TRUE(w.inspectorPage()->detailView()->toPlainText().contains(QStringLiteral("Timeline tab")))
        << w.inspectorPage()->detailView()->toPlainText().toStdString();
    // The inspector's headers are whole before any trace.
    QTableView* steps = w.inspectorPage()->stepsView();
    const QFontMetrics header(steps->horizontalHeader()->font());
    for (int c = 0; c + 1 < steps->model()->columnCount(); ++c)
        EXPECT_GE(steps->columnWidth(c),
            header.horizontalAdvance(steps->model()->headerData(c, Qt::Horizontal).toString()))
            << "column " << c;
}
