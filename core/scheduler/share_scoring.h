// SPDX-License-Identifier: Apache-2.0
#pragma once

// Two steps of searchEveryNode that depend on the profile: the inputs of the GPU-sharing score
// plugins (scoring_profile.h, GpuShare), and which feasible node wins. Private to the scheduler
// module.
//
// The GPU-sharing view of a node: free cpu and memory from its usage, and one GPU per device of
// its slices that has a consumable `gpuMilli` capacity (the trace mapping's GPUs), in the
// allocator's visit order, free milli = capacity − what shares consume (0 when dedicated). Its
// model is the devices' `model` attribute. The view of a pod: its cpu and memory requests, and
// its claims' requests as GPUs: count devices of `gpuMilli` each (1000 without a capacity
// request).

#include <cstdint>
#include <vector>

#include "core/gpushare/share_node.h"
#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/scoring.h"

namespace drasim::scheduler {

struct Cluster::Impl::NodeChoice
{
    /// The views the GpuShare term reads, kept alive for one cycle's scoring.
    struct ShareViews
    {
        gpushare::SharePod pod;
        std::vector<gpushare::ShareNode> nodes;
    };

    /// Fills the GpuShare inputs of `inputs` (one per node of `feasible`, same order).
    static void fillShareInputs(Impl& d, const Cycle& cycle, gpushare::SharePolicy policy,
        const std::vector<uint32_t>& feasible, ShareViews& views, std::vector<ScoreInputs>& inputs);

    /// The position in `feasible` of the node chosen: a random feasible one for the random policy
    /// (drawn from the seed and the pod's key), else the best score, ties by options.tieBreak.
    static size_t pick(Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible,
        const std::vector<int64_t>& scores);

    static gpushare::ShareNode shareNode(Impl& d, uint32_t idx, bool withTags);
    /// The free milli of node idx's GPUs, in visit order, into `free`; the first GPU device (its
    /// attributes name the model), null when the node has none.
    static const api::Device* gpuFree(Impl& d, uint32_t idx, std::vector<int32_t>& free);
    static gpushare::SharePod sharePod(const Cycle& cycle);
    /// The GPUs a claim's requests ask for, added to `pod`.
    static void addClaimGpus(const api::ResourceClaim& claim, gpushare::SharePod& pod);
};

} // namespace drasim::scheduler
