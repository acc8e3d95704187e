// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/inflation.h"

#include <algorithm>
#include <numeric>

namespace drasim::fragstudy {

std::vector<uint32_t> arrivalOrder(const std::vector<gpushare::SharePod>& pods,
    const std::vector<std::string>& names, int64_t gpuCapacityMilli, const InflationOptions& options,
    workload::Rng& rng)
{
    std::vector<uint32_t> sorted(pods.size());
    std::iota(sorted.begin(), sorted.end(), 0u);
    std::stable_sort(
        sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) { return names[a] < names[b]; });
    std::vector<uint32_t> order = sorted;
    if (options.shuffle)
        workload::shuffle(order, rng);
    if (!options.targetPercent || pods.empty())
        return order;
    const double target = *options.targetPercent / 100.0 * double(gpuCapacityMilli);
    int64_t requested = 0;
    for (const gpushare::SharePod& pod : pods)
        requested += pod.gpuMilliTotal();
    if (double(requested) <= target) {
        for (;;) {
            const gpushare::SharePod& clone = pods[sorted[size_t(rng.below(sorted.size()))]];
            if (double(requested + clone.gpuMilli) > target)
                break;
            order.push_back(uint32_t(&clone - pods.data()));
            requested += clone.gpuMilliTotal();
        }
        return order;
    }
    while (double(requested) > target && !order.empty()) {
        const size_t drop = size_t(rng.below(order.size()));
        requested -= pods[order[drop]].gpuMilliTotal();
        order.erase(order.begin() + std::ptrdiff_t(drop));
    }
    return order;
}

} // namespace drasim::fragstudy
