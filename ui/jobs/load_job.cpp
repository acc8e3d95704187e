// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/load_job.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace drasim::ui {

LoadJob::LoadJob(QObject* parent) : QObject(parent) { }

LoadJob::~LoadJob() = default;

void LoadJob::start(const QStringList& paths)
{
    const quint64 generation = ++m_generation;
    m_running = true;
    Q_EMIT started(paths);

    std::vector<std::string> files;
    for (const auto& p : paths)
        files.push_back(p.toStdString());

    auto* watcher = new QFutureWatcher<std::shared_ptr<const yamlio::LoadResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, paths]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // superseded or cancelled: drop the stale result
        m_running = false;
        Q_EMIT loaded(watcher->result(), paths);
    });
    watcher->setFuture(QtConcurrent::run([files]() {
        return std::shared_ptr<const yamlio::LoadResult>(
            std::make_shared<yamlio::LoadResult>(yamlio::loadPaths(files)));
    }));
}

void LoadJob::cancel()
{
    if (!m_running)
        return;
    ++m_generation;
    m_running = false;
    Q_EMIT cancelled();
}

} // namespace drasim::ui
