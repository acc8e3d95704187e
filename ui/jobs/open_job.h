// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>

#include <QObject>
#include <QStringList>

#include "core/session/session.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

/// Opens what the user chose (manifests, folders or one Scenario file) into a fresh
/// session::Session on a thread of its own (JobThreads, at the process's priority: the user waits
/// for it), reporting progress; the finished session is handed to the job's thread. Only the newest request
/// delivers: starting a new open stops the running one (the loader checks the cancel token between documents)
/// and drops its signals. cancel() stops it the same way and reports cancelled() once the worker has let go,
/// with the share of input it read.
class OpenJob : public QObject
{
    Q_OBJECT
public:
    explicit OpenJob(QObject* parent = nullptr);
    /// Stops the running open and waits for every worker still in flight.
    ~OpenJob() override;

    /// `gates`: what manifests are read at (a scenario brings its own).
    void start(const QStringList& paths, const api::FeatureGates& gates = {});
    void cancel()
    {
        m_cancelRequested = true;
        m_runs.cancel();
    }
    bool isRunning() const { return m_runs.isRunning(); }
    /// Waits until no worker is left (tests). msecs < 0: no limit.
    bool waitForIdle(int msecs = -1) const { return m_runs.waitForIdle(msecs); }

    /// When the phases of the last delivered open happened: asked for, picked up by a worker,
    /// finished by it, handed to the job's thread (just before opened() is emitted).
    struct Timeline
    {
        using Clock = std::chrono::steady_clock;
        Clock::time_point requested, workerStarted, workerFinished, delivered;
    };
    const Timeline& lastTimeline() const { return m_last; }

Q_SIGNALS:
    void started(const QStringList& paths);
    void progressChanged(double fraction);
    /// The session holds everything opened, also when there were errors (see its diagnostics).
    void opened(std::shared_ptr<drasim::session::Session> session, const QStringList& paths);
    /// The cancelled open has stopped after reading this share of its manifest input.
    void cancelled(double fractionRead);

private:
    struct Outcome;
    void land(const Outcome& outcome);

    using Runs = JobThreads<OpenJob>;
    Timeline m_last;
    bool m_cancelRequested = false; ///< the newest open was cancelled, perhaps after it read everything
    Runs m_runs { this, Runs::Overlap::Concurrent, Runs::Priority::Foreground };
};

} // namespace drasim::ui
