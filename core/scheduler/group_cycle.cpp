// SPDX-License-Identifier: Apache-2.0
// The PodGroup scheduling cycle of Kubernetes 1.37 (pkg/scheduler/algorithm_podgroup.go): the
// group's unscheduled members are tried one by one on one view of the cluster, each through the
// normal Filter and Score and assumed where it fits; the gang plugin's PlacementFeasible decides
// after each pod whether minCount can still be reached. With a topology constraint the same runs
// once per placement (the nodes sharing one value of the key), the feasible placements are
// scored (PodGroupPodsCount + NodeResourcesFit's bin packing over the placement) and the best one
// is kept. Everything tried is undone through the cluster's transactions.
#include <algorithm>
#include <map>

#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/pod_group.h"

namespace drasim::scheduler {

Feasibility placementFeasible(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining)
{
    // Basic groups count as minCount 1 (gangscheduling.go getMinCount).
    const int32_t minCount = group.gang ? group.minCount : 1;
    if (scheduled + remaining < minCount)
        return Feasibility::Unschedulable;
    if (scheduled < minCount)
        return Feasibility::Wait;
    return Feasibility::Success;
}

std::string minCountMessage(const PodGroupPolicy& group, int32_t scheduled, int32_t remaining)
{
    const int32_t minCount = group.gang ? group.minCount : 1;
    const std::string counts
        = std::to_string(scheduled) + " scheduled, " + std::to_string(remaining) + " remaining";
    if (scheduled + remaining < minCount)
        return "minCount (" + std::to_string(minCount) + ") cannot be satisfied: " + counts;
    return "minCount (" + std::to_string(minCount) + ") is not yet satisfied: " + counts;
}

/// The group cycle's parts, on the cluster state `d`.
struct Cluster::Impl::GroupCycle
{
    struct PlacementRun;
    struct Placement;
    static PlacementRun run(Impl& d, const PodGroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<size_t>& order, int32_t alreadyScheduled);
    static std::vector<Placement> placements(
        const Impl& d, const PodGroupPolicy& group, const std::vector<std::string>& boundNodes);
    static int64_t binPacking(const Impl& d, const Placement& p);
    static void fillFailure(GroupScheduleResult& out, const PlacementRun& run, const std::string& message);
};

/// One run of the default group algorithm inside one placement.
struct Cluster::Impl::GroupCycle::PlacementRun
{
    Feasibility status = Feasibility::Unschedulable;
    std::string message;
    int32_t placed = 0;
    std::vector<ScheduleResult> members; ///< by input index; untried members stay default
    std::vector<bool> tried;
};

struct Cluster::Impl::GroupCycle::Placement
{
    std::string name; ///< "key=value", "" for all nodes
    std::vector<uint8_t> mask; ///< empty: every node
    size_t size = 0;
};

// podGroupSchedulingDefaultAlgorithm: members in priority order (stable, so first-observed order
// breaks ties), PlacementFeasible before the first pod and after each one.
Cluster::Impl::GroupCycle::PlacementRun Cluster::Impl::GroupCycle::run(Impl& d, const PodGroupPolicy& group,
    const std::vector<api::Pod>& pods, const std::vector<size_t>& order, int32_t alreadyScheduled)
{
    PlacementRun run;
    run.members.resize(pods.size());
    run.tried.assign(pods.size(), false);
    int32_t scheduled = alreadyScheduled;
    int32_t remaining = int32_t(pods.size());
    run.status = placementFeasible(group, scheduled, remaining);
    run.message = minCountMessage(group, scheduled, remaining);
    if (run.status == Feasibility::Unschedulable)
        return run;
    for (size_t i : order) {
        run.members[i] = d.schedule(pods[i], false);
        run.tried[i] = true;
        --remaining;
        if (run.members[i].scheduled) {
            ++scheduled;
            ++run.placed;
        }
        run.status = placementFeasible(group, scheduled, remaining);
        run.message = minCountMessage(group, scheduled, remaining);
        if (run.status == Feasibility::Unschedulable)
            break;
    }
    // The framework wants at least one pod placed by the cycle itself.
    if (run.status == Feasibility::Success && run.placed == 0) {
        run.status = Feasibility::Unschedulable;
        run.message = "no pods were schedulable";
    }
    return run;
}

// PlacementGenerate of the TopologyPlacement plugin: one placement per value of the key, in value
// order; nodes without the label are in none. With members bound already, only the placement
// holding all of their nodes is kept.
std::vector<Cluster::Impl::GroupCycle::Placement> Cluster::Impl::GroupCycle::placements(
    const Impl& d, const PodGroupPolicy& group, const std::vector<std::string>& boundNodes)
{
    std::vector<Placement> out;
    if (group.topologyKey.empty()) {
        out.push_back(Placement { "", {}, d.nodes.size() });
        return out;
    }
    std::map<std::string, Placement> byValue;
    for (uint32_t i = 0; i < d.nodes.size(); ++i) {
        const auto& labels = d.nodes[i].node.meta.labels;
        auto it = labels.find(group.topologyKey);
        if (it == labels.end())
            continue;
        auto& p = byValue[it->second];
        if (p.mask.empty()) {
            p.name = group.topologyKey + "=" + it->second;
            p.mask.assign(d.nodes.size(), 0);
        }
        p.mask[i] = 1;
        ++p.size;
    }
    for (auto& [value, p] : byValue) {
        bool holdsBound = true;
        for (const auto& n : boundNodes) {
            auto ni = d.nodeIndex.find(n);
            holdsBound = holdsBound && ni != d.nodeIndex.end() && p.mask[ni->second];
        }
        if (holdsBound)
            out.push_back(std::move(p));
    }
    return out;
}

// NodeResourcesFit's placement bin packing: MostAllocated over the sums of the placement's nodes,
// with the group's assumed pods already counted in (they are, inside the transaction).
int64_t Cluster::Impl::GroupCycle::binPacking(const Impl& d, const Placement& p)
{
    NodeUsage sum;
    sum.allocatable = {};
    for (uint32_t i = 0; i < d.nodes.size(); ++i) {
        if (!p.mask.empty() && !p.mask[i])
            continue;
        const auto& u = d.nodes[i].usage;
        sum.allocatable.milliCpu += u.allocatable.milliCpu;
        sum.allocatable.memory += u.allocatable.memory;
        sum.nonZeroMilliCpu += u.nonZeroMilliCpu;
        sum.nonZeroMemory += u.nonZeroMemory;
    }
    return resourceScore(ScoringPolicy::MostAllocated, sum, PodRequests {});
}

void Cluster::Impl::GroupCycle::fillFailure(
    GroupScheduleResult& out, const PlacementRun& run, const std::string& message)
{
    out.scheduled = false;
    out.placed = 0;
    out.message = message;
    out.members = run.members;
    for (size_t i = 0; i < out.members.size(); ++i) {
        auto& m = out.members[i];
        // A member that fitted, or was never tried, waits for the group; one that did not fit
        // keeps its own reason after the group's.
        if (!run.tried[i] || m.scheduled) {
            m = ScheduleResult {};
            m.failure = FailureKind::Unschedulable;
            m.message = message;
        } else {
            m.message = message + "; " + m.message;
        }
        m.scheduled = false;
    }
}

GroupScheduleResult Cluster::Impl::scheduleGroup(const PodGroupPolicy& group,
    const std::vector<api::Pod>& pods, const std::vector<std::string>& boundMembers, bool topologyAware)
{
    GroupScheduleResult out;
    std::vector<size_t> order(pods.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return pods[a].spec.priority.value_or(0) > pods[b].spec.priority.value_or(0);
    });
    std::vector<std::string> boundNodes;
    for (const auto& k : boundMembers)
        if (auto it = bound.find(k); it != bound.end())
            boundNodes.push_back(it->second.pub.nodeName);
    const int32_t already = int32_t(boundNodes.size());
    PodGroupPolicy effective = group;
    if (!topologyAware)
        effective.topologyKey.clear(); // the constraint is dropped with its gate
    const auto placements = GroupCycle::placements(*this, effective, boundNodes);
    out.placementsTried = int32_t(placements.size());

