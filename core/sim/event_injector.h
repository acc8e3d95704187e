// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/sim/sim_context.h"

namespace drasim::sim {

class EvictionController;
class JobController;

/// The scenario's events: node failures and returns, node pools added and removed, device and
/// node taints, DeviceTaintRules, a workload's gang minCount changed. Each is announced to the recorders,
/// then applied to the cluster port and the metrics; the pods it ends go through the job controller.
class EventInjector
{
public:
    EventInjector(SimContext& ctx, JobController& jobs, EvictionController& evictions)
        : m_ctx(ctx)
        , m_jobs(jobs)
        , m_evictions(evictions)
    { }

    void add(InjectedEvent event) { m_events.push_back(std::move(event)); }
    /// Puts every event within the run's duration on the event queue.
    void schedule();
    /// An Injected event: applies the scenario's event e.a.
    void apply(const Event& e);

private:
    /// What taking a node down did: whether it was up, how many pods it ended, their lost work.
    struct RemovedNode
    {
        bool wasUp = false;
        int64_t pods = 0;
        double lostDeviceSeconds = 0;
    };
    void nodeFailed(const InjectedEvent& e);
    RemovedNode removeNode(const std::string& name, const std::string& why, bool keepForReturn);
    void returnNode(const std::string& name);
    void addPool(const std::shared_ptr<const NodePool>& pool);
    void removePool(const std::string& pool);
    void taintDevices(const InjectedEvent& e, bool add);
    void applyTaintRule(const InjectedEvent& e, bool add);
    void taintNode(const InjectedEvent& e, bool add);

    SimContext& m_ctx;
    JobController& m_jobs;
    EvictionController& m_evictions;
    std::vector<InjectedEvent> m_events;
    std::map<std::string, std::shared_ptr<const NodeSpec>> m_downNodes; ///< failed nodes, to bring them back
};

} // namespace drasim::sim
