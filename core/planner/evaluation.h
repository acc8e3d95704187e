// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the planner learns about one mix at one load: every seed's service-level values.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/planner/mix.h"

namespace drasim::planner {

/// A point of the search: a mix at a load (arrival rates multiplied by `load`).
struct Probe
{
    Mix mix;
    double load = 1.0;
    /// The seed to simulate first, the one that missed last in this part of the search (nullopt:
    /// the study's order). A mix is decided by its first seed that misses a level, so the seed
    /// most likely to miss is tried before the ones that run to the end.
    std::optional<uint64_t> firstSeed;
};

struct SeedOutcome
{
    uint64_t seed = 0;
    /// One per service level, the study's order. A run stopped early has no results: the level
    /// that stopped it is only known to be missed (stoppingLevel), the others are unknown.
    std::vector<double> values;
    bool stoppedEarly = false; ///< ended once a `pending` level was certainly missed
    double stoppedAtSeconds = -1; ///< simulated time of the stop (-1: unknown or not stopped)

    /// Every service level met (a run stopped early met none for certain).
    bool met(const std::vector<ServiceLevel>& levels) const;
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
    /// The seeds simulated, in the study's seed order. The seeds run one after another and stop at
    /// the first that misses a level: the mix is then decided, and the seeds not run are left out
    /// (a feasible evaluation always holds every seed).
    std::vector<SeedOutcome> seeds;

    /// Every service level met on every seed.
    bool feasible(const std::vector<ServiceLevel>& levels) const;
    /// The first seed (study order) that misses a level; nullopt when none does.
    std::optional<uint64_t> missingSeed(const std::vector<ServiceLevel>& levels) const;
    /// "p95 wait of openb <= 10m (seed 2: 14m3s)" for the first level missed; empty when feasible.
    std::string firstMiss(const std::vector<ServiceLevel>& levels) const;
};

/// Key of a probe in caches and stores: "3,0,2@1.25".
std::string probeKey(const Mix& mix, double load);
/// A double as the shortest text that reads back to the same value.
std::string exactNumber(double v);

} // namespace drasim::planner
