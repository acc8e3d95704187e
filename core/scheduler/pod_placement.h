// SPDX-License-Identifier: Apache-2.0
#pragma once

// PodTopologySpread and InterPodAffinity in the scheduling cycle (pod_placement.cpp); the counts'
// arithmetic is pod_topology.h's. Private to the scheduler module.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

struct Cluster::Impl::PodPlacement
{
    /// The cycle's state, or null when neither plugin has anything to do for this pod.
    static std::shared_ptr<const PlacementCycle> preFilter(Impl& d, const Cycle& cycle);
    /// Sets each feasible node's PodTopologySpread and InterPodAffinity scores, normalised.
    static void score(
        Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs);
    /// What the running pod keeps for the plugins once bound. One of its own is made as a
    /// non-const object, so that it may be written over once the pod has finished (`spare`, when
    /// nothing else holds it: reserveAndBind).
    static std::shared_ptr<const PlacementPod> ofBound(
        const Cycle& cycle, std::shared_ptr<PlacementPod> spare = nullptr)
    {
        if (cycle.placement) // share the cycle's copy
            return std::shared_ptr<const PlacementPod>(cycle.placement, &cycle.placement->self);
        if (!spare)
            return std::make_shared<PlacementPod>(placementPodOf(cycle.pod));
        placementPodInto(*spare, cycle.pod);
        return spare;
    }
    static void countSpread(Impl& d, const api::Pod& pod, SpreadFilterState& state);
    static void countAffinity(const Impl& d, PlacementCycle& pc);
    static std::vector<int64_t> spreadScores(
        Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible);
    static std::vector<int64_t> interPodScores(
        const Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible);
    /// The domains of a topology key over the cluster's nodes (built once per node set).
    static const TopologyDomains& domainsOf(Impl& d, const std::string& key);
    /// The running pods a spread constraint's selector takes in namespace ns, per node; null when
    /// it takes none (no selector, or an empty one: countPodsMatchSelector counts nothing).
    static const std::vector<int32_t>* countsOf(Impl& d, const std::string& ns, const SpreadConstraint& c);
};

} // namespace drasim::scheduler
