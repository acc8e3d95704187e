// SPDX-License-Identifier: Apache-2.0
#pragma once

// The claim measure of fragmentation (gpushare/claim_fragmentation.h) on the scheduler's
// cluster: what a run samples per DeviceClass, and the fgd policy's score of a pod with DRA
// claims.
//
// A node's free devices of a class are the devices of its view (the slices the allocator reads
// for it) that the class's selectors accept, that no claim holds, whose shared counters (a
// partition's) are still there after the devices in use took theirs, and that are allocated
// whole: a device that allows multiple allocations (consumable capacity, the GPU-sharing path) is
// left out. Only the classes the typical claims ask for (ClaimTarget::classes) are counted.

#include <map>
#include <string>

#include "core/api/resource_v1.h"
#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/claim_shape.h"

namespace drasim::scheduler {

class Cluster;

/// The devices a claim asks for, per DeviceClass, added to `shape`: each request's ExactCount
/// devices (its first subrequest's under firstAvailable: a workload with alternatives is measured
/// by the general measure, addClaimRequests). A request for all devices of a class or with a
/// capacity request (consumable capacity, not modelled) adds none.
void addClaimDevices(const api::ResourceClaimSpec& spec, gpushare::DeviceCounts& shape);

/// The requests of a claim as the general measure reads them (gpushare/claim_shape.h), added to
/// `shape`: each ExactCount request with its class, its own selectors, its count and its capacity
/// requests. A firstAvailable list adds each ExactCount subrequest, in order, as an alternative
/// of list number `nextGroup` (which then counts on); a list with one such subrequest adds it as
/// a request without alternatives. The requests a matchAttribute constraint names (a request: all
/// its alternatives; "request/subrequest": that one; none: all of the claim's) are aligned on its
/// attribute under group `nextGroup`, which then counts on. Requests and subrequests for all
/// devices of a class add nothing.
void addClaimRequests(const api::ResourceClaimSpec& spec, gpushare::ClaimShape& shape, int& nextGroup);

/// The cluster's claim fragment now, against SchedulerOptions::claimTarget, for every target class
/// with a device in the cluster (free or not): clusterClaimFragment of the nodes' free devices,
/// with fragment and free 0 for a class none of whose devices is free. Empty without a target.
std::map<std::string, gpushare::ClassFragment> claimFragmentation(Cluster& cluster);

} // namespace drasim::scheduler
