// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/scheduler/cluster.h"

namespace drasim::cli {

/// What the scheduling commands start from: the manifests' pods in input order and the cluster
/// built from all loaded objects.
struct ClusterInput
{
    std::vector<api::Pod> pods;
    scheduler::Cluster cluster;
};

/// Loads the manifests and builds the scheduler cluster. Diagnostics (warnings too) go to stderr;
/// returns nothing when there are errors.
std::optional<ClusterInput> loadCluster(
    const std::vector<std::string>& files, const scheduler::SchedulerOptions& options);

} // namespace drasim::cli
