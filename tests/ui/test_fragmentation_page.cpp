// SPDX-License-Identifier: Apache-2.0
// The Fragmentation tab, offscreen: on the trace scenario the study runs in the background with
// progress and draws one line per policy in the paper's order at 100 % arrived; Cancel stops it;
// a scenario without a trace cannot run it and says what it needs.
#include <QAreaSeries>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>

#include <gtest/gtest.h>

#include "source_path.h"
#include "ui/charts/frag_chart_view.h"
#include "ui/document/document.h"
#include "ui/jobs/frag_study_job.h"
#include "ui/mainwindow.h"
#include "ui/pages/fragmentation_page.h"
#include "ui/widgets/progress_row.h"

using drasim::ui::FragmentationPage;
using drasim::ui::FragStudyJob;
using drasim::ui::FragStudyOutcome;
using drasim::ui::MainWindow;

namespace {

void openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    w.openPaths({ path });
    ASSERT_TRUE(opened.wait(120000));
}

std::shared_ptr<const FragStudyOutcome> waitFinished(FragStudyJob* job)
{
    QSignalSpy spy(job, &FragStudyJob::finished);
    if (!spy.wait(300000))
        return nullptr;
    return spy.takeFirst().at(0).value<std::shared_ptr<const FragStudyOutcome>>();
}

double medianAt(const QLineSeries* line, double x)
{
    for (const QPointF& p : line->points())
        if (p.x() == x)
            return p.y();
    ADD_FAILURE() << line->name().toStdString() << " has no point at x=" << x;
    return -1;
}

} // namespace

TEST(FragmentationPage, RunsTheStudyAndDrawsOneLinePerPolicyInThePapersOrder)
{
    MainWindow w;
    w.setRunStorePath(QString());
    w.resize(1400, 900);
    w.show();
    openAndWait(w, sourcePath("scenarios/plan/fragmentation/scenario.yaml"));
    FragmentationPage* page = w.fragmentationPage();
    ASSERT_TRUE(page->canRun());
    page->setSeeds(QStringLiteral("42-43"));
    QSignalSpy progress(page->job(), &FragStudyJob::progressChanged);
    page->run();
    EXPECT_TRUE(page->job()->isRunning()); // on its own thread: run() has returned
    auto outcome = waitFinished(page->job());
    ASSERT_TRUE(outcome);
    ASSERT_TRUE(outcome->result) << (outcome->diagnostics.empty() ? "" : outcome->diagnostics[0].format());
    EXPECT_FALSE(outcome->cancelled);
    ASSERT_GE(progress.count(), 2);
    EXPECT_DOUBLE_EQ(progress.last().at(0).toDouble(), 1.0);

    auto* chart = page->allocatedChart();
    const auto lines = chart->lines();
    ASSERT_EQ(lines.size(), 6);
    EXPECT_EQ(chart->bands().size(), 6);
    const QStringList names { QStringLiteral("fgd"), QStringLiteral("best-fit"),
        QStringLiteral("dot-product"), QStringLiteral("gpu-packing"), QStringLiteral("gpu-clustering"),
        QStringLiteral("random") };
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(lines[i]->name(), names[i]);
    // The paper's finding at 100 % arrived: FGD allocates the most, random the least.
    const double fgd = medianAt(lines[0], 100);
    const double random = medianAt(lines[5], 100);
    for (int i = 1; i < 6; ++i)
        EXPECT_GT(fgd, medianAt(lines[i], 100)) << names[i].toStdString();
    for (int i = 0; i < 5; ++i)
        EXPECT_LT(random, medianAt(lines[i], 100)) << names[i].toStdString();
    EXPECT_GT(fgd, 90);
    EXPECT_LE(fgd, 100);
    // The x axis: arrived demand from 75 % to 130 %.
    EXPECT_EQ(lines[0]->points().front().x(), 75);
    EXPECT_EQ(lines[0]->points().back().x(), 130);
    EXPECT_EQ(chart->xTitle(), QStringLiteral("arrived GPU demand (% of GPU capacity)"));
    EXPECT_EQ(chart->yTitle(), QStringLiteral("allocated")); // the labels carry the unit: "90%"
    // The y ticks are as fine as the plot's height lets their labels stay apart: a tall window
    // gets finer steps than a low one, and neither crowds its labels.
    const double line = QFontMetricsF(chart->font()).height();
    auto labelsApart = [&] { return chart->plotHeight() * chart->yTickStep() / chart->ySpan() >= line; };
    w.pages()->setCurrentWidget(page); // laid out only when shown
    w.resize(1400, 1600);
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    const double tallStep = chart->yTickStep();
    EXPECT_TRUE(labelsApart()) << chart->plotHeight() << " px for " << chart->ySpan() << " by " << tallStep;
    const double tallHeight = chart->plotHeight();
    w.resize(1400, 700);
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    const double lowStep = chart->yTickStep();
    EXPECT_LT(chart->plotHeight(), tallHeight);
    EXPECT_LT(tallStep, lowStep);
    EXPECT_TRUE(labelsApart()) << chart->plotHeight() << " px for " << chart->ySpan() << " by " << lowStep;
    EXPECT_EQ(page->fragmentationChart()->lines().size(), 6);
    EXPECT_TRUE(page->summaryText().contains(QStringLiteral("1,213 nodes, 6,212 GPUs, 8,152 pods")))
        << page->summaryText().toStdString();
    EXPECT_TRUE(page->summaryText().contains(QStringLiteral("2 seeds per policy")))
        << page->summaryText().toStdString();
    EXPECT_TRUE(chart->shownEmptyText().isEmpty()); // curves drawn: no placeholder over them
}

