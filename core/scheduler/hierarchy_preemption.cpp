// SPDX-License-Identifier: Apache-2.0
// Workload-aware preemption for a CompositePodGroup hierarchy (Kubernetes 1.37 alpha, KEP-6012;
// workload-scheduling.md §3 and §5.2). kubernetes/kubernetes#140634 runs PodGroupPostFilter for a
// root whose cycle failed exactly as for a PodGroup: the algorithm only calls back into the
// workload's scheduling, whatever the shape of the workload ("the structure of the workload
// doesn't really matter", KEP-6012 review). So the hierarchy is handed to the PodGroup's
// preemption (group_preemption.cpp) as one group: the root's policy (key, priority,
// preemptionPolicy), every pending pod of its leaves in the tree's order, and an attempt that
// runs the whole tree's cycle. Its nominations then go back to the members where they came from.
#include <string>
#include <utility>
#include <vector>

#include "core/scheduler/group_preemption.h"

namespace drasim::scheduler {

namespace {

/// Every group of the tree, depth first, parents first: as GroupTreeResult::groups lists them.
void treeInOrder(const GroupTreeNode& n, std::vector<const GroupTreeNode*>& order)
{
    order.push_back(&n);
    for (const auto& c : n.children)
        treeInOrder(c, order);
}

} // namespace

bool Cluster::Impl::GroupPreemption::treePostFilter(
    Impl& d, const GroupTreeNode& root, const std::function<GroupTreeResult()>& attempt, GroupTreeResult& out)
{
    std::vector<const GroupTreeNode*> order;
    treeInOrder(root, order);
    std::vector<api::Pod> pods;
    std::vector<std::pair<size_t, size_t>> where; // each pod's group (index in order) and member
    for (size_t k = 0; k < order.size(); ++k)
        for (size_t j = 0; j < order[k]->pending.size(); ++j) {
            pods.push_back(order[k]->pending[j]);
            where.emplace_back(k, j);
        }
    if (pods.empty())
        return false;
    // The tree's result as one group's: its members flattened in the order of `pods`.
    const auto flat = [&where](const GroupTreeResult& r) {
        GroupScheduleResult g;
        g.scheduled = r.scheduled;
        g.placed = r.placed;
        g.message = r.message;
        for (const auto& [k, j] : where) {
            const bool known = k < r.groups.size() && j < r.groups[k].members.size();
            g.members.push_back(known ? r.groups[k].members[j] : ScheduleResult {});
        }
        return g;
    };
    GroupScheduleResult mine = flat(out);
    const bool waiting = postFilter(
        d, root.policy, pods, [&] { return flat(attempt()); }, mine);
    out.preemption = std::move(mine.preemption);
    for (size_t i = 0; i < where.size() && i < mine.members.size(); ++i) {
        const auto& [k, j] = where[i];
        if (mine.members[i].preemption && k < out.groups.size() && j < out.groups[k].members.size())
            out.groups[k].members[j].preemption = std::move(mine.members[i].preemption);
    }
    return waiting;
}

// Upstream's root cycle ends in submitPodGroupAlgorithmResult for every PodGroup of the tree
// (pkg/scheduler/schedule_one_podgroup.go), whether the root succeeded or not:
// completeCompositePodGroupAlgorithmResultMap has given a failed parent's status to each child
// that succeeded, keeping its pod results, so a member whose own result succeeded, in a group now
// Unschedulable and not waitingOnPreemption, goes to the FailureHandler with clearNominatedNode; a
// member that did not fit, or was never tried, goes with its own result's nominatingInfo, which is
// nil and leaves its nomination be. (An earlier revision of that function replaced such a child's
// result with an empty one, whose members kept their nominations; the later ones keep the pod
// results and overwrite only the status.)
int32_t Cluster::Impl::GroupPreemption::clearTreeFittedNominations(
    Impl& d, const GroupTreeNode& root, const GroupTreeResult& out)
{
    std::vector<const GroupTreeNode*> order;
    treeInOrder(root, order);
    int32_t cleared = 0;
    for (size_t k = 0; k < order.size() && k < out.groups.size(); ++k)
        if (!(out.scheduled && out.groups[k].scheduled)) // a group that binds keeps its members'
            cleared += clearFittedNominations(d, order[k]->pending, out.groups[k].fitted);
    return cleared;
}

} // namespace drasim::scheduler
