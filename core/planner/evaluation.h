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
    std::vector<double> values; ///< one per service level, the study's order
    bool stoppedEarly = false; ///< ended once a `pending` level was certainly missed
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
