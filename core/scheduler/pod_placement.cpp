// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread and InterPodAffinity in the scheduling cycle: their PreFilter and PreScore
// count the running pods of the cluster (every node's, as the plugins list the snapshot's nodes),
// Filter reads the counts per node (pod_topology.h) and Score normalises over the feasible nodes.
// Neither adds the pods nominated to a node (their AddPod extensions); a preemption dry run takes
// victims out and puts reprieved ones back through PlacementCycle::updateWithPod (preemption.cpp).
#include "core/scheduler/pod_placement.h"

#include <algorithm>
#include <cmath>

namespace drasim::scheduler {

std::shared_ptr<const PlacementCycle> Cluster::Impl::PodPlacement::preFilter(Impl& d, const Cycle& cycle)
{
    const api::Pod& pod = cycle.pod;
    const bool hasTerms = (pod.spec.podAffinity && !pod.spec.podAffinity->empty())
        || (pod.spec.podAntiAffinity && !pod.spec.podAntiAffinity->empty());
    // A pod without constraints of its own gets the plugin's system defaults (ScheduleAnyway on
    // hostname and zone) when Services select it or its controller's selector is known.
    const std::optional<api::LabelSelector> defaults
        = pod.spec.topologySpreadConstraints.empty() ? d.placementIndex.defaultSelectorOf(pod) : std::nullopt;
    if (pod.spec.topologySpreadConstraints.empty() && !defaults && !hasTerms
        && d.placementIndex.withAffinity == 0)
        return nullptr;
    auto pc = std::make_shared<PlacementCycle>();
    pc->self = placementPodOf(pod);
    // A profile that disables a plugin's Filter skips it for every node (and its PreFilter's
    // counts, which only that Filter and preemption's dry run read).
    const SchedulerProfile& profile = *cycle.profile;
    pc->spread.constraints = spreadConstraintsOf(pod, true);
    pc->filterSpread
        = !pc->spread.constraints.empty() && profile.filterEnabled(FilterPlugin::PodTopologySpread);
    if (pc->filterSpread)
        countSpread(d, pod, pc->spread);
    pc->filterAffinity = (!pc->self.requiredAffinity.empty() || !pc->self.requiredAntiAffinity.empty()
                             || d.placementIndex.withRequiredAntiAffinity > 0)
        && profile.filterEnabled(FilterPlugin::InterPodAffinity);
    if (pc->filterAffinity)
        countAffinity(d, *pc);
    // PreFilter returns Skip when no running pod's anti-affinity selects this pod and it has no
    // required terms (interpodaffinity/filtering.go): then neither Filter nor AddPod runs, so a
    // nominated pod's anti-affinity is not seen either.
    if (pc->self.requiredAffinity.empty() && pc->self.requiredAntiAffinity.empty()
        && pc->affinity.existingAntiAffinity.empty())
        pc->filterAffinity = false;
    if (pc->filterSpread || !pc->self.requiredAffinity.empty())
        d.placementIndex.bindingsMayLetPodsFit = true;
    pc->softSpread = defaults ? systemDefaultSpreadConstraints(*defaults) : spreadConstraintsOf(pod, false);
    pc->requireAllTopologies = !pod.spec.topologySpreadConstraints.empty();
    pc->scoreInterPod = !pc->self.preferredAffinity.empty() || !pc->self.preferredAntiAffinity.empty()
        || d.placementIndex.withAffinity > 0;
    if (!pc->filterSpread && !pc->filterAffinity && pc->softSpread.empty() && !pc->scoreInterPod)
        return nullptr;
    return pc;
}

const TopologyDomains& Cluster::Impl::PodPlacement::domainsOf(Impl& d, const std::string& key)
{
    auto [it, added] = d.placementIndex.domains.try_emplace(key);
    TopologyDomains& out = it->second;
    if (!added)
        return out;
    std::map<std::string, int32_t> ids;
    out.ofNode.assign(d.nodes.size(), -1);
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx) {
        const auto& labels = d.nodes[idx].node.meta.labels;
        auto value = labels.find(key);
        if (value == labels.end())
            continue;
        auto [id, isNew] = ids.try_emplace(value->second, int32_t(out.values.size()));
        if (isNew)
            out.values.push_back(value->second);
        out.ofNode[idx] = id->second;
    }
    return out;
}

