// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/plan_job.h"

#include <chrono>

#include "core/common/data_value.h"
#include "core/common/progress.h"
#include "core/planner/planner.h"
#include "core/planner/policy_study.h"
#include "core/planner/study_store.h"
#include "core/storage/database.h"
#include "ui/jobs/queued_progress.h"

namespace drasim::ui {

namespace {

using Clock = std::chrono::steady_clock;

/// The search under each scoring policy of the study (spec.policies), as `drasim plan` runs it.
/// Not recorded: the store keeps the study of one policy, as `drasim plan --db` does.
void runPolicies(
    const planner::Plan& plan, const planner::PlanOptions& options, Diagnostics& diags, PlanOutcome& out)
{
    planner::PlanStats stats;
    const auto began = Clock::now();
    auto result = planner::runPolicyPlans(plan, options, diags, &stats);
    out.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    out.simulationsRun = stats.simulationsRun;
    out.stoppedEarly = stats.stoppedEarly;
    out.cancelled = stats.cancelled;
    if (!result || result->policies.empty())
        return;
    auto policies = std::make_shared<const planner::PolicyStudyResult>(std::move(*result));
    out.policies = policies;
    out.result = std::shared_ptr<const planner::StudyResult>(policies, &policies->policies.front().result);
}

/// The search of a study of one policy, recorded in the store as it goes.
void runOnePolicy(const planner::Plan& plan, const std::string& storePath, planner::PlanOptions options,
    Diagnostics& diags, PlanOutcome& out)
{
    std::unique_ptr<planner::StudyStore> store;
    int64_t studyId = 0;
    try {
        if (!storePath.empty()) {
            store = std::make_unique<planner::StudyStore>(storePath);
            studyId = store->beginStudy(plan.study.name, plan.fingerprint, planner::Shard {},
                plan.candidates.size(), plan.study.serviceLevels.size());
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
        result = planner::runPlan(plan, options, diags, &stats);
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
}

/// Loads, prepares and runs the study; everything a worker does.
void runStudy(const std::string& studyPath, const std::string& storePath, unsigned threads,
    const CancelToken& cancel, ProgressSink& progress, PlanOutcome& out)
{
    Diagnostics diags;
    progress.progress(0.0, "reading the study");
    auto study = planner::loadStudy(studyPath, diags);
    auto plan = study ? planner::preparePlan(*study, diags) : std::nullopt;
    if (plan) {
        planner::PlanOptions options;
        options.threads = threads;
        options.cancel = &cancel;
        options.progress = &progress;
        if (plan->study.policies.empty())
            runOnePolicy(*plan, storePath, options, diags, out);
        else
            runPolicies(*plan, options, diags, out);
    }
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
