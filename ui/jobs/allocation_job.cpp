// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/allocation_job.h"

#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/scheduler/cluster.h"
#include "core/session/one_shot.h"
#include "core/sim/run_prepared.h"
#include "ui/jobs/background_priority.h"

namespace drasim::ui {

AllocationJob::AllocationJob(QObject* parent)
    : QObject(parent)
{ }

AllocationJob::~AllocationJob()
{
    for (auto& future : m_inFlight)
        future.waitForFinished();
}

void AllocationJob::forgetFinished()
{
    m_inFlight.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
}

void AllocationJob::schedule(std::shared_ptr<const api::ObjectSet> objects, const api::FeatureGates& gates)
{
    const quint64 generation = ++m_scheduleGeneration;
    QPointer<AllocationJob> self(this);
    forgetFinished();
    m_inFlight << QtConcurrent::run(&m_pool, [self, generation, objects, gates]() {
        lowerCurrentThreadPriority(); // the window keeps its core while this works
        auto outcome = std::make_shared<AllocationOutcome>();
        if (objects) {
            // A copy: scheduling never changes the document.
            scheduler::Cluster cluster(*objects, session::clusterOptionsFor(gates, {}));
            outcome->diagnostics = cluster.diagnostics().all();
            if (!cluster.diagnostics().hasErrors()) {
                outcome->pods = session::scheduleManifests(cluster, *objects, gates, outcome->podGroups).pods;
                for (const auto* claim : cluster.claims())
                    outcome->claims.push_back(*claim);
                outcome->ok = true;
            }
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, outcome]() {
                if (self && self->m_scheduleGeneration == generation)
                    Q_EMIT self->scheduled(outcome);
            },
            Qt::QueuedConnection);
    });
}

void AllocationJob::explain(
    std::shared_ptr<const api::ObjectSet> objects, const api::FeatureGates& gates, const QString& podKey)
{
    const quint64 generation = ++m_explainGeneration;
    QPointer<AllocationJob> self(this);
    const std::string key = podKey.toStdString();
    forgetFinished();
    m_inFlight << QtConcurrent::run(&m_pool, [self, generation, objects, gates, key, podKey]() {
        lowerCurrentThreadPriority(); // the window keeps its core while this works
        std::shared_ptr<const scheduler::PodDiagnosis> diagnosis;
        if (objects) {
            scheduler::Cluster cluster(*objects, session::clusterOptionsFor(gates, {}));
            if (!cluster.diagnostics().hasErrors()) {
                auto batch = session::explainManifestPod(cluster, *objects, gates, key);
                if (batch.explainFound)
                    diagnosis = batch.diagnosis;
            }
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, podKey, diagnosis]() {
                if (self && self->m_explainGeneration == generation)
                    Q_EMIT self->explained(podKey, diagnosis);
            },
            Qt::QueuedConnection);
    });
}

void AllocationJob::explainAt(
    std::shared_ptr<const sim::PreparedScenario> prepared, quint64 seed, qint64 at, const QString& podKey)
{
    const auto latest = m_explainAtGeneration;
    const quint64 generation = ++*latest;
    QPointer<AllocationJob> self(this);
    const std::string key = podKey.toStdString();
    forgetFinished();
    m_inFlight << QtConcurrent::run(&m_pool, [self, latest, generation, prepared, seed, at, key, podKey]() {
        if (latest->load() != generation)
            return; // a newer request came before this one started: nobody waits for it
        lowerCurrentThreadPriority(); // the window keeps its core while this works
        auto answer = std::make_shared<sim::PodExplanationAt>();
        if (!prepared) {
            answer->problem = "the scenario has errors (see Problems)";
        } else {
            sim::RunOptions options;
            options.overrides.seed = seed;
            options.podEvents = false; // nothing listens; the run is the same either way
            Diagnostics diags;
            if (auto explained = sim::explainPodAt(*prepared, options, at, key, diags))
                *answer = std::move(*explained);
            else
                answer->problem = diags.formatAll();
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, latest, generation, podKey, at, answer]() {
                if (self && latest->load() == generation)
                    Q_EMIT self->explainedAt(podKey, at, answer);
            },
            Qt::QueuedConnection);
    });
}

} // namespace drasim::ui
