// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/placement_hints.h"

#include <algorithm>

#include "core/scheduler/queueing_hints.h"

namespace drasim::scheduler {

namespace {

using Kind = ClusterChange::Kind;

/// labels.Selector.Matches of a selector made by metav1.LabelSelectorAsSelector: a nil selector
/// is labels.Nothing(), an empty one labels.Everything(). (Unlike countPodsMatchSelector, the
/// hint does not skip an empty selector.)
bool selects(const std::optional<api::LabelSelector>& selector, const api::Labels& labels)
{
    return selector && selector->matches(labels);
}

/// AffinityTerm.Matches(pod, nil): the hints pass no namespace labels.
bool termMatches(const AffinityTerm& t, const PlacementPod& pod)
{
    return t.matches(pod.ns, pod.labels, nullptr);
}

/// podMatchesAllAffinityTerms (interpodaffinity/filtering.go): false for no terms.
bool matchesAll(const std::vector<AffinityTerm>& terms, const PlacementPod& pod)
{
    return !terms.empty() && std::all_of(terms.begin(), terms.end(), [&](const AffinityTerm& t) {
        return termMatches(t, pod);
    });
}

/// podMatchesAnyAffinityTerms (filtering.go, kubernetes/kubernetes#139161).
bool matchesAny(const std::vector<AffinityTerm>& terms, const PlacementPod& pod)
{
    return std::any_of(
        terms.begin(), terms.end(), [&](const AffinityTerm& t) { return termMatches(t, pod); });
}

/// checkTopologyKeyLabelsChanged.
bool topologyValuesChanged(
    const api::Node& before, const api::Node& after, const std::vector<SpreadConstraint>& cs)
{
    auto value = [](const api::Node& n, const std::string& key) {
        auto it = n.meta.labels.find(key);
        return it == n.meta.labels.end() ? std::string() : it->second;
    };
    return std::any_of(cs.begin(), cs.end(), [&](const SpreadConstraint& c) {
        return value(before, c.topologyKey) != value(after, c.topologyKey);
    });
}

} // namespace

PlacementHintPod::PlacementHintPod(const api::Pod& pod)
    : self(placementPodOf(pod))
    , hardSpread(spreadConstraintsOf(pod, true))
{ }

bool spreadQueuesAfterPodChange(const ClusterChange& c, const PlacementHintPod& pending)
{
    if (!c.pod)
        return true; // nothing known of the pod: "may help"
    // involvedInTopologySpreading: the changed pod is assigned (every pod drasim reports here is)
    // and in the pending pod's namespace; then an added or deleted pod queues when one of the
    // hard constraints' selectors takes its labels (podLabelsMatchSpreadConstraints).
    if (c.pod->ns != pending.self.ns)
        return false;
    return std::any_of(pending.hardSpread.begin(), pending.hardSpread.end(),
        [&](const SpreadConstraint& s) { return selects(s.selector, c.pod->labels); });
}

bool spreadQueuesAfterNodeChange(const ClusterChange& c, const PlacementHintPod& pending)
{
    const auto& hard = pending.hardSpread;
    switch (c.kind) {
    case Kind::NodeAdded:
        // Node/Add: the created node has every constraint's topology key.
        return !c.node || hasAllTopologyKeys(*c.node, hard);
    case Kind::NodeDeleted:
        // Node/Delete: the deleted node had them (its domain counted).
        return !c.oldNode || hasAllTopologyKeys(*c.oldNode, hard);
    case Kind::NodeUpdated: {
        // UpdateNodeLabel | UpdateNodeTaint: the node starts or stops having the keys, or has them
        // and changed a topology value or its taints (spec.taints only: a cordon alone does not).
        if (!(c.flags & (ClusterChange::LabelsChanged | ClusterChange::TaintsChanged)))
            return false;
        if (!c.node || !c.oldNode)
            return true;
        const bool before = hasAllTopologyKeys(*c.oldNode, hard);
        const bool after = hasAllTopologyKeys(*c.node, hard);
        if (before != after)
            return true;
        return after
            && (topologyValuesChanged(*c.oldNode, *c.node, hard) || c.oldNode->taints != c.node->taints);
    }
    default:
        return false;
    }
}

bool affinityQueuesAfterNodeChange(const ClusterChange& c, const PlacementHintPod& pending)
{
    // Registered for Node Add and UpdateNodeLabel only; the hint reads the node as it is now.
    if (c.kind != Kind::NodeAdded
        && !(c.kind == Kind::NodeUpdated && (c.flags & ClusterChange::LabelsChanged)))
        return false;
    if (!c.node)
        return true;
    const auto hasKeyOf = [&](const std::vector<AffinityTerm>& terms) {
        for (const auto& t : terms)
            if (c.node->meta.labels.count(t.topologyKey))
                return true;
        return false;
    };
    return hasKeyOf(pending.self.requiredAffinity) || hasKeyOf(pending.self.requiredAntiAffinity);
}

bool affinityQueuesAfterPodChange(const ClusterChange& c, const PlacementHintPod& pending)
{
    if (!c.pod)
        return true;
    // A single existing pod must satisfy all of the pending pod's required affinity terms, so an
    // added pod queues when it matches all of them (none: it cannot help).
    if (c.kind == Kind::AssignedPodAdded)
        return matchesAll(pending.self.requiredAffinity, *c.pod);
    if (c.kind != Kind::AssignedPodDeleted)
        return false;
    // A deleted pod queues when it matched any of the pending pod's required anti-affinity terms
    // (one term suffices to repel: "any" since kubernetes/kubernetes#139161, Kubernetes 1.37), or
    // when its own required anti-affinity repelled the pending pod (#135325, 1.35). A deleted pod
    // that satisfied the pending pod's affinity is not looked at (upstream's #141354 is open).
    return matchesAny(pending.self.requiredAntiAffinity, *c.pod)
        || matchesAny(c.pod->requiredAntiAffinity, pending.self);
}

} // namespace drasim::scheduler
