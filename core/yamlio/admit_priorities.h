// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to yamlio: the Priority admission plugin (core/api/priority_admission.h) over what a
// load read. Runs after every file is read, because a PriorityClass may come after the pods that
// name it.

#include <vector>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/common/diagnostic.h"

namespace drasim::yamlio {

/// Resolves the priority of every Pod, PodGroup and CompositePodGroup against the set's
/// PriorityClasses plus `known` (classes the cluster already has). A refused object is reported at
/// its position and removed, as the API server would not store it. A bound pod (spec.nodeName)
/// already exists in its cluster: it is filled in when its class resolves and never refused.
void admitPriorities(api::ObjectSet& objects, const std::vector<api::PriorityClass>& known,
    const api::FeatureGates& gates, Diagnostics& diags);

} // namespace drasim::yamlio