const std::vector<int32_t>* Cluster::Impl::PodPlacement::countsOf(
    Impl& d, const std::string& ns, const SpreadConstraint& c)
{
    if (!c.selector || c.selector->empty())
        return nullptr;
    PlacementIndex& pi = d.placementIndex;
    for (auto& sc : pi.selectorCounts)
        if (sc.ns == ns && sc.selector == *c.selector) {
            sc.lastUse = ++pi.clock;
            return &sc.perNode;
        }
    SelectorCounts sc { ns, *c.selector, std::vector<int32_t>(d.nodes.size(), 0), ++pi.clock };
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx)
        for (const PodState* ps : d.podsOnNode[idx])
            if (!ps->pub.terminating && ps->placement && spreadSelects(c, ns, *ps->placement))
                ++sc.perNode[idx];
    // Entries stay where they are (a cycle holds pointers to the ones it looked up): a new one
    // takes the least recently used slot, never one this cycle used (those are the most recent).
    if (pi.selectorCounts.size() < PlacementIndex::kMaxSelectorCounts) {
        pi.selectorCounts.reserve(PlacementIndex::kMaxSelectorCounts);
        pi.selectorCounts.push_back(std::move(sc));
        return &pi.selectorCounts.back().perNode;
    }
    auto slot = std::min_element(pi.selectorCounts.begin(), pi.selectorCounts.end(),
        [](const SelectorCounts& a, const SelectorCounts& b) { return a.lastUse < b.lastUse; });
    *slot = std::move(sc);
    return &slot->perNode;
}

// calPreFilterState: per constraint, the matching pods of each domain over the nodes that have
// every constraint's key and pass the constraint's inclusion policies.
void Cluster::Impl::PodPlacement::countSpread(Impl& d, const api::Pod& pod, SpreadFilterState& state)
{
    const std::string ns = nsOf(pod.meta);
    const size_t n = state.constraints.size();
    state.domains.resize(n);
    state.matchNum.resize(n);
    state.selfMatch.assign(n, 0);
    std::vector<const std::vector<int32_t>*> counts(n);
    for (size_t i = 0; i < n; ++i) {
        const auto& c = state.constraints[i];
        state.selfMatch[i] = c.selector && c.selector->matches(pod.meta.labels);
        state.domains[i] = &domainsOf(d, c.topologyKey);
        state.matchNum[i].assign(state.domains[i]->values.size(), SpreadFilterState::kNoEligibleNode);
    }
    for (size_t i = 0; i < n; ++i)
        counts[i] = countsOf(d, ns, state.constraints[i]);
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx) {
        bool allKeys = true;
        for (size_t i = 0; i < n && allKeys; ++i)
            allKeys = state.domains[i]->ofNode[idx] >= 0;
        if (!allKeys)
            continue;
        for (size_t i = 0; i < n; ++i) {
            if (!nodeCountsForSpread(state.constraints[i], pod, d.nodes[idx].node))
                continue;
            int64_t& m = state.matchNum[i][size_t(state.domains[i]->ofNode[idx])];
            m = (m == SpreadFilterState::kNoEligibleNode ? 0 : m) + (counts[i] ? (*counts[i])[idx] : 0);
        }
    }
    state.finish();
}

