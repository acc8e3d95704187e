// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "core/common/diagnostic.h"
#include "core/planner/policy_study.h"
#include "core/planner/study_result.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

/// What a finished study hands to the UI.
struct PlanOutcome
{
    QString studyPath;
    /// The recommendation, frontier and spread per load level; null when the study had errors or
    /// was cancelled. For a study comparing scoring policies, the first policy's (in `policies`).
    std::shared_ptr<const planner::StudyResult> result;
    /// Every policy's study when the study compares scoring policies (spec.policies), as `drasim
    /// plan` runs it; null otherwise. Such a study is not recorded in the store (`drasim plan
    /// --db` records the study of one policy).
    std::shared_ptr<const planner::PolicyStudyResult> policies;
    std::vector<Diagnostic> diagnostics;
    bool cancelled = false;
    qint64 studyId = 0; ///< the study's row in the store (0 when not recorded)
    QString storeError; ///< the store could not be written (the study itself still ran)
    qint64 simulationsRun = 0;
    qint64 stoppedEarly = 0;
    double seconds = 0; ///< wall time of the search
};

/// Runs a capacity study (core/planner) on its own thread at a lower priority than the UI (its
/// simulation threads inherit that), the way `drasim plan --db` does: the study and every
/// evaluation go to the SQLite store as they finish. A study comparing scoring policies runs its
/// search under each policy in turn, as `drasim plan` does. Progress arrives at most ~10 times a second.
/// A newer start() cancels the older run and drops its signals; the destructor cancels and waits
/// for every run still in flight.
class PlanJob : public QObject
{
    Q_OBJECT
public:
    explicit PlanJob(QObject* parent = nullptr);
    ~PlanJob() override;

    /// storePath: SQLite file to record into (the run store); empty = do not record.
    /// threads: simulations at once (0 = every core).
    void start(const QString& studyPath, const QString& storePath, unsigned threads = 0);
    void cancel() { m_runs.cancel(); }
    bool isRunning() const { return m_runs.isRunning(); }

Q_SIGNALS:
    void started(const QString& studyPath);
    /// fraction in [0, 1]; stage: "reading the study", "bisecting each shape", "searching mixes"
    /// (prefixed with the policy when the study compares policies: "fgd: searching mixes").
    void progressChanged(double fraction, const QString& stage);
    void finished(std::shared_ptr<const drasim::ui::PlanOutcome> outcome);

private:
    JobThreads<PlanJob> m_runs { this };
};

} // namespace drasim::ui
