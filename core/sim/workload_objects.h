// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/sim/sim_time.h"
#include "core/workload/workload_spec.h"

namespace drasim::sim {

/// Adds to `objects` the ResourceClaimTemplates and pre-created ResourceClaims that the workload
/// stream of (specs, seed) carries with its jobs up to `duration`, skipping those already present.
/// scheduler::Cluster takes its templates at construction while the stream only carries them with
/// the jobs ("ensure it exists"); streams are deterministic, so a first pass over an identical
/// stream collects them without holding the jobs in memory. False on error (diagnostics) or cancel.
bool addWorkloadObjects(const std::vector<workload::WorkloadSpec>& specs, uint64_t seed, SimTime duration,
    const api::FeatureGates& gates, api::ObjectSet& objects, Diagnostics& diags,
    const CancelToken* cancel = nullptr);

} // namespace drasim::sim
