// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/frag_study_job.h"

#include <chrono>
#include <functional>
#include <string>

#include <QThread>

#include "core/common/progress.h"
#include "core/fragstudy/scenario_input.h"
#include "core/scenario/variant.h"
#include "ui/jobs/background_priority.h"
#include "ui/jobs/outcome_delivery.h"

namespace drasim::ui {

struct FragStudyJob::Shared
{
    CancelToken cancel;
};

namespace {

/// Posts the study's progress (one call per finished run) to the job's thread.
class FragProgressForwarder : public ProgressSink
{
public:
    FragProgressForwarder(QPointer<FragStudyJob> job, std::function<bool()> current)
        : m_job(std::move(job))
        , m_current(std::move(current))
    { }

    void progress(double fraction, std::string_view stage) override
    {
        const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
        postIfCurrent(m_job, m_current,
            [fraction, text](FragStudyJob* job) { Q_EMIT job->progressChanged(fraction, text); });
    }

private:
    QPointer<FragStudyJob> m_job;
    std::function<bool()> m_current;
};

/// Reads the scenario and its trace files and runs every policy with every seed.
void runFragStudy(const std::string& path, const fragstudy::StudyOptions& options, const CancelToken& cancel,
    ProgressSink& progress, FragStudyOutcome& out)
{
    Diagnostics diags;
    progress.progress(0.0, "reading the trace");
    auto scenario = scenario::loadScenarioOrVariant(path, diags);
    auto input = scenario ? fragstudy::scenarioStudyInput(*scenario, diags) : std::nullopt;
    if (input && !cancel.cancelled()) {
        auto result = fragstudy::runStudy(*input, options, &progress, &cancel);
        if (result)
            out.result = std::make_shared<const fragstudy::StudyResult>(std::move(*result));
    }
    out.cancelled = cancel.cancelled();
    out.diagnostics = diags.all();
}

} // namespace

FragStudyJob::FragStudyJob(QObject* parent)
    : QObject(parent)
{ }

FragStudyJob::~FragStudyJob()
{
    if (m_shared)
        m_shared->cancel.cancel();
    for (const auto& thread : m_threads)
        if (thread)
            thread->wait();
}

void FragStudyJob::start(const QString& scenarioPath, const fragstudy::StudyOptions& options)
{
    if (m_shared)
        m_shared->cancel.cancel();
    const quint64 generation = ++m_generation;
    m_shared = std::make_shared<Shared>();
    m_running = true;
    Q_EMIT started(scenarioPath);

    QPointer<FragStudyJob> self(this);
    auto shared = m_shared;
    // Read only on the job's thread (inside queued calls), so no synchronisation is needed.
    auto isCurrent = [self, generation]() { return self && self->m_generation == generation; };
    const std::string path = scenarioPath.toStdString();
    QThread* thread = QThread::create([self, shared, isCurrent, path, options, scenarioPath]() {
        lowerCurrentThreadPriority(); // before the study starts its threads, which inherit it
        auto outcome = std::make_shared<FragStudyOutcome>();
        outcome->scenarioPath = scenarioPath;
        FragProgressForwarder progress(self, isCurrent);
        const auto began = std::chrono::steady_clock::now();
        runFragStudy(path, options, shared->cancel, progress, *outcome);
        outcome->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        postIfCurrent(self, isCurrent, [outcome](FragStudyJob* job) {
            job->m_running = false;
            Q_EMIT job->finished(outcome);
        });
    });
    thread->setObjectName(QStringLiteral("drasim-frag-study"));
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    m_threads.removeIf([](const QPointer<QThread>& t) { return t.isNull(); });
    m_threads << thread;
    thread->start();
}

void FragStudyJob::cancel()
{
    if (m_shared)
        m_shared->cancel.cancel();
}

} // namespace drasim::ui
