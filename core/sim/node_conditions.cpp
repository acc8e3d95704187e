// SPDX-License-Identifier: Apache-2.0
#include "core/sim/node_conditions.h"

#include <algorithm>
#include <set>
#include <utility>

#include "core/sim/device_model_name.h"

namespace drasim::sim {

namespace {

/// The devices a node's slices publish, the newest generation of each pool only (as the
/// metrics count them: an outdated generation's devices no longer exist).
std::vector<NodeConditions::Device> publishedDevices(const NodeSpec& spec)
{
    std::vector<NodeConditions::Device> out;
    for (const auto& slice : spec.slices) {
        const bool outdated = std::any_of(spec.slices.begin(), spec.slices.end(), [&](const auto& other) {
            return other.driver == slice.driver && other.pool.name == slice.pool.name
                && other.pool.generation > slice.pool.generation;
        });
        if (outdated)
            continue;
        for (const auto& d : slice.devices)
            out.push_back(
                { slice.driver, slice.pool.name, d.name, deviceModelName(d).value_or(slice.driver) });
    }
    return out;
}

bool selects(const std::optional<api::DeviceTaintSelector>& s, const NodeConditions::Device& d)
{
    // A rule without a selector matches no device (resource_v1.h).
    if (!s || (!s->driver && !s->pool && !s->device))
        return false;
    return (!s->driver || *s->driver == d.driver) && (!s->pool || *s->pool == d.pool)
        && (!s->device || *s->device == d.name);
}

} // namespace

bool NodeCondition::draining() const
{
    return std::any_of(nodeTaints.begin(), nodeTaints.end(),
        [](const api::Taint& t) { return t.effect == "NoSchedule" || t.effect == "NoExecute"; });
}

/// The conditions while the events are applied one by one.
struct NodeConditions::Live
{
    /// A device taint in force: its key and the DeviceTaintRule it came from ("" for a DeviceTaint).
    struct DeviceTaint
    {
        std::string key;
        std::string rule;
    };
    std::set<std::string> up;
    std::set<std::string> failed; ///< may return
    std::set<std::string> removed;
    std::map<std::string, std::vector<api::Taint>> nodeTaints;
    /// (node, "driver/device") → taints
    std::map<std::pair<std::string, std::string>, std::vector<DeviceTaint>> deviceTaints;

