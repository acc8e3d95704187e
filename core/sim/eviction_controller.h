// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/sim/sim_context.h"

namespace drasim::sim {

class JobController;

/// The taint eviction controllers: pods on devices with a NoExecute device taint (DRA's
/// device_taint_eviction) and pods on nodes with a NoExecute node taint (node_taint_eviction.h)
/// are evicted at once, or when the tolerationSeconds of the tolerations they use run out.
/// It also keeps the node taints that scenario events changed.
class EvictionController
{
public:
    EvictionController(SimContext& ctx, JobController& jobs)
        : m_ctx(ctx)
        , m_jobs(jobs)
    { }

    /// A pod was bound: it may already sit on a tolerated NoExecute device or node taint.
    void podBound(uint32_t id);
    /// Device taints changed: the new eviction deadline of every pod holding a tainted device.
    void deviceTaintsChanged();
    /// A TaintEviction event: a tolerated device taint's time is up.
    void deviceTaintDue(const Event& e);
    /// A NodeTaintEviction event: a tolerated node taint's time is up.
    void nodeTaintDue(const Event& e);

    /// The node's taints as the scenario's events left them.
    const std::vector<api::Taint>& nodeTaints(const std::string& node) const;
    /// A node update with new taints (the cluster has been told): every pod on the node is
    /// processed again.
    void nodeTaintsChanged(const std::string& node, std::vector<api::Taint> taints);
    /// The node left the cluster: its changed taints are forgotten.
    void forgetNode(const std::string& node) { m_changedNodeTaints.erase(node); }

private:
    void scheduleDeviceEviction(uint32_t id, double at);
    void checkNodeTaints(uint32_t id);
    const std::vector<api::Toleration>& tolerationsOf(const SimPod& p) const;

    SimContext& m_ctx;
    JobController& m_jobs;
    /// Node taints changed by NodeTaint/NodeUntaint events (others keep their NodeSpec's taints).
    std::unordered_map<std::string, std::vector<api::Taint>> m_changedNodeTaints;
};

} // namespace drasim::sim
