// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/frag_study_job.h"

#include <chrono>
#include <string>

#include "core/common/progress.h"
#include "core/fragstudy/scenario_input.h"
#include "core/scenario/variant.h"
#include "ui/jobs/queued_progress.h"

namespace drasim::ui {

namespace {

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

FragStudyJob::~FragStudyJob() = default;

void FragStudyJob::start(const QString& scenarioPath, const fragstudy::StudyOptions& options)
{
    const std::string path = scenarioPath.toStdString();
    m_runs.start(QStringLiteral("drasim-frag-study"),
        [path, options, scenarioPath](const JobThreads<FragStudyJob>::Run& run) {
            auto outcome = std::make_shared<FragStudyOutcome>();
            outcome->scenarioPath = scenarioPath;
            // Every report goes through: the study reports once per finished run.
            QueuedProgress<FragStudyJob> progress(run, std::chrono::milliseconds(0));
            const auto began = std::chrono::steady_clock::now();
            runFragStudy(path, options, run.cancel(), progress, *outcome);
            outcome->seconds
                = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
            return std::shared_ptr<const FragStudyOutcome>(std::move(outcome));
        });
    Q_EMIT started(scenarioPath);
}

} // namespace drasim::ui
