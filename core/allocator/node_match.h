// SPDX-License-Identifier: Apache-2.0
#pragma once

// Node selector matching as kube-scheduler's node affinity does it: requirements of a term are
// ANDed, terms are ORed, matchExpressions look at labels, matchFields at metadata.name.

#include "core/api/core_v1.h"

namespace drasim::allocator {

bool matchesRequirement(const api::NodeSelectorRequirement& req, const api::Node& node, bool field);
bool matchesTerm(const api::NodeSelectorTerm& term, const api::Node& node);
/// An empty selector (no terms) matches nothing, as in Kubernetes.
bool matchesNodeSelector(const api::NodeSelector& selector, const api::Node& node);

} // namespace drasim::allocator
