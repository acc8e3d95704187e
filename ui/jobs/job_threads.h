// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include <QList>
#include <QPointer>
#include <QString>
#include <QThread>

#include "core/common/progress.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/outcome_delivery.h"

namespace drasim::ui {

/// The runs of a job whose every run is one long piece of core work on a thread of its own
/// (PlanJob, FragStudyJob): a newer start() cancels the older run and drops everything it still
/// posts, the outcome reaches the job as its `finished(outcome)` signal, and the destructor
/// cancels and waits for every run still in flight (not only the newest), so no thread outlives
/// the job. `Job` is a QObject with a `finished(std::shared_ptr<const Outcome>)` signal; it owns
/// one JobThreads as a member.
template <class Job> class JobThreads
{
public:
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

    explicit JobThreads(Job* job)
        : m_job(job)
    { }
    ~JobThreads()
    {
        cancel();
        for (const auto& thread : m_threads)
            if (thread)
                thread->wait();
    }
    JobThreads(const JobThreads&) = delete;
    JobThreads& operator=(const JobThreads&) = delete;

    /// Cancels the run before and runs `work(run)`, which returns the outcome (a shared_ptr), on a
    /// new thread named `threadName` at a lower priority than the UI (threads it starts inherit
    /// that).
    template <class Work> void start(const QString& threadName, Work work)
    {
        cancel();
        const quint64 generation = ++m_generation;
        Run run;
        run.m_job = m_job;
        // Read only on the job's thread (inside queued calls), so no synchronisation is needed.
        run.m_isCurrent = [this, job = run.m_job, generation]() { return job && m_generation == generation; };
        m_current = run.m_shared;
        m_running = true;
        QThread* thread = QThread::create([this, run, work = std::move(work)]() mutable {
            lowerCurrentThreadPriority(); // before the work starts its threads, which inherit it
            auto outcome = work(run);
            // `this` is a member of the job, alive whenever the job is (postIfCurrent checks).
            run.post([this, outcome](Job* job) {
                m_running = false;
                Q_EMIT job->finished(outcome);
            });
        });
        thread->setObjectName(threadName);
        QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
        m_threads.removeIf([](const QPointer<QThread>& t) { return t.isNull(); });
        m_threads << thread;
        thread->start();
    }

    void cancel()
    {
        if (m_current)
            m_current->cancel.cancel();
    }
    bool isRunning() const { return m_running; }

private:
    Job* m_job;
    quint64 m_generation = 0;
    bool m_running = false;
    std::shared_ptr<typename Run::Shared> m_current;
    QList<QPointer<QThread>> m_threads;
};

} // namespace drasim::ui
