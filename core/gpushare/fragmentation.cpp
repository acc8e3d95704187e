// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/fragmentation.h"

#include <map>
#include <tuple>

#include "core/gpushare/popular_shapes.h"

namespace drasim::gpushare {

namespace {

using ShapeKey = std::tuple<int64_t, int32_t, int32_t, uint64_t>;

ShapeKey keyOf(const SharePod& pod)
{
    return { pod.cpuMilli, pod.gpuMilli, pod.gpuCount, pod.models };
}

} // namespace

std::vector<TypicalPod> typicalPods(const std::vector<SharePod>& pods, int popularityPercent)
{
    std::map<ShapeKey, int64_t> counts;
    for (const SharePod& pod : pods)
        ++counts[keyOf(pod)];
    std::vector<TypicalPod> shapes;
    shapes.reserve(counts.size());
    for (const auto& [key, count] : counts) {
        TypicalPod typical;
        std::tie(typical.shape.cpuMilli, typical.shape.gpuMilli, typical.shape.gpuCount, typical.shape.models)
            = key;
        typical.count = count;
        shapes.push_back(typical);
    }
    keepPopularShapes(shapes, pods.size(), popularityPercent);
    return shapes;
}

int64_t podFragment(const ShareNode& node, const SharePod& typical)
{
    const int64_t allFree = node.gpuFreeTotal();
    if (typical.gpuMilli == 0 || !modelAllowed(node, typical))
        return allFree;
    if (node.cpuFreeMilli < typical.cpuMilli || gpusWithFree(node, typical.gpuMilli) < typical.gpuCount)
        return allFree;
    int64_t tooSmall = 0;
    for (int32_t free : node.gpuFreeMilli)
        tooSmall += free < typical.gpuMilli ? free : 0;
    return tooSmall;
}

double nodeFragment(const ShareNode& node, const std::vector<TypicalPod>& typical)
{
    double fragment = 0;
    for (const TypicalPod& m : typical)
        fragment += m.probability * double(podFragment(node, m.shape));
    return fragment;
}

} // namespace drasim::gpushare
