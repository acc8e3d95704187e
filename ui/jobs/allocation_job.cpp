// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/allocation_job.h"

#include "core/scheduler/cluster.h"
#include "core/session/one_shot.h"
#include "core/sim/run_prepared.h"

namespace drasim::ui {

AllocationJob::AllocationJob(QObject* parent)
    : QObject(parent)
{ }

AllocationJob::~AllocationJob() = default;

void AllocationJob::schedule(std::shared_ptr<const api::ObjectSet> objects, const api::FeatureGates& gates)
{
    m_schedules.start(
        QStringLiteral("drasim-schedule"),
        [objects, gates](const Runs::Run&) {
            auto outcome = std::make_shared<AllocationOutcome>();
            if (objects) {
                // A copy: scheduling never changes the document.
                scheduler::Cluster cluster(*objects, session::clusterOptionsFor(gates, {}));
                outcome->diagnostics = cluster.diagnostics().all();
                if (!cluster.diagnostics().hasErrors()) {
                    outcome->pods
                        = session::scheduleManifests(cluster, *objects, gates, outcome->podGroups).pods;
                    for (const auto* claim : cluster.claims())
                        outcome->claims.push_back(*claim);
                    outcome->ok = true;
                }
            }
            return std::shared_ptr<const AllocationOutcome>(std::move(outcome));
        },
        [](AllocationJob* job, const std::shared_ptr<const AllocationOutcome>& outcome) {
            Q_EMIT job->scheduled(outcome);
        });
}

void AllocationJob::explain(
    std::shared_ptr<const api::ObjectSet> objects, const api::FeatureGates& gates, const QString& podKey)
{
    m_explains.start(
        QStringLiteral("drasim-explain"),
        [objects, gates, key = podKey.toStdString()](const Runs::Run&) {
            std::shared_ptr<const scheduler::PodDiagnosis> diagnosis;
            if (objects) {
                scheduler::Cluster cluster(*objects, session::clusterOptionsFor(gates, {}));
                if (!cluster.diagnostics().hasErrors()) {
                    auto batch = session::explainManifestPod(cluster, *objects, gates, key);
                    if (batch.explainFound)
                        diagnosis = batch.diagnosis;
                }
            }
            return diagnosis;
        },
        [podKey](AllocationJob* job, const std::shared_ptr<const scheduler::PodDiagnosis>& diagnosis) {
            Q_EMIT job->explained(podKey, diagnosis);
        });
}

void AllocationJob::explainAt(
    std::shared_ptr<const sim::PreparedScenario> prepared, quint64 seed, qint64 at, const QString& podKey)
{
    m_explainsAt.start(
        QStringLiteral("drasim-explain-at"),
        [prepared, seed, at, key = podKey.toStdString()](const Runs::Run&) {
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
            return std::shared_ptr<const sim::PodExplanationAt>(std::move(answer));
        },
        [podKey, at](AllocationJob* job, const std::shared_ptr<const sim::PodExplanationAt>& answer) {
            Q_EMIT job->explainedAt(podKey, at, answer);
        });
}

} // namespace drasim::ui
