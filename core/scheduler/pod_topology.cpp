// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/pod_topology.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "core/scheduler/node_filters.h"

namespace drasim::scheduler {

namespace {

const std::string& namespaceOf(const api::Pod& pod)
{
    static const std::string kDefault = "default";
    return pod.meta.namespace_.empty() ? kDefault : pod.meta.namespace_;
}

/// The API server's merge of matchLabelKeys (`key in (value)`) and mismatchLabelKeys
/// (`key notin (value)`) into a selector, for the keys the pod has a label for. A term without a
/// selector stays without one (it selects nothing either way).
std::optional<api::LabelSelector> mergedSelector(const std::optional<api::LabelSelector>& selector,
    const api::Labels& labels, const std::vector<std::string>& matchKeys,
    const std::vector<std::string>& mismatchKeys)
{
    if (!selector)
        return selector;
    api::LabelSelector out = *selector;
    for (const auto* keys : { &matchKeys, &mismatchKeys })
        for (const auto& key : *keys) {
            auto it = labels.find(key);
            if (it != labels.end())
                out.matchExpressions.push_back({ key, keys == &matchKeys ? "In" : "NotIn", { it->second } });
        }
    return out;
}

AffinityTerm termOf(const api::PodAffinityTerm& t, const api::Pod& pod, int32_t weight)
{
    AffinityTerm out;
    out.selector = mergedSelector(t.labelSelector, pod.meta.labels, t.matchLabelKeys, t.mismatchLabelKeys);
    out.namespaces = t.namespaces;
    out.namespaceSelector = t.namespaceSelector;
    // getNamespacesFromPodAffinityTerm: neither namespaces nor a selector means the pod's own.
    if (out.namespaces.empty() && !out.namespaceSelector)
        out.namespaces.push_back(namespaceOf(pod));
    out.topologyKey = t.topologyKey;
    out.weight = weight;
    return out;
}

void addTerms(const std::optional<api::PodAffinityRules>& rules, const api::Pod& pod,
    std::vector<AffinityTerm>& required, std::vector<AffinityTerm>& preferred)
{
    if (!rules)
        return;
    for (const auto& t : rules->required)
        required.push_back(termOf(t, pod, 0));
    for (const auto& w : rules->preferred)
        preferred.push_back(termOf(w.term, pod, w.weight));
}

/// FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc: a NoSchedule or NoExecute
/// taint the pod does not tolerate.
bool hasUntoleratedHardTaint(const api::Pod& pod, const api::Node& node)
{
    return std::any_of(node.taints.begin(), node.taints.end(), [&](const api::Taint& t) {
        return (t.effect == "NoSchedule" || t.effect == "NoExecute")
            && !toleratesNodeTaint(pod.spec.tolerations, t);
    });
}

} // namespace

bool AffinityTerm::matches(
    const std::string& ns, const api::Labels& labels, const api::Labels* nsLabels) const
{
    static const api::Labels kNoLabels;
    const bool inNamespace = std::find(namespaces.begin(), namespaces.end(), ns) != namespaces.end()
        || (namespaceSelector && namespaceSelector->matches(nsLabels ? *nsLabels : kNoLabels));
    return inNamespace && selector && selector->matches(labels);
}

PlacementPod placementPodOf(const api::Pod& pod)
{
    PlacementPod out;
    placementPodInto(out, pod);
    return out;
}

void placementPodInto(PlacementPod& out, const api::Pod& pod)
{
    out.ns = namespaceOf(pod);
    out.labels = pod.meta.labels;
    for (auto* terms : { &out.requiredAffinity, &out.requiredAntiAffinity, &out.preferredAffinity,
             &out.preferredAntiAffinity })
        terms->clear();
    addTerms(pod.spec.podAffinity, pod, out.requiredAffinity, out.preferredAffinity);
    addTerms(pod.spec.podAntiAffinity, pod, out.requiredAntiAffinity, out.preferredAntiAffinity);
}

std::vector<SpreadConstraint> spreadConstraintsOf(const api::Pod& pod, bool doNotSchedule)
{
    std::vector<SpreadConstraint> out;
    for (const auto& c : pod.spec.topologySpreadConstraints) {
        if (c.doNotSchedule != doNotSchedule)
            continue;
        SpreadConstraint s;
        s.maxSkew = c.maxSkew;
        s.topologyKey = c.topologyKey;
        s.minDomains = c.minDomains.value_or(1);
        s.selector = mergedSelector(c.labelSelector, pod.meta.labels, c.matchLabelKeys, {});
        s.honorNodeAffinity = c.honorNodeAffinity;
        s.honorNodeTaints = c.honorNodeTaints;
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<SpreadConstraint> systemDefaultSpreadConstraints(const api::LabelSelector& selector)
{
    std::vector<SpreadConstraint> out(2);
    out[0].topologyKey = "kubernetes.io/hostname";
    out[0].maxSkew = 3;
    out[1].topologyKey = "topology.kubernetes.io/zone";
    out[1].maxSkew = 5;
    for (auto& c : out)
        c.selector = selector;
    return out;
}

bool spreadSelects(const SpreadConstraint& c, const std::string& ns, const PlacementPod& pod)
{
    // countPodsMatchSelector: an empty selector (labels.Everything) counts nothing.
    return c.selector && !c.selector->empty() && pod.ns == ns && c.selector->matches(pod.labels);
}

bool nodeCountsForSpread(const SpreadConstraint& c, const api::Pod& pod, const api::Node& node)
{
    if (c.honorNodeAffinity && !matchesRequiredNodeAffinity(pod, node))
        return false;
    return !c.honorNodeTaints || !hasUntoleratedHardTaint(pod, node);
}

bool hasAllTopologyKeys(const api::Node& node, const std::vector<SpreadConstraint>& constraints)
{
    return std::all_of(constraints.begin(), constraints.end(),
        [&](const SpreadConstraint& c) { return node.meta.labels.count(c.topologyKey) > 0; });
}

void SpreadFilterState::finish()
{
    minMatch.assign(constraints.size(), 0);
    for (size_t i = 0; i < constraints.size(); ++i) {
        int64_t least = INT64_MAX;
        size_t eligible = 0;
        for (int64_t n : matchNum[i])
            if (n != kNoEligibleNode)
                least = std::min(least, n), ++eligible;
        // Fewer eligible domains than minDomains (1 by default, so also none) make it 0.
        if (eligible >= size_t(constraints[i].minDomains))
            minMatch[i] = least;
    }
}

const char* SpreadFilterState::check(uint32_t idx) const
{
    for (size_t i = 0; i < constraints.size(); ++i) {
        const int32_t domain = domains[i]->ofNode[idx];
        if (domain < 0)
            return kSpreadMissingLabel;
        const int64_t n = matchNum[i][size_t(domain)];
        const int64_t skew = (n == kNoEligibleNode ? 0 : n) + selfMatch[i] - minMatch[i];
        if (skew > constraints[i].maxSkew)
            return kSpreadMismatch;
    }
    return nullptr;
}

const char* AffinityFilterState::check(const api::Node& node) const
{
    const auto& labels = node.meta.labels;
    // satisfyPodAffinity: every term's key on the node, and a selected pod in each term's domain;
    // or, when no pod anywhere is selected, the pod selects itself (the first of its kind).
    bool podsExist = true;
    for (const auto& term : pod->requiredAffinity) {
        auto value = labels.find(term.topologyKey);
        if (value == labels.end())
            return kAffinityMismatch;
        auto n = affinity.find({ term.topologyKey, value->second });
        if (n == affinity.end() || n->second <= 0)
            podsExist = false;
    }
    if (!podsExist && !(affinity.empty() && selfMatchesAll))
        return kAffinityMismatch;
    // satisfyPodAntiAffinity: no pod the incoming pod avoids in the node's domain of a term.
    for (const auto& term : pod->requiredAntiAffinity) {
        auto value = labels.find(term.topologyKey);
        if (value == labels.end())
            continue;
        auto n = antiAffinity.find({ term.topologyKey, value->second });
        if (n != antiAffinity.end() && n->second > 0)
            return kAntiAffinityMismatch;
    }
    // satisfyExistingPodsAntiAffinity: no running pod that avoids the incoming one shares any of
    // the node's topology pairs.
    if (!existingAntiAffinity.empty())
        for (const auto& [key, value] : labels) {
            auto n = existingAntiAffinity.find({ key, value });
            if (n != existingAntiAffinity.end() && n->second > 0)
                return kExistingAntiAffinityMismatch;
        }
    return nullptr;
}

void SpreadFilterState::updateWithPod(
    const PlacementPod& other, const api::Pod& preemptor, const api::Node& node, uint32_t idx, int delta)
{
    // Only pods of the preemptor's namespace on a node with every constraint's key count; unlike
    // countPodsMatchSelector, neither a terminating pod nor an empty selector is left out.
    if (other.ns != namespaceOf(preemptor) || !hasAllTopologyKeys(node, constraints))
        return;
    bool changed = false;
    for (size_t i = 0; i < constraints.size(); ++i) {
        const SpreadConstraint& c = constraints[i];
        if (!c.selector || !c.selector->matches(other.labels) || !nodeCountsForSpread(c, preemptor, node))
            continue;
        int64_t& m = matchNum[i][size_t(domains[i]->ofNode[idx])];
        m = (m == kNoEligibleNode ? 0 : m) + delta;
        changed = true;
    }
    if (changed)
        finish();
}

void AffinityFilterState::updateWithPod(const PlacementPod& other, const api::Node& node,
    const api::Labels* selfNsLabels, const api::Labels* otherNsLabels, int delta)
{
    auto update = [&](std::map<TopologyPair, int64_t>& counts, const std::string& key) {
        auto value = node.meta.labels.find(key);
        if (value == node.meta.labels.end())
            return;
        auto it = counts.try_emplace({ key, value->second }, 0).first;
        if ((it->second += delta) == 0)
            counts.erase(it);
    };
    for (const auto& t : other.requiredAntiAffinity)
        if (t.matches(pod->ns, pod->labels, selfNsLabels))
            update(existingAntiAffinity, t.topologyKey);
    // updateWithAffinityTerms: podMatchesAllAffinityTerms is false without terms.
    const bool all = !pod->requiredAffinity.empty()
        && std::all_of(pod->requiredAffinity.begin(), pod->requiredAffinity.end(),
            [&](const AffinityTerm& t) { return t.matches(other.ns, other.labels, otherNsLabels); });
    if (all)
        for (const auto& t : pod->requiredAffinity)
            update(affinity, t.topologyKey);
    for (const auto& t : pod->requiredAntiAffinity)
        if (t.matches(other.ns, other.labels, otherNsLabels))
            update(antiAffinity, t.topologyKey);
}

bool placementRejectionResolvable(const std::string& reason)
{
    return reason == kSpreadMismatch || reason == kAntiAffinityMismatch
        || reason == kExistingAntiAffinityMismatch;
}

void PlacementCycle::updateWithPod(const PlacementPod& other, const api::Pod& preemptor,
    const api::Node& node, uint32_t idx, const PlacementIndex& index, int delta)
{
    if (filterSpread)
        spread.updateWithPod(other, preemptor, node, idx, delta);
    if (filterAffinity)
        affinity.updateWithPod(other, node, index.labelsOf(self.ns), index.labelsOf(other.ns), delta);
}

void PlacementIndex::addOwner(const api::PodController& c)
{
    using K = api::PodController::Kind;
    if (c.kind == K::Job || !c.selector || c.selector->empty())
        return;
    const std::string ns = c.meta.namespace_.empty() ? "default" : c.meta.namespace_;
    ownerSelectors[ns + (c.kind == K::StatefulSet ? "/StatefulSet/" : "/ReplicaSet/") + c.meta.name]
        = *c.selector;
}

void PlacementIndex::addService(const api::Service& s)
{
    auto& inNamespace = serviceSelectors[s.meta.namespace_.empty() ? "default" : s.meta.namespace_];
    if (s.selector.empty())
        inNamespace.erase(s.meta.name);
    else
        inNamespace[s.meta.name] = s.selector;
}

std::optional<api::LabelSelector> PlacementIndex::defaultSelectorOf(const api::Pod& pod) const
{
    // helper.DefaultSelector: the label sets of the pod's Services (GetPodServices: a Service
    // with a selector that the pod's labels satisfy) merged into one, then the controller
    // owner's requirements added. An empty Service selector matches every pod but adds nothing.
    api::LabelSelector out;
    if (auto it = serviceSelectors.find(namespaceOf(pod)); it != serviceSelectors.end())
        for (const auto& [name, selector] : it->second)
            if (std::all_of(selector.begin(), selector.end(), [&](const auto& kv) {
                    auto l = pod.meta.labels.find(kv.first);
                    return l != pod.meta.labels.end() && l->second == kv.second;
                }))
                out.matchLabels.insert(selector.begin(), selector.end());
    for (const auto& o : pod.meta.ownerReferences) {
        if (!o.controller || (o.kind != "ReplicaSet" && o.kind != "StatefulSet"))
            continue;
        auto it = ownerSelectors.find(namespaceOf(pod) + "/" + o.kind + "/" + o.name);
        if (it == ownerSelectors.end())
            break;
        // selector.Add keeps every requirement: an owner's label that a Service already fixes
        // to another value becomes a requirement of its own (the pod can then match nothing).
        for (const auto& [key, value] : it->second.matchLabels)
            if (auto [at, added] = out.matchLabels.emplace(key, value); !added && at->second != value)
                out.matchExpressions.push_back(api::LabelSelectorRequirement { key, "In", { value } });
        out.matchExpressions.insert(out.matchExpressions.end(), it->second.matchExpressions.begin(),
            it->second.matchExpressions.end());
        break;
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

void PlacementIndex::count(const PlacementPod* pod, uint32_t idx, int sign, bool isTerminating)
{
    if (!pod)
        return;
    if (pod->hasAnyAffinity())
        withAffinity += uint32_t(sign);
    if (!pod->requiredAntiAffinity.empty())
        withRequiredAntiAffinity += uint32_t(sign);
    if (!isTerminating)
        terminating(pod, idx, -sign);
}

void PlacementIndex::terminating(const PlacementPod* pod, uint32_t idx, int sign)
{
    if (!pod)
        return;
    for (auto& sc : selectorCounts)
        if (idx < sc.perNode.size() && pod->ns == sc.ns && sc.selector.matches(pod->labels))
            sc.perNode[idx] -= sign;
}

double topologyNormalizingWeight(size_t domains)
{
    return std::log(double(domains + 2));
}

double spreadScoreForCount(int64_t count, int32_t maxSkew, double weight)
{
    return double(count) * weight + double(maxSkew - 1);
}

void normalizeSpreadScores(std::vector<int64_t>& scores, const std::vector<char>& ignored)
{
    int64_t least = INT64_MAX, most = 0;
    for (size_t i = 0; i < scores.size(); ++i)
        if (!ignored[i]) {
            least = std::min(least, scores[i]);
            most = std::max(most, scores[i]);
        }
    for (size_t i = 0; i < scores.size(); ++i) {
        if (ignored[i])
            scores[i] = 0;
        else if (most == 0)
            scores[i] = 100;
        else
            scores[i] = 100 * (most + least - scores[i]) / most;
    }
}

void normalizeInterPodScores(std::vector<int64_t>& scores)
{
    if (scores.empty())
        return;
    const auto [least, most] = std::minmax_element(scores.begin(), scores.end());
    const int64_t lo = *least, span = *most - *least;
    for (auto& s : scores)
        s = span > 0 ? int64_t(100.0 * (double(s - lo) / double(span))) : 0;
}

} // namespace drasim::scheduler
