// SPDX-License-Identifier: Apache-2.0
#pragma once

// One-shot scheduling of CompositePodGroup hierarchies (scheduling.k8s.io/v1alpha3, Kubernetes
// 1.37 alpha, gate CompositePodGroup), as `drasim allocate` does it: the first pending member of
// any PodGroup of a hierarchy brings the whole hierarchy to one cycle (group_tree.h), after the
// checks kube-scheduler makes before it: the hierarchy is complete and well formed, its
// hierarchical quorum holds, and its pods agree on schedulerName, priority and preemptionPolicy.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/api/scheduling_v1.h"
#include "core/scheduler/batch.h"
#include "core/scheduler/group_tree.h"
#include "core/scheduler/pod_group.h"

namespace drasim::scheduler {

/// The scheduler's view of a PodGroup's or CompositePodGroup's policy (for a composite,
/// minCount is its minGroupCount).
PodGroupPolicy groupPolicyOf(
    const std::string& key, const api::GroupPolicy& policy, bool workloadAwarePreemption);
/// A PodGroup's: groupPolicyOf, and what its claims need (spec.resourceClaims, uid, apiVersion).
PodGroupPolicy podGroupPolicyOf(const api::PodGroup& group, bool workloadAwarePreemption);

/// What one hierarchy's turn did.
struct HierarchyTurn
{
    std::vector<const api::PodGroup*> groups; ///< its PodGroups: their members have had their turn
    std::vector<size_t> members; ///< the pending members tried (indices into BatchResult::pods)
    /// Per member: the hierarchy's account of it for `explain` ("composite pod group default/job
    /// (gang, minGroupCount 2, topology block) > pod group default/a (...): last group cycle: ...").
    std::vector<std::string> accounts;
};

/// The hierarchy above a PodGroup as the scheduler takes it for one cycle: the tree, each of its
/// groups' pending members, and whether the cycle may run now.
struct HierarchyPlan
{
    /// The root's key; "" when the hierarchy cannot be built (a missing parent, a cycle, too many
    /// levels above the PodGroup): `refusal` then says why, for the PodGroup's members only.
    std::string rootKey;
    GroupTreeNode root;
    /// Per group of the tree, depth first, parents first (as GroupTreeResult::groups): the
    /// PodGroup (null for a composite group), the indices of its pending members in the pods
    /// given (in GroupTreeNode order) and the path of groups from the root that names it.
    struct Group
    {
        api::PodGroup* group = nullptr;
        std::vector<size_t> pending;
        std::string path;
    };
    std::vector<Group> groups;
    /// Why no cycle runs now, "" when one may: "composite pod group <root>: ..." for the whole
    /// hierarchy (or "pod group <leaf>: ..." when rootKey is "").
    std::string refusal;
    /// The refusal is a cycle's (the pods disagree on priority, schedulerName or preemptionPolicy):
    /// the hierarchy was tried and is unschedulable. Otherwise the scheduler waits before any cycle
    /// (PreEnqueue: the hierarchy is incomplete, too deep, or its quorum does not hold).
    bool refusedByCycle = false;
};

/// The plan for `leaf`'s hierarchy (leaf names a parent) over `pods`: pods with spec.nodeName are
/// its bound members, the others that need scheduling its pending ones.
HierarchyPlan planHierarchy(const api::PodGroup& leaf, const std::vector<api::CompositePodGroup>& composites,
    std::vector<api::PodGroup>& groups, const std::vector<api::Pod>& pods, bool workloadAwarePreemption);

/// Registers every PodGroup of a hierarchy with what preemption reads of it (its root, its
/// victim unit, its root's priority), so that its members bound before the run are evicted as
/// the hierarchy's units say. PodGroups without a parent are left to the caller.
void registerHierarchyGroups(Cluster& cluster, const std::vector<api::CompositePodGroup>& composites,
    std::vector<api::PodGroup>& groups, const std::vector<api::Pod>& pods, bool workloadAwarePreemption);

/// The turn of `leaf`'s hierarchy (leaf names a parent). Every pending member of the hierarchy
/// gets its result in `out`; the hierarchy's PodGroups get the condition their cycle left
/// (setGroupScheduledCondition), none when no cycle ran (an incomplete hierarchy or quorum waits
/// at PreEnqueue). CompositePodGroups get no status: the 1.37 scheduler writes none.
HierarchyTurn scheduleHierarchyAt(Cluster& cluster, BatchResult& out, const api::PodGroup& leaf,
    const std::vector<api::CompositePodGroup>& composites, std::vector<api::PodGroup>& groups,
    bool topologyAware, bool workloadAwarePreemption);

/// `explain` of a member of a hierarchy or of a lone PodGroup: bound, or its own fit on the
/// cluster the cycle left (tried and undone: the pod stays pending) with its group's `account`.
std::shared_ptr<const PodDiagnosis> explainHierarchyMember(
    Cluster& cluster, const api::Pod& pod, const std::string& account);

} // namespace drasim::scheduler
