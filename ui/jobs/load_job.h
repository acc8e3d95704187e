// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QObject>
#include <QStringList>
#include <QThreadPool>

#include "core/yamlio/loader.h"

namespace drasim::ui {

/// Loads manifests on a worker thread, reporting progress. Only the newest request delivers a
/// result: starting a new load stops the running one (the loader checks the cancel token between
/// documents), and its signals are dropped. cancel() stops the running load the same way and
/// reports cancelled() once the worker has let go, with the share of bytes it had read.
class LoadJob : public QObject
{
    Q_OBJECT
public:
    explicit LoadJob(QObject* parent = nullptr);
    /// Stops the running load and waits for every worker still in flight.
    ~LoadJob() override;

    void start(const QStringList& paths);
    void cancel();
    bool isRunning() const { return m_current != nullptr; }
    /// Waits until no worker is left (tests; the destructor). msecs < 0: no limit.
    bool waitForIdle(int msecs = -1);

Q_SIGNALS:
    void started(const QStringList& paths);
    void progressChanged(double fraction);
    void loaded(std::shared_ptr<const drasim::yamlio::LoadResult> result, const QStringList& paths);
    /// The cancelled load has stopped after reading this share of its input bytes.
    void cancelled(double fractionRead);

private:
    struct Run;
    std::shared_ptr<Run> m_current;
    QThreadPool m_pool; // loads run here, not in the global pool, so the destructor can wait for them
};

} // namespace drasim::ui
