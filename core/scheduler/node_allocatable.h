// SPDX-License-Identifier: Apache-2.0
#pragma once

// DRANodeAllocatableResources (KEP-5517, alpha in 1.36 and 1.37, off by default): devices that are
// node-allocatable cpu, memory or hugepages (a CPU or memory driver's devices), or that cost some
// of it (a GPU that needs host memory per pod). The DynamicResources Filter adds what the pod's
// claims map and cost to the pod's own requests and checks the sum against the node's free
// allocatable; the bound pod's status records it, and the node's requested resources count it for
// as long as the pod runs (upstream nodeallocatabledynamicresources.go, component-helpers
// resource.PodRequests with UseDRANodeAllocatableResourceClaimStatus).
//
// The pure parts live here; node_allocatable_cycle.cpp applies them within a scheduling cycle.

#include <map>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/resource_v1.h"
#include "core/scheduler/node_filters.h"
#include "core/scheduler/pod_info.h"

namespace drasim::scheduler {

/// One allocated device of a claim: the device as the node's slices publish it and the capacity
/// the allocation consumed (empty unless the device allows multiple allocations).
struct AllocatedDeviceView
{
    const api::Device* device = nullptr;
    std::string driver;
    std::string name;
    const std::map<std::string, Quantity>* consumedCapacity = nullptr;
};

/// A claim of the pod whose allocation includes a device with node-allocatable resources.
struct NodeAllocatableClaim
{
    std::string name; ///< the ResourceClaim's name
    std::string ns;
    std::vector<std::string> podClaimNames; ///< the pod.spec.resourceClaims entries that use it
    std::vector<AllocatedDeviceView> devices; ///< every result of its allocation, in order
};

bool hasNodeAllocatableResources(const api::Device& device);
/// A device with a `mapping` for some resource: its claim cannot be shared between pods.
bool hasNodeAllocatableMapping(const api::Device& device);

/// buildNodeAllocatableDRAInfo: one status per claim that maps or costs something, sorted by claim
/// name; each lists the containers (init containers first) that reference the claim. Returns an
/// error text (upstream's statusError) when a capacityKey mapping meets a device allocation
/// without consumed capacity.
std::string buildNodeAllocatableStatuses(const api::PodSpec& spec,
    const std::vector<NodeAllocatableClaim>& claims,
    std::vector<api::NodeAllocatableResourceClaimStatus>& out);

/// validatePodLevelResourcesCoverDRA: the containers' requests plus the claims' amounts must fit
/// within the pod-level requests, and each container's limit plus what its claims add within the
/// pod-level limit. The Filter's UnschedulableAndUnresolvable message, or "". (The aggregate
/// hugepages limit check is not modelled.)
std::string podLevelShortfall(const api::PodSpec& spec,
    const std::vector<api::NodeAllocatableResourceClaimStatus>& statuses, const DraNodeAllocatable& dra);

/// nodeFitsResources: cpu, memory, ephemeral storage and hugepages of the pod's whole demand
/// against the node's free allocatable. Appends "Insufficient <resource>" per shortfall; sets
/// `unresolvable` when some demand exceeds the node's whole allocatable (no eviction can help).
bool nodeAllocatableFits(
    const Resources& demand, const NodeUsage& usage, std::vector<std::string>& reasons, bool& unresolvable);

/// The sharing refusal of a claim with a mapped device (validateNodeAllocatableDRAClaimSharing).
std::string mappedClaimSharedMessage(const std::string& claimName);

} // namespace drasim::scheduler
