// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QObject>
#include <QString>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/scheduler/diagnosis.h"
#include "core/sim/prepared_scenario.h"
#include "core/sim/run_prepared.h"
#include "ui/jobs/job_threads.h"

namespace drasim::ui {

/// The one-shot scheduling of a bundle, as `drasim allocate` does it: every pod (placed or still
/// pending, with the scheduler's message), every claim (allocated or not) and every PodGroup
/// (with the condition its group cycle left).
struct AllocationOutcome
{
    std::vector<api::Pod> pods;
    std::vector<api::ResourceClaim> claims;
    std::vector<api::PodGroup> podGroups;
    std::vector<Diagnostic> diagnostics; ///< the scheduler model's own (selectors that do not compile...)
    bool ok = false; ///< false when the model could not be built
};

/// Schedules the document's objects on a worker thread with the core's kube-scheduler model, and
/// explains a pending pod on request (the same diagnosis as `drasim explain`), each kind of request
/// on threads of its own at a lower priority than the UI. A newer request drops the signals of
/// older ones of its kind; none can be stopped, so a request waits for the one of its kind in
/// flight, and of those waiting only the newest runs (JobThreads, one at a time). The destructor
/// waits for every request in flight.
class AllocationJob : public QObject
{
    Q_OBJECT
public:
    explicit AllocationJob(QObject* parent = nullptr);
    ~AllocationJob() override;

    /// As `drasim allocate --kubernetes-version ...` schedules them at these gates.
    void schedule(std::shared_ptr<const api::ObjectSet> objects, const api::FeatureGates& gates);
    /// podKey: "namespace/name". The pods before it in input order are scheduled first, and a
    /// member of a PodGroup is explained after its group's cycle (as `drasim explain`).
    void explain(
        std::shared_ptr<const api::ObjectSet> objects, const api::FeatureGates& gates, const QString& podKey);
    /// The pending pod podKey of a scenario's run at simulated time `at`, as `drasim explain --at`
    /// gives it: the run is simulated again with `seed` up to `at`. A request that has not started
    /// when a newer one comes is skipped: scrubbing the timeline queues no pile of runs (and so
    /// for the other kinds).
    void explainAt(std::shared_ptr<const sim::PreparedScenario> prepared, quint64 seed, qint64 at,
        const QString& podKey);

Q_SIGNALS:
    void scheduled(std::shared_ptr<const drasim::ui::AllocationOutcome> outcome);
    /// diagnosis is null when the pod is not pending (or the model could not be built).
    void explained(const QString& podKey, std::shared_ptr<const drasim::scheduler::PodDiagnosis> diagnosis);
    /// The answer to explainAt: a diagnosis, or a problem (the pod is not pending then, or the
    /// run could not be built, with its diagnostics).
    void explainedAt(
        const QString& podKey, qint64 at, std::shared_ptr<const drasim::sim::PodExplanationAt> answer);

private:
    using Runs = JobThreads<AllocationJob>;
    Runs m_schedules { this, Runs::Overlap::OneAtATime };
    Runs m_explains { this, Runs::Overlap::OneAtATime };
    Runs m_explainsAt { this, Runs::Overlap::OneAtATime };
};

} // namespace drasim::ui
