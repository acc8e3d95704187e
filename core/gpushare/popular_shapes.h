// SPDX-License-Identifier: Apache-2.0
#pragma once

// The cut of the FGD paper's target workload (GetTypicalPods in pkg/utils/frag.go of the authors'
// simulator), shared by the typical pods of a GPU-sharing trace (fragmentation.h) and the typical
// claims of a DRA workload (claim_fragmentation.h).

#include <algorithm>
#include <cstddef>
#include <vector>

namespace drasim::gpushare {

/// `shapes` (each with `count` and `probability`, in key order) sorted by count, highest first
/// (equal counts keep key order), kept while the running count is below `popularityPercent` % of
/// `total` (so the shape that crosses it is kept), then renormalised: probability = count / kept.
template <class Shape> void keepPopularShapes(std::vector<Shape>& shapes, size_t total, int popularityPercent)
{
    std::stable_sort(
        shapes.begin(), shapes.end(), [](const Shape& a, const Shape& b) { return a.count > b.count; });
    const double expected = double(popularityPercent) * double(total) / 100.0;
    double kept = 0;
    size_t n = 0;
    while (n < shapes.size() && kept < expected)
        kept += double(shapes[n++].count);
    shapes.resize(n);
    for (Shape& shape : shapes)
        shape.probability = double(shape.count) / kept;
}

} // namespace drasim::gpushare
