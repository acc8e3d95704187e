// SPDX-License-Identifier: Apache-2.0
// The runs of a one-thread-per-run job (JobThreads, what every background job shares): a newer
// start cancels the older run and only its outcome arrives; the destructor cancels and waits for
// every run and frees what their work held; runs that cannot be stopped go one at a time, and of
// those waiting only the newest starts; runs go at background priority unless the job asks for the
// process's own; progress reaches the job throttled within a stage, never
// at a new stage or the end.
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

#include "ui/jobs/background_priority.h"
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
    /// A run that holds `token` until cancelled.
    void hold(std::shared_ptr<int> token)
    {
        m_runs.start(QStringLiteral("test-job"), [token](const Runs::Run& run) {
            while (!run.cancel().cancelled())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return std::make_shared<const int>(*token);
        });
    }
    bool isRunning() const { return m_runs.isRunning(); }

Q_SIGNALS:
    void progressChanged(double fraction, const QString& stage);
    void finished(std::shared_ptr<const int> outcome);

private:
    Runs m_runs { this };
};

/// A job whose runs cannot be stopped: each counts itself as begun, then waits for `release`.
class SerialJob : public QObject
{
    Q_OBJECT
public:
    using Runs = drasim::ui::JobThreads<SerialJob>;

    SerialJob(std::shared_ptr<std::atomic<bool>> release, std::shared_ptr<std::atomic<int>> begun)
        : m_release(std::move(release))
        , m_begun(std::move(begun))
    { }
    void start(int number)
    {
        m_runs.start(
            QStringLiteral("test-serial"), [number, release = m_release, begun = m_begun](const Runs::Run&) {
                ++*begun;
                while (!release->load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                return std::make_shared<const int>(number);
            });
    }
    int runsInFlight() const { return m_runs.runsInFlight(); }
    bool isRunning() const { return m_runs.isRunning(); }

Q_SIGNALS:
    void finished(std::shared_ptr<const int> outcome);

private:
    std::shared_ptr<std::atomic<bool>> m_release;
    std::shared_ptr<std::atomic<int>> m_begun;
    Runs m_runs { this, Runs::Overlap::OneAtATime };
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

TEST(JobThreads, TheDestructorFreesWhatEveryRunsWorkHeld)
{
    auto first = std::make_shared<int>(1), second = std::make_shared<int>(2);
    const std::weak_ptr<int> firstHeld = first, secondHeld = second;
    {
        CountingJob job;
        job.hold(std::move(first));
        job.hold(std::move(second));
    }
    // Not left to the event loop's next pass, which never comes when the application quits.
    EXPECT_TRUE(firstHeld.expired()) << "the older run's work outlived the job";
    EXPECT_TRUE(secondHeld.expired()) << "the newest run's work outlived the job";
}

TEST(JobThreads, OneAtATimeRunsWaitForTheOlderAndOnlyTheNewestWaitingStarts)
{
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto begun = std::make_shared<std::atomic<int>>(0);
    SerialJob job(release, begun);
    QSignalSpy finished(&job, &SerialJob::finished);
    job.start(1);
    job.start(2);
    job.start(3);
    EXPECT_EQ(job.runsInFlight(), 1) << "the newer runs started beside the older one";
    EXPECT_TRUE(job.isRunning());
    QTest::qWait(100);
    EXPECT_EQ(begun->load(), 1);
    release->store(true);
    ASSERT_TRUE(finished.wait(60000));
    EXPECT_EQ(*finished.at(0).at(0).value<std::shared_ptr<const int>>(), 3);
    EXPECT_FALSE(finished.wait(200)) << "an older run's outcome arrived too";
    EXPECT_EQ(begun->load(), 2) << "run 2, superseded while it waited, should never have begun";
    EXPECT_FALSE(job.isRunning());
    EXPECT_EQ(job.runsInFlight(), 0);
}

TEST(JobThreads, OneAtATimeTheDestructorDropsTheWaitingRunAndWaitsForTheRunningOne)
{
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto begun = std::make_shared<std::atomic<int>>(0);
    {
        SerialJob job(release, begun);
        job.start(1);
        job.start(2);
        for (int i = 0; i < 60000 && begun->load() == 0; ++i)
            QTest::qWait(1);
        release->store(true); // run 1 cannot be stopped: it ends on its own
    }
    EXPECT_EQ(begun->load(), 1) << "the waiting run started as the job went";
}

/// A job whose run hands back the nice value its thread ran at.
class NiceJob : public QObject
{
    Q_OBJECT
public:
    using Runs = drasim::ui::JobThreads<NiceJob>;

    explicit NiceJob(Runs::Priority priority)
        : m_runs(this, Runs::Overlap::Concurrent, priority)
    { }
    void start()
    {
        m_runs.start(QStringLiteral("test-nice"),
            [](const Runs::Run&) { return std::make_shared<const int>(drasim::ui::currentThreadNice()); });
    }
    bool waitForIdle(int msecs) const { return m_runs.waitForIdle(msecs); }

Q_SIGNALS:
    void finished(std::shared_ptr<const int> outcome);

private:
    Runs m_runs;
};

TEST(JobThreads, RunsGoAtBackgroundPriorityUnlessTheJobAsksForItsOwn)
{
    const int ui = drasim::ui::currentThreadNice();
    ASSERT_LT(ui, 10) << "the test process already runs at background priority";
    for (const auto priority : { NiceJob::Runs::Priority::Background, NiceJob::Runs::Priority::Foreground }) {
        NiceJob job(priority);
        QSignalSpy finished(&job, &NiceJob::finished);
        job.start();
        ASSERT_TRUE(finished.wait(60000));
        EXPECT_TRUE(job.waitForIdle(60000));
        const int nice = *finished.at(0).at(0).value<std::shared_ptr<const int>>();
        if (priority == NiceJob::Runs::Priority::Background)
            EXPECT_GE(nice, 10);
        else
            EXPECT_EQ(nice, ui) << "an open, which the user waits for, went at background priority";
    }
    EXPECT_EQ(drasim::ui::currentThreadNice(), ui); // the caller is untouched
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
