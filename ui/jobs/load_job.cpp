// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/load_job.h"

#include <atomic>
#include <chrono>

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/common/progress.h"

namespace drasim::ui {

/// One load: its cancel token and the share read so far, shared by the job and the worker.
struct LoadJob::Run
{
    CancelToken cancel;
    std::atomic<double> fraction { 0 };
};

namespace {

/// Keeps the share read and forwards it to the job's thread about ten times a second.
class ProgressForwarder : public ProgressSink
{
public:
    using Deliver = std::function<void(double)>;
    ProgressForwarder(std::atomic<double>& fraction, Deliver deliver)
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

LoadJob::LoadJob(QObject* parent)
    : QObject(parent)
{ }

LoadJob::~LoadJob()
{
    if (m_current)
        m_current->cancel.cancel();
    m_pool.waitForDone();
}

bool LoadJob::waitForIdle(int msecs)
{
    return m_pool.waitForDone(msecs);
}

void LoadJob::start(const QStringList& paths)
{
    if (m_current)
        m_current->cancel.cancel(); // superseded: stop reading, its signals are dropped below
    auto run = std::make_shared<Run>();
    m_current = run;
    Q_EMIT started(paths);

    std::vector<std::string> files;
    for (const auto& p : paths)
        files.push_back(p.toStdString());

    QPointer<LoadJob> self(this);
    // Runs on the job's thread, so reading m_current needs no lock.
    auto isCurrent = [self, run]() { return self && self->m_current == run; };
    auto* watcher = new QFutureWatcher<std::shared_ptr<const yamlio::LoadResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, run, isCurrent, paths]() {
        watcher->deleteLater();
        if (!isCurrent())
            return; // superseded by a newer load
        m_current.reset();
        if (run->cancel.cancelled())
            Q_EMIT cancelled(run->fraction.load(std::memory_order_relaxed));
        else
            Q_EMIT loaded(watcher->result(), paths);
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [self, run, isCurrent, files]() {
        ProgressForwarder forwarder(run->fraction, [self, isCurrent](double fraction) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, isCurrent, fraction]() {
                    if (isCurrent())
                        Q_EMIT self->progressChanged(fraction);
                },
                Qt::QueuedConnection);
        });
        yamlio::LoadOptions options;
        options.cancel = &run->cancel;
        options.progress = &forwarder;
        return std::shared_ptr<const yamlio::LoadResult>(
            std::make_shared<yamlio::LoadResult>(yamlio::loadPaths(files, options)));
    }));
}

void LoadJob::cancel()
{
    if (m_current)
        m_current->cancel.cancel();
}

} // namespace drasim::ui
