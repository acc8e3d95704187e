// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/plan_job.h"

#include <chrono>

#include <QThread>

#include "core/common/data_value.h"
#include "core/common/progress.h"
#include "core/planner/planner.h"
#include "core/planner/study_store.h"
#include "core/storage/database.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/outcome_delivery.h"

namespace drasim::ui {

struct PlanJob::Shared
{
    CancelToken cancel;
};

namespace {

using Clock = std::chrono::steady_clock;

/// Posts the planner's progress to the job's thread, at most ~10 times a second.
class PlanProgressForwarder : public ProgressSink
{
public:
    PlanProgressForwarder(QPointer<PlanJob> job, std::function<bool()> current)
        : m_job(std::move(job))
        , m_current(std::move(current))
    { }

    void progress(double fraction, std::string_view stage) override
    {
        const auto now = Clock::now();
        if (fraction < 1.0 && stage == m_stage && now - m_last < std::chrono::milliseconds(100))
            return;
        m_last = now;
        m_stage = std::string(stage);
        const QString text = QString::fromStdString(m_stage);
        postIfCurrent(m_job, m_current,
            [fraction, text](PlanJob* job) { Q_EMIT job->progressChanged(fraction, text); });
    }

private:
    QPointer<PlanJob> m_job;
    std::function<bool()> m_current;
    std::string m_stage;
    Clock::time_point m_last {};
};

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

PlanJob::~PlanJob()
{
    if (m_shared)
        m_shared->cancel.cancel();
    for (const auto& thread : m_threads)
        if (thread)
            thread->wait();
}

void PlanJob::start(const QString& studyPath, const QString& storePath, unsigned threads)
{
    if (m_shared)
        m_shared->cancel.cancel();
    const quint64 generation = ++m_generation;
    m_shared = std::make_shared<Shared>();
    m_running = true;
    Q_EMIT started(studyPath);

    QPointer<PlanJob> self(this);
    auto shared = m_shared;
    // Read only on the job's thread (inside queued calls), so no synchronisation is needed.
    auto isCurrent = [self, generation]() { return self && self->m_generation == generation; };
    const std::string study = studyPath.toStdString();
    const std::string store = storePath.toStdString();
    QThread* thread = QThread::create([self, shared, isCurrent, study, store, threads, studyPath]() {
        lowerCurrentThreadPriority(); // before the planner starts its pool, which inherits it
        auto outcome = std::make_shared<PlanOutcome>();
        outcome->studyPath = studyPath;
        PlanProgressForwarder progress(self, isCurrent);
        runStudy(study, store, threads, shared->cancel, progress, *outcome);
        outcome->cancelled = outcome->cancelled || shared->cancel.cancelled();
        postIfCurrent(self, isCurrent, [outcome](PlanJob* job) {
            job->m_running = false;
            Q_EMIT job->finished(outcome);
        });
    });
    thread->setObjectName(QStringLiteral("drasim-plan"));
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    m_threads.removeIf([](const QPointer<QThread>& t) { return t.isNull(); });
    m_threads << thread;
    thread->start();
}

void PlanJob::cancel()
{
    if (m_shared)
        m_shared->cancel.cancel();
}

} // namespace drasim::ui
