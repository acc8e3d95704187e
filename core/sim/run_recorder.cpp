// SPDX-License-Identifier: Apache-2.0
#include "core/sim/run_recorder.h"

namespace drasim::sim {

const char* podEventTypeName(PodEventType t)
{
    switch (t) {
    case PodEventType::Created:
        return "Created";
    case PodEventType::Scheduled:
        return "Scheduled";
    case PodEventType::Unschedulable:
        return "Unschedulable";
    case PodEventType::Succeeded:
        return "Succeeded";
    case PodEventType::Failed:
        return "Failed";
    case PodEventType::Evicted:
        return "Evicted";
    case PodEventType::Preempted:
        return "Preempted";
    }
    return "Unknown";
}

} // namespace drasim::sim
