// SPDX-License-Identifier: Apache-2.0
#pragma once

// What kube-scheduler computes about a pod before filtering: effective resource requests
// (containers summed, init containers maxed, overhead added) and the "non-zero" requests used by
// scoring (pods without requests count as 100m CPU / 200 MiB).

#include <cstdint>
#include <map>
#include <string>

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
    bool empty() const;
};

/// Resources from a ResourceList (cpu in milli, the rest in units rounded up).
Resources fromResourceList(const api::ResourceList& list);

struct PodRequests
{
    Resources requests;
    int64_t nonZeroMilliCpu = 0;
    int64_t nonZeroMemory = 0;
};

PodRequests computePodRequests(const api::PodSpec& spec);

} // namespace drasim::scheduler
