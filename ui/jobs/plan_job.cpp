// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/plan_job.h"

#include <chrono>

#include "core/common/data_value.h"
#include "core/common/progress.h"
#include "core/planner/planner.h"
#include "core/planner/study_store.h"
#include "core/storage/database.h"
#include "ui/jobs/queued_progress.h"

namespace drasim::ui {

namespace {

using Clock = std::chrono::steady_clock;

/// Loads, prepares and runs the study, recording it in the store; everything a worker does.
void runStudy(const std::string& studyPath, const std::string& storePath, unsigned threads,
    const CancelToken& cancel, ProgressSink& progress, PlanOutcome& out)
{
    Diagnostics diags;
    progress.progress(0.0, "reading the study");
    auto study = planner::loadStudy(studyPath, diags);
    auto plan = study ? planner::preparePlan(*study, diags) : std::nullopt;
    if (!plan) {
        out.diagnostics = diags.all();
        return;
    }
    std::unique_ptr<planner::StudyStore> store;
    int64_t studyId = 0;
    planner::PlanOptions options;
    options.threads = threads;
    options.cancel = &cancel;
    options.progress = &progress;
    try {
        if (!storePath.empty()) {
            store = std::make_unique<planner::StudyStore>(storePath);
            studyId = store->beginStudy(plan->study.name, plan->fingerprint, planner::Shard {},
                plan->candidates.size(), plan->study.serviceLevels.size());
            options.onEvaluated = [&](const planner::Evaluation& e) { store->addEvaluation(studyId, e); };
        }
    } catch (const storage::StorageError& e) {
        out.storeError = QString::fromStdString(e.what());
        store.reset();
    }
    planner::PlanStats stats;
    const auto began = Clock::now();
    std::optional<planner::StudyResult> result;
    try {
        result = planner::runPlan(*plan, options, diags, &stats);
    } catch (const storage::StorageError& e) {
        // The store failed mid-study: say so; the search is lost with it, as in `drasim plan`.
        out.storeError = QString::fromStdString(e.what());
        store.reset();
    }
    out.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    out.simulationsRun = stats.simulationsRun;
    out.stoppedEarly = stats.stoppedEarly;
    out.cancelled = stats.cancelled;
    try {
        if (store) {
            const std::string status = result ? "finished" : stats.cancelled ? "cancelled" : "failed";
            // The same report text `drasim plan --db` keeps, so either can be read back.
            store->finishStudy(studyId, status, result ? toJson(planner::toData(*result)) + "\n" : "");
            out.studyId = studyId;
        }
    } catch (const storage::StorageError& e) {
        out.storeError = QString::fromStdString(e.what());
    }
    if (result)
        out.result = std::make_shared<const planner::StudyResult>(std::move(*result));
    out.diagnostics = diags.all();
}

} // namespace

PlanJob::PlanJob(QObject* parent)
    : QObject(parent)
{ }

PlanJob::~PlanJob() = default;

void PlanJob::start(const QString& studyPath, const QString& storePath, unsigned threads)
{
    const std::string study = studyPath.toStdString();
    const std::string store = storePath.toStdString();
    m_runs.start(QStringLiteral("drasim-plan"),
        [study, store, threads, studyPath](const JobThreads<PlanJob>::Run& run) {
            auto outcome = std::make_shared<PlanOutcome>();
            outcome->studyPath = studyPath;
            QueuedProgress<PlanJob> progress(run, std::chrono::milliseconds(100));
            runStudy(study, store, threads, run.cancel(), progress, *outcome);
            outcome->cancelled = outcome->cancelled || run.cancel().cancelled();
            return std::shared_ptr<const PlanOutcome>(std::move(outcome));
        });
    Q_EMIT started(studyPath);
}

} // namespace drasim::ui