// getExistingAntiAffinityCounts and getIncomingAffinityAntiAffinityCounts, per topology pair.
void Cluster::Impl::PodPlacement::countAffinity(const Impl& d, PlacementCycle& pc)
{
    AffinityFilterState& st = pc.affinity;
    const PlacementPod& self = pc.self;
    st.pod = &self;
    const api::Labels* selfNsLabels = d.placementIndex.labelsOf(self.ns);
    auto add = [](std::map<TopologyPair, int64_t>& counts, const api::Node& node, const std::string& key) {
        auto value = node.meta.labels.find(key);
        if (value != node.meta.labels.end())
            ++counts[{ key, value->second }];
    };
    const bool incoming = !self.requiredAffinity.empty() || !self.requiredAntiAffinity.empty();
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx) {
        const api::Node& node = d.nodes[idx].node;
        for (const PodState* ps : d.podsOnNode[idx]) {
            if (!ps->placement)
                continue;
            const PlacementPod& other = *ps->placement;
            for (const auto& t : other.requiredAntiAffinity)
                if (t.matches(self.ns, self.labels, selfNsLabels))
                    add(st.existingAntiAffinity, node, t.topologyKey);
            if (!incoming)
                continue;
            const api::Labels* otherNsLabels = d.placementIndex.labelsOf(other.ns);
            // Affinity counts only pods that match every required affinity term.
            const bool all = std::all_of(self.requiredAffinity.begin(), self.requiredAffinity.end(),
                [&](const AffinityTerm& t) { return t.matches(other.ns, other.labels, otherNsLabels); });
            if (all)
                for (const auto& t : self.requiredAffinity)
                    add(st.affinity, node, t.topologyKey);
            for (const auto& t : self.requiredAntiAffinity)
                if (t.matches(other.ns, other.labels, otherNsLabels))
                    add(st.antiAffinity, node, t.topologyKey);
        }
    }
    st.selfMatchesAll = std::all_of(self.requiredAffinity.begin(), self.requiredAffinity.end(),
        [&](const AffinityTerm& t) { return t.matches(self.ns, self.labels, selfNsLabels); });
}

// PodTopologySpread's PreScore and Score (scoring.go): per soft constraint, the matching pods of
// each domain among the feasible nodes, counted over every node of the cluster (on hostname, the
// node's own pods); a node lacking a key of the pod's own constraints is ignored. Without that
// requirement (system defaults), the nodes lacking a key form one more domain of their own.
std::vector<int64_t> Cluster::Impl::PodPlacement::spreadScores(
    Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible)
{
    const PlacementCycle& pc = *cycle.placement;
    const auto& cs = pc.softSpread;
    const size_t n = cs.size();
    const std::string ns = nsOf(cycle.pod.meta);
    std::vector<const TopologyDomains*> domains(n);
    std::vector<const std::vector<int32_t>*> counts(n);
    std::vector<char> hostname(n);
    for (size_t i = 0; i < n; ++i) {
        domains[i] = &domainsOf(d, cs[i].topologyKey);
        hostname[i] = cs[i].topologyKey == "kubernetes.io/hostname";
    }
    for (size_t i = 0; i < n; ++i)
        counts[i] = countsOf(d, ns, cs[i]);
    auto allKeys = [&](uint32_t idx) {
        return std::all_of(
            domains.begin(), domains.end(), [&](const TopologyDomains* t) { return t->ofNode[idx] >= 0; });
    };
    // The slot of a node's domain; a node without the key is in the last one.
    auto slotOf = [&](size_t i, uint32_t idx) {
        const int32_t domain = domains[i]->ofNode[idx];
        return domain < 0 ? domains[i]->values.size() : size_t(domain);
    };
    std::vector<char> ignored(feasible.size(), 0);
    std::vector<std::vector<char>> present(n);
    std::vector<size_t> domainCount(n, 0);
    for (size_t i = 0; i < n; ++i)
        present[i].assign(domains[i]->values.size() + 1, 0);
    size_t ignoredCount = 0;
    for (size_t k = 0; k < feasible.size(); ++k) {
        if (pc.requireAllTopologies && !allKeys(feasible[k])) {
            ignored[k] = 1, ++ignoredCount;
            continue;
        }
        for (size_t i = 0; i < n; ++i)
            if (char& seen = present[i][slotOf(i, feasible[k])]; !hostname[i] && !seen) {
                seen = 1;
                ++domainCount[i];
            }
    }
    std::vector<double> weights(n);
    for (size_t i = 0; i < n; ++i)
        weights[i] = topologyNormalizingWeight(hostname[i] ? feasible.size() - ignoredCount : domainCount[i]);
    std::vector<std::vector<int64_t>> sums(n);
    for (size_t i = 0; i < n; ++i)
        sums[i].assign(present[i].size(), 0);
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx) {
        if (pc.requireAllTopologies && !allKeys(idx))
            continue;
        for (size_t i = 0; i < n; ++i) {
            if (hostname[i] || !counts[i] || !present[i][slotOf(i, idx)]
                || !nodeCountsForSpread(cs[i], cycle.pod, d.nodes[idx].node))
                continue;
            sums[i][slotOf(i, idx)] += (*counts[i])[idx];
        }
    }
    std::vector<int64_t> scores(feasible.size(), 0);
    for (size_t k = 0; k < feasible.size(); ++k) {
        if (ignored[k])
            continue;
        double sum = 0;
        for (size_t i = 0; i < n; ++i) {
            const uint32_t idx = feasible[k];
            if (domains[i]->ofNode[idx] < 0)
                continue; // the key is not on this node: no score from this constraint
            const int64_t count = hostname[i] ? (counts[i] ? (*counts[i])[idx] : 0) : sums[i][slotOf(i, idx)];
            sum += spreadScoreForCount(count, cs[i].maxSkew, weights[i]);
        }
        scores[k] = std::llround(sum);
    }
    normalizeSpreadScores(scores, ignored);
    return scores;
}

