// SPDX-License-Identifier: Apache-2.0
#include "core/sim/event_injector.h"

#include <algorithm>

#include "core/sim/eviction_controller.h"
#include "core/sim/job_controller.h"

namespace drasim::sim {

void EventInjector::schedule()
{
    for (uint32_t i = 0; i < m_events.size(); ++i)
        if (m_events[i].at <= m_ctx.options.duration)
            m_ctx.events.push(m_events[i].at, EventKind::Injected, i);
}

void EventInjector::apply(const Event& ev)
{
    const InjectedEvent& e = m_events[ev.a];
    if (!m_ctx.recorders.empty()) {
        const ClusterEvent announced = clusterEventOf(e, m_ctx.now);
        for (auto* r : m_ctx.recorders)
            r->onClusterEvent(announced);
    }
    switch (e.type) {
    case InjectedEvent::Type::NodeFailure:
        nodeFailed(e);
        break;
    case InjectedEvent::Type::NodeReturn:
        returnNode(e.node);
        break;
    case InjectedEvent::Type::DeviceTaint:
    case InjectedEvent::Type::DeviceUntaint:
        taintDevices(e, e.type == InjectedEvent::Type::DeviceTaint);
        break;
    case InjectedEvent::Type::DeviceTaintRule:
    case InjectedEvent::Type::DeviceTaintRuleDelete:
        applyTaintRule(e, e.type == InjectedEvent::Type::DeviceTaintRule);
        break;
    case InjectedEvent::Type::NodeTaint:
    case InjectedEvent::Type::NodeUntaint:
        taintNode(e, e.type == InjectedEvent::Type::NodeTaint);
        break;
    case InjectedEvent::Type::AddNodePool:
        if (e.newPool)
            addPool(e.newPool);
        break;
    case InjectedEvent::Type::RemoveNodePool:
        removePool(e.pool);
        break;
    case InjectedEvent::Type::PodGroupMinCount:
        m_jobs.setMinCount(e.workload, e.minCount);
        break;
    }
}

/// A node fails (or a reclaimed spot node goes away); drawn ones count in the failure figures.
/// A node already down (by a named event) does not fail again.
void EventInjector::nodeFailed(const InjectedEvent& e)
{
    if (e.origin == InjectedEvent::Origin::Scenario) {
        removeNode(e.node, "node " + e.node + " failed", true);
        return;
    }
    const bool reclaim = e.origin == InjectedEvent::Origin::SpotReclaim;
    const RemovedNode removed
        = removeNode(e.node, "node " + e.node + (reclaim ? " was reclaimed (spot)" : " failed"), true);
    if (removed.wasUp)
        m_ctx.failures.nodeDown(e.node, reclaim, m_ctx.now, removed.pods, removed.lostDeviceSeconds);
}

EventInjector::RemovedNode EventInjector::removeNode(
    const std::string& name, const std::string& why, bool keepForReturn)
{
    std::shared_ptr<const NodeSpec> spec = m_ctx.metrics.sharedNodeSpec(name);
    if (!spec)
        return {};
    if (keepForReturn)
        m_downNodes[name] = std::move(spec);
    m_ctx.metrics.removeNode(name, m_ctx.now);
    m_evictions.forgetNode(name);
    std::vector<std::string> victims = m_ctx.cluster.removeNode(name);
    std::sort(victims.begin(), victims.end());
    const double lost = m_jobs.failRunning(victims, PodEventType::Failed, why, true);
    return { true, int64_t(victims.size()), lost };
}

void EventInjector::returnNode(const std::string& name)
{
    auto it = m_downNodes.find(name);
    if (it == m_downNodes.end())
        return;
    m_ctx.failures.nodeBack(name, m_ctx.now);
    m_ctx.metrics.accrue(m_ctx.now);
    m_ctx.addNode(it->second, m_ctx.metrics.poolOfDownNode(name));
    m_downNodes.erase(it);
}

void EventInjector::addPool(const std::shared_ptr<const NodePool>& pool)
{
    m_ctx.metrics.accrue(m_ctx.now);
    m_ctx.metrics.addPool(pool->name, pool->pricePerHour);
    for (const auto& n : pool->nodes)
        m_ctx.addNode(std::shared_ptr<const NodeSpec>(pool, &n), pool->name);
}

void EventInjector::removePool(const std::string& pool)
{
    m_ctx.metrics.accrue(m_ctx.now);
    for (const auto& name : m_ctx.metrics.nodesOfPool(pool))
        removeNode(name, "node pool " + pool + " removed", false);
    for (const auto& name : m_ctx.metrics.downNodesOfPool(pool))
        m_downNodes.erase(name);
    m_ctx.metrics.forgetDownNodes(pool);
}

void EventInjector::taintDevices(const InjectedEvent& e, bool add)
{
    std::vector<std::string> victims;
    for (const auto& d : m_ctx.metrics.devicesOf(e.node)) {
        if (!e.driver.empty() && d.driver != e.driver)
            continue;
        if (!e.device.empty() && d.device != e.device)
            continue;
        if (add) {
            auto v = m_ctx.cluster.setDeviceTaint(d.driver, d.pool, d.device, e.taint);
            victims.insert(victims.end(), v.begin(), v.end());
        } else {
            m_ctx.cluster.removeDeviceTaint(d.driver, d.pool, d.device, e.taint.key);
        }
    }
    std::sort(victims.begin(), victims.end());
    victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
    m_jobs.failRunning(
        victims, PodEventType::Evicted, "device taint " + e.taint.key + ":" + e.taint.effect, false);
    m_evictions.deviceTaintsChanged();
}

/// A DeviceTaintRule event: the rule object is created (or replaced) or deleted, and the
/// cluster merges its taint into every device it selects, as the scheduler's slice tracker does.
void EventInjector::applyTaintRule(const InjectedEvent& e, bool add)
{
    if (!add) {
        m_ctx.cluster.removeDeviceTaintRule(e.pool);
        return;
    }
    api::DeviceTaintRule rule;
    rule.meta.name = e.pool;
    rule.deviceSelector = e.selector;
    rule.taint = e.taint;
    std::vector<std::string> victims = m_ctx.cluster.addDeviceTaintRule(rule);
    m_jobs.failRunning(victims, PodEventType::Evicted,
        "DeviceTaintRule " + e.pool + ": device taint " + e.taint.key + ":" + e.taint.effect, false);
    m_evictions.deviceTaintsChanged();
}

/// A node update: its taints change, the scheduler sees the new node, and the eviction
/// controller processes every pod on it.
void EventInjector::taintNode(const InjectedEvent& e, bool add)
{
    const NodeSpec* spec = m_ctx.metrics.nodeSpec(e.node);
    if (!spec)
        return;
    std::vector<api::Taint> taints = m_evictions.nodeTaints(e.node);
    auto same
        = [&](const api::Taint& t) { return t.key == e.taint.key && (!add || t.effect == e.taint.effect); };
    taints.erase(std::remove_if(taints.begin(), taints.end(), same), taints.end());
    if (add)
        taints.push_back(api::Taint { e.taint.key, e.taint.value, e.taint.effect, "" });
    api::Node node = spec->node;
    node.taints = taints;
    m_ctx.cluster.addNode(node, {});
    m_evictions.nodeTaintsChanged(e.node, std::move(taints));
}

} // namespace drasim::sim
