// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/sim/sim_context.h"
#include "core/sim/tree_quorum.h"

namespace drasim::sim {

/// Queue entries of CompositePodGroup hierarchies carry this bit beside kGroupEntry (the rest: the
/// hierarchy's index in GroupTrees::trees).
constexpr uint32_t kTreeEntry = 0x40000000u;

/// A CompositePodGroup hierarchy of a workload's manifests as the 1.37 scheduling queue holds it
/// (KEP-6012): its root is the queue entity of every pod of its PodGroups.
struct GroupTree
{
    /// The root's queue state, as a PodGroup's: policy.key names the root (or, for a hierarchy
    /// that cannot be built, the PodGroup whose pods wait), priority is the root's, members are the
    /// pod slots of all its PodGroups, pending and running, in creation order.
    GroupState queue;
    std::shared_ptr<const workload::ManifestGroups> objects;
    /// Its quorum, when some group of it is a gang: the run's gang figures take the hierarchy as
    /// one job (gang_tracker.h). Null for a plain hierarchy, or one that cannot be built.
    std::shared_ptr<const TreeQuorum> quorum;
};

/// The hierarchies the run has met, found by their key and by their pods.
struct GroupTrees
{
    std::vector<GroupTree> trees; ///< never shrinks: a hierarchy's objects live for the whole run
    std::map<std::string, uint32_t> byKey;
    std::unordered_map<uint32_t, uint32_t> ofPod; ///< pod slot -> index in `trees`
};

} // namespace drasim::sim
