// SPDX-License-Identifier: Apache-2.0
#pragma once

// Worst-case cost estimate of a checked expression, in the spirit of cel-go's checker-based
// estimator with the DRA size bounds (cel.md §12): 32 domains x 32 identifiers, 64-character
// attribute strings, 63-character driver names, exact sizes for literals, and unbounded sizes for
// results of conversions (an operation whose cost grows with such a size cannot be bounded).

#include "core/cel/ast.h"

namespace drasim::cel {

/// Kubernetes rejects selectors whose estimated cost is above this (cel.md §12).
constexpr double kEstimatedCostLimit = 1000000;

/// Estimated worst-case cost (may be +infinity when a size is unbounded).
double estimateCost(const Node& root);

} // namespace drasim::cel
