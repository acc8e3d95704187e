// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/sim/cluster_port.h"

namespace drasim::sim {

/// What decides where a pod can go: namespace (claim lookup), claims and templates, node
/// selector, required node affinity, tolerations, overhead and container requests. Pods with
/// equal signatures are interchangeable for feasibility, which is what lets the scheduling queue
/// retry one pod per group instead of every pending pod. Priority is part of it (it decides
/// whether the pod may preempt); name, labels and preferred affinity are left out: they change
/// order or score, never whether a pod fits. Labels decide fit when the pod has topology spread
/// constraints or pod affinity (then they and those rules are part of it), or when running pods'
/// affinity terms may select the pod (`labelsMatter`).
std::string schedulingSignature(const api::Pod& pod, bool labelsMatter = false);

/// Whether the pod has topology spread constraints or pod (anti-)affinity terms.
bool hasPodPlacementRules(const api::PodSpec& spec);

/// What decides the outcome of a PodGroup cycle, name aside: the group's policy without its key
/// and, member by member in the order given, the scheduling signature plus what orders and
/// scores the members (preferred node affinity, nodeName). Two groups with equal signatures,
/// tried on an identical cluster, place or fail alike. The members' names, labels and
/// annotations are left out unless topology spread or pod affinity read them (as for
/// schedulingSignature).
std::string groupSchedulingSignature(
    const GroupPolicy& group, const std::vector<api::Pod>& pods, bool labelsMatter = false);

/// The primary reason of a kube-scheduler message, used to group pending pods over time: for
/// "0/N nodes are available: 2 A, 5 B." the phrase with the largest node count (ties: the
/// alphabetically first), else the message with quoted names replaced by "*" so that per-pod claim
/// names do not split one reason into thousands.
std::string primaryReason(const std::string& message);

} // namespace drasim::sim