TEST(FragmentationPage, OnlyTheChosenPoliciesRunAndNoneChosenSaysSo)
{
    MainWindow w;
    w.setRunStorePath(QString());
    openAndWait(w, sourcePath("scenarios/plan/fragmentation/scenario.yaml"));
    FragmentationPage* page = w.fragmentationPage();
    // Before a run the charts say what will appear, and the title names the scenario, not its file.
    EXPECT_EQ(page->allocatedChart()->shownEmptyText(), QStringLiteral("Run draws one line per policy here"));
    auto* row = page->findChild<drasim::ui::ProgressRow*>();
    ASSERT_TRUE(row);
    EXPECT_TRUE(row->title()->text().contains(QStringLiteral("of fragmentation-default:")))
        << row->title()->text().toStdString();
    page->setPolicies({});
    page->run();
    EXPECT_FALSE(page->job()->isRunning());
    EXPECT_EQ(page->summaryText(), QStringLiteral("Choose at least one policy to compare."));

    page->setPolicies({ QStringLiteral("random"), QStringLiteral("fgd") });
    EXPECT_EQ(page->policies(), (QStringList { QStringLiteral("fgd"), QStringLiteral("random") }));
    page->setSeeds(QStringLiteral("42"));
    page->run();
    EXPECT_TRUE(page->summaryText().contains(QStringLiteral("one seed")))
        << page->summaryText().toStdString();
    auto outcome = waitFinished(page->job());
    ASSERT_TRUE(outcome);
    ASSERT_TRUE(outcome->result);
    const auto lines = page->allocatedChart()->lines();
    ASSERT_EQ(lines.size(), 2);
    EXPECT_EQ(lines[0]->name(), QStringLiteral("fgd"));
    EXPECT_EQ(lines[1]->name(), QStringLiteral("random"));
    EXPECT_EQ(page->fragmentationChart()->bands().size(), 2);
}

TEST(FragmentationPage, CancelStopsTheStudyAndSaysSo)
{
    MainWindow w;
    w.setRunStorePath(QString());
    openAndWait(w, sourcePath("scenarios/plan/fragmentation/scenario.yaml"));
    FragmentationPage* page = w.fragmentationPage();
    page->setSeeds(QStringLiteral("42-51"));
    page->run();
    page->cancel();
    auto outcome = waitFinished(page->job());
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->cancelled);
    EXPECT_FALSE(outcome->result);
    EXPECT_TRUE(page->allocatedChart()->lines().isEmpty());
    EXPECT_TRUE(page->summaryText().startsWith(QStringLiteral("Cancelled")))
        << page->summaryText().toStdString();
    EXPECT_EQ(page->allocatedChart()->shownEmptyText(), QStringLiteral("Cancelled: nothing to draw"));
}

TEST(FragmentationPage, AScenarioWithoutATraceCannotRunItAndSaysWhatItNeeds)
{
    MainWindow w;
    w.setRunStorePath(QString());
    openAndWait(w, defaultScenario());
    FragmentationPage* page = w.fragmentationPage();
    EXPECT_FALSE(page->canRun());
    page->run();
    EXPECT_FALSE(page->job()->isRunning());
    auto* row = page->findChild<drasim::ui::ProgressRow*>();
    ASSERT_TRUE(row);
    EXPECT_FALSE(row->runButton()->isEnabled());
    EXPECT_TRUE(row->title()->text().contains(QStringLiteral("alibaba-2023 trace workload")))
        << row->title()->text().toStdString();
    EXPECT_EQ(page->fragmentationChart()->shownEmptyText(),
        QStringLiteral("No trace scenario open: nothing to study"));
}
