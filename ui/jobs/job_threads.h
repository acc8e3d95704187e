// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include <QDeadlineTimer>
#include <QList>
#include <QPointer>
#include <QString>
#include <QThread>

#include "core/common/progress.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/outcome_delivery.h"

namespace drasim::ui {

/// The runs of a background job, each on a thread of its own, by default at a lower priority
/// than the UI (threads the work starts inherit that): a newer start() cancels the older run and drops
/// everything it still posts, the outcome reaches the job as its `finished(outcome)` signal (or
/// whatever `land` makes of it), and the destructor cancels and waits for every run still in
/// flight (not only the newest) and frees what their work held, so no thread and none of its
/// state outlives the job. `Job` is a QObject; it owns one JobThreads per kind of request as a
/// member.
template <class Job> class JobThreads
{
public:
    /// How a newer run meets an older one still in flight.
    enum class Overlap {
        /// The newer run starts at once while the older, cancelled, winds down beside it: for
        /// work that stops soon when cancelled (simulations, studies).
        Concurrent,
        /// The newer run waits for the older one to return, and of the runs waiting only the
        /// newest starts: for work that cannot be stopped (checks, traces, store reads), so
        /// requests faster than the work neither pile up threads nor compute what nobody reads.
        OneAtATime,
    };

    /// The threads' scheduling priority.
    enum class Priority {
        /// Lowered below the UI's (background_priority.h): the window keeps its core.
        Background,
        /// The process's own: work the user waits for with nothing else to do in the window (at
        /// a lower priority every other process on the machine would go first).
        Foreground,
    };

    /// What a worker holds of its run: its cancel token and the way back to the job.
    class Run
    {
    public:
        const CancelToken& cancel() const { return m_shared->cancel; }
        /// Runs `deliver(job)` on the job's thread unless the job is gone or a newer run has
        /// started by then.
        template <class Deliver> void post(Deliver deliver) const
        {
            postIfCurrent(m_job, m_isCurrent, std::move(deliver));
        }

    private:
        friend class JobThreads;
        struct Shared
        {
            CancelToken cancel;
        };
        QPointer<Job> m_job;
        std::function<bool()> m_isCurrent;
        std::shared_ptr<Shared> m_shared = std::make_shared<Shared>();
    };

    explicit JobThreads(
        Job* job, Overlap overlap = Overlap::Concurrent, Priority priority = Priority::Background)
        : m_job(job)
        , m_overlap(overlap)
        , m_priority(priority)
    { }
    ~JobThreads()
    {
        m_pending = nullptr;
        cancel();
        // Deleted here rather than at the event loop's next pass (which may never come when the
        // application quits): a finished thread still holds its work and what that captured.
        for (const auto& thread : m_threads)
            if (thread) {
                thread->wait();
                delete thread.data();
            }
    }
    JobThreads(const JobThreads&) = delete;
    JobThreads& operator=(const JobThreads&) = delete;

    /// Cancels the run before and runs `work(run)`, which returns the outcome (a shared_ptr), on a
    /// new thread named `threadName`; the job emits `finished(outcome)`.
    template <class Work> void start(const QString& threadName, Work work)
    {
        start(threadName, std::move(work),
            [](Job* job, const auto& outcome) { Q_EMIT job->finished(outcome); });
    }
    /// As above, but `land(job, outcome)` runs on the job's thread instead (a job with a signal
    /// of another name or shape).
    template <class Work, class Land> void start(const QString& threadName, Work work, Land land)
    {
        cancel();
        const quint64 generation = ++m_generation;
        Run run;
        run.m_job = m_job;
        // Read only on the job's thread (inside queued calls), so no synchronisation is needed.
        run.m_isCurrent = [this, job = run.m_job, generation]() { return job && m_generation == generation; };
        m_current = run.m_shared;
        m_running = true;
        auto body = [this, run, work = std::move(work), land = std::move(land)]() mutable {
            if (m_priority == Priority::Background)
                lowerCurrentThreadPriority(); // before the work starts its threads, which inherit it
            auto outcome = work(run);
            // `this` is a member of the job, alive whenever the job is (postIfCurrent checks).
            run.post([this, outcome, land](Job* job) {
                m_running = false;
                land(job, outcome);
            });
        };
        m_pending
            = [this, threadName, body = std::move(body)]() mutable { launch(threadName, std::move(body)); };
        startPending();
    }

    void cancel()
    {
        if (m_current)
            m_current->cancel.cancel();
    }
    /// From start() until the newest run's outcome has reached the job.
    bool isRunning() const { return m_running; }
    /// Threads started whose end the job has not seen yet (a cancelled run may still be winding down).
    int runsInFlight() const { return m_active; }
    /// Waits up to `msecs` (< 0: no limit) for every started run's thread to return (tests).
    bool waitForIdle(int msecs = -1) const
    {
        const QDeadlineTimer deadline(
            msecs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(msecs));
        for (const auto& thread : m_threads)
            if (thread && !thread->wait(deadline))
                return false;
        return true;
    }

private:
    void launch(const QString& threadName, std::function<void()> body)
    {
        QThread* thread = QThread::create(std::move(body));
        thread->setObjectName(threadName);
        ++m_active;
        // Queued to the job's thread; gone with the thread or the job.
        QObject::connect(thread, &QThread::finished, m_job, [this]() {
            --m_active;
            startPending();
        });
        QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
        m_threads.removeIf([](const QPointer<QThread>& t) { return t.isNull(); });
        m_threads << thread;
        thread->start();
    }
    void startPending()
    {
        if (!m_pending || (m_overlap == Overlap::OneAtATime && m_active > 0))
            return;
        std::exchange(m_pending, nullptr)();
    }

    Job* m_job;
    Overlap m_overlap;
    Priority m_priority;
    quint64 m_generation = 0;
    bool m_running = false;
    int m_active = 0;
    std::shared_ptr<typename Run::Shared> m_current;
    std::function<void()> m_pending; ///< the newest run, not started yet
    QList<QPointer<QThread>> m_threads;
};

} // namespace drasim::ui
