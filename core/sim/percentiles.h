// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <vector>

namespace drasim::sim {

/// Which figures of a DistributionSummary are only lower bounds (see summarizeCensored).
struct LowerBounds
{
    bool mean = false;
    bool min = false;
    bool p50 = false;
    bool p90 = false;
    bool p95 = false;
    bool p99 = false;
    bool max = false;
    bool any() const { return mean || min || p50 || p90 || p95 || p99 || max; }
};

/// Summary of a distribution of durations (or any non-negative values).
struct DistributionSummary
{
    size_t count = 0; ///< every value, censored ones included
    /// Values known only as lower bounds: a pod that never got scheduled counts its wait so far.
    size_t censored = 0;
    double mean = 0;
    double min = 0;
    double p50 = 0;
    double p90 = 0;
    double p95 = 0;
    double p99 = 0;
    double max = 0;
    LowerBounds atLeast; ///< the figures censored values could still raise
    double maxExact = 0; ///< largest uncensored value (0 when none)
    double maxCensored = 0; ///< largest censored value (0 when none)
};

/// Nearest-rank percentile of already sorted values: the smallest value such that at least p% of
/// the values are <= it (rank ceil(p/100 * n), 1-based). Chosen over interpolation because every
/// reported figure is then an observed value, which keeps golden outputs exact. 0 for no values.
double nearestRankPercentile(const std::vector<double>& sorted, double p);
/// The 1-based rank nearestRankPercentile reads for n values (1 when p <= 0; 0 when n is 0).
size_t nearestRank(size_t n, double p);

/// Sorts a copy of values and summarises them with nearestRankPercentile.
DistributionSummary summarize(std::vector<double> values);

/// Summarises exact values together with censored ones (each a lower bound of an unknown value),
/// every figure computed with the censored values as they are. Raising a censored value can only
/// raise a figure, so every figure is a lower bound of the complete distribution's; it is marked
/// as one (atLeast) unless no censored value can move it. A nearest-rank percentile P of rank k
/// stays P whatever the censored values become exactly when at least k exact values are <= P
/// (sending every censored value to infinity leaves the k-th smallest at P). Censored values
/// above P cannot move it; one at or below P can (it may climb past P), unless enough exact
/// values sit at or below P to keep the rank. The mean and the maximum are bounds whenever a
/// value is censored.
DistributionSummary summarizeCensored(std::vector<double> exact, std::vector<double> censored);

} // namespace drasim::sim
