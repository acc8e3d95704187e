// SPDX-License-Identifier: Apache-2.0
#include "core/sim/percentiles.h"

#include <algorithm>
#include <cmath>

namespace drasim::sim {

size_t nearestRank(size_t n, double p)
{
    if (n == 0)
        return 0;
    if (p <= 0)
        return 1;
    // The tiny epsilon keeps 0.9 * 10 = 9.000000000000002 from becoming rank 10.
    double rank = std::ceil(p / 100.0 * double(n) - 1e-9);
    return rank < 1 ? 1 : std::min(size_t(rank), n);
}

double nearestRankPercentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0;
    return sorted[nearestRank(sorted.size(), p) - 1];
}

DistributionSummary summarize(std::vector<double> values)
{
    DistributionSummary s;
    s.count = values.size();
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(values.size());
    s.min = values.front();
    s.max = values.back();
    s.maxExact = s.max;
    s.p50 = nearestRankPercentile(values, 50);
    s.p90 = nearestRankPercentile(values, 90);
    s.p95 = nearestRankPercentile(values, 95);
    s.p99 = nearestRankPercentile(values, 99);
    return s;
}

namespace {

/// True when the nearest-rank percentile p of all values (exact sorted) is a lower bound only.
bool isLowerBound(const std::vector<double>& exactSorted, size_t n, double p, double value)
{
    const size_t rank = nearestRank(n, p);
    const auto exactAtOrBelow
        = size_t(std::upper_bound(exactSorted.begin(), exactSorted.end(), value) - exactSorted.begin());
    return exactAtOrBelow < rank;
}

} // namespace

DistributionSummary summarizeCensored(std::vector<double> exact, std::vector<double> censored)
{
    std::sort(exact.begin(), exact.end());
    std::vector<double> all = exact;
    all.insert(all.end(), censored.begin(), censored.end());
    DistributionSummary s = summarize(all);
    s.censored = censored.size();
    s.maxExact = exact.empty() ? 0 : exact.back();
    s.maxCensored = censored.empty() ? 0 : *std::max_element(censored.begin(), censored.end());
    if (censored.empty())
        return s;
    const size_t n = all.size();
    s.atLeast.mean = true;
    s.atLeast.max = true;
    s.atLeast.min = isLowerBound(exact, n, 0, s.min);
    s.atLeast.p50 = isLowerBound(exact, n, 50, s.p50);
    s.atLeast.p90 = isLowerBound(exact, n, 90, s.p90);
    s.atLeast.p95 = isLowerBound(exact, n, 95, s.p95);
    s.atLeast.p99 = isLowerBound(exact, n, 99, s.p99);
    return s;
}

} // namespace drasim::sim
