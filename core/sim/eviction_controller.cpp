// SPDX-License-Identifier: Apache-2.0
#include "core/sim/eviction_controller.h"

#include <algorithm>

#include "core/scheduler/node_taint_eviction.h"
#include "core/sim/job_controller.h"

namespace drasim::sim {

void EvictionController::podBound(uint32_t id)
{
    // A NoExecute device taint the pod's claims tolerate only for a while (or, with an
    // effect-less toleration, not at all for the eviction controller) evicts it later.
    if (auto at = m_ctx.cluster.deviceTaintEvictionTime(m_ctx.pods[id].key))
        scheduleDeviceEviction(id, *at);
    checkNodeTaints(id);
}

/// Asks for a TaintEviction check of the pod at `at` (simulated seconds, not before now).
void EvictionController::scheduleDeviceEviction(uint32_t id, double at)
{
    SimPod& p = m_ctx.pods[id];
    const SimTime t = std::max(m_ctx.now, fromSeconds(at));
    if (p.evictAt == t || t > m_ctx.options.duration)
        return;
    p.evictAt = t;
    m_ctx.events.push(t, EventKind::TaintEviction, id, p.serial);
}

void EvictionController::deviceTaintsChanged()
{
    for (const auto& [key, at] : m_ctx.cluster.deviceTaintEvictions()) {
        const uint32_t id = m_ctx.runningPod(key);
        if (id != kNone)
            scheduleDeviceEviction(id, at);
    }
}

/// Evicts unless the taint went away (or a later deadline replaced this one).
void EvictionController::deviceTaintDue(const Event& e)
{
    SimPod& p = m_ctx.pods[e.a];
    if (p.state != PodState::Running || p.serial != e.b || p.evictAt != m_ctx.now)
        return;
    p.evictAt = -1;
    auto at = m_ctx.cluster.deviceTaintEvictionTime(p.key);
    if (!at)
        return;
    if (fromSeconds(*at) > m_ctx.now) {
        scheduleDeviceEviction(e.a, *at);
        return;
    }
    m_jobs.failRunning(
        { p.key }, PodEventType::Evicted, "NoExecute device taint: tolerationSeconds elapsed", false);
}

const std::vector<api::Taint>& EvictionController::nodeTaints(const std::string& node) const
{
    static const std::vector<api::Taint> kNoTaints;
    auto it = m_changedNodeTaints.find(node);
    if (it != m_changedNodeTaints.end())
        return it->second;
    const NodeSpec* spec = m_ctx.metrics.nodeSpec(node);
    return spec ? spec->node.taints : kNoTaints;
}

const std::vector<api::Toleration>& EvictionController::tolerationsOf(const SimPod& p) const
{
    static const std::vector<api::Toleration> kNoTolerations;
    const auto& task = m_ctx.jobs[p.job].spec.tasks[p.task];
    return task.pod ? task.pod->spec.tolerations : kNoTolerations;
}

/// The controller (re)processes a pod on its node: an eviction already scheduled stays as it
/// is (processPodOnNode keeps the earlier one); none is scheduled when nothing evicts the pod.
void EvictionController::checkNodeTaints(uint32_t id)
{
    SimPod& p = m_ctx.pods[id];
    // Without a NoExecute node taint anywhere nothing evicts (as noExecuteEvictionDelay finds).
    const bool anyTaint = !m_changedNodeTaints.empty() || m_ctx.metrics.anyNoExecuteNode();
    auto delay
        = anyTaint ? scheduler::noExecuteEvictionDelay(nodeTaints(p.node), tolerationsOf(p)) : std::nullopt;
    if (!delay) {
        p.nodeEvictAt = -1;
        return;
    }
    if (p.nodeEvictAt >= 0)
        return;
    const SimTime t = m_ctx.now + fromSeconds(*delay);
    if (t > m_ctx.options.duration)
        return;
    p.nodeEvictAt = t;
    m_ctx.events.push(t, EventKind::NodeTaintEviction, id, p.serial);
}

void EvictionController::nodeTaintsChanged(const std::string& node, std::vector<api::Taint> taints)
{
    m_changedNodeTaints[node] = std::move(taints);
    for (uint32_t id = 0; id < m_ctx.pods.size(); ++id)
        if (m_ctx.pods[id].state == PodState::Running && m_ctx.pods[id].node == node)
            checkNodeTaints(id);
}

void EvictionController::nodeTaintDue(const Event& e)
{
    SimPod& p = m_ctx.pods[e.a];
    if (p.state != PodState::Running || p.serial != e.b || p.nodeEvictAt != m_ctx.now)
        return;
    p.nodeEvictAt = -1;
    if (!scheduler::noExecuteEvictionDelay(nodeTaints(p.node), tolerationsOf(p)))
        return;
    m_jobs.failRunning({ p.key }, PodEventType::Evicted, "NoExecute taint of node " + p.node, false);
}

} // namespace drasim::sim
