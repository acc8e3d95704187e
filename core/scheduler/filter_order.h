// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Filter plugins in the order a KubeSchedulerConfiguration lists them
// (SchedulerProfile::filterOrder): kube-scheduler's RunFilterPlugins runs them in that order and
// stops at the first that rejects the node, so the order decides the reason a node reports (and
// so whether preemption may help there). Whether a node passes does not depend on it.

#include <cstdint>
#include <string>
#include <vector>

#include "core/scheduler/node_filters.h"
#include "core/scheduler/pod_topology.h"

namespace drasim::scheduler {

/// Runs `order`'s filters on the node, appending the reasons of the first that rejects it;
/// `placement` is the cycle's PodTopologySpread/InterPodAffinity state (null: nothing to check).
bool passesFiltersInOrder(const std::vector<FilterPlugin>& order, const api::Node& node,
    const NodeUsage& usage, const api::Pod& pod, const PodRequests& req, const PlacementCycle* placement,
    uint32_t idx, std::vector<std::string>& reasons);

} // namespace drasim::scheduler
