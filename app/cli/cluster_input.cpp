// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cluster_input.h"

#include <cstdio>

#include "core/yamlio/loader.h"

namespace drasim::cli {

namespace {
/// Prints every diagnostic on stderr; true when one of them is an error.
bool report(const Diagnostics& diags)
{
    if (!diags.all().empty())
        std::fputs(diags.formatAll().c_str(), stderr);
    return diags.hasErrors();
}
} // namespace

std::optional<ClusterInput> loadCluster(
    const std::vector<std::string>& files, const scheduler::SchedulerOptions& options)
{
    auto loaded = yamlio::loadPaths(files);
    if (report(loaded.diagnostics))
        return std::nullopt;
    std::vector<api::Pod> pods = loaded.objects.pods;
    ClusterInput input { std::move(pods), scheduler::Cluster(std::move(loaded.objects), options) };
    if (report(input.cluster.diagnostics()))
        return std::nullopt;
    return input;
}

} // namespace drasim::cli
