// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a preemption's victims are told about their preemptor. The preemption executor
// (pkg/scheduler/framework/preemption, PreemptPod) sets each victim's DisruptionTarget condition
// (reason PreemptionByScheduler) to "<schedulerName>: preempting to accommodate a higher priority
// <type>" before deleting it, the type being the preemptor's: "pod" for a pod's DefaultPreemption,
// "podgroup" for workload-aware preemption by a PodGroup (1.36 and 1.37), and "compositepodgroup"
// for one by a CompositePodGroup root (1.37, the kube-scheduler framework's EntityKeyType values).

#include <cstdint>
#include <string>

namespace drasim::scheduler {

enum class PreemptorKind : uint8_t { Pod, PodGroup, CompositePodGroup };

inline const char* preemptorTypeName(PreemptorKind kind)
{
    switch (kind) {
    case PreemptorKind::PodGroup:
        return "podgroup";
    case PreemptorKind::CompositePodGroup:
        return "compositepodgroup";
    case PreemptorKind::Pod:
        break;
    }
    return "pod";
}

/// What the victim is told of its preemptor, without the scheduler's name.
inline std::string preemptingFor(PreemptorKind kind)
{
    return std::string("preempting to accommodate a higher priority ") + preemptorTypeName(kind);
}

/// The victim's DisruptionTarget message; an empty schedulerName is the default scheduler's.
inline std::string disruptionTargetMessage(const std::string& schedulerName, PreemptorKind kind)
{
    return (schedulerName.empty() ? std::string("default-scheduler") : schedulerName) + ": "
        + preemptingFor(kind);
}

} // namespace drasim::scheduler
