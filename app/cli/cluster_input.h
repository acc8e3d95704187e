// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/scheduler/cluster.h"
#include "core/session/session.h"

namespace drasim::cli {

/// What the scheduling commands start from: opens the manifests in `session` (pods in input
/// order in session.objects()) and builds the scheduler cluster. Diagnostics (warnings too) go to
/// stderr; returns null when there are errors.
std::unique_ptr<scheduler::Cluster> openCluster(session::Session& session,
    const std::vector<std::string>& files, const scheduler::SchedulerOptions& options);

} // namespace drasim::cli
