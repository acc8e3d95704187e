// SPDX-License-Identifier: Apache-2.0
// The runs of a one-thread-per-run job (JobThreads, what PlanJob and FragStudyJob share): a newer
// start cancels the older run and only its outcome arrives; the destructor cancels and waits for
// every run; progress reaches the job throttled within a stage, never at a new stage or the end.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <QObject>
#include <QSignalSpy>
#include <QString>
#include <QTest>

#include <gtest/gtest.h>

#include "ui/jobs/job_threads.h"
#include "ui/jobs/queued_progress.h"

namespace job_threads_tests {

/// A job whose runs wait until cancelled (or told to end), then hand back their number.
class CountingJob : public QObject
{
    Q_OBJECT
public:
    using Runs = drasim::ui::JobThreads<CountingJob>;

    /// Starts run `number`; it ends once cancelled or once `release` is set.
    void start(
        int number, std::shared_ptr<std::atomic<bool>> release, std::shared_ptr<std::atomic<int>> cancelled)
    {
        m_runs.start(QStringLiteral("test-job"), [number, release, cancelled](const Runs::Run& run) {
            while (!run.cancel().cancelled() && !release->load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (run.cancel().cancelled())
                ++*cancelled;
            return std::make_shared<const int>(number);
        });
    }
    /// Reports `stages` through a QueuedProgress of `interval`, then ends.
    void report(std::vector<std::pair<double, std::string>> stages, std::chrono::milliseconds interval)
    {
        m_runs.start(QStringLiteral("test-job"), [stages, interval](const Runs::Run& run) {
            drasim::ui::QueuedProgress<CountingJob> progress(run, interval);
            for (const auto& [fraction, stage] : stages)
                progress.progress(fraction, stage);
            return std::make_shared<const int>(0);
        });
    }
    bool isRunning() const { return m_runs.isRunning(); }

Q_SIGNALS:
    void progressChanged(double fraction, const QString& stage);
    void finished(std::shared_ptr<const int> outcome);

private:
    Runs m_runs { this };
};

TEST(JobThreads, ANewerStartCancelsTheOlderRunAndOnlyItsOutcomeArrives)
{
    CountingJob job;
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto cancelled = std::make_shared<std::atomic<int>>(0);
    QSignalSpy finished(&job, &CountingJob::finished);
    job.start(1, release, cancelled);
    EXPECT_TRUE(job.isRunning());
    job.start(2, release, cancelled);
    release->store(true);
    ASSERT_TRUE(finished.wait(60000));
    EXPECT_EQ(*finished.at(0).at(0).value<std::shared_ptr<const int>>(), 2);
    EXPECT_FALSE(job.isRunning());
    // The first run sees its cancel (its thread may start after the second's), and what it then
    // hands back is dropped.
    for (int i = 0; i < 60000 && cancelled->load() == 0; ++i)
        QTest::qWait(1);
    EXPECT_EQ(cancelled->load(), 1) << "the first run saw its cancel";
    EXPECT_FALSE(finished.wait(200)) << "the first run's outcome was dropped";
    EXPECT_EQ(finished.count(), 1);
}

TEST(JobThreads, TheDestructorCancelsAndWaitsForEveryRun)
{
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto cancelled = std::make_shared<std::atomic<int>>(0);
    {
        CountingJob job;
        job.start(1, release, cancelled);
        job.start(2, release, cancelled);
        job.start(3, release, cancelled);
    }
    // Every run returned before the job was gone: all three were cancelled, none left running.
    EXPECT_EQ(cancelled->load(), 3);
}

TEST(JobThreads, ProgressIsThrottledWithinAStageButNeverAtANewStageOrTheEnd)
{
    CountingJob job;
    QSignalSpy progress(&job, &CountingJob::progressChanged);
    QSignalSpy finished(&job, &CountingJob::finished);
    const std::vector<std::pair<double, std::string>> stages { { 0.0, "reading" }, { 0.1, "reading" },
        { 0.2, "searching" }, { 0.5, "searching" }, { 0.9, "searching" }, { 1.0, "searching" } };
    // An interval no run reaches: only the first of each stage and the end get through.
    job.report(stages, std::chrono::hours(1));
    ASSERT_TRUE(finished.wait(60000));
    ASSERT_EQ(progress.count(), 3);
    EXPECT_EQ(progress.at(0).at(1).toString(), QStringLiteral("reading"));
    EXPECT_EQ(progress.at(1).at(0).toDouble(), 0.2);
    EXPECT_EQ(progress.at(1).at(1).toString(), QStringLiteral("searching"));
    EXPECT_EQ(progress.at(2).at(0).toDouble(), 1.0);

    // No interval: every report.
    progress.clear();
    job.report(stages, std::chrono::milliseconds(0));
    ASSERT_TRUE(finished.wait(60000));
    ASSERT_EQ(progress.count(), int(stages.size()));
    for (int i = 0; i < progress.count(); ++i)
        EXPECT_EQ(progress.at(i).at(0).toDouble(), stages[size_t(i)].first);
}

} // namespace job_threads_tests

#include "test_job_threads.moc"
