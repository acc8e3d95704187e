// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to yamlio: which scheduling.k8s.io kinds and versions a cluster's API server serves.
// Workload and PodGroup exist only with the feature gate GenericWorkload on, CompositePodGroup
// only with CompositePodGroup on, and each Kubernetes version serves its own API versions:
// 1.35 v1alpha1 (Workload), 1.36 v1alpha2 (Workload, PodGroup), 1.37 v1beta1 (Workload, PodGroup)
// and v1alpha3 (Workload, PodGroup, CompositePodGroup) (workload-scheduling.md §1.1; kube-apiserver
// registers the resources with the gate, FeatureGateAPIRequirements). PriorityClass is
// scheduling.k8s.io/v1 in every version.

#include <optional>
#include <string>
#include <string_view>

#include "core/api/feature_gates.h"
#include "core/api/scheduling_v1.h"

namespace drasim::yamlio {

bool isSchedulingKind(std::string_view kind);

/// The version a served scheduling.k8s.io kind is read in; otherwise nullopt and `refusal` holds
/// the API server's answer (`no matches for kind "PodGroup" in version
/// "scheduling.k8s.io/v1beta1"`, as kubectl prints it) with the reason in parentheses. For
/// PriorityClass the version returned is meaningless (it has only v1).
std::optional<api::SchedulingVersion> servedSchedulingVersion(
    std::string_view kind, std::string_view apiVersion, const api::FeatureGates& gates, std::string& refusal);

} // namespace drasim::yamlio
