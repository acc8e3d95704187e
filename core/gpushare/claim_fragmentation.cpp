// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/claim_fragmentation.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/gpushare/popular_shapes.h"

namespace drasim::gpushare {

std::vector<TypicalClaim> typicalClaims(const std::vector<DeviceCounts>& claims, int popularityPercent)
{
    std::map<DeviceCounts, int64_t> counts;
    for (const DeviceCounts& claim : claims)
        ++counts[claim];
    return typicalClaims(counts, popularityPercent);
}

std::vector<TypicalClaim> typicalClaims(
    const std::map<DeviceCounts, int64_t>& claimsByShape, int popularityPercent)
{
    std::map<DeviceCounts, int64_t> counts; // keyed by the shape: a fixed order for equal counts
    int64_t total = 0;
    for (const auto& [claim, count] : claimsByShape) {
        DeviceCounts shape;
        for (const auto& [deviceClass, devices] : claim)
            if (devices > 0)
                shape[deviceClass] = devices;
        counts[shape] += count;
        total += count;
    }
    std::vector<TypicalClaim> shapes;
    shapes.reserve(counts.size());
    for (const auto& [shape, count] : counts)
        shapes.push_back({ shape, 0, count });
    keepPopularShapes(shapes, size_t(total), popularityPercent);
    return shapes;
}

std::shared_ptr<const ClaimTarget> claimTargetOf(
    const std::map<DeviceCounts, int64_t>& claimsByShape, int popularityPercent)
{
    ClaimTarget target;
    target.typical = typicalClaims(claimsByShape, popularityPercent);
    std::set<std::string> classes;
    for (const TypicalClaim& m : target.typical)
        for (const auto& entry : m.shape)
            classes.insert(entry.first);
    if (classes.empty())
        return nullptr;
    target.classes.assign(classes.begin(), classes.end());
    return std::make_shared<const ClaimTarget>(std::move(target));
}

bool claimFits(const DeviceCounts& nodeFree, const DeviceCounts& claim)
{
    for (const auto& [deviceClass, count] : claim) {
        const auto it = nodeFree.find(deviceClass);
        if ((it == nodeFree.end() ? 0 : it->second) < count)
            return false;
    }
    return true;
}

int64_t claimFragment(
    const DeviceCounts& nodeFree, const DeviceCounts& typical, const std::string& deviceClass)
{
    const auto it = nodeFree.find(deviceClass);
    const int64_t free = it == nodeFree.end() ? 0 : it->second;
    const auto asked = typical.find(deviceClass);
    if (asked == typical.end() || asked->second <= 0)
        return free; // the claim never uses this class
    return claimFits(nodeFree, typical) ? 0 : free;
}

std::map<std::string, double> nodeClaimFragment(
    const DeviceCounts& nodeFree, const std::vector<TypicalClaim>& typical)
{
    std::map<std::string, double> out;
    for (const auto& [deviceClass, free] : nodeFree) {
        if (free <= 0)
            continue;
        double fragment = 0;
        for (const TypicalClaim& m : typical)
            fragment += m.probability * double(claimFragment(nodeFree, m.shape, deviceClass));
        out[deviceClass] = fragment;
    }
    return out;
}

std::map<std::string, ClassFragment> clusterClaimFragment(
    const std::vector<DeviceCounts>& nodesFree, const std::vector<TypicalClaim>& typical)
{
    std::map<std::string, ClassFragment> out;
    for (const DeviceCounts& node : nodesFree) {
        for (const auto& [deviceClass, fragment] : nodeClaimFragment(node, typical)) {
            out[deviceClass].fragment += fragment;
            out[deviceClass].free += node.at(deviceClass);
        }
    }
    return out;
}

int64_t claimFgdScore(
    const DeviceCounts& nodeFree, const DeviceCounts& pod, const std::vector<TypicalClaim>& typical)
{
    DeviceCounts after = nodeFree;
    for (const auto& [deviceClass, count] : pod)
        after[deviceClass] = std::max<int64_t>(0, after[deviceClass] - count);
    const std::map<std::string, double> before = nodeClaimFragment(nodeFree, typical);
    const std::map<std::string, double> then = nodeClaimFragment(after, typical);
    double drop = 0;
    for (const auto& entry : pod) {
        if (auto it = before.find(entry.first); it != before.end())
            drop += it->second;
        if (auto it = then.find(entry.first); it != then.end())
            drop -= it->second;
    }
    constexpr double kMaxScore = 100;
    return int64_t(1.0 / (1.0 + std::exp(-drop)) * kMaxScore);
}

} // namespace drasim::gpushare
