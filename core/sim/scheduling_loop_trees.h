// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/sim/scheduling_loop.h"

namespace drasim::sim {

/// CompositePodGroup hierarchies in the scheduling loop (scheduling_loop_trees.cpp): the root is
/// the queue entity, queued once the hierarchical quorum holds with a pod pending; one cycle
/// (ClusterPort::scheduleGroupTree, the cycle `allocate` runs) places the tree top-down and binds
/// it whole, or the root waits for freed capacity and backs off as a PodGroup does. Preemption by
/// or of a hierarchy is not modelled: a root that does not fit is requeued.
struct SchedulingLoop::Trees
{
    /// A new pod of a job whose pods name a hierarchy's PodGroup (JobSpec::hierarchy) joins its
    /// hierarchy; false for any other pod.
    static bool add(SchedulingLoop& loop, uint32_t id);
    /// The pod ended or was deleted: it is no longer a member of its hierarchy.
    static void memberGone(SchedulingLoop& loop, uint32_t id);
    /// The index of the hierarchy the pod is a member of; kNone for a pod of none.
    static uint32_t treeOf(const SchedulingLoop& loop, uint32_t id);
    /// Its quorum when the hierarchy is a gang (GroupTree::quorum), null otherwise.
    static std::shared_ptr<const TreeQuorum> quorumOf(const SchedulingLoop& loop, uint32_t index)
    {
        return loop.m_trees.trees[index].quorum;
    }
    /// The queue state of a group entry without kGroupEntry (a job slot, or kTreeEntry and a
    /// hierarchy's index); null when the job ended or has no PodGroup.
    static GroupState* entity(SchedulingLoop& loop, uint32_t entry);
    /// One cycle of hierarchy `index`.
    static void attempt(SchedulingLoop& loop, uint32_t index);
    /// What holds the pending pod `id` of a hierarchy back, in the scheduler's words.
    static std::string status(const SchedulingLoop& loop, uint32_t id);
    /// Pending members of hierarchies, by the reason their root waits (for the sampler).
    static void addPending(const SchedulingLoop& loop, std::map<std::string, int64_t>& pending);
};

} // namespace drasim::sim
