// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <memory>

#include "core/yamlio/loader.h"

namespace drasim::ui {

/// Loads manifests on a worker thread. Only the newest request delivers its result: starting a
/// new load or cancelling makes any running one stale, and its result is dropped when it arrives.
class LoadJob : public QObject
{
    Q_OBJECT
public:
    explicit LoadJob(QObject* parent = nullptr);
    ~LoadJob() override;

    void start(const QStringList& paths);
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void started(const QStringList& paths);
    void loaded(std::shared_ptr<const drasim::yamlio::LoadResult> result, const QStringList& paths);
    void cancelled();

private:
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace drasim::ui
