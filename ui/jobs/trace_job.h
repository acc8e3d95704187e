// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>

#include "core/allocator/allocation_trace.h"
#include "core/api/object_set.h"
#include "core/scheduler/cluster.h"
#include "ui/jobs/background_pool.h"

namespace drasim::ui {

/// The allocator's search for one pod, step by step, and what the scheduling cycle decided.
struct TraceOutcome
{
    QString podKey;
    bool found = false; ///< the pod is one that one-shot scheduling places (no nodeName yet)
    bool ok = false; ///< false when the scheduler model could not be built (see message)
    QString message;
    allocator::AllocationTrace trace;
    scheduler::ScheduleResult result;
};

/// Schedules the document's pods up to one pod, as `drasim allocate` does, and records the
/// allocator's every step for that pod, on a worker thread. Only the newest request is reported.
class TraceJob : public QObject
{
    Q_OBJECT
public:
    explicit TraceJob(QObject* parent = nullptr);
    ~TraceJob() override;

    void trace(std::shared_ptr<const api::ObjectSet> objects, const QString& podKey);

Q_SIGNALS:
    void traced(std::shared_ptr<const drasim::ui::TraceOutcome> outcome);

private:
    quint64 m_generation = 0;
    QList<QFuture<void>> m_inFlight;
    BackgroundPool m_pool; // last: destroyed first, waiting for the workers
};

} // namespace drasim::ui
