// SPDX-License-Identifier: Apache-2.0
#pragma once

// The order in which kube-scheduler examines nodes, and how many it examines.
//
// Its cache keeps nodes in a tree of zones (pkg/scheduler/backend/cache/node_tree.go): zones in
// the order they first appeared, each zone's nodes in the order they were added, and the list a
// scheduling cycle walks takes one node from each zone in turn. A cycle starts where the previous
// one stopped (nextStartNodeIndex) and stops filtering once it has found numFeasibleNodesToFind
// feasible nodes (schedule_one.go); only those are scored. On clusters of 100 nodes or fewer
// every node is examined, so the order never changes a result there.

#include <cstdint>
#include <string>
#include <vector>

#include "core/api/core_v1.h"

namespace drasim::scheduler {

/// component-helpers' GetZoneKey: region and zone from the topology labels (the beta
/// failure-domain labels when the GA ones are absent), "" when the node has neither.
std::string zoneKeyOf(const api::Node& node);

/// numFeasibleNodesToFind: with fewer than 100 nodes, all of them; else `percentage` of them (0:
/// the adaptive default, 50 % minus 1 % per 125 nodes, at least 5 %), and never fewer than 100.
uint32_t numFeasibleNodesToFind(int32_t percentageOfNodesToScore, uint32_t numAllNodes);

/// The "adaptive 41 %" or "50 %" that numFeasibleNodesToFind used, for explanations.
std::string percentageOfNodesToScoreText(int32_t percentageOfNodesToScore, uint32_t numAllNodes);

/// The cache's node tree: node names by zone, in the order nodes were added.
class NodeTree
{
public:
    void add(const std::string& name, const std::string& zone);
    /// add for a name known to be in no zone yet (a new cluster's nodes, their names already
    /// unique): no search of the zone's nodes for it, which made building a tree of n nodes n².
    void addNew(const std::string& name, const std::string& zone);
    /// Removes the node from its zone, and the zone when it empties (a zone that comes back is
    /// appended, as upstream's removeZone/addNode do). Unknown names are ignored.
    void remove(const std::string& name, const std::string& zone);
    /// A node whose zone changed moves to the end of its new zone; otherwise nothing changes.
    void update(const std::string& name, const std::string& oldZone, const std::string& newZone);
    /// Round robin over the zones: the first node of each zone, then the second of each, ...
    std::vector<std::string> list() const;
    size_t size() const { return m_size; }

private:
    struct Zone
    {
        std::string key;
        std::vector<std::string> nodes;
    };
    std::vector<Zone> m_zones; ///< in the order they appeared
    size_t m_size = 0;
};

} // namespace drasim::scheduler
