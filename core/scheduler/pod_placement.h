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
    static void score(const Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible,
        std::vector<ScoreInputs>& inputs);
    /// What the running pod keeps for the plugins once bound.
    static std::shared_ptr<const PlacementPod> ofBound(const Cycle& cycle)
    {
        if (cycle.placement) // share the cycle's copy
            return std::shared_ptr<const PlacementPod>(cycle.placement, &cycle.placement->self);
        return std::make_shared<const PlacementPod>(placementPodOf(cycle.pod));
    }
    static void countSpread(const Impl& d, const api::Pod& pod, SpreadFilterState& state);
    static void countAffinity(const Impl& d, PlacementCycle& pc);
    static std::vector<int64_t> spreadScores(
        const Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible);
    static std::vector<int64_t> interPodScores(
        const Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible);
    /// The pods of node idx that count for a spread constraint (not terminating, selected).
    static int64_t matchingOn(const Impl& d, uint32_t idx, const SpreadConstraint& c, const std::string& ns)
    {
        int64_t n = 0;
        for (const PodState* ps : d.podsOnNode[idx])
            if (!ps->pub.terminating && ps->placement && spreadSelects(c, ns, *ps->placement))
                ++n;
        return n;
    }
};

} // namespace drasim::scheduler
