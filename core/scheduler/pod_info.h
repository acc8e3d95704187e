// SPDX-License-Identifier: Apache-2.0
#pragma once

// What kube-scheduler computes about a pod before filtering: effective resource requests
// (api/pod_requests.h: containers summed, init containers maxed, sidecars added, pod-level requests
// in place of the sum, overhead added) and the "non-zero" requests used by scoring (a container
// without a cpu or memory request counts 100m CPU / 200 MiB).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/api/core_v1.h"

namespace drasim::scheduler {

inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;
/// Used when a node does not state allocatable "pods" (kubelet's default maxPods).
inline constexpr int64_t kDefaultMaxPods = 110;

struct Resources
{
    int64_t milliCpu = 0;
    int64_t memory = 0;
    int64_t ephemeralStorage = 0;
    std::map<std::string, int64_t> scalar; ///< extended resources (nvidia.com/gpu, hugepages-*, ...)

    void add(const Resources& o, int sign = 1);
    /// Each resource the larger of the two (maxResourceList).
    void maxWith(const Resources& o);
    bool empty() const;
};

/// Resources from a ResourceList (cpu in milli, the rest in units rounded up); `hasCpu` and
/// `hasMemory`, when given, are set when the list names cpu or memory (even at zero).
Resources fromResourceList(const api::ResourceList& list, bool* hasCpu = nullptr, bool* hasMemory = nullptr);

struct PodRequests
{
    Resources requests;
    int64_t nonZeroMilliCpu = 0;
    int64_t nonZeroMemory = 0;
};

/// What a pod's DRA claims add to its requests on a node (DRANodeAllocatableResources, KEP-5517),
/// from pod.status.nodeAllocatableResourceClaimStatuses: mapped amounts and per-pod overhead for
/// the pod's whole life, per-container overhead while each referencing container runs.
struct DraNodeAllocatable
{
    Resources podFixed;
    std::map<std::string, Resources> perContainer;
    bool empty() const { return podFixed.empty() && perContainer.empty(); }
};

/// getDRANodeAllocatableResources: a reference by a container the pod does not have is charged for
/// the pod's whole life.
DraNodeAllocatable draNodeAllocatable(
    const api::PodSpec& spec, const std::vector<api::NodeAllocatableResourceClaimStatus>& statuses);

/// PodRequests with pod-level resources honoured; `dra` adds what the pod's claims charge.
PodRequests computePodRequests(const api::PodSpec& spec, const DraNodeAllocatable* dra = nullptr);

/// A bound pod's requests on its node: with DRANodeAllocatableResources, its status's claim
/// amounts included (the scheduler cache's PodInfo.CalculateResource).
PodRequests boundPodRequests(const api::Pod& pod, bool nodeAllocatableResources);

/// The containers' requests alone (AggregateContainerRequests, pod-level requests and overhead
/// left out) with the claims' amounts: what a pod-level request must cover.
Resources containerRequestsWithDra(const api::PodSpec& spec, const DraNodeAllocatable& dra);

} // namespace drasim::scheduler
