// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

/// What checking one buffer found: the same diagnostics `drasim validate` prints for that file
/// (or the scenario reader's, for a Scenario), and the objects that loaded without errors.
struct ValidationOutcome
{
    QString fileName;
    std::vector<Diagnostic> diagnostics;
    std::shared_ptr<const api::ObjectSet> objects;
};

/// Checks editor text with the core loader and validator on a thread of its own at a lower
/// priority than the UI. Only the newest request is reported: typing faster than checking never
/// shows a stale result. A check cannot be stopped, so a request waits for the one in flight, and
/// of those waiting only the newest runs (JobThreads, one at a time). The destructor waits for the
/// check in flight.
class ValidationJob : public QObject
{
    Q_OBJECT
public:
    explicit ValidationJob(QObject* parent = nullptr);
    ~ValidationJob() override;

    void validate(const QString& text, const QString& fileName);
    /// From a request until its outcome has been reported.
    bool isRunning() const { return m_runs.isRunning(); }

Q_SIGNALS:
    void validated(std::shared_ptr<const drasim::ui::ValidationOutcome> outcome);

private:
    using Runs = JobThreads<ValidationJob>;
    Runs m_runs { this, Runs::Overlap::OneAtATime };
};

} // namespace drasim::ui
