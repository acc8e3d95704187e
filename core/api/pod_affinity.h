// SPDX-License-Identifier: Apache-2.0
#pragma once

// The pod fields that place a pod relative to other pods: spec.topologySpreadConstraints and
// spec.affinity.podAffinity / podAntiAffinity (k8s.io/api/core/v1 types.go), as the API server
// stores them. The scheduler's plugins that read them are core/scheduler/pod_topology.h.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/api/label_selector.h"

namespace drasim::api {

/// One term of podAffinity or podAntiAffinity: the pods it selects (labelSelector in the
/// namespaces listed, or selected by namespaceSelector, or the pod's own namespace when neither
/// is given) and the node label that defines a topology domain.
struct PodAffinityTerm
{
    /// Absent: the term selects no pod (LabelSelectorAsSelector(nil) is labels.Nothing()).
    std::optional<LabelSelector> labelSelector;
    std::vector<std::string> namespaces;
    /// Absent: only `namespaces` (or the pod's namespace); {}: every namespace.
    std::optional<LabelSelector> namespaceSelector;
    std::string topologyKey;
    /// Keys whose values in the pod's own labels the API server merges into labelSelector as
    /// `key in (value)` (matchLabelKeys) or `key notin (value)` (mismatchLabelKeys) when the pod is
    /// created (MatchLabelKeysInPodAffinity, beta on since 1.33).
    std::vector<std::string> matchLabelKeys;
    std::vector<std::string> mismatchLabelKeys;
    bool operator==(const PodAffinityTerm&) const = default;
};

struct WeightedPodAffinityTerm
{
    int32_t weight = 0; ///< 1-100
    PodAffinityTerm term;
    bool operator==(const WeightedPodAffinityTerm&) const = default;
};

/// podAffinity or podAntiAffinity.
struct PodAffinityRules
{
    std::vector<PodAffinityTerm> required; ///< requiredDuringSchedulingIgnoredDuringExecution
    std::vector<WeightedPodAffinityTerm> preferred; ///< preferredDuringSchedulingIgnoredDuringExecution
    bool empty() const { return required.empty() && preferred.empty(); }
    bool operator==(const PodAffinityRules&) const = default;
};

/// spec.topologySpreadConstraints[].
struct TopologySpreadConstraint
{
    int32_t maxSkew = 0;
    std::string topologyKey;
    bool doNotSchedule = true; ///< whenUnsatisfiable: DoNotSchedule (true) or ScheduleAnyway
    std::optional<LabelSelector> labelSelector;
    /// Only with DoNotSchedule: fewer eligible domains than this count the global minimum as 0.
    std::optional<int32_t> minDomains;
    /// nodeAffinityPolicy: Honor (the default) counts only nodes the pod's nodeSelector and
    /// required node affinity accept; Ignore counts every node.
    bool honorNodeAffinity = true;
    /// nodeTaintsPolicy: Ignore (the default) counts tainted nodes too; Honor skips nodes with a
    /// NoSchedule/NoExecute taint the pod does not tolerate.
    bool honorNodeTaints = false;
    std::vector<std::string> matchLabelKeys;
    bool operator==(const TopologySpreadConstraint&) const = default;
};

} // namespace drasim::api
