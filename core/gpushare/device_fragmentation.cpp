// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/device_fragmentation.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "core/gpushare/popular_shapes.h"

namespace drasim::gpushare {

MeasureKeys::Claim MeasureKeys::add(const ClaimShape& shape, double probability)
{
    Claim claim { uint32_t(requests.size()), 0, probability };
    for (const RequestShape& r : shape) {
        const auto cls = std::lower_bound(classes.begin(), classes.end(), r.deviceClass);
        if (cls == classes.end() || *cls != r.deviceClass)
            continue;
        Request request { r, int(cls - classes.begin()), -1 };
        if (!r.matchAttribute.empty()) {
            auto it = std::find(alignAttributes.begin(), alignAttributes.end(), r.matchAttribute);
            if (it == alignAttributes.end())
                it = alignAttributes.insert(alignAttributes.end(), r.matchAttribute);
            request.alignIndex = int(it - alignAttributes.begin());
        }
        requests.push_back(std::move(request));
    }
    claim.end = uint32_t(requests.size());
    return claim;
}

double holderShare(const NodeDevices& node, uint32_t holder)
{
    const NodeDevices::Holder& h = node.holders[holder];
    if (h.wholeDevice >= 0)
        return node.devices[size_t(h.wholeDevice)].held ? 0.0 : 1.0;
    double sum = 0;
    int dims = 0;
    for (uint32_t i = h.dimBegin; i < h.dimEnd; ++i) {
        if (node.total[i] <= 0)
            continue;
        sum += double(std::max<int64_t>(0, node.left[i])) / double(node.total[i]);
        ++dims;
    }
    return dims == 0 ? 1.0 : sum / dims;
}

std::vector<double> classFree(const NodeDevices& node, const MeasureKeys& keys)
{
    std::vector<double> free(keys.classes.size(), 0.0);
    for (uint32_t h = 0; h < node.holders.size(); ++h) {
        const uint64_t classes = node.holders[h].classes;
        if (classes == 0)
            continue;
        const double share = holderShare(node, h);
        for (size_t c = 0; c < free.size(); ++c)
            if (classes >> c & 1)
                free[c] += share;
    }
    return free;
}

namespace {

/// What a first-fit attempt changes: the dimensions left, the devices held, and which requests
/// a shareable device already serves.
struct FitState
{
    std::vector<int64_t> left;
    std::vector<uint8_t> held;
    std::set<std::pair<size_t, uint32_t>> sharedBy;

