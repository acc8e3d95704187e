// SPDX-License-Identifier: Apache-2.0
// Nominated pods: a preemptor waits for its victims with status.nominatedNodeName set, and the
// scheduler's filters count it on that node for pods that are not more important, so the room
// being freed is not taken by them meanwhile (framework.RunFilterPluginsWithNominatedPods, which
// adds nominated pods of priority >= the pod's to the node and calls each PreFilter extension's
// AddPod: NodeResourcesFit, PodTopologySpread and InterPodAffinity see them; DynamicResources has
// no AddPod and reserves nothing for a nominated pod).
#include <algorithm>

#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/pod_topology.h"

namespace drasim::scheduler {

void Cluster::Impl::Nominator::set(Impl& d, const std::string& podKey, const Nomination& n)
{
    clear(d, podKey);
    d.nominations[podKey] = n;
    d.nominatedOn[n.node].push_back(podKey);
    d.undo.log([&d, podKey] { clear(d, podKey); });
}

void Cluster::Impl::Nominator::clear(Impl& d, const std::string& podKey)
{
    auto it = d.nominations.find(podKey);
    if (it == d.nominations.end())
        return;
    const Nomination old = it->second;
    d.nominations.erase(it);
    auto on = d.nominatedOn.find(old.node);
    if (on != d.nominatedOn.end()) {
        std::erase(on->second, podKey);
        if (on->second.empty())
            d.nominatedOn.erase(on);
    }
    d.undo.log([&d, podKey, old] { set(d, podKey, old); });
}

namespace {

/// Calls `f` with each pod nominated to node idx that `podKey` (priority `prio`) must leave room
/// for: another pod, of at least its priority (addGENominatedPods).
/// (The cluster's state is a template parameter: its type is private to Cluster.)
template <class State, class F>
void forNominatedAhead(const State& d, const std::string& podKey, int32_t prio, uint32_t idx, F f)
{
    auto on = d.nominatedOn.find(d.nodes[idx].node.meta.name);
    if (on == d.nominatedOn.end())
        return;
    for (const auto& key : on->second) {
        const auto& n = d.nominations.at(key);
        if (key != podKey && n.priority >= prio)
            f(n);
    }
}

} // namespace

bool Cluster::Impl::Nominator::usageWithNominated(const Impl& d, const std::string& podKey, int32_t prio,
    uint32_t idx, const NodeUsage& base, NodeUsage& out)
{
    bool any = false;
    forNominatedAhead(d, podKey, prio, idx, [&](const Nomination& n) {
        if (!any)
            out = base;
        any = true;
        out.requested.add(n.req.requests, +1);
        out.nonZeroMilliCpu += n.req.nonZeroMilliCpu;
        out.nonZeroMemory += n.req.nonZeroMemory;
        out.pods += 1;
    });
    return any;
}

std::shared_ptr<const PlacementCycle> Cluster::Impl::Nominator::placementWithNominated(
    const Impl& d, const Cycle& cycle, uint32_t idx)
{
    const PlacementCycle* base = cycle.placement.get();
    if (!base || (!base->filterSpread && !base->filterAffinity))
        return nullptr;
    std::shared_ptr<PlacementCycle> out;
    forNominatedAhead(d, cycle.podKey, cycle.pod.spec.priority.value_or(0), idx, [&](const Nomination& n) {
        if (!n.placement)
            return;
        if (!out)
            out = base->clone();
        out->updateWithPod(*n.placement, cycle.pod, d.nodes[idx].node, idx, d.placementIndex, +1);
    });
    return out;
}

// A pod nominated to a node tries that node first and takes it if it passes every filter, without
// scoring others (schedule_one.go, evaluateNominatedNode). A failed try leaves no trace in the
// cycle's report: the full pass filters that node again. Inside a placement of a group cycle a
// nominated node outside the placement is not tried (GetNodeInPlacement, kubernetes/kubernetes#136944:
// "NNN is in the cluster but not in the placement"); the pod is placed as if not nominated.
void Cluster::Impl::Nominator::tryFirst(Impl& d, Cycle& cycle)
{
    auto n = d.nominations.find(cycle.podKey);
    if (n == d.nominations.end())
        return;
    auto ni = d.nodeIndex.find(n->second.node);
    if (ni == d.nodeIndex.end())
        return;
    // A placement's nodes are in index order (GroupCycle::placements).
    if (d.placementNodes
        && !std::binary_search(d.placementNodes->begin(), d.placementNodes->end(), ni->second))
        return;
    const auto histogram = cycle.histogram;
    const auto draHistogram = cycle.draHistogram;
    const size_t resolvable = cycle.resolvable.size();
    allocator::Attempt attempt;
    if (d.filterNode(cycle, ni->second, attempt)) {
        cycle.chosen = ni->second;
        cycle.chosenAttempt = std::move(attempt);
        return;
    }
    cycle.histogram = histogram;
    cycle.draHistogram = draHistogram;
    cycle.resolvable.resize(resolvable);
}

} // namespace drasim::scheduler
