// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cluster_input.h"

#include <cstdio>

namespace drasim::cli {

std::unique_ptr<scheduler::Cluster> openCluster(session::Session& session,
    const std::vector<std::string>& files, const scheduler::SchedulerOptions& options)
{
    auto cluster = session.openManifests(files) ? session.buildCluster(options) : nullptr;
    if (!session.diagnostics().all().empty())
        std::fputs(session.diagnostics().formatAll().c_str(), stderr);
    return cluster;
}

} // namespace drasim::cli
