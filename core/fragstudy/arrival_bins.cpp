// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/arrival_bins.h"

#include <cmath>

namespace drasim::fragstudy {

namespace {

struct Sample
{
    double arrived; ///< rounded arrived %
    double allocated, fragment, fragmentRate;
};

// The mean of the samples whose arrived % is x, else of those within x ± 1.
std::optional<Sample> binMean(const std::vector<Sample>& samples, int x)
{
    for (double radius : { 0.0, 1.0 }) {
        Sample sum { 0, 0, 0, 0 };
        size_t n = 0;
        for (const Sample& s : samples)
            if (s.arrived >= x - radius && s.arrived <= x + radius) {
                sum.allocated += s.allocated;
                sum.fragment += s.fragment;
                sum.fragmentRate += s.fragmentRate;
                ++n;
            }
        if (n > 0)
            return Sample { double(x), sum.allocated / double(n), sum.fragment / double(n),
                sum.fragmentRate / double(n) };
    }
    return std::nullopt;
}

} // namespace

double roundTo2(double x)
{
    return std::nearbyint(x * 100.0) / 100.0; // the default rounding mode: half to even
}

RunCurves binByArrival(const std::vector<ReplayPoint>& points, int64_t gpuCount, int maxPercent)
{
    const double gpus = double(gpuCount);
    std::vector<Sample> samples;
    samples.reserve(points.size());
    for (const ReplayPoint& p : points) {
        const double freeMilli = gpus * 1000.0 - double(p.allocatedMilli);
        samples.push_back({ std::nearbyint(double(p.arrivedMilli) / gpus / 10.0),
            roundTo2(double(p.allocatedMilli) / gpus / 10.0), p.fragmentMilli / gpus / 10.0,
            freeMilli > 0 ? p.fragmentMilli / freeMilli * 100.0 : 0.0 });
    }
    // Samples come in arrival order, so arrived % never decreases: each bin looks at a window.
    RunCurves curves;
    size_t begin = 0;
    for (int x = 0; x <= maxPercent; ++x) {
        while (begin < samples.size() && samples[begin].arrived < x - 1)
            ++begin;
        size_t end = begin;
        while (end < samples.size() && samples[end].arrived <= x + 1)
            ++end;
        const std::vector<Sample> window(
            samples.begin() + std::ptrdiff_t(begin), samples.begin() + std::ptrdiff_t(end));
        const std::optional<Sample> mean = binMean(window, x);
        curves.allocatedPercent.push_back(mean ? std::optional(roundTo2(mean->allocated)) : std::nullopt);
        curves.fragmentPercent.push_back(mean ? std::optional(roundTo2(mean->fragment)) : std::nullopt);
        curves.fragmentRatePercent.push_back(
            mean ? std::optional(roundTo2(mean->fragmentRate)) : std::nullopt);
    }
    return curves;
}

} // namespace drasim::fragstudy
