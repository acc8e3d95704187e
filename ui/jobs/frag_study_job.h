// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "core/common/diagnostic.h"
#include "core/fragstudy/frag_study.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

/// What a finished fragmentation study hands to the UI.
struct FragStudyOutcome
{
    QString scenarioPath;
    /// Per policy the curves across seeds; null when the scenario had errors or the run was
    /// cancelled.
    std::shared_ptr<const fragstudy::StudyResult> result;
    std::vector<Diagnostic> diagnostics;
    bool cancelled = false;
    double seconds = 0; ///< wall time of reading and running
};

/// Runs the fragmentation study of a trace scenario (core/fragstudy, as `drasim frag-study`
/// does) on its own thread at a lower priority than the UI; its run threads inherit that. A newer
/// start() cancels the older run and drops its signals; the destructor cancels and waits for
/// every run still in flight.
class FragStudyJob : public QObject
{
    Q_OBJECT
public:
    explicit FragStudyJob(QObject* parent = nullptr);
    ~FragStudyJob() override;

    void start(const QString& scenarioPath, const fragstudy::StudyOptions& options);
    void cancel() { m_runs.cancel(); }
    bool isRunning() const { return m_runs.isRunning(); }

Q_SIGNALS:
    void started(const QString& scenarioPath);
    /// fraction in [0, 1]; stage: "reading the trace", "running".
    void progressChanged(double fraction, const QString& stage);
    void finished(std::shared_ptr<const drasim::ui::FragStudyOutcome> outcome);

private:
    JobThreads<FragStudyJob> m_runs { this };
};

} // namespace drasim::ui