    explicit FitState(const NodeDevices& node)
        : left(node.left)
        , held(node.devices.size(), 0)
    {
        for (size_t d = 0; d < node.devices.size(); ++d)
            held[d] = node.devices[d].held;
    }
};

/// Whether device d can serve request r in the state.
bool canTake(const NodeDevices& node, const FitState& s, size_t d, uint32_t r)
{
    const NodeDevices::Device& dev = node.devices[d];
    if (!dev.serves[r] || s.held[d] || (dev.multi && s.sharedBy.count({ d, r })))
        return false;
    for (const auto& [dim, amount] : dev.counters)
        if (s.left[dim] < amount)
            return false;
    if (dev.multi)
        for (const auto& [dim, amount] : dev.capacity[r])
            if (s.left[dim] < amount)
                return false;
    return true;
}

void take(const NodeDevices& node, FitState& s, size_t d, uint32_t r)
{
    const NodeDevices::Device& dev = node.devices[d];
    for (const auto& [dim, amount] : dev.counters)
        s.left[dim] -= amount;
    if (dev.multi) {
        for (const auto& [dim, amount] : dev.capacity[r])
            s.left[dim] -= amount;
        s.sharedBy.insert({ d, r });
    } else {
        s.held[d] = 1;
    }
}

/// Every request of the claim, first fit, its aligned requests on `values` (by group).
bool firstFit(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim,
    const std::map<int, std::string>& values, FitState& s)
{
    for (uint32_t r = claim.first; r < claim.end; ++r) {
        const MeasureKeys::Request& request = keys.requests[r];
        const std::string* value = request.alignIndex >= 0 ? &values.at(request.shape.alignGroup) : nullptr;
        int64_t need = request.shape.count;
        for (size_t d = 0; d < node.devices.size() && need > 0; ++d) {
            if (value && node.devices[d].align[size_t(request.alignIndex)] != *value)
                continue;
            if (canTake(node, s, d, r)) {
                take(node, s, d, r);
                --need;
            }
        }
        if (need > 0)
            return false;
    }
    return true;
}

/// The alignment groups of a claim and the values each could take (devices that serve one of the
/// group's requests, in device order, distinct, not empty).
std::map<int, std::vector<std::string>> alignCandidates(
    const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim)
{
    std::map<int, std::vector<std::string>> out;
    for (uint32_t r = claim.first; r < claim.end; ++r) {
        const MeasureKeys::Request& request = keys.requests[r];
        if (request.alignIndex < 0)
            continue;
        std::vector<std::string>& values = out[request.shape.alignGroup];
        for (const NodeDevices::Device& d : node.devices) {
            const std::string& v = d.align[size_t(request.alignIndex)];
            if (d.serves[r] && !v.empty() && std::find(values.begin(), values.end(), v) == values.end())
                values.push_back(v);
        }
    }
    return out;
}

/// At most this many combinations of aligned values are tried (claims have one constraint or two).
constexpr size_t kMaxAlignCombinations = 256;

/// Fits the claim: on success `result` (when given) is the state after the first combination
/// that fits, and `okValues` (when given) collects, per group, every value of a combination that
/// fits.
bool fitClaim(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim,
    std::map<int, std::set<std::string>>* okValues, FitState* result)
{
    const std::map<int, std::vector<std::string>> candidates = alignCandidates(node, keys, claim);
    std::vector<std::pair<int, const std::vector<std::string>*>> groups;
    for (const auto& [group, values] : candidates) {
        if (values.empty())
            return false;
        groups.push_back({ group, &values });
    }
    std::vector<size_t> at(groups.size(), 0);
    bool fits = false;
    for (size_t tried = 0; tried < kMaxAlignCombinations; ++tried) {
        std::map<int, std::string> values;
        for (size_t g = 0; g < groups.size(); ++g)
            values[groups[g].first] = (*groups[g].second)[at[g]];
        FitState s(node);
        if (firstFit(node, keys, claim, values, s)) {
            if (!fits && result)
                *result = std::move(s);
            fits = true;
            if (!okValues)
                break;
            for (const auto& [group, value] : values)
                (*okValues)[group].insert(value);
        }
        size_t g = 0; // the next combination, odometer style
        while (g < groups.size() && ++at[g] == groups[g].second->size())
            at[g++] = 0;
        if (g == groups.size())
            break;
    }
    return fits;
}

/// f_n,C(m) for every class, from the free capacity per class.
std::vector<double> claimFragments(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim,
    const std::vector<double>& free)
{
    std::vector<double> f = free;
    std::map<int, std::set<std::string>> okValues;
    if (!fitClaim(node, keys, claim, &okValues, nullptr))
        return f;
    const FitState now(node);
    // usable[c][h]: the claim could take a device of holder h for one of its requests of class c.
    std::vector<std::vector<uint8_t>> usable(keys.classes.size());
    for (uint32_t r = claim.first; r < claim.end; ++r) {
        const MeasureKeys::Request& request = keys.requests[r];
        std::vector<uint8_t>& byHolder = usable[size_t(request.classIndex)];
        byHolder.resize(node.holders.size(), 0);
        for (size_t d = 0; d < node.devices.size(); ++d) {
            const NodeDevices::Device& dev = node.devices[d];
            if (byHolder[dev.holder] || !canTake(node, now, d, r))
                continue;
            if (request.alignIndex >= 0
                && !okValues[request.shape.alignGroup].count(dev.align[size_t(request.alignIndex)]))
                continue;
            byHolder[dev.holder] = 1;
        }
    }
    for (size_t c = 0; c < f.size(); ++c) {
        if (usable[c].empty())
            continue; // the claim asks for no device of this class: all of it is fragment
        double stranded = 0;
        for (uint32_t h = 0; h < node.holders.size(); ++h)
            if ((node.holders[h].classes >> c & 1) && !usable[c][h])
                stranded += holderShare(node, h);
        f[c] = stranded;
    }
    return f;
}

} // namespace

bool fitsClaim(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim)
{
    return fitClaim(node, keys, claim, nullptr, nullptr);
}

bool takeClaim(NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim)
{
    FitState s(node);
    if (!fitClaim(node, keys, claim, nullptr, &s))
        return false;
    node.left = std::move(s.left);
    for (size_t d = 0; d < node.devices.size(); ++d)
        node.devices[d].held = s.held[d];
    return true;
}

double claimFragmentOf(
    const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim, int classIndex)
{
    return claimFragments(node, keys, claim, classFree(node, keys))[size_t(classIndex)];
}

std::vector<double> nodeDeviceFragment(const NodeDevices& node, const MeasureKeys& keys)
{
    const std::vector<double> free = classFree(node, keys);
    std::vector<double> out(keys.classes.size(), 0.0);
    for (const MeasureKeys::Claim& m : keys.typical) {
        const std::vector<double> f = claimFragments(node, keys, m, free);
        for (size_t c = 0; c < out.size(); ++c)
            out[c] += m.probability * f[c];
    }
    return out;
}

std::map<std::string, ClassFragment> clusterDeviceFragment(
    const std::vector<NodeDevices>& nodes, const MeasureKeys& keys)
{
    std::map<std::string, ClassFragment> out;
    for (const NodeDevices& node : nodes) {
        const std::vector<double> free = classFree(node, keys);
        const std::vector<double> fragment = nodeDeviceFragment(node, keys);
        for (size_t c = 0; c < free.size(); ++c) {
            if (free[c] <= 0)
                continue;
            out[keys.classes[c]].fragment += fragment[c];
            out[keys.classes[c]].free += free[c];
        }
    }
    return out;
}

int64_t deviceFgdScore(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim pod)
{
    NodeDevices after = node;
    if (!takeClaim(after, keys, pod))
        return 0;
    const std::vector<double> before = nodeDeviceFragment(node, keys);
    const std::vector<double> then = nodeDeviceFragment(after, keys);
    std::vector<uint8_t> asked(keys.classes.size(), 0);
    for (uint32_t r = pod.first; r < pod.end; ++r)
        asked[size_t(keys.requests[r].classIndex)] = 1;
    double drop = 0;
    for (size_t c = 0; c < asked.size(); ++c) {
        if (!asked[c])
            continue;
        drop += before[c];
        drop -= then[c];
    }
    constexpr double kMaxScore = 100;
    return int64_t(1.0 / (1.0 + std::exp(-drop)) * kMaxScore);
}

MeasureKeys measureKeysOf(const std::map<ClaimShape, int64_t>& podsByShape, int popularityPercent)
{
    struct Shape
    {
        const ClaimShape* shape;
        double probability;
        int64_t count;
    };
    std::map<ClaimShape, int64_t> counts;
    int64_t total = 0;
    for (const auto& [shape, count] : podsByShape) {
        ClaimShape normal = shape;
        normalizeShape(normal);
        counts[normal] += count;
        total += count;
    }
    std::vector<Shape> shapes;
    for (const auto& [shape, count] : counts)
        shapes.push_back({ &shape, 0, count });
    keepPopularShapes(shapes, size_t(total), popularityPercent);
    MeasureKeys keys;
    std::set<std::string> classes;
    for (const Shape& s : shapes)
        for (const RequestShape& r : *s.shape)
            classes.insert(r.deviceClass);
    keys.classes.assign(classes.begin(), classes.end());
    if (keys.classes.size() > kMaxMeasureClasses)
        keys.classes.resize(kMaxMeasureClasses);
    for (const Shape& s : shapes)
        keys.typical.push_back(keys.add(*s.shape, s.probability));
    return keys;
}

std::shared_ptr<const ClaimTarget> claimTargetOf(
    const std::map<ClaimShape, int64_t>& podsByShape, int popularityPercent, bool readSelectors)
{
    if (!readSelectors) {
        std::map<ClaimShape, int64_t> stripped;
        for (const auto& [shape, count] : podsByShape) {
            ClaimShape s = shape;
            for (RequestShape& r : s)
                r.selectors.clear();
            stripped[s] += count;
        }
        return claimTargetOf(stripped, popularityPercent, true);
    }
    std::map<DeviceCounts, int64_t> byCounts;
    bool plain = true;
    for (const auto& [shape, count] : podsByShape) {
        DeviceCounts counts;
        for (const RequestShape& r : shape)
            if (r.count > 0)
                counts[r.deviceClass] += r.count;
        byCounts[counts] += count;
        plain = plain && isPlain(shape);
    }
    if (plain)
        return claimTargetOf(byCounts, popularityPercent);
    auto keys = std::make_shared<MeasureKeys>(measureKeysOf(podsByShape, popularityPercent));
    if (keys->classes.empty())
        return nullptr;
    ClaimTarget target;
    target.classes = keys->classes;
    target.typical = typicalClaims(byCounts, popularityPercent);
    target.general = std::move(keys);
    std::map<ClaimShape, int64_t> withoutCapacity;
    for (const auto& [shape, count] : podsByShape) {
        ClaimShape s;
        for (const RequestShape& r : shape)
            if (r.capacityMilli.empty())
                s.push_back(r);
        target.asksCapacity = target.asksCapacity || s.size() < shape.size();
        withoutCapacity[s] += count;
    }
    if (target.asksCapacity)
        target.withoutCapacity = claimTargetOf(withoutCapacity, popularityPercent, true);
    return std::make_shared<const ClaimTarget>(std::move(target));
}

} // namespace drasim::gpushare
