// SPDX-License-Identifier: Apache-2.0
#include "core/topology/placement_quality.h"

#include <algorithm>
#include <set>

namespace drasim::topology {

void PlacementIndex::addNode(const std::string& nodeName, std::shared_ptr<const SliceGenerator> generator)
{
    m_nodes[nodeName] = std::move(generator);
}

bool PlacementIndex::hasNode(const std::string& nodeName) const
{
    return m_nodes.count(nodeName) > 0;
}

std::optional<PlacementIndex::Located> PlacementIndex::locate(
    const std::string& nodeName, const DeviceRef& ref) const
{
    auto node = m_nodes.find(ref.pool);
    if (node == m_nodes.end())
        node = m_nodes.find(nodeName);
    if (node == m_nodes.end())
        return std::nullopt;
    const auto& idx = node->second->deviceIndex();
    auto it = idx.find({ ref.driver, ref.device });
    if (it == idx.end())
        return std::nullopt;
    return Located { node->second.get(), it->second };
}

PlacementQuality PlacementIndex::assess(
    const std::string& nodeName, const std::vector<DeviceRef>& devices) const
{
    PlacementQuality q;
    std::vector<int> comps;
    const SliceGenerator* gen = nullptr;
    for (const auto& ref : devices) {
        auto loc = locate(nodeName, ref);
        // Devices on another node's topology cannot be compared with this node's: count them
        // as unknown rather than inventing a distance.
        if (!loc || (gen && loc->generator != gen)) {
            q.unknown.push_back(ref.driver + "/" + ref.pool + "/" + ref.device);
            continue;
        }
        gen = loc->generator;
        comps.push_back(loc->location.component);
    }
    q.devices = int(comps.size());
    if (!gen)
        return q;
    const Topology& topo = gen->topology();
    std::set<int> numa;
    std::set<int> sockets;
    std::set<int> islands;
    for (size_t i = 0; i < comps.size(); ++i) {
        const int n = topo.numaNode(comps[i]);
        if (n >= 0) {
            numa.insert(n);
            sockets.insert(topo.socket(comps[i]));
        }
        const auto kind = topo.shape().components[comps[i]].kind;
        if (kind == ComponentKind::Gpu || kind == ComponentKind::Accelerator) {
            const int isl = topo.islandOf(comps[i]);
            if (isl >= 0)
                islands.insert(isl);
            else
                ++q.offFabric;
        }
        for (size_t j = i + 1; j < comps.size(); ++j) {
            Distance d = topo.distance(comps[i], comps[j]);
            // Fabric-connected pairs rank by class first; among fabric pairs fewer links is worse.
            const bool worse = q.worstPair.empty() || d.cls > q.worst.cls
                || (d.cls == q.worst.cls && d.cls == DistanceClass::Fabric && d.links < q.worst.links);
            if (worse) {
                q.worst = d;
                q.worstPair = topo.shape().components[comps[i]].name + " <-> "
                    + topo.shape().components[comps[j]].name;
            }
        }
    }
    q.numaNodes.assign(numa.begin(), numa.end());
    q.sockets = int(std::count_if(sockets.begin(), sockets.end(), [](int s) { return s >= 0; }));
    q.fabricIslands = int(islands.size());
    return q;
}

PlacementQuality PlacementIndex::assess(
    const std::string& nodeName, const api::AllocationResult& allocation) const
{
    std::vector<DeviceRef> refs;
    refs.reserve(allocation.results.size());
    for (const auto& r : allocation.results)
        refs.push_back(DeviceRef { r.driver, r.pool, r.device });
    return assess(nodeName, refs);
}

} // namespace drasim::topology