// InterPodAffinity's PreScore and Score (scoring.go): per topology pair, the weights of the
// incoming pod's preferred terms that select running pods there, of the running pods' required
// affinity (hardPodAffinityWeight 1) and preferred terms that select the incoming pod; a node
// scores the sum over its pairs, normalised from the lowest to the highest.
std::vector<int64_t> Cluster::Impl::PodPlacement::interPodScores(
    const Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible)
{
    const PlacementPod& self = cycle.placement->self;
    const bool ownTerms = !self.preferredAffinity.empty() || !self.preferredAntiAffinity.empty();
    const api::Labels* selfNsLabels = d.placementIndex.labelsOf(self.ns);
    std::map<std::string, std::map<std::string, int64_t>> byPair;
    auto add = [&](const api::Node& node, const AffinityTerm& t, int64_t weight) {
        auto value = node.meta.labels.find(t.topologyKey);
        if (value != node.meta.labels.end())
            byPair[t.topologyKey][value->second] += weight;
    };
    constexpr int64_t kHardPodAffinityWeight = 1; // InterPodAffinityArgs default
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx) {
        const api::Node& node = d.nodes[idx].node;
        if (node.meta.labels.empty())
            continue;
        for (const PodState* ps : d.podsOnNode[idx]) {
            if (!ps->placement || (!ownTerms && !ps->placement->hasAnyAffinity()))
                continue;
            const PlacementPod& other = *ps->placement;
            const api::Labels* otherNsLabels = d.placementIndex.labelsOf(other.ns);
            for (const auto& t : self.preferredAffinity)
                if (t.matches(other.ns, other.labels, otherNsLabels))
                    add(node, t, t.weight);
            for (const auto& t : self.preferredAntiAffinity)
                if (t.matches(other.ns, other.labels, otherNsLabels))
                    add(node, t, -t.weight);
            for (const auto& t : other.requiredAffinity)
                if (t.matches(self.ns, self.labels, selfNsLabels))
                    add(node, t, kHardPodAffinityWeight);
            for (const auto& t : other.preferredAffinity)
                if (t.matches(self.ns, self.labels, selfNsLabels))
                    add(node, t, t.weight);
            for (const auto& t : other.preferredAntiAffinity)
                if (t.matches(self.ns, self.labels, selfNsLabels))
                    add(node, t, -t.weight);
        }
    }
    std::vector<int64_t> scores(feasible.size(), 0);
    if (byPair.empty())
        return scores;
    for (size_t k = 0; k < feasible.size(); ++k) {
        const auto& labels = d.nodes[feasible[k]].node.meta.labels;
        for (const auto& [key, values] : byPair) {
            auto value = labels.find(key);
            if (value == labels.end())
                continue;
            auto v = values.find(value->second);
            scores[k] += v == values.end() ? 0 : v->second;
        }
    }
    normalizeInterPodScores(scores);
    return scores;
}

void Cluster::Impl::PodPlacement::score(
    Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs)
{
    if (!cycle.placement->softSpread.empty()) {
        const auto spread = spreadScores(d, cycle, feasible);
        for (size_t k = 0; k < feasible.size(); ++k)
            inputs[k].spreadScore = spread[k];
    }
    if (cycle.placement->scoreInterPod) {
        const auto interPod = interPodScores(d, cycle, feasible);
        for (size_t k = 0; k < feasible.size(); ++k)
            inputs[k].interPodScore = interPod[k];
    }
}

} // namespace drasim::scheduler
