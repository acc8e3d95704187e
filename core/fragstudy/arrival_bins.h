// SPDX-License-Identifier: Apache-2.0
#pragma once

// A run's curves against arrived load, binned as the FGD experiment's analysis does
// (experiments/analysis/merge_alloc_discrete.py): after every arrival, arrived % =
// round(arrived milli / GPUs / 10) with Python's round half to even, allocated % rounded to
// 2 decimals; the value at x is the mean over the arrivals whose arrived % is x, or, when there
// are none, within x ± 1; rounded to 2 decimals. Fragmentation is binned the same way, as a
// share of the GPU capacity and as a share of the free GPU ("fragmentation rate").

#include <cstdint>
#include <optional>
#include <vector>

#include "core/fragstudy/share_replay.h"

namespace drasim::fragstudy {

struct RunCurves
{
    /// Index x = arrived % (0..maxPercent); nullopt where no arrival is within x ± 1.
    std::vector<std::optional<double>> allocatedPercent;
    std::vector<std::optional<double>> fragmentPercent;
    std::vector<std::optional<double>> fragmentRatePercent;
};

RunCurves binByArrival(const std::vector<ReplayPoint>& points, int64_t gpuCount, int maxPercent = 130);

/// Python's round(x, 2) for the values these curves take (half to even on the scaled value).
double roundTo2(double x);

} // namespace drasim::fragstudy
