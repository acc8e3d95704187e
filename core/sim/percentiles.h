// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <vector>

namespace drasim::sim {

/// Summary of a distribution of durations (or any non-negative values).
struct DistributionSummary
{
    size_t count = 0;
    double mean = 0;
    double min = 0;
    double p50 = 0;
    double p90 = 0;
    double p95 = 0;
    double p99 = 0;
    double max = 0;
};

/// Nearest-rank percentile of already sorted values: the smallest value such that at least p% of
/// the values are <= it (rank ceil(p/100 * n), 1-based). Chosen over interpolation because every
/// reported figure is then an observed value, which keeps golden outputs exact. 0 for no values.
double nearestRankPercentile(const std::vector<double>& sorted, double p);

/// Sorts a copy of values and summarises them with nearestRankPercentile.
DistributionSummary summarize(std::vector<double> values);

} // namespace drasim::sim
