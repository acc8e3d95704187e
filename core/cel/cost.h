// SPDX-License-Identifier: Apache-2.0
#pragma once

// Worst-case cost estimate of a checked expression: cel-go's checker-based estimator, rule by
// rule, with the size hints Kubernetes declares for the DRA `device` variable (32 domains x 32
// identifiers, 63-character domains and driver names, 32-character identifiers, 64-character
// attribute values), exact sizes for literals, and unknown sizes for conversion results.

#include "core/cel/ast.h"

namespace drasim::cel {

/// Kubernetes rejects selectors whose estimated cost is above this (cel.md §12).
constexpr double kEstimatedCostLimit = 1000000;

/// Estimated worst-case cost, saturating at 2^64-1 like cel-go. Also annotates every node with
/// the actual cost evaluation charges for it (Node::runCost, iterCost, costRule), so that the
/// actual cost of any evaluation stays within the estimate.
double estimateCost(Node& root);

} // namespace drasim::cel
