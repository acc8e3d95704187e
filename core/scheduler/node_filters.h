// SPDX-License-Identifier: Apache-2.0
#pragma once

// kube-scheduler's node-level Filter plugins that matter for DRA workloads, in the default
// profile's order: NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit. The first
// plugin that rejects a node decides its reasons (upstream stops at the first failing plugin).

#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/scheduler/pod_info.h"
#include "core/scheduler/scheduler_profile.h"

namespace drasim::scheduler {

struct NodeUsage
{
    Resources allocatable;
    int64_t maxPods = kDefaultMaxPods;
    Resources requested;
    int64_t nonZeroMilliCpu = 0;
    int64_t nonZeroMemory = 0;
    int64_t pods = 0;
};

NodeUsage usageFromNode(const api::Node& node);

bool toleratesNodeTaint(const std::vector<api::Toleration>& tolerations, const api::Taint& taint);

/// NodeAffinity's Filter: the node matches spec.nodeSelector and the required node affinity
/// (nodeaffinity.GetRequiredNodeAffinity(pod).Match).
bool matchesRequiredNodeAffinity(const api::Pod& pod, const api::Node& node);

/// Appends the reasons of the first failing node filter among `filters` (a profile's, see
/// scheduler_profile.h); returns true when the node passes.
bool passesNodeFilters(const api::Node& node, const NodeUsage& usage, const api::Pod& pod,
    const PodRequests& req, std::vector<std::string>& reasons, FilterSet filters = kAllFilters);

/// Sum of weights of the pod's preferred node-affinity terms the node matches.
int64_t preferredAffinityScore(const api::Pod& pod, const api::Node& node);
/// Number of PreferNoSchedule taints of the node the pod does not tolerate.
int64_t intolerablePreferNoSchedule(const api::Pod& pod, const api::Node& node);

} // namespace drasim::scheduler
