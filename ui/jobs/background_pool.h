// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <utility>

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/jobs/background_priority.h"

namespace drasim::ui {

/// A page's or job's own threads for background work, at background priority: what runs here
/// yields the cores to the UI thread, and Qt's global pool stays free for what Qt runs there
/// (the painter's image conversions). Owned by the page or job whose work it runs: destroying it
/// waits for that work.
class BackgroundPool
{
public:
    BackgroundPool() = default;
    ~BackgroundPool() { m_pool.waitForDone(); }
    BackgroundPool(const BackgroundPool&) = delete;
    BackgroundPool& operator=(const BackgroundPool&) = delete;

    /// Runs `task` on one of the pool's threads once it has lowered that thread's priority (never
    /// the UI thread's, should a waiting caller run the task itself).
    template <typename Task> auto run(Task task)
    {
        return QtConcurrent::run(&m_pool, [task = std::move(task)]() mutable {
            lowerCurrentThreadPriority();
            return task();
        });
    }

    bool waitForDone(int msecs = -1) { return m_pool.waitForDone(msecs); }

private:
    QThreadPool m_pool;
};

} // namespace drasim::ui
