// SPDX-License-Identifier: Apache-2.0
// The Plan tab end to end, offscreen: a Study opened in the window runs in the background with
// progress, shows its frontier, recommendation and load-growth answers, lands in the store like
// `drasim plan --db`; Cancel stops it; a bad study is reported with its location.
#include <algorithm>
#include <cstdlib>
#include <thread>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include "core/planner/recommendation_reasons.h"
#include "core/planner/study_store.h"
#include "ui/charts/frontier_chart_view.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/plan_job.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/plan_candidates_model.h"
#include "ui/models/plan_models.h"
#include "ui/pages/plan_page.h"

using drasim::ui::MainWindow;
using drasim::ui::PlanJob;
using drasim::ui::PlanOutcome;

namespace {

QString plannerData(const char* file)
{
    return QString::fromUtf8(DRASIM_SOURCE_DIR) + QStringLiteral("/tests/unit/planner/data/")
        + QString::fromUtf8(file);
}

std::shared_ptr<const PlanOutcome> waitFinished(PlanJob* job)
{
    QSignalSpy spy(job, &PlanJob::finished);
    if (!spy.wait(300000))
        return nullptr;
    return spy.takeFirst().at(0).value<std::shared_ptr<const PlanOutcome>>();
}

} // namespace

TEST(PlanPage, RunsAStudyShowsTheFrontierAndRecordsItInTheStore)
{
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("runs.db"));
    MainWindow w;
    w.setRunStorePath(store);
    w.resize(1400, 900);
    w.show();
    auto* page = w.planPage();
    using Tester = QAbstractItemModelTester;
    Tester mixesTester(page->mixesModel(), Tester::FailureReportingMode::Fatal);
    Tester loadsTester(page->loadsModel(), Tester::FailureReportingMode::Fatal);
    QSignalSpy progress(page->job(), &PlanJob::progressChanged);
    w.openPaths({ plannerData("small/study.yaml") }); // a Study file goes to the Plan tab
    EXPECT_EQ(w.pages()->currentWidget(), page);
    EXPECT_TRUE(page->job()->isRunning());
    auto outcome = waitFinished(page->job());
    ASSERT_TRUE(outcome);
    ASSERT_TRUE(outcome->result) << (outcome->diagnostics.empty() ? "" : outcome->diagnostics[0].format());
    EXPECT_FALSE(outcome->cancelled);
    EXPECT_GT(outcome->simulationsRun, 0);
    EXPECT_GE(progress.count(), 1);
    EXPECT_DOUBLE_EQ(progress.last().at(0).toDouble(), 1.0);

    const auto& result = *outcome->result;
    ASSERT_EQ(result.loads.size(), 3u); // today, +25%, +50%
    EXPECT_EQ(page->loadsModel()->rowCount(), 3);
    EXPECT_EQ(page->mixesModel()->rowCount(), int(result.loads[0].mixes.size()));
    // The chart holds every mix of today's load, the frontier and one recommendation.
    auto* chart = page->frontierChart();
    EXPECT_EQ(chart->metCount() + chart->missedCount(), int(result.loads[0].mixes.size()));
    // The frontier takes the mixes that miss a level where no mix as cheap beats them (ringed),
    // as core's reasons have it; those meeting every level are the ranking's frontier.
    const auto reasons = drasim::planner::loadReasons(result, 0);
    EXPECT_EQ(chart->frontierCount(), int(reasons.frontier.size()));
    EXPECT_EQ(chart->frontierMissedCount(), int(reasons.frontier.size() - result.loads[0].frontier.size()));
    for (size_t i : result.loads[0].frontier)
        EXPECT_NE(std::find(reasons.frontier.begin(), reasons.frontier.end(), i), reasons.frontier.end());
    EXPECT_EQ(chart->recommendedCount(), result.loads[0].recommended ? 1 : 0);
    ASSERT_TRUE(result.loads[0].recommended);
    const auto& rec = result.loads[0].mixes[*result.loads[0].recommended];
    const QString mix = QString::fromStdString(drasim::planner::formatMix(rec.mix, result.candidates));
    EXPECT_TRUE(page->recommendationText().contains(mix)) << page->recommendationText().toStdString();
    EXPECT_TRUE(page->recommendationText().contains(QStringLiteral("min / mean / max")));
    // Why, word for word as core gives it.
    for (const std::string& line : drasim::planner::reasonLines(result, 0, reasons))
        EXPECT_TRUE(page->recommendationText().contains(QString::fromStdString(line)))
            << line << "\n"
            << page->recommendationText().toStdString();
    // The candidates with their prices, and what the recommendation buys of each.
    auto* candidates = page->candidatesModel();
    ASSERT_EQ(candidates->rowCount(), int(result.candidates.size()));
    for (size_t c = 0; c < result.candidates.size(); ++c)
        EXPECT_EQ(
            candidates->index(int(c), drasim::ui::PlanCandidatesModel::RecommendedColumn).data().toInt(),
            result.candidates[c].nodes(rec.mix[c]));

    // Another load level: the table and the chart follow.
    page->showLoad(2);
    EXPECT_EQ(page->mixesModel()->load(), 2);
    EXPECT_EQ(page->mixesModel()->rowCount(), int(result.loads[2].mixes.size()));
    EXPECT_TRUE(page->recommendationText().contains(QStringLiteral("load +50%")));

    // Recorded as `drasim plan --db` records it: finished, every evaluation, the JSON report.
    drasim::planner::StudyStore studies(store.toStdString());
    const auto stored = studies.studies();
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_EQ(stored[0].id, outcome->studyId);
    EXPECT_EQ(stored[0].name, "small");
    EXPECT_EQ(stored[0].status, "finished");
    EXPECT_EQ(int64_t(studies.evaluations(stored[0]).size()), result.evaluations);
    EXPECT_NE(studies.report(stored[0].id).find("\"study\": \"small\""), std::string::npos);

    if (const char* shots = std::getenv("DRASIM_SCREENSHOT_DIR"))
        w.grab().save(QString::fromUtf8(shots) + QStringLiteral("/plan.png"));
}

