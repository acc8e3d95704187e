// SPDX-License-Identifier: Apache-2.0
#pragma once

// Node scores, integer arithmetic as in kube-scheduler (MaxNodeScore = 100).

#include <cstdint>

#include "core/scheduler/cluster.h"
#include "core/scheduler/node_filters.h"

namespace drasim::scheduler {

inline constexpr int64_t kMaxNodeScore = 100;

/// The part of a node's score that depends only on the node and the pod's requests (resource
/// fit, and for the default policy the balance term). The other terms (taints, preferred
/// affinity, DRA prioritized list) are normalised over the feasible nodes by the caller.
int64_t resourceScore(ScoringPolicy policy, const NodeUsage& usage, const PodRequests& pod);

/// Normalises raw scores to 0..100 so that the highest is 100 (reverse: the lowest is 100).
int64_t normalizeScore(int64_t raw, int64_t max, bool reverse);

} // namespace drasim::scheduler
