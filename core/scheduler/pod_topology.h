// SPDX-License-Identifier: Apache-2.0
#pragma once

// kube-scheduler's two plugins that place a pod relative to the pods already running:
// PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread) and InterPodAffinity
// (plugins/interpodaffinity). This file holds what they compute from counts: the pod's terms and
// constraints as the plugins read them, the Filter verdict of one node and the Score formulas.
// Counting the pods of the cluster is the scheduler's (pod_placement.cpp), which owns them.

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/api/core_v1.h"

namespace drasim::scheduler {

/// Filter reasons, in upstream's wording (podtopologyspread/common.go, interpodaffinity/filtering.go).
inline constexpr const char* kSpreadMismatch = "node(s) didn't match pod topology spread constraints";
inline constexpr const char* kSpreadMissingLabel
    = "node(s) didn't match pod topology spread constraints (missing required label)";
inline constexpr const char* kAffinityMismatch = "node(s) didn't match pod affinity rules";
inline constexpr const char* kAntiAffinityMismatch = "node(s) didn't match pod anti-affinity rules";
inline constexpr const char* kExistingAntiAffinityMismatch
    = "node(s) didn't satisfy existing pods anti-affinity rules";

/// framework.AffinityTerm: a pod affinity term with the owner's matchLabelKeys and
/// mismatchLabelKeys merged into its selector (as the API server stores it since 1.33), and the
/// namespaces it covers resolved (its own namespace when none is named).
struct AffinityTerm
{
    std::optional<api::LabelSelector> selector; ///< absent: selects no pod
    std::vector<std::string> namespaces;
    std::optional<api::LabelSelector> namespaceSelector; ///< absent: `namespaces` only
    std::string topologyKey;
    int32_t weight = 0; ///< preferred terms only
    /// AffinityTerm.Matches: the pod is in one of the namespaces (or one the namespace selector
    /// takes; nsLabels null: a namespace without labels) and its labels match the selector.
    bool matches(const std::string& ns, const api::Labels& labels, const api::Labels* nsLabels) const;
};

/// What the two plugins read of one pod, running or being scheduled (framework.PodInfo).
struct PlacementPod
{
    std::string ns;
    api::Labels labels;
    std::vector<AffinityTerm> requiredAffinity, requiredAntiAffinity;
    std::vector<AffinityTerm> preferredAffinity, preferredAntiAffinity;
    bool hasAnyAffinity() const
    {
        return !requiredAffinity.empty() || !requiredAntiAffinity.empty() || !preferredAffinity.empty()
            || !preferredAntiAffinity.empty();
    }
};
PlacementPod placementPodOf(const api::Pod& pod);
/// The same written over `out`, whose strings, maps and lists keep their buffers.
void placementPodInto(PlacementPod& out, const api::Pod& pod);

/// A topology spread constraint as the plugin reads it: the selector with matchLabelKeys merged.
struct SpreadConstraint
{
    int32_t maxSkew = 1;
    std::string topologyKey;
    int32_t minDomains = 1;
    std::optional<api::LabelSelector> selector; ///< absent: selects no pod
    bool honorNodeAffinity = true;
    bool honorNodeTaints = false;
};
/// The pod's DoNotSchedule (Filter) or ScheduleAnyway (Score) constraints.
std::vector<SpreadConstraint> spreadConstraintsOf(const api::Pod& pod, bool doNotSchedule);
/// The plugin's system defaults (podtopologyspread/plugin.go systemDefaultConstraints): hostname
/// with maxSkew 3 and zone with maxSkew 5, ScheduleAnyway, selecting the pods of the pod's
/// Service, ReplicaSet or StatefulSet (helper.DefaultSelector) given as `selector`.
std::vector<SpreadConstraint> systemDefaultSpreadConstraints(const api::LabelSelector& selector);

/// countPodsMatchSelector's test for one pod: in the namespace, selected, and no selector at all
/// (or an empty one) counts nothing. Terminating pods are left out by the caller.
bool spreadSelects(const SpreadConstraint& c, const std::string& ns, const PlacementPod& pod);
/// Whether the node's pods count towards the constraint's domains (MatchNodeInclusionPolicies).
bool nodeCountsForSpread(const SpreadConstraint& c, const api::Pod& pod, const api::Node& node);
/// nodeLabelsMatchSpreadConstraints: the node has every constraint's topology key.
bool hasAllTopologyKeys(const api::Node& node, const std::vector<SpreadConstraint>& constraints);

/// The domains of one topology key: each node's (by node index) is an index into `values`, or -1
/// for a node without the label.
struct TopologyDomains
{
    std::vector<int32_t> ofNode;
    std::vector<std::string> values;
};

/// PodTopologySpread's PreFilter state: matching pods per domain of each constraint.
struct SpreadFilterState
{
    /// The matchNum of a domain no eligible node is in (upstream: no entry in TpValueToMatchNum).
    static constexpr int64_t kNoEligibleNode = std::numeric_limits<int64_t>::min();
    std::vector<SpreadConstraint> constraints;
    std::vector<const TopologyDomains*> domains; ///< per constraint, of its key
    /// Per constraint and domain: the matching pods, or kNoEligibleNode. A preemption dry run may
    /// take a count below zero, as upstream's RemovePod does: it takes out every selected victim,
    /// also one PreFilter did not count (a terminating pod, or any pod under an empty selector).
    std::vector<std::vector<int64_t>> matchNum;
    std::vector<char> selfMatch; ///< the pod being scheduled is selected by the constraint
    std::vector<int64_t> minMatch; ///< the global minimum (0 while fewer domains than minDomains)
    /// Computes minMatch once every eligible node's pods are counted.
    void finish();
    /// Filter of node idx: null when it passes, else the reason.
    const char* check(uint32_t idx) const;
    /// PreFilterExtensions AddPod (delta +1) and RemovePod (-1) of a pod on node idx, for the
    /// preemptor (podtopologyspread/filtering.go updateWithPod). The minimum is recomputed exactly;
    /// upstream's criticalPaths give the same value here, as a dry run changes one domain per
    /// constraint (its node's) and never above the count PreFilter found.
    void updateWithPod(
        const PlacementPod& other, const api::Pod& preemptor, const api::Node& node, uint32_t idx, int delta);
};

using TopologyPair = std::pair<std::string, std::string>;

/// InterPodAffinity's PreFilter state: per topology pair, the existing pods' anti-affinity terms
/// that select the incoming pod, and the pods the incoming pod's required terms select.
struct AffinityFilterState
{
    std::map<TopologyPair, int64_t> existingAntiAffinity, affinity, antiAffinity;
    /// The incoming pod matches all of its own required affinity terms (the first pod of a set).
    bool selfMatchesAll = false;
    const PlacementPod* pod = nullptr;
    /// Filter: null when the node passes, else the reason.
    const char* check(const api::Node& node) const;
    /// PreFilterExtensions AddPod (+1) and RemovePod (-1) of a pod on the node, whose namespace
    /// has labels otherNsLabels (interpodaffinity/filtering.go updateWithPod); a pair's count that
    /// comes down to zero is dropped, so that no pod anywhere selected lets a first-of-its-kind
    /// pod pass again (satisfyPodAffinity's len(affinityCounts) == 0).
    void updateWithPod(const PlacementPod& other, const api::Node& node, const api::Labels* selfNsLabels,
        const api::Labels* otherNsLabels, int delta);
};

/// Whether a Filter reason of the two plugins is one preemption may resolve: upstream returns
/// Unschedulable for a spread skew and for anti-affinity (the node is a preemption candidate),
/// UnschedulableAndUnresolvable for a missing topology label and unmet pod affinity (it is not).
bool placementRejectionResolvable(const std::string& reason);

struct PlacementIndex;

/// One cycle's state of the two plugins (their PreFilter and PreScore), made only for a pod they
/// have something to do for (Cluster::Impl::PodPlacement::preFilter).
struct PlacementCycle
{
    PlacementPod self;
    bool filterSpread = false; ///< the pod has DoNotSchedule constraints
    SpreadFilterState spread;
    bool filterAffinity = false; ///< required terms of the pod, or running pods that avoid others
    AffinityFilterState affinity;
    /// Score: the pod's ScheduleAnyway constraints (or the system defaults), and whether nodes
    /// lacking one of their keys are ignored (the pod gave constraints itself).
    std::vector<SpreadConstraint> softSpread;
    bool requireAllTopologies = true;
    /// Score: the pod has preferred terms, or running pods have affinity terms of any kind.
    bool scoreInterPod = false;
    /// Filter of node idx: null when it passes both plugins, else the first reason.
    const char* check(uint32_t idx, const api::Node& node) const
    {
        const char* why = filterSpread ? spread.check(idx) : nullptr;
        return why || !filterAffinity ? why : affinity.check(node);
    }
    /// A preemption dry run adds (+1) or removes (-1) a pod on node idx: both plugins' AddPod or
    /// RemovePod, each only when its PreFilter did not skip (it filters this cycle).
    void updateWithPod(const PlacementPod& other, const api::Pod& preemptor, const api::Node& node,
        uint32_t idx, const PlacementIndex& index, int delta);
    /// A copy for a dry run to change (the affinity state pointing at the copy's own pod).
    std::shared_ptr<PlacementCycle> clone() const
    {
        auto out = std::make_shared<PlacementCycle>(*this);
        if (out->affinity.pod)
            out->affinity.pod = &out->self;
        return out;
    }
};

/// The running pods one spread selector takes, per node, kept as pods come and go: counting
/// them is what every cycle of a spread pod does, over every node.
struct SelectorCounts
{
    std::string ns;
    api::LabelSelector selector;
    std::vector<int32_t> perNode; ///< not terminating, selected, in `ns`
    uint64_t lastUse = 0;
};

/// What the scheduler keeps of the running pods for the two plugins, across cycles.
struct PlacementIndex
{
    uint32_t withAffinity = 0; ///< running pods with affinity terms of any kind
    uint32_t withRequiredAntiAffinity = 0;
    /// A pod with DoNotSchedule spread constraints or required pod affinity was scheduled: from
    /// then on, binding a pod may let a pending one fit (its domain's count changes), which the
    /// cluster reports as it does freed capacity.
    bool bindingsMayLetPodsFit = false;
    std::map<std::string, api::Labels> namespaceLabels; ///< of the Namespace objects loaded
    /// The selectors of pod owners ("namespace/Kind/name" of ReplicaSets and StatefulSets), for
    /// PodTopologySpread's system default constraints (helper.DefaultSelector).
    std::map<std::string, api::LabelSelector> ownerSelectors;
    /// The selectors of the Services loaded, by namespace (a Service selects pods of its own)
    /// then name.
    std::map<std::string, std::map<std::string, api::Labels>> serviceSelectors;
    /// Registers a controller's selector; a Deployment's is its ReplicaSet's, under its own name.
    void addOwner(const api::PodController& c);
    /// Registers a Service's selector, or replaces it (one without a selector selects no pod).
    void addService(const api::Service& s);
    /// The default selector of a pod (helper.DefaultSelector): the selectors of the Services that
    /// select it, merged, and with them the requirements of its controller owner's selector when
    /// that is a known ReplicaSet or StatefulSet; none when that leaves nothing to select by (no
    /// system default constraints).
    std::optional<api::LabelSelector> defaultSelectorOf(const api::Pod& pod) const;
    /// By topology key, built on first use; dropped whenever the nodes change (clearNodes).
    std::map<std::string, TopologyDomains> domains;
    /// The selectors counted lately (at most kMaxSelectorCounts, least recently used replaced).
    std::vector<SelectorCounts> selectorCounts;
    uint64_t clock = 0;
    static constexpr size_t kMaxSelectorCounts = 8;
    /// A running pod comes (+1) or goes (-1) on node idx (out of range: none); a terminating one
    /// is already out of the spread counts.
    void count(const PlacementPod* pod, uint32_t idx, int sign, bool isTerminating);
    /// A running pod starts (+1) or stops (-1) terminating: spread counts leave it out.
    void terminating(const PlacementPod* pod, uint32_t idx, int sign);
    /// The nodes were re-indexed: per-node state is rebuilt on demand.
    void clearNodes()
    {
        domains.clear();
        selectorCounts.clear();
    }
    const api::Labels* labelsOf(const std::string& ns) const
    {
        auto it = namespaceLabels.find(ns);
        return it == namespaceLabels.end() ? nullptr : &it->second;
    }
};

/// PodTopologySpread's Score of one node: Σ count × log(domains + 2) + maxSkew − 1.
double spreadScoreForCount(int64_t count, int32_t maxSkew, double weight);
double topologyNormalizingWeight(size_t domains);
/// PodTopologySpread's NormalizeScore: the fewest matching pods scores 100; ignored nodes 0.
void normalizeSpreadScores(std::vector<int64_t>& scores, const std::vector<char>& ignored);
/// InterPodAffinity's NormalizeScore: min..max onto 0..100 (no change when nothing scored).
void normalizeInterPodScores(std::vector<int64_t>& scores);

} // namespace drasim::scheduler
