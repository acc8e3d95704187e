// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/scenario/scenario.h"
#include "core/sim/prepared_scenario.h"

namespace drasim::scenario {

/// A structural change to one of the scenario's initial node pools (spec.cluster.nodePools).
struct PoolOverride
{
    std::optional<int> count;
    std::optional<std::string> shape;
};

struct PrepareOptions
{
    std::optional<uint64_t> seed; ///< overrides spec.seed
    /// By pool name; an unknown name is an error. Runs that differ only by seed, scoring, load
    /// scaling or injected events share one preparation instead (sim::RunOverrides).
    std::map<std::string, PoolOverride> pools;
    const CancelToken* cancel = nullptr;
    /// Threads for building and copying a large cluster's nodes (0: every core). The result is
    /// the same for any count; callers that already prepare in parallel keep 1.
    unsigned threads = 1;
};

/// Builds what a scenario runs on: catalog node pools (initial and added by events), manifests,
/// trace nodes, classes and templates, the claims and templates the workloads bring, the events
/// with their targets checked. Input problems (unknown shape, unknown node in an event, bad
/// manifests, workload files) are diagnostics located in the scenario or the offending file;
/// nullopt then (also when cancelled).
std::optional<sim::PreparedScenario> prepareScenario(
    const Scenario& scenario, const PrepareOptions& options, Diagnostics& diags);

} // namespace drasim::scenario
