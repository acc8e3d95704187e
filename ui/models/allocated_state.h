// SPDX-License-Identifier: Apache-2.0
#pragma once

// The cluster as scheduled, in the shape the replaying views read: which pod holds which device
// after the scheduler placed the document's pods (the same answer as `drasim allocate`). Views
// that follow a run's time cursor show this when there is no run.

#include <vector>

#include "core/api/core_v1.h"
#include "core/api/resource_v1.h"
#include "ui/models/pod_replay.h"

namespace drasim::ui {

/// Pods bound to a node run there, the others are pending; each allocated claim's devices are
/// held by the pods it is reserved for (admin-access results are listed with the claim but hold
/// nothing: such access does not take the device from others).
ReplayState allocatedState(const std::vector<api::Pod>& pods, const std::vector<api::ResourceClaim>& claims);

} // namespace drasim::ui