TEST(PlanPage, CancelStopsTheStudyAndRecordsItCancelled)
{
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("runs.db"));
    MainWindow w;
    w.setRunStorePath(store);
    auto* page = w.planPage();
    page->setThreads(1);
    page->openStudy(plannerData("small/study.yaml"));
    QSignalSpy progress(page->job(), &PlanJob::progressChanged);
    ASSERT_TRUE(progress.wait(60000)); // it has started
    page->cancel();
    auto outcome = waitFinished(page->job());
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->cancelled);
    EXPECT_FALSE(outcome->result);
    EXPECT_TRUE(page->recommendationText().contains(QStringLiteral("Cancelled")))
        << page->recommendationText().toStdString();
    drasim::planner::StudyStore studies(store.toStdString());
    ASSERT_EQ(studies.studies().size(), 1u);
    EXPECT_EQ(studies.studies()[0].status, "cancelled");
}

TEST(PlanPage, ABadStudyIsReportedWithItsLocationAndTheWindowKeepsWorking)
{
    MainWindow w;
    w.setRunStorePath(QString());
    w.openPaths({ plannerData("bad-study.yaml") });
    auto outcome = waitFinished(w.planPage()->job());
    ASSERT_TRUE(outcome);
    EXPECT_FALSE(outcome->result);
    EXPECT_FALSE(outcome->cancelled);
    ASSERT_FALSE(outcome->diagnostics.empty());
    const std::string first = outcome->diagnostics[0].format();
    EXPECT_NE(first.find("bad-study.yaml:"), std::string::npos) << first;
    EXPECT_GT(w.diagnosticsModel()->errorCount(), 0);
    EXPECT_TRUE(w.planPage()->recommendationText().contains(QStringLiteral("could not run")));
}

TEST(PlanJob, WorkersRunAtALowerPriorityThanTheCaller)
{
    const int ui = drasim::ui::currentThreadNice();
    int worker = ui;
    std::thread t([&worker]() {
        drasim::ui::lowerCurrentThreadPriority();
        // A thread it starts (the planner's pool) inherits the lower priority.
        std::thread child([&worker]() { worker = drasim::ui::currentThreadNice(); });
        child.join();
    });
    t.join();
    EXPECT_GT(worker, ui);
    EXPECT_EQ(drasim::ui::currentThreadNice(), ui); // the caller's own priority is untouched
}

// QFuture::waitForFinished() may run a task that has not started on the waiting thread; when that
// is the UI thread, the task's request for a lower priority must not stick to the window.
TEST(PlanJob, TheUiThreadIsNeverLowered)
{
    ASSERT_EQ(QThread::currentThread(), QCoreApplication::instance()->thread());
    const int ui = drasim::ui::currentThreadNice();
    ASSERT_LT(ui, 10) << "the test process already runs at background priority";
    drasim::ui::lowerCurrentThreadPriority();
    EXPECT_EQ(drasim::ui::currentThreadNice(), ui);
}
