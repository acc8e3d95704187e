// SPDX-License-Identifier: Apache-2.0
#pragma once

// When NoExecute node taints evict a bound pod, after kube-controller-manager's taint eviction
// controller (pkg/controller/tainteviction: processPodOnNode, getMatchingTolerations,
// getMinTolerationTime).

#include <optional>
#include <vector>

#include "core/api/core_v1.h"

namespace drasim::scheduler {

/// Seconds until the pod is evicted, counted from when the controller sees the taint on the
/// pod's node (taint added, or pod bound to a tainted node): nullopt when no NoExecute taint
/// evicts it (none, or every one tolerated without tolerationSeconds); 0 when a NoExecute taint is
/// not tolerated or a used toleration has tolerationSeconds <= 0; else the smallest
/// tolerationSeconds among the used tolerations (the first toleration matching each taint).
std::optional<double> noExecuteEvictionDelay(
    const std::vector<api::Taint>& nodeTaints, const std::vector<api::Toleration>& tolerations);

} // namespace drasim::scheduler
