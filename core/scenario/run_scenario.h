// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/common/progress.h"
#include "core/scenario/scenario.h"
#include "core/sim/run_recorder.h"
#include "core/sim/run_summary.h"

namespace drasim::scenario {

struct ScenarioRunOptions
{
    std::optional<uint64_t> seed; ///< overrides spec.seed
    std::vector<sim::RunRecorder*> recorders;
    ProgressSink* progress = nullptr;
    const CancelToken* cancel = nullptr;
    bool podEvents = true;
};

/// One run of a scenario document: prepareScenario (prepare.h), then sim::runPrepared. Callers
/// that run a scenario more than once prepare it once and call sim::runPrepared themselves.
std::optional<sim::RunSummary> runScenario(
    const Scenario& scenario, const ScenarioRunOptions& options, Diagnostics& diags);

} // namespace drasim::scenario
