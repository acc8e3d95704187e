// SPDX-License-Identifier: Apache-2.0
#include "ui/models/cluster_devices.h"

namespace drasim::ui {

ClusterDevices::ClusterDevices(
    std::shared_ptr<const api::ObjectSet> objects, std::shared_ptr<const topology::PlacementIndex> placement)
    : m_objects(std::move(objects))
    , m_placement(std::move(placement))
{
    if (!m_objects)
        return;
    for (const auto& node : m_objects->nodes) {
        m_byName.emplace(node.meta.name, m_nodes.size());
        m_nodes.push_back(NodeDevices { node.meta.name, nullptr, {} });
    }
    for (const auto& slice : m_objects->resourceSlices) {
        // Node-local slices only: a network-attached pool belongs to no single node's graph.
        if (!slice.nodeName)
            continue;
        auto at = m_byName.find(*slice.nodeName);
        if (at == m_byName.end())
            continue;
        NodeDevices& node = m_nodes[at->second];
        for (const auto& device : slice.devices) {
            PlacedDevice placed { DeviceKey { slice.driver, slice.pool.name, device.name }, -1, {}, &device };
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

ClaimPlacement ClusterDevices::placeClaim(const std::vector<DeviceKey>& devices) const
{
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
    return out;
}

} // namespace drasim::ui
