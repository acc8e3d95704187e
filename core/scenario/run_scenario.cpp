// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/run_scenario.h"

#include "core/scenario/prepare.h"
#include "core/sim/run_prepared.h"

namespace drasim::scenario {

std::optional<sim::RunSummary> runScenario(
    const Scenario& scenario, const ScenarioRunOptions& options, Diagnostics& diags)
{
    PrepareOptions prepare;
    prepare.seed = options.seed;
    prepare.cancel = options.cancel;
    auto prepared = prepareScenario(scenario, prepare, diags);
    if (!prepared)
        return std::nullopt;
    sim::RunOptions run;
    run.recorders = options.recorders;
    run.progress = options.progress;
    run.cancel = options.cancel;
    run.podEvents = options.podEvents;
    return sim::runPrepared(std::move(*prepared), run, diags); // used once: no copy of the cluster
}

} // namespace drasim::scenario
