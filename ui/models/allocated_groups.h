// SPDX-License-Identifier: Apache-2.0
#pragma once

// The PodGroups of a one-shot scheduling (what `drasim allocate` leaves) in the replay's terms,
// so the Pods tab and the explanation pane speak of them as they do of a run's groups.

#include <vector>

#include "core/api/core_v1.h"
#include "core/api/scheduling_v1.h"
#include "ui/models/pod_replay.h"

namespace drasim::ui {

/// Adds to `state` (allocatedState of the same pods) every loaded PodGroup that an unfinished pod
/// names in spec.schedulingGroup: its policy (minCount for a gang, its first topology key), its
/// members in input order and, when a member is bound and the group has a topology key, the
/// domain ("key=value") its bound members' node is in. Preemption victims (the DisruptionTarget
/// condition the scheduler sets) are marked preempted, with that condition's message.
void addAllocatedGroups(ReplayState& state, const std::vector<api::Pod>& pods,
    const std::vector<api::PodGroup>& groups, const std::vector<api::Node>& nodes);

} // namespace drasim::ui
