// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/scheduler/cluster.h"
#include "core/sim/simulator.h"
#include "core/workload/workload_spec.h"

namespace drasim::sim {

/// Per-run variations of a PreparedScenario that need no new preparation (the planner runs one
/// prepared base many times with these). Structural changes (node pools: counts, shapes) are a
/// new preparation: see core/scenario/prepare.h.
struct RunOverrides
{
    std::optional<uint64_t> seed; ///< replaces the prepared seed
    std::optional<scheduler::ScoringPolicy> scoring;
    /// Multiplies arrival rates: rate-based processes (poisson, diurnal, bursts) run `factor`
    /// times faster and fixed intervals (`every`, burst spacing) shrink by it; traces that keep
    /// their own times are compressed by it. `once` and explicit `times` are left alone.
    double arrivalScale = 1.0;
    /// How arrivalScale grows the load: false compresses (above); true adds jobs over the same
    /// span: rate-based processes as above with `count` raised as much, while a trace keeps its
    /// times and gains copies of its jobs (AddedJobsSource).
    bool growthAddsJobs = false;
    /// Multiplies run times drawn from `duration:` specs (and pipeline task durations). Run times
    /// that come from pod annotations or trace rows are left alone.
    double durationScale = 1.0;
    /// Failures and other events added to the scenario's (after them at equal times).
    std::vector<InjectedEvent> extraEvents;

    /// Whether the workload stream differs from the prepared one (templates must be rescanned).
    bool changesStream(uint64_t preparedSeed) const
    {
        return (seed && *seed != preparedSeed) || arrivalScale != 1.0 || durationScale != 1.0;
    }
};

/// The workload specs with arrival and duration scaling applied (a copy).
std::vector<workload::WorkloadSpec> scaledWorkloads(const std::vector<workload::WorkloadSpec>& specs,
    double arrivalScale, double durationScale, bool growthAddsJobs = false);

} // namespace drasim::sim
