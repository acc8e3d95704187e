// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "core/allocator/allocation_trace.h"
#include "core/api/object_set.h"
#include "core/scheduler/cluster.h"
#include "ui/jobs/job_threads.h"

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
/// allocator's every step for that pod, on a thread of its own at a lower priority than the UI.
/// Only the newest request is reported; a trace cannot be stopped, so a request waits for the one
/// in flight, and of those waiting only the newest runs (JobThreads, one at a time). The
/// destructor waits for the trace in flight.
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
    using Runs = JobThreads<TraceJob>;
    Runs m_runs { this, Runs::Overlap::OneAtATime };
};

} // namespace drasim::ui
