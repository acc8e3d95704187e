// SPDX-License-Identifier: Apache-2.0
#pragma once

// The FGD experiment: every policy with every seed (one replay each, on as many threads as
// asked), each run's curves binned by arrived load, and per policy and arrived % the mean,
// median and quartiles across the seeds. The outcome does not depend on the thread count.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/fragstudy/arrival_bins.h"
#include "core/fragstudy/share_replay.h"

namespace drasim::fragstudy {

struct StudyOptions
{
    std::vector<gpushare::SharePolicy> policies;
    std::vector<uint64_t> seeds;
    std::optional<gpushare::GpuChoice> gpuChoice; ///< nullopt: each policy's own
    TieBreak tieBreak = TieBreak::SeededOrder;
    InflationOptions inflation;
    int maxPercent = 130; ///< bins 0..maxPercent
    unsigned threads = 1; ///< 0: every core
};

/// A value across the seeds at one arrived %.
struct SeedStats
{
    size_t seeds = 0; ///< runs with a value there
    double mean = 0, median = 0, lowerQuartile = 0, upperQuartile = 0;
};

struct PolicyCurves
{
    gpushare::SharePolicy policy;
    /// Index x = arrived % (0..maxPercent); seeds == 0 where no run reached x.
    std::vector<SeedStats> allocated, fragment, fragmentRate;
    double meanArrivals = 0;
    double meanDropped = 0;
};

struct StudyResult
{
    StudyOptions options;
    size_t nodes = 0;
    int64_t gpus = 0;
    size_t tracePods = 0;
    std::vector<PolicyCurves> policies; ///< in options order
};

/// nullopt when `cancel` was set before every run finished. `progress` hears the share of runs
/// done after each run, one call at a time.
std::optional<StudyResult> runStudy(const StudyInput& input, const StudyOptions& options,
    ProgressSink* progress = nullptr, const CancelToken* cancel = nullptr);

/// Mean, median and quartiles (linear interpolation between order statistics, as numpy's and
/// pandas' default quantile).
SeedStats seedStats(std::vector<double> values);

/// "42-51", "42,45,50-52" → the seeds; nullopt (with `error`) for anything else.
std::optional<std::vector<uint64_t>> parseSeedList(const std::string& text, std::string& error);

} // namespace drasim::fragstudy
