// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/trace_job.h"

#include "core/scheduler/batch.h"

namespace drasim::ui {

TraceJob::TraceJob(QObject* parent)
    : QObject(parent)
{ }

TraceJob::~TraceJob() = default;

void TraceJob::trace(std::shared_ptr<const api::ObjectSet> objects, const QString& podKey)
{
    m_runs.start(
        QStringLiteral("drasim-trace"),
        [objects, podKey](const Runs::Run&) {
            auto outcome = std::make_shared<TraceOutcome>();
            outcome->podKey = podKey;
            if (objects) {
                scheduler::Cluster cluster(*objects); // a copy: tracing never changes the document
                if (cluster.diagnostics().hasErrors()) {
                    outcome->message = QString::fromStdString(cluster.diagnostics().formatAll());
                } else {
                    outcome->ok = true;
                    outcome->found = scheduler::tracePod(
                        cluster, objects->pods, podKey.toStdString(), outcome->trace, &outcome->result);
                }
            }
            return std::shared_ptr<const TraceOutcome>(std::move(outcome));
        },
        [](TraceJob* job, const std::shared_ptr<const TraceOutcome>& outcome) {
            Q_EMIT job->traced(outcome);
        });
}

} // namespace drasim::ui
