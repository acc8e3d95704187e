// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/open_job.h"

#include <atomic>
#include <chrono>

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/common/progress.h"

namespace drasim::ui {

/// One open: its cancel token and the share read so far, shared by the job and the worker.
struct OpenJob::Run
{
    CancelToken cancel;
    std::atomic<double> fraction { 0 };
    Timeline timeline; // the worker writes its part before the future finishes
};

namespace {

/// Keeps the share read and forwards it to the job's thread about ten times a second.
class OpenProgressForwarder : public ProgressSink
{
public:
    using Deliver = std::function<void(double)>;
    OpenProgressForwarder(std::atomic<double>& fraction, Deliver deliver)
        : m_fraction(fraction)
        , m_deliver(std::move(deliver))
    { }
    void progress(double fraction, std::string_view) override
    {
        m_fraction.store(fraction, std::memory_order_relaxed);
        const auto now = std::chrono::steady_clock::now();
        if (now - m_last < std::chrono::milliseconds(100))
            return;
        m_last = now;
        m_deliver(fraction);
    }

private:
    std::atomic<double>& m_fraction;
    Deliver m_deliver;
    std::chrono::steady_clock::time_point m_last {};
};

} // namespace

OpenJob::OpenJob(QObject* parent)
    : QObject(parent)
{ }

OpenJob::~OpenJob()
{
    if (m_current)
        m_current->cancel.cancel();
    m_pool.waitForDone();
}

bool OpenJob::waitForIdle(int msecs)
{
    return m_pool.waitForDone(msecs);
}

void OpenJob::start(const QStringList& paths, const api::FeatureGates& gates)
{
    if (m_current)
        m_current->cancel.cancel(); // superseded: stop reading, its signals are dropped below
    auto run = std::make_shared<Run>();
    run->timeline.requested = Timeline::Clock::now();
    m_current = run;
    Q_EMIT started(paths);

    std::vector<std::string> files;
    for (const auto& p : paths)
        files.push_back(p.toStdString());

    QPointer<OpenJob> self(this);
    // Runs on the job's thread, so reading m_current needs no lock.
    auto isCurrent = [self, run]() { return self && self->m_current == run; };
    auto* watcher = new QFutureWatcher<std::shared_ptr<session::Session>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, run, isCurrent, paths]() {
        watcher->deleteLater();
        if (!isCurrent())
            return; // superseded by a newer load
        m_current.reset();
        m_last = run->timeline;
        m_last.delivered = Timeline::Clock::now();
        if (run->cancel.cancelled())
            Q_EMIT cancelled(run->fraction.load(std::memory_order_relaxed));
        else
            Q_EMIT opened(watcher->result(), paths);
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [self, run, isCurrent, files, gates]() {
        // Not lowered, unlike the other jobs: the user waits for this with nothing else to do in
        // the window, and at a lower priority every other process on the machine would go first.
        run->timeline.workerStarted = Timeline::Clock::now();
        OpenProgressForwarder forwarder(run->fraction, [self, isCurrent](double fraction) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, isCurrent, fraction]() {
                    if (isCurrent())
                        Q_EMIT self->progressChanged(fraction);
                },
                Qt::QueuedConnection);
        });
        auto opened = std::make_shared<session::Session>();
        opened->setFeatureGates(gates);
        opened->open(files, &run->cancel, &forwarder);
        run->timeline.workerFinished = Timeline::Clock::now();
        return opened;
    }));
}

void OpenJob::cancel()
{
    if (m_current)
        m_current->cancel.cancel();
}

} // namespace drasim::ui
