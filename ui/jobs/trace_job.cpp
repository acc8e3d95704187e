// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/trace_job.h"

#include <QMetaObject>
#include <QPointer>

#include "core/scheduler/batch.h"

namespace drasim::ui {

TraceJob::TraceJob(QObject* parent)
    : QObject(parent)
{ }

TraceJob::~TraceJob()
{
    for (auto& future : m_inFlight)
        future.waitForFinished();
}

void TraceJob::trace(std::shared_ptr<const api::ObjectSet> objects, const QString& podKey)
{
    const quint64 generation = ++m_generation;
    QPointer<TraceJob> self(this);
    m_inFlight.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    m_inFlight << m_pool.run([self, generation, objects, podKey]() {
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
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, outcome]() {
                if (self && self->m_generation == generation)
                    Q_EMIT self->traced(outcome);
            },
            Qt::QueuedConnection);
    });
}

} // namespace drasim::ui
