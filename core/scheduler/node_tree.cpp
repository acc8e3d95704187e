// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/node_tree.h"

#include <algorithm>

namespace drasim::scheduler {

namespace {

// The schedule_one.go constants.
constexpr uint32_t kMinFeasibleNodesToFind = 100;
constexpr int32_t kMinFeasibleNodesPercentageToFind = 5;

const std::string* labelOf(const api::Node& node, const char* key)
{
    auto it = node.meta.labels.find(key);
    return it == node.meta.labels.end() ? nullptr : &it->second;
}

int32_t effectivePercentage(int32_t percentage, uint32_t numAllNodes)
{
    if (percentage != 0)
        return percentage;
    return std::max(int32_t(50) - int32_t(numAllNodes / 125), kMinFeasibleNodesPercentageToFind);
}

} // namespace

std::string zoneKeyOf(const api::Node& node)
{
    const std::string* zone = labelOf(node, "topology.kubernetes.io/zone");
    if (!zone)
        zone = labelOf(node, "failure-domain.beta.kubernetes.io/zone");
    const std::string* region = labelOf(node, "topology.kubernetes.io/region");
    if (!region)
        region = labelOf(node, "failure-domain.beta.kubernetes.io/region");
    const std::string z = zone ? *zone : std::string();
    const std::string r = region ? *region : std::string();
    if (z.empty() && r.empty())
        return {};
    // Upstream joins them with ":\x00:" so that a colon inside either cannot make two keys equal.
    return r + std::string(":\0:", 3) + z;
}

uint32_t numFeasibleNodesToFind(int32_t percentageOfNodesToScore, uint32_t numAllNodes)
{
    if (numAllNodes < kMinFeasibleNodesToFind)
        return numAllNodes;
    const int32_t percentage = effectivePercentage(percentageOfNodesToScore, numAllNodes);
    // Upstream multiplies in int32 before dividing; the product stays far below 2^31 for any
    // cluster size the API server accepts, so 64-bit arithmetic gives the same value.
    const uint64_t n = uint64_t(numAllNodes) * uint64_t(percentage) / 100;
    return n < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : uint32_t(n);
}

std::string percentageOfNodesToScoreText(int32_t percentageOfNodesToScore, uint32_t numAllNodes)
{
    const std::string value
        = std::to_string(effectivePercentage(percentageOfNodesToScore, numAllNodes)) + " %";
    return percentageOfNodesToScore == 0 ? "adaptive " + value : value;
}

void NodeTree::add(const std::string& name, const std::string& zone)
{
    auto it = std::find_if(m_zones.begin(), m_zones.end(), [&](const Zone& z) { return z.key == zone; });
    if (it != m_zones.end() && std::find(it->nodes.begin(), it->nodes.end(), name) != it->nodes.end())
        return;
    addNew(name, zone);
}

void NodeTree::addNew(const std::string& name, const std::string& zone)
{
    // The last zone first: nodes of one zone usually come one after another.
    auto it = !m_zones.empty() && m_zones.back().key == zone
        ? std::prev(m_zones.end())
        : std::find_if(m_zones.begin(), m_zones.end(), [&](const Zone& z) { return z.key == zone; });
    if (it == m_zones.end()) {
        m_zones.push_back(Zone { zone, {} });
        it = std::prev(m_zones.end());
    }
    it->nodes.push_back(name);
    ++m_size;
}

void NodeTree::remove(const std::string& name, const std::string& zone)
{
    auto it = std::find_if(m_zones.begin(), m_zones.end(), [&](const Zone& z) { return z.key == zone; });
    if (it == m_zones.end())
        return;
    auto n = std::find(it->nodes.begin(), it->nodes.end(), name);
    if (n == it->nodes.end())
        return;
    it->nodes.erase(n);
    --m_size;
    if (it->nodes.empty())
        m_zones.erase(it);
}

void NodeTree::update(const std::string& name, const std::string& oldZone, const std::string& newZone)
{
    if (oldZone == newZone)
        return;
    remove(name, oldZone);
    add(name, newZone);
}

std::vector<std::string> NodeTree::list() const
{
    std::vector<std::string> out;
    out.reserve(m_size);
    for (size_t i = 0; out.size() < m_size; ++i)
        for (const auto& z : m_zones)
            if (i < z.nodes.size())
                out.push_back(z.nodes[i]);
    return out;
}

} // namespace drasim::scheduler
