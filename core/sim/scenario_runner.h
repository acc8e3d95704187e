// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/sim/run_recorder.h"
#include "core/sim/run_summary.h"
#include "core/sim/scenario.h"

namespace drasim::sim {

struct ScenarioRunOptions
{
    std::optional<uint64_t> seed; ///< overrides spec.seed
    std::vector<RunRecorder*> recorders;
    ProgressSink* progress = nullptr;
    const CancelToken* cancel = nullptr;
    bool podEvents = true;
};

/// Builds the cluster of a scenario (catalog node pools, manifests, trace nodes, classes and
/// templates), the kube-scheduler model, the workload stream and the injected events, then runs
/// the simulation. Input problems (unknown shape, unknown node in an event, bad manifests,
/// workload files) are diagnostics located in the scenario or the offending file; nullopt then.
std::optional<RunSummary> runScenario(
    const Scenario& scenario, const ScenarioRunOptions& options, Diagnostics& diags);

} // namespace drasim::sim
