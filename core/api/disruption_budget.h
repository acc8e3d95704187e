// SPDX-License-Identifier: Apache-2.0
#pragma once

// The disruption controller's arithmetic (kubernetes pkg/controller/disruption/disruption.go):
// which pods a PodDisruptionBudget covers, how many of them must stay healthy, and so how many
// may be disrupted now. Pure functions over plain records, for preemption to call as often as it
// needs (it picks victims that violate no budget first).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/policy_v1.h"

namespace drasim::api {

/// What the controller needs of one pod.
struct PdbPod
{
    std::string_view name; ///< for the controller's messages
    std::string_view namespace_;
    const Labels* labels = nullptr; ///< must outlive the call; nullptr is no labels
    /// The pod's controller (its controller ownerReference): kind and name in the pod's
    /// namespace; an empty kind is a pod without one ("unmanaged").
    std::string_view ownerKind;
    std::string_view ownerName;
    /// Counts toward currentHealthy: running (bound) and not being deleted. Upstream counts Ready
    /// pods that are not terminating and not recently evicted (countHealthyPods).
    bool healthy = false;
};

/// One budget's computed status. `error` is set when the controller cannot compute it (a pod
/// whose controller has no scale); disruptionsAllowed is then 0 (failSafe).
struct DisruptionBudgetState
{
    int32_t expectedPods = 0;
    int32_t desiredHealthy = 0;
    int32_t currentHealthy = 0;
    int32_t disruptionsAllowed = 0;
    std::string error;
};

/// Whether `pdb` covers a pod of `namespace_` with `labels`: same namespace, and its selector
/// matches (a missing selector matches nothing, an empty one everything).
bool selects(const PodDisruptionBudget& pdb, std::string_view namespace_, const Labels& labels);

/// intstr.GetScaledValueFromIntOrPercent with roundUp: an integer as it is, "N%" of `total`
/// rounded up. A string that is not a percentage gives nullopt.
std::optional<int32_t> scaledValue(const IntOrString& v, int32_t total);

/// The state of every budget, in order. `controllers` give the scale (replicas) of the pods'
/// owners: Deployments, ReplicaSets and StatefulSets have one, Jobs do not.
std::vector<DisruptionBudgetState> disruptionBudgetStates(const std::vector<PodDisruptionBudget>& pdbs,
    const std::vector<PdbPod>& pods, const std::vector<PodController>& controllers);

/// status.disruptionsAllowed of every budget, in order.
std::vector<int32_t> disruptionsAllowed(const std::vector<PodDisruptionBudget>& pdbs,
    const std::vector<PdbPod>& pods, const std::vector<PodController>& controllers);

} // namespace drasim::api
