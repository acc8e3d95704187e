// SPDX-License-Identifier: Apache-2.0
#include "core/sim/percentiles.h"

#include <algorithm>
#include <cmath>

namespace drasim::sim {

double nearestRankPercentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0;
    if (p <= 0)
        return sorted.front();
    // The tiny epsilon keeps 0.9 * 10 = 9.000000000000002 from becoming rank 10.
    double rank = std::ceil(p / 100.0 * double(sorted.size()) - 1e-9);
    size_t index = rank < 1 ? 0 : size_t(rank) - 1;
    return sorted[std::min(index, sorted.size() - 1)];
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
    s.p50 = nearestRankPercentile(values, 50);
    s.p90 = nearestRankPercentile(values, 90);
    s.p95 = nearestRankPercentile(values, 95);
    s.p99 = nearestRankPercentile(values, 99);
    return s;
}

} // namespace drasim::sim
