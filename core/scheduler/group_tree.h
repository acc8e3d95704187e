// SPDX-License-Identifier: Apache-2.0
#pragma once

// A CompositePodGroup hierarchy as the scheduler's cycle sees it (scheduling.k8s.io/v1alpha3,
// Kubernetes 1.37 alpha, gate CompositePodGroup; KEP-6012): composite groups whose children are
// composite groups or PodGroups, the PodGroups holding the pods. The whole tree is one scheduling
// unit: one cycle places it top-down (composite_cycle.cpp) and binds it atomically, or nothing.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"

namespace drasim::scheduler {

struct GroupTreeNode
{
    /// key, policy and topology key of the group. For a composite group `minCount` is its gang's
    /// minGroupCount: how many children must be scheduled for it to be.
    PodGroupPolicy policy;
    bool composite = false;
    /// A composite group's children, in the order the cycle visits them (creation order).
    std::vector<GroupTreeNode> children;
    /// A PodGroup's pending members and the keys of its members bound in earlier cycles.
    std::vector<api::Pod> pending;
    std::vector<std::string> boundMembers;
};

/// What one cycle decided for one group of the tree.
struct GroupTreeOutcome
{
    std::string key;
    bool composite = false;
    bool scheduled
        = false; ///< its quorum held in the placement kept (or, if nothing was kept, in the last tried)
    std::string domain; ///< "key=value" of the domain kept, "" without a constraint
    std::string message; ///< why it was not scheduled, in the scheduler's words
    /// A PodGroup's members, one per pending pod in GroupTreeNode order.
    std::vector<ScheduleResult> members;
    /// Per member, when the tree's cycle failed: whether the member fitted in the run the failure
    /// reports (assumed, then forgotten with the rest). Empty when none did.
    std::vector<bool> fitted;
};

struct GroupTreeResult
{
    /// The root's quorum held and at least one pod was placed: the placed pods of the whole tree
    /// are bound. Otherwise nothing of the cycle was kept.
    bool scheduled = false;
    int32_t placed = 0;
    std::string message; ///< the root's, when it was not scheduled
    std::vector<GroupTreeOutcome> groups; ///< every group of the tree, depth first, parents first
    /// Workload-aware preemption for the root after a failed cycle (hierarchy_preemption.cpp):
    /// the pods evicted, most important unit first, and its status; the members it made room for
    /// carry their nominated node in their ScheduleResult::preemption. Unset when not tried.
    std::optional<PreemptionResult> preemption;
    /// Nominations the failed cycle took back from members that fitted in it, when the tree does
    /// not wait on its preemption (GroupPreemption::clearTreeFittedNominations).
    int32_t nominationsCleared = 0;
};

/// PlacementFeasible of a composite gang after each child (KEP-6012, workload-scheduling.md §5.2):
/// `scheduled` children hold their quorum, `remaining` are still to try, `unschedulable` did not
/// fit. Success at minGroupCount (1 for basic); Wait while the remaining children can still reach
/// it; otherwise Unschedulable: the candidate placement is given up.
Feasibility compositeFeasible(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining);
std::string minGroupCountMessage(
    const PodGroupPolicy& group, int32_t scheduled, int32_t remaining, int32_t unschedulable);

/// One cycle for a whole hierarchy on one view of the cluster (see composite_cycle.cpp).
/// `topologyAware`: gate TopologyAwareWorkloadScheduling (without it the keys are dropped).
GroupTreeResult scheduleGroupTree(Cluster& cluster, const GroupTreeNode& root, bool topologyAware);

} // namespace drasim::scheduler
