// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace drasim::scheduler {
struct GroupTreeNode;
}

namespace drasim::sim {

/// The hierarchical quorum of a CompositePodGroup hierarchy (KEP-6012; workload-scheduling.md
/// §5.2): a gang PodGroup holds it with minCount pods, a basic one with one; a gang composite
/// group with minGroupCount children that hold theirs, a basic one with one. PreEnqueue counts
/// the pods that exist; counted on the pods bound, it says when the hierarchy's job is whole and
/// its workers can start: the root is the unit, not its PodGroups.
struct TreeQuorum
{
    struct Level
    {
        std::string key; ///< namespace/name of the group
        int32_t parent = -1; ///< index of the composite group above it; -1 for the root
        bool composite = false;
        bool gang = false;
        int32_t minCount = 1; ///< a gang's minCount, or a composite gang's minGroupCount
    };
    std::vector<Level> levels; ///< parents before their children; the root first

    /// Some group of it is a gang. Without one, the first bound pod completes the quorum: the
    /// hierarchy is not a gang, and its pods work as they bind.
    bool anyGang() const;
    /// Whether the root holds its quorum with `bound` pods bound per PodGroup key.
    bool holds(const std::map<std::string, int32_t>& bound) const;
};

/// The quorum of the hierarchy under `root` (the tree a cycle takes, batch_hierarchies.h).
TreeQuorum treeQuorumOf(const scheduler::GroupTreeNode& root);

} // namespace drasim::sim
