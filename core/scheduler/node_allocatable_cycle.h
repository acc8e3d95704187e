// SPDX-License-Identifier: Apache-2.0
#pragma once

// DRANodeAllocatableResources within a scheduling cycle (node_allocatable_cycle.cpp): the pure
// rules are node_allocatable.h's. Private to the scheduler module.

#include <cstdint>
#include <vector>

#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

struct Cluster::Impl::NodeAllocatableCycle
{
    /// Whether the cycle checks node-allocatable resources: the gate is on and the pod has claims.
    static bool active(const Impl& d, const Cycle& cycle);
    /// validateNodeAllocatableDRAClaimSharing, before allocating on node idx: an allocated claim
    /// with a mapped device, reachable from the node and reserved for another pod, turns the node
    /// away (recorded as the node's reason). True when refused.
    static bool sharingRefused(Impl& d, Cycle& cycle, uint32_t idx);
    enum class Verdict { Fits, Rejected, Error };
    /// calculateAndCheckNodeAllocatableResources, after the allocator fit the claims on node idx
    /// (`attempt` holds its picks). Rejected: the reasons are recorded as the node's; Error:
    /// cycle.fatal says why (upstream's statusError).
    static Verdict filter(
        Impl& d, Cycle& cycle, uint32_t idx, const allocator::Attempt& attempt, const NodeUsage& usage);
    /// The bound pod's status on the chosen node, its claims allocated: what its requests add.
    static std::vector<api::NodeAllocatableResourceClaimStatus> atBind(Impl& d, const Cycle& cycle);
};

} // namespace drasim::scheduler