    // Each placement is evaluated inside a transaction. With one placement a feasible run is kept
    // as it is; with several each is rolled back and the best one run again for real (runs are
    // deterministic, so it gives the same result).
    auto keep = [&](GroupCycle::PlacementRun& run, size_t p) {
        out.scheduled = true;
        out.placed = run.placed;
        out.domain = placements[p].name;
        out.members = std::move(run.members); // on Success every member was tried
        return out;
    };
    int64_t bestScore = -1;
    size_t best = placements.size();
    GroupCycle::PlacementRun firstRun;
    std::vector<int64_t> podCounts(placements.size(), -1);
    std::vector<int64_t> packing(placements.size(), 0);
    for (size_t p = 0; p < placements.size(); ++p) {
        undo.begin();
        placementMask = placements[p].mask.empty() ? nullptr : &placements[p].mask;
        placementSize = placements[p].size;
        GroupCycle::PlacementRun run = GroupCycle::run(*this, effective, pods, order, already);
        if (run.status == Feasibility::Success) {
            podCounts[p] = already + run.placed;
            packing[p] = placements.size() > 1 ? GroupCycle::binPacking(*this, placements[p]) : 0;
            ++out.placementsFeasible;
            if (placements.size() == 1) {
                placementMask = nullptr;
                undo.commit();
                return keep(run, p);
            }
        }
        undo.rollback();
        placementMask = nullptr;
        if (p == 0)
            firstRun = std::move(run);
    }
    int64_t maxCount = 0;
    for (int64_t c : podCounts)
        maxCount = std::max(maxCount, c);
    for (size_t p = 0; p < placements.size(); ++p) {
        if (podCounts[p] < 0)
            continue;
        // PodGroupPodsCount normalised to 0..100 by the largest count, plus bin packing, weight 1.
        const int64_t score = podCounts[p] * kMaxNodeScore / maxCount + packing[p];
        if (score > bestScore) {
            bestScore = score;
            best = p;
        }
    }
    if (best == placements.size()) {
        std::string message = placements.empty()
            ? "no node has the label " + effective.topologyKey + " of the group's topology constraint"
            : firstRun.message;
        if (placements.size() > 1 || !effective.topologyKey.empty())
            message = "0/" + std::to_string(placements.size()) + " placements are feasible: " + message;
        if (placements.empty()) {
            // No run took place: every member given still gets its answer (none was tried).
            firstRun.members.resize(pods.size());
            firstRun.tried.assign(pods.size(), false);
        }
        GroupCycle::fillFailure(out, firstRun, "pod group " + group.key + ": " + message);
        return out;
    }
    undo.begin();
    placementMask = placements[best].mask.empty() ? nullptr : &placements[best].mask;
    placementSize = placements[best].size;
    GroupCycle::PlacementRun run = GroupCycle::run(*this, effective, pods, order, already);
    placementMask = nullptr;
    undo.commit();
    return keep(run, best);
}

GroupScheduleResult Cluster::scheduleGroup(const PodGroupPolicy& group, const std::vector<api::Pod>& pods,
    const std::vector<std::string>& boundMembers, bool topologyAware)
{
    return m_impl->scheduleGroup(group, pods, boundMembers, topologyAware);
}

} // namespace drasim::scheduler
