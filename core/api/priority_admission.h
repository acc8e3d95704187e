// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Priority admission plugin (kubernetes plugin/pkg/admission/priority/admission.go): when a
// Pod or a PodGroup is created, its spec.priorityClassName is resolved against the cluster's
// PriorityClasses and spec.priority (and a pod's spec.preemptionPolicy) is set from the class.
//
//   no priorityClassName  → the globalDefault class (the lowest value if several), whose name is
//                           also set; no default class: priority 0, PreemptLowerPriority
//   a name                → that class; system-cluster-critical and system-node-critical always
//                           exist (the API server creates them at start)
//   an unknown name       → pods "NAME" is forbidden: no PriorityClass with name X was found
//   spec.priority given and different (a pod) → forbidden: "the integer value of priority (%d)
//                           must not be provided in pod spec; ..."; likewise preemptionPolicy
//
// Decision: drasim predates PriorityClasses, and its scenarios give pods a priority directly. When
// no class is involved (no name and no globalDefault class), the object is left as written: its
// own spec.priority stands (absent is 0, as the API server would compute) and nothing is added,
// so a cluster without PriorityClasses reads and runs exactly as before. The API server would
// refuse a non-zero spec.priority there.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/scheduling_v1.h"

namespace drasim::api {

/// scheduling.SystemClusterCritical / SystemNodeCritical and their values.
constexpr int32_t kSystemClusterCriticalPriority = 2000000000;
constexpr int32_t kSystemNodeCriticalPriority = 2000001000;

/// The PriorityClasses of a cluster: the loaded ones plus the two system classes when they were
/// not loaded. Keeps copies; cheap to build once per load.
class PriorityClassIndex
{
public:
    explicit PriorityClassIndex(const std::vector<PriorityClass>& classes);
    /// Loaded classes first, then `more` (classes the cluster already has, e.g. a scenario's).
    PriorityClassIndex(const std::vector<PriorityClass>& classes, const std::vector<PriorityClass>& more);

    const PriorityClass* find(std::string_view name) const;
    /// getDefaultPriorityClass: among globalDefault classes the one with the lowest value.
    const PriorityClass* globalDefault() const
    {
        return m_default < m_classes.size() ? &m_classes[m_default] : nullptr;
    }

private:
    void add(const PriorityClass& pc);
    void finish();

    std::vector<PriorityClass> m_classes;
    size_t m_default = size_t(-1); ///< index of the globalDefault class; none when out of range
};

/// Why an object was refused: the field it is about (spec.priorityClassName, spec.priority,
/// spec.preemptionPolicy) and the API server's message.
struct PriorityAdmissionError
{
    std::string field;
    std::string message;
};

/// Admits a pod created with `spec`; `podName` is the name the message shows (a generateName
/// prefix such as "train-" for pods a controller creates). On success `spec` holds the resolved
/// priorityClassName, priority and preemptionPolicy.
std::optional<PriorityAdmissionError> admitPodPriority(
    const PriorityClassIndex& classes, const std::string& podName, PodSpec& spec);

/// Admits a PodGroup or CompositePodGroup (`resource` is "podgroups.scheduling.k8s.io" or
/// "compositepodgroups.scheduling.k8s.io"): priorityClassName resolved as for pods, priority set
/// from the class (admitWorkload overwrites it, there is no mismatch check); preemptionPolicy,
/// when unset, from the class if `withPreemptionPolicy` (the PodGroupPreemptionPolicy gate).
std::optional<PriorityAdmissionError> admitGroupPriority(const PriorityClassIndex& classes,
    std::string_view resource, const std::string& name, GroupPolicy& policy, bool withPreemptionPolicy);

/// The PriorityClass's spec.preemptionPolicy ("PreemptLowerPriority" when unset or unknown).
PreemptionPolicy classPreemptionPolicy(const PriorityClass& pc);

} // namespace drasim::api
