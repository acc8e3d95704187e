// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/claim_fragmentation.h"

#include "core/gpushare/popular_shapes.h"

namespace drasim::gpushare {

std::vector<TypicalClaim> typicalClaims(const std::vector<DeviceCounts>& claims, int popularityPercent)
{
    std::map<DeviceCounts, int64_t> counts; // keyed by the shape: a fixed order for equal counts
    for (const DeviceCounts& claim : claims) {
        DeviceCounts shape;
        for (const auto& [deviceClass, count] : claim)
            if (count > 0)
                shape[deviceClass] = count;
        ++counts[shape];
    }
    std::vector<TypicalClaim> shapes;
    shapes.reserve(counts.size());
    for (const auto& [shape, count] : counts)
        shapes.push_back({ shape, 0, count });
    keepPopularShapes(shapes, claims.size(), popularityPercent);
    return shapes;
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

} // namespace drasim::gpushare
