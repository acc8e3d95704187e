// SPDX-License-Identifier: Apache-2.0
#include "ui/models/cluster_devices.h"

#include <algorithm>
#include <optional>
#include <set>

#include "core/session/selector_preview.h"
#include "core/sim/device_model_name.h"
#include "core/topology/rack_layout.h"

namespace drasim::ui {

ClusterDevices::ClusterDevices(std::shared_ptr<const api::ObjectSet> objects,
    std::shared_ptr<const topology::PlacementIndex> placement,
    const std::vector<std::shared_ptr<const sim::NodePool>>& pools, const std::atomic<bool>* stop)
    : m_objects(std::move(objects))
    , m_placement(std::move(placement))
{
    if (!m_objects)
        return;
    for (const auto& node : m_objects->nodes) {
        m_byName.emplace(node.meta.name, m_nodes.size());
        m_nodes.push_back(NodeDevices { node.meta.name, nullptr, nullptr, {}, {}, {}, {} });
    }
    const auto stopped = [stop]() { return stop && stop->load(std::memory_order_relaxed); };
    for (const auto& slice : m_objects->resourceSlices) {
        if (stopped())
            return;
        // Node-local slices only: a network-attached pool belongs to no single node's graph.
        if (!slice.nodeName)
            continue;
        // A dump of slices alone (`kubectl get resourceslices`) names nodes it has no objects of:
        // they are drawn all the same, after the listed nodes.
        auto at = m_byName.try_emplace(*slice.nodeName, m_nodes.size()).first;
        if (at->second == m_nodes.size())
            m_nodes.push_back(NodeDevices { *slice.nodeName, nullptr, nullptr, {}, {}, {}, {} });
        NodeDevices& node = m_nodes[at->second];
        for (const auto& device : slice.devices) {
            PlacedDevice placed { DeviceKey { slice.driver, slice.pool.name, device.name }, -1, {}, &device,
                -1, {} };
            if (m_placement) {
                if (auto loc
                    = m_placement->locate(node.name, { slice.driver, slice.pool.name, device.name })) {
                    placed.component = loc->location.component;
                    placed.profile = loc->location.profile;
                    if (!node.topology)
                        node.topology = loc->generator->topologyPtr();
                }
            }
            node.devices.push_back(std::move(placed));
        }
    }
    for (size_t n = 0; n < m_nodes.size(); ++n) {
        NodeDevices& node = m_nodes[n];
        if (node.topology || node.devices.empty())
            continue;
        if (stopped())
            return;
        deriveTopology(node);
        for (size_t d = 0; d < node.devices.size(); ++d)
            m_derivedDevices.emplace(node.devices[d].key, std::pair { n, d });
    }
    classify(stop);
    if (!stopped())
        describeNodes(pools);
}

std::vector<std::string> ClusterDevices::nodesInDomain(const std::string& domain) const
{
    std::vector<std::string> out;
    const auto eq = domain.find('=');
    if (eq == std::string::npos || !m_objects)
        return out;
    const std::string key = domain.substr(0, eq);
    const std::string value = domain.substr(eq + 1);
    for (const auto& node : m_objects->nodes)
        if (auto label = node.meta.labels.find(key);
            label != node.meta.labels.end() && label->second == value)
            out.push_back(node.meta.name);
    return out;
}

void ClusterDevices::describeNodes(const std::vector<std::shared_ptr<const sim::NodePool>>& pools)
{
    for (const auto& pool : pools)
        for (const auto& spec : pool->nodes)
            if (auto it = m_byName.find(spec.node.meta.name); it != m_byName.end())
                m_nodes[it->second].pool = pool->name;
    for (const auto& node : m_objects->nodes)
        if (auto label = node.meta.labels.find(topology::kRackLabel); label != node.meta.labels.end())
            m_nodes[m_byName.at(node.meta.name)].rack = label->second;
    for (auto& node : m_nodes) {
        // Devices per model, those a DeviceClass selects counted first: a DGX's GPUs lead its NICs.
        std::map<std::string, std::pair<int, int>> counts; // model → (classed, all)
        std::vector<std::string> order;
        for (const auto& d : node.devices) {
            const auto model = d.device ? sim::deviceModelName(*d.device) : std::nullopt;
            if (!model)
                continue;
            auto [at, added] = counts.try_emplace(*model, 0, 0);
            if (added)
                order.push_back(*model);
            at->second.first += d.classes.empty() ? 0 : 1;
            ++at->second.second;
        }
        std::stable_sort(order.begin(), order.end(),
            [&](const std::string& a, const std::string& b) { return counts[a] > counts[b]; });
        node.models = std::move(order);
    }
}

// Which DeviceClasses select each device, by their selectors as the scheduler evaluates them
// (a class without selectors selects every device; one that does not compile, none), so node
// tiles count GPUs as GPUs rather than lumping them with NICs.
void ClusterDevices::classify(const std::atomic<bool>* stop)
{
    std::map<DeviceKey, PlacedDevice*> byKey;
    for (auto& node : m_nodes)
        for (auto& d : node.devices)
            byKey.emplace(d.key, &d);
    for (const auto& deviceClass : m_objects->deviceClasses) {
        if (stop && stop->load(std::memory_order_relaxed))
            return;
        std::vector<std::shared_ptr<const cel::Selector>> selectors;
        bool compiled = true;
        for (const auto& s : deviceClass.selectors) {
            cel::CompileError error;
            auto selector = cel::Selector::compile(s.expression, &error);
            compiled = compiled && selector;
            if (selector)
                selectors.push_back(std::move(selector));
        }
        if (!compiled)
            continue;
        const int index = int(m_classNames.size());
        m_classNames.push_back(deviceClass.meta.name);
        for (const auto& verdict : session::evaluateSelectors(selectors, *m_objects).devices)
            if (verdict.match == session::DeviceMatch::Match)
                if (auto it = byKey.find({ verdict.driver, verdict.pool, verdict.device }); it != byKey.end())
                    it->second->classes.push_back(index);
    }
}

// A node no shape built (manifests, a kubectl dump): its devices' attributes give the PCIe roots
// and NUMA nodes, and a sketch of them to draw.
void ClusterDevices::deriveTopology(NodeDevices& node)
{
    std::vector<topology::PublishedDevice> published;
    published.reserve(node.devices.size());
    for (const auto& d : node.devices)
        published.push_back({ d.key.driver, d.key.pool, d.device });
    auto derived = std::make_shared<const topology::AttributeTopology>(published);
    std::vector<int> componentOfUnit;
    node.topology = std::make_shared<const topology::Topology>(derived->sketch(node.name, &componentOfUnit));
    for (size_t i = 0; i < node.devices.size(); ++i) {
        node.devices[i].unit = int(derived->unitOf(i));
        node.devices[i].component = componentOfUnit[derived->unitOf(i)];
    }
    node.derived = std::move(derived);
}

const NodeDevices* ClusterDevices::node(const std::string& name) const
{
    auto it = m_byName.find(name);
    return it == m_byName.end() ? nullptr : &m_nodes[it->second];
}

std::vector<const PlacedDevice*> ClusterDevices::devicesOn(const std::string& name, int component) const
{
    std::vector<const PlacedDevice*> out;
    if (const NodeDevices* n = node(name))
        for (const auto& d : n->devices)
            if (d.component == component)
                out.push_back(&d);
    return out;
}

std::string ClusterDevices::componentName(const std::string& name, int component) const
{
    const auto on = devicesOn(name, component);
    if (on.size() == 1)
        return on.front()->key.device;
    if (on.size() > 1)
        return on.front()->key.device + " +" + std::to_string(on.size() - 1);
    const NodeDevices* n = node(name);
    if (!n || !n->topology || component < 0 || size_t(component) >= n->topology->shape().components.size())
        return {};
    return n->topology->shape().components[size_t(component)].name;
}

ClaimPlacement ClusterDevices::placeClaim(const std::vector<DeviceKey>& devices) const
{
    if (!devices.empty() && m_derivedDevices.count(devices.front()))
        return placeByAttributes(devices);
    ClaimPlacement out;
    if (devices.empty() || !m_placement)
        return out;
    out.node = devices.front().pool;
    std::vector<topology::DeviceRef> refs;
    for (const auto& key : devices)
        refs.push_back({ key.driver, key.pool, key.device });
    out.quality = m_placement->assess(out.node, refs);
    const NodeDevices* n = node(out.node);
    if (!n || !n->topology)
        return out;
    for (const auto& ref : refs)
        if (auto loc = m_placement->locate(out.node, ref);
            loc && loc->generator->topologyPtr() == n->topology)
            out.components.push_back(loc->location.component);
    for (size_t i = 0; i < out.components.size(); ++i)
        for (size_t j = i + 1; j < out.components.size(); ++j)
            if (out.components[i] != out.components[j])
                out.pairs.emplace_back(out.components[i], out.components[j],
                    n->topology->distance(out.components[i], out.components[j]).label());
    out.worst = out.quality.worst.label();
    return out;
}

ClaimPlacement ClusterDevices::placeByAttributes(const std::vector<DeviceKey>& devices) const
{
    ClaimPlacement out;
    out.fromAttributes = true;
    const NodeDevices& node = m_nodes[m_derivedDevices.at(devices.front()).first];
    out.node = node.name;
    std::vector<const PlacedDevice*> located;
    for (const auto& key : devices) {
        auto at = m_derivedDevices.find(key);
        if (at == m_derivedDevices.end() || &m_nodes[at->second.first] != &node) {
            out.quality.unknown.push_back(key.driver + "/" + key.pool + "/" + key.device);
            continue;
        }
        located.push_back(&node.devices[at->second.second]);
        out.components.push_back(located.back()->component);
    }
    out.quality.devices = int(located.size());
    const auto& shape = node.topology->shape();
    std::set<int> numa;
    topology::DistanceRange worst { topology::DistanceClass::Self, topology::DistanceClass::Self };
    for (size_t i = 0; i < located.size(); ++i) {
        if (const auto& n = node.derived->units()[size_t(located[i]->unit)].position.numaNode)
            numa.insert(*n);
        for (size_t j = i + 1; j < located.size(); ++j) {
            const auto range = node.derived->distance(size_t(located[i]->unit), size_t(located[j]->unit));
            if (located[i]->component != located[j]->component)
                out.pairs.emplace_back(located[i]->component, located[j]->component, range.label());
            if (fartherThan(range, worst) || out.quality.worstPair.empty()) {
                worst = range;
                out.quality.worstPair = shape.components[size_t(located[i]->component)].name + " <-> "
                    + shape.components[size_t(located[j]->component)].name;
            }
        }
    }
    out.quality.numaNodes.assign(numa.begin(), numa.end());
    out.worst = worst.label();
    return out;
}

} // namespace drasim::ui
