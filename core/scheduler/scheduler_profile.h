// SPDX-License-Identifier: Apache-2.0
#pragma once

// A kube-scheduler profile as the cycle runs it: the scheduler name pods select it by, its score
// terms (scoring_profile.h), which node filters run, whether DefaultPreemption runs, and its own
// percentageOfNodesToScore. A KubeSchedulerConfiguration builds them (scheduler_config.h); each
// named scoring policy is a preset profile, so a run without a configuration is exactly what it
// was before configurations existed.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/scheduler/scoring_profile.h"

namespace drasim::scheduler {

/// The Filter plugins drasim runs besides DynamicResources, one bit each in a FilterSet (a new one
/// goes before Count; plugin_registry.cpp names it). The first four are node_filters.h's; the two
/// placement plugins filter from the counts their PreFilter took (pod_placement.h).
enum class FilterPlugin : uint8_t {
    NodeUnschedulable,
    TaintToleration,
    NodeAffinity,
    NodeResourcesFit,
    PodTopologySpread,
    InterPodAffinity,
    Count,
};
using FilterSet = uint32_t;
inline constexpr FilterSet filterBit(FilterPlugin f)
{
    return FilterSet(1) << unsigned(f);
}
inline constexpr FilterSet kAllFilters = filterBit(FilterPlugin::Count) - 1;

inline constexpr const char* kDefaultSchedulerName = "default-scheduler";

struct SchedulerProfile
{
    std::string schedulerName = kDefaultSchedulerName;
    ScoringProfile scoring;
    FilterSet filters = kAllFilters; ///< the node filters that run (DynamicResources always does)
    /// The order the enabled filters run in, the first that rejects a node naming its reason, when
    /// the configuration orders them otherwise than the default profile (FilterPlugin's order);
    /// empty: that order. DynamicResources runs after them either way.
    std::vector<FilterPlugin> filterOrder;
    bool preemption = true; ///< DefaultPreemption enabled at PostFilter
    /// DefaultPreemptionArgs: the dry run stops once it has this share of the potential nodes as
    /// candidates, and never fewer than the absolute number (calculateNumCandidates).
    int32_t minCandidateNodesPercentage = 10;
    int32_t minCandidateNodesAbsolute = 100;
    /// The profile's percentageOfNodesToScore; unset: the configuration's (SchedulerOptions).
    std::optional<int32_t> percentageOfNodesToScore;
    /// kube-scheduler's error for every pod whose cycle scores nodes (two or more feasible ones)
    /// when a Score plugin that reads its PreScore's state runs without that PreScore; empty: none.
    std::string scoreError;
    /// The PodGroup cycle's plugins. A placement scores PodGroupPodsCount's weight times its
    /// members (0..100) plus NodeResourcesFit's weight times its bin packing (0: not enabled at
    /// placementScore); that packing weighs cpu, memory and ephemeral storage as the profile's
    /// NodeResourcesFit resources do (placementFit; null: cpu and memory, 1 each).
    int64_t placementPodsCountWeight = 1;
    int64_t placementFitWeight = 1;
    std::shared_ptr<const FitScoring> placementFit = nullptr;
    /// TopologyPlacement generates a group's placements (without it a group has one placement,
    /// every node, and its topology constraint is not acted on).
    bool topologyPlacement = true;
    /// DefaultPreemption runs at PodGroupPostFilter: workload-aware preemption for a group.
    bool groupPreemption = true;
    /// The PodGroup cycle scores placements as the default profile does.
    bool defaultPlacementScoring() const
    {
        return placementPodsCountWeight == 1 && placementFitWeight == 1 && !placementFit;
    }

    bool filterEnabled(FilterPlugin f) const { return (filters & filterBit(f)) != 0; }
};

/// The profile of a named policy: its score terms, every filter, preemption on.
const SchedulerProfile& presetProfile(ScoringPolicy policy);

} // namespace drasim::scheduler
