// SPDX-License-Identifier: Apache-2.0
#pragma once

// Measures a study's service levels on one simulation run, from its pod events and summary.
// A pod's wait is creation to first binding; a pod never bound counts the time it had waited
// when the run ended (or when it was deleted), so a cluster too small to bind a pod cannot look
// better than one that binds it late.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/planner/study.h"
#include "core/sim/run_recorder.h"

namespace drasim::planner {

class ServiceLevelRecorder : public sim::RunRecorder
{
public:
    /// `stop` is the run's own cancel token: it is raised once a `pending` service level is
    /// certainly missed (a pod has waited, or is waiting, longer than allowed), at the first pod
    /// event or sample after that, which ends a hopeless run right after that event (the simulator
    /// checks the token before every event), and when `user` (may be null) is cancelled.
    /// `abandon` (may be null), when raised, stops the run as `user` does (a run whose answer is no
    /// longer needed).
    ServiceLevelRecorder(const std::vector<ServiceLevel>& levels, CancelToken* stop, const CancelToken* user,
        const CancelToken* abandon = nullptr);

    void onPodEvent(const sim::PodEvent& event) override;
    /// It reads an event's time, type, pod, workload and priorityClass only.
    bool wantsPodEventDetails() const override { return false; }
    void onSample(const sim::MetricSample& sample) override;
    void onRunFinished(const sim::RunSummary& summary) override;

    /// One value per service level, in the study's order (valid after onRunFinished).
    const std::vector<double>& values() const { return m_values; }
    /// True when the run was ended early because a `pending` service level was missed. The
    /// values are then not results: the missed level's is only known to exceed its limit, the
    /// others are unknown.
    bool stoppedEarly() const { return m_stoppedEarly; }
    /// The simulated time of the event that decided the early stop (-1 when none did).
    sim::SimTime stoppedAt() const { return m_stoppedAt; }
    int64_t podsCreated() const { return m_created; }

private:
    struct Scope
    {
        std::vector<double> waits; ///< bound pods, and never-bound pods once they are closed
        int64_t created = 0;
        int64_t neverBound = 0; ///< closed without a binding (counted at the end for open ones)
        double maxClosedWait = 0; ///< the longest wait of a closed pod
        /// The scope's pods (PodEvent::serial) by (creation time, order of creation), open or
        /// closed: creation times only grow, so a pod is appended, and the oldest pending pod is
        /// the first open one from `firstOpen` on, which only moves forward.
        std::vector<uint64_t> byAge;
        size_t firstOpen = 0;
    };
    struct Pod
    {
        bool known = false; ///< a Created event was seen
        sim::SimTime created = 0;
        int64_t ordinal = 0; ///< order of creation
        const std::vector<Scope*>* scopes = nullptr; ///< the scopes it counts in
        bool bound = false;
        bool open = true; ///< neither bound nor gone
    };

    void close(Pod& pod, sim::SimTime now, bool bound);
    /// Files a new pod in the scope's age order.
    void addToScope(Scope& scope, uint64_t serial);
    /// The scope's oldest pod still pending; null when none is.
    const Pod* oldestOpen(Scope& scope);
    void checkPending(sim::SimTime now);
    /// The scopes a pod of this workload and priority class counts in (looked up once per pair:
    /// this runs for every pod of every run of a study).
    const std::vector<Scope*>& scopesOf(const std::string& workload, const std::string& priorityClass);

    std::vector<ServiceLevel> m_levels;
    CancelToken* m_stop;
    const CancelToken* m_user;
    const CancelToken* m_abandon;
    /// By PodEvent::serial: every pod of a run has its own, and a study records every pod of
    /// every run (a vector, not a map by name).
    std::vector<Pod> m_pods;
    /// By (workload, priority class) a service level names; "" = every workload or class.
    std::map<std::pair<std::string, std::string>, Scope> m_scopes;
    std::map<std::pair<std::string, std::string>, std::vector<Scope*>> m_scopesOfPods;
    /// scopesOf's last answer and its pair: most pods in a row share one (no key built for them).
    const std::vector<Scope*>* m_lastScopes = nullptr;
    std::string m_lastWorkload;
    std::string m_lastPriorityClass;
    std::vector<Scope*> m_levelScopes; ///< each level's scope (a `placement` level's: null)
    std::vector<double> m_values;
    double m_pendingMaxSeen = 0; ///< the age that triggered an early stop
    bool m_stoppedEarly = false;
    sim::SimTime m_stoppedAt = -1;
    int64_t m_created = 0;
};

} // namespace drasim::planner
