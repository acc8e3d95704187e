// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <QMetaObject>
#include <QPointer>
#include <QString>

#include "core/common/diagnostic.h"

namespace drasim::ui {

/// Runs `deliver(job)` on the job's thread, queued from a worker, unless the job is gone or a newer
/// start() has superseded the run by then (`isCurrent` is read on the job's thread only, so the
/// jobs' generation counters need no locking). Progress, samples and outcomes of every job go
/// through here, so a cancelled or replaced run can never reach the UI.
template <class Job, class Deliver>
void postIfCurrent(const QPointer<Job>& job, const std::function<bool()>& isCurrent, Deliver deliver)
{
    if (!job)
        return;
    QMetaObject::invokeMethod(
        job.data(),
        [job, isCurrent, deliver = std::move(deliver)]() {
            if (job && isCurrent())
                deliver(job.data());
        },
        Qt::QueuedConnection);
}

/// The outcome's problems, plus a warning when its store could not be written (the work itself
/// still ran); `what` says what was lost, e.g. "run history not saved".
inline std::vector<Diagnostic> withStoreWarning(
    std::vector<Diagnostic> diagnostics, const char* what, const QString& storeError)
{
    if (!storeError.isEmpty()) {
        Diagnostic note; // built field by field: g++ 12 misreports a braced temporary here
        note.severity = Severity::Warning;
        note.message = std::string(what) + ": " + storeError.toStdString();
        diagnostics.push_back(std::move(note));
    }
    return diagnostics;
}

} // namespace drasim::ui
