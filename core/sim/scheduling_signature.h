// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "core/api/core_v1.h"

namespace drasim::sim {

/// What decides where a pod can go: namespace (claim lookup), claims and templates, node
/// selector, required node affinity, tolerations, overhead and container requests. Pods with
/// equal signatures are interchangeable for feasibility, which is what lets the scheduling queue
/// retry one pod per group instead of every pending pod. Priority is part of it (it decides
/// whether the pod may preempt); name, labels and preferred affinity are left out: they change
/// order or score, never whether a pod fits.
std::string schedulingSignature(const api::Pod& pod);

/// The primary reason of a kube-scheduler message, used to group pending pods over time: for
/// "0/N nodes are available: 2 A, 5 B." the phrase with the largest node count (ties: the
/// alphabetically first), else the message with quoted names replaced by "*" so that per-pod claim
/// names do not split one reason into thousands.
std::string primaryReason(const std::string& message);

} // namespace drasim::sim
