// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the planner learns about one mix at one load: every seed's service-level values.

#include <cstdint>
#include <string>
#include <vector>

#include "core/planner/mix.h"

namespace drasim::planner {

/// A point of the search: a mix at a load (arrival rates multiplied by `load`).
struct Probe
{
    Mix mix;
    double load = 1.0;
};

struct SeedOutcome
{
    uint64_t seed = 0;
    /// One per service level, the study's order. A run stopped early has no results: the level
    /// that stopped it is only known to be missed (stoppingLevel), the others are unknown.
    std::vector<double> values;
    bool stoppedEarly = false; ///< ended once a `pending` level was certainly missed
    double stoppedAtSeconds = -1; ///< simulated time of the stop (-1: unknown or not stopped)

    /// The `pending` level whose miss stopped the run; -1 when it ran to the end.
    int stoppingLevel(const std::vector<ServiceLevel>& levels) const;
    /// "run stopped at 0.34d" (simulated days), or "run stopped" when the time is unknown.
    std::string stopText() const;
    /// "> 1h, run stopped at 0.34d" for the stopping level of a stopped run; "" otherwise.
    std::string stoppedText(const std::vector<ServiceLevel>& levels) const;
};

struct Evaluation
{
    Mix mix;
    double load = 1.0;
    std::vector<SeedOutcome> seeds; ///< the study's seed order

    /// Every service level met on every seed.
    bool feasible(const std::vector<ServiceLevel>& levels) const;
    /// "p95 wait of openb <= 10m (seed 2: 14m3s)" for the first level missed; empty when feasible.
    std::string firstMiss(const std::vector<ServiceLevel>& levels) const;
};

/// Key of a probe in caches and stores: "3,0,2@1.25".
std::string probeKey(const Mix& mix, double load);
/// A double as the shortest text that reads back to the same value.
std::string exactNumber(double v);

} // namespace drasim::planner