    void dropDeviceTaints(const std::string& key, const std::string& rule)
    {
        for (auto it = deviceTaints.begin(); it != deviceTaints.end();) {
            auto& taints = it->second;
            taints.erase(
                std::remove_if(taints.begin(), taints.end(),
                    [&](const DeviceTaint& t) { return t.rule == rule && (key.empty() || t.key == key); }),
                taints.end());
            it = taints.empty() ? deviceTaints.erase(it) : std::next(it);
        }
    }
    /// The node failed: the engine forgets its taints; a DeviceTaintRule's stay with the rule.
    void fail(const std::string& node)
    {
        if (up.erase(node) == 0)
            return;
        failed.insert(node);
        nodeTaints.erase(node);
        for (auto it = deviceTaints.lower_bound({ node, "" });
             it != deviceTaints.end() && it->first.first == node;) {
            auto& taints = it->second;
            taints.erase(std::remove_if(taints.begin(), taints.end(),
                             [](const DeviceTaint& t) { return t.rule.empty(); }),
                taints.end());
            it = taints.empty() ? deviceTaints.erase(it) : std::next(it);
        }
    }
};

NodeConditions::NodeConditions(const std::vector<std::shared_ptr<const NodePool>>& pools,
    const std::vector<InjectedEvent>& events, SimTime until)
{
    auto index = [this](const NodePool& pool) {
        for (const auto& node : pool.nodes) {
            m_devices[node.node.meta.name] = publishedDevices(node);
            m_poolNodes[pool.name].push_back(node.node.meta.name);
        }
    };
    for (const auto& pool : pools)
        if (pool) {
            index(*pool);
            for (const auto& node : pool->nodes)
                m_initial.push_back(node.node.meta.name);
        }
    for (const auto& e : events) {
        if (e.at > until)
            continue;
        m_events.push_back(e);
        m_announced.push_back(clusterEventOf(e, e.at));
        if (e.type == InjectedEvent::Type::AddNodePool && e.newPool)
            index(*e.newPool);
    }
    std::stable_sort(m_events.begin(), m_events.end(),
        [](const InjectedEvent& a, const InjectedEvent& b) { return a.at < b.at; });
    std::stable_sort(m_announced.begin(), m_announced.end(),
        [](const ClusterEvent& a, const ClusterEvent& b) { return a.time < b.time; });

    Live live;
    live.up.insert(m_initial.begin(), m_initial.end());
    auto point = [&](SimTime t) {
        CapacityPoint p;
        p.time = t;
        p.nodesUp = int64_t(live.up.size());
        for (const auto& node : live.up)
            for (const auto& d : m_devices[node]) {
                ++p.devicesUp;
                ++p.devicesUpByModel[d.model];
            }
        return p;
    };
    m_capacity.push_back(point(0));
    for (const auto& e : m_events) {
        const std::set<std::string> upBefore = live.up;
        apply(live, e);
        if (live.up == upBefore)
            continue; // a taint: the same nodes and devices are up
        CapacityPoint p = point(e.at);
        if (m_capacity.back().time == e.at)
            m_capacity.back() = std::move(p);
        else
            m_capacity.push_back(std::move(p));
    }
}

void NodeConditions::apply(Live& live, const InjectedEvent& e) const
{
    using Type = InjectedEvent::Type;
    auto devicesOf = [this](const std::string& node) -> const std::vector<Device>& {
        static const std::vector<Device> none;
        auto it = m_devices.find(node);
        return it == m_devices.end() ? none : it->second;
    };
    switch (e.type) {
    case Type::NodeFailure:
        live.fail(e.node);
        break;
    case Type::NodeReturn:
        if (live.failed.erase(e.node) > 0)
            live.up.insert(e.node);
        break;
    case Type::AddNodePool:
        if (e.newPool)
            for (const auto& node : e.newPool->nodes)
                live.up.insert(node.node.meta.name);
        break;
    case Type::RemoveNodePool: {
        auto nodes = m_poolNodes.find(e.pool);
        if (nodes == m_poolNodes.end())
            break;
        for (const auto& node : nodes->second) {
            live.fail(node);
            if (live.failed.erase(node) > 0)
                live.removed.insert(node);
        }
        break;
    }
    case Type::DeviceTaint:
    case Type::DeviceUntaint:
        if (!live.up.count(e.node))
            break; // the engine taints only the devices of a node that is up
        for (const auto& d : devicesOf(e.node)) {
            if ((!e.driver.empty() && d.driver != e.driver) || (!e.device.empty() && d.name != e.device))
                continue;
            auto& taints = live.deviceTaints[{ e.node, d.driver + "/" + d.name }];
            taints.erase(
                std::remove_if(taints.begin(), taints.end(),
                    [&](const Live::DeviceTaint& t) { return t.rule.empty() && t.key == e.taint.key; }),
                taints.end());
            if (e.type == Type::DeviceTaint)
                taints.push_back({ e.taint.key, "" });
            if (taints.empty())
                live.deviceTaints.erase({ e.node, d.driver + "/" + d.name });
        }
        break;
    case Type::DeviceTaintRule:
    case Type::DeviceTaintRuleDelete:
        // The rule is replaced whole: its old taints go, the new selector's come.
        live.dropDeviceTaints("", e.pool);
        if (e.type == Type::DeviceTaintRule)
            for (const auto& [node, devices] : m_devices)
                for (const auto& d : devices)
                    if (selects(e.selector, d))
                        live.deviceTaints[{ node, d.driver + "/" + d.name }].push_back(
                            { e.taint.key, e.pool });
        break;
    case Type::NodeTaint:
    case Type::NodeUntaint: {
        if (!live.up.count(e.node))
            break;
        auto& taints = live.nodeTaints[e.node];
        const bool add = e.type == Type::NodeTaint;
        taints.erase(std::remove_if(taints.begin(), taints.end(),
                         [&](const api::Taint& t) {
                             return t.key == e.taint.key && (!add || t.effect == e.taint.effect);
                         }),
            taints.end());
        if (add)
            taints.push_back(api::Taint { e.taint.key, e.taint.value, e.taint.effect, "" });
        if (taints.empty())
            live.nodeTaints.erase(e.node);
        break;
    }
    case Type::PodGroupMinCount:
        break; // changes no node
    }
}

std::map<std::string, NodeCondition> NodeConditions::at(SimTime t) const
{
    Live live;
    live.up.insert(m_initial.begin(), m_initial.end());
    for (const auto& e : m_events) {
        if (e.at > t)
            break;
        apply(live, e);
    }
    std::map<std::string, NodeCondition> out;
    for (const auto& node : live.failed)
        out[node].down = true;
    for (const auto& node : live.removed) {
        out[node].down = true;
        out[node].removed = true;
    }
    for (const auto& [node, taints] : live.nodeTaints)
        out[node].nodeTaints = taints;
    for (const auto& [key, taints] : live.deviceTaints)
        out[key.first].taintedDevices.push_back(key.second); // map order: sorted per node
    return out;
}

CapacityPoint NodeConditions::capacityAt(SimTime t) const
{
    auto it = std::upper_bound(m_capacity.begin(), m_capacity.end(), t,
        [](SimTime time, const CapacityPoint& p) { return time < p.time; });
    return it == m_capacity.begin() ? CapacityPoint {} : *std::prev(it);
}

} // namespace drasim::sim
