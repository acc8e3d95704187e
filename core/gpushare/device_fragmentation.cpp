// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/device_fragmentation.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "core/gpushare/choice_order.h"
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

/// Which of a claim's requests an attempt serves (by request id - claim.first): all of them but
/// the alternatives of a firstAvailable list other than the one chosen.
using Active = std::vector<uint8_t>;

/// Every active request of the claim, first fit, its aligned requests on `values` (by group).
bool firstFit(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim,
    const Active& active, const std::map<int, std::string>& values, FitState& s)
{
    for (uint32_t r = claim.first; r < claim.end; ++r) {
        if (!active[r - claim.first])
            continue;
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

/// The alignment groups of a claim's active requests and the values each could take (devices
/// that serve one of the group's requests, in device order, distinct, not empty).
std::map<int, std::vector<std::string>> alignCandidates(
    const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim, const Active& active)
{
    std::map<int, std::vector<std::string>> out;
    for (uint32_t r = claim.first; r < claim.end; ++r) {
        const MeasureKeys::Request& request = keys.requests[r];
        if (request.alignIndex < 0 || !active[r - claim.first])
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

/// At most this many attempts (a choice of alternatives and of aligned values) are tried for one
/// claim (claims have one constraint or two, and short firstAvailable lists).
constexpr size_t kMaxAttempts = 256;

/// What fitting a claim found: the state after the first attempt that fits, the requests it
/// serves, and per alignment group every value of an attempt with those requests that fits.
struct Fit
{
    FitState state;
    Active active;
    std::map<int, std::set<std::string>> okValues;
};

/// The active requests fitted on every combination of aligned values, in order, while `budget`
/// lasts: the first that fits fills `fit` (its okValues too when `allValues`).
bool fitAligned(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim,
    const Active& active, bool allValues, Fit& fit, size_t& budget)
{
    const std::map<int, std::vector<std::string>> candidates = alignCandidates(node, keys, claim, active);
    std::vector<std::pair<int, const std::vector<std::string>*>> groups;
    for (const auto& [group, values] : candidates) {
        if (values.empty())
            return false;
        groups.push_back({ group, &values });
    }
    std::vector<size_t> at(groups.size(), 0);
    bool fits = false;
    while (budget > 0) {
        --budget;
        std::map<int, std::string> values;
        for (size_t g = 0; g < groups.size(); ++g)
            values[groups[g].first] = (*groups[g].second)[at[g]];
        FitState s(node);
        if (firstFit(node, keys, claim, active, values, s)) {
            if (!fits)
                fit.state = std::move(s);
            fits = true;
            if (!allValues)
                break;
            for (const auto& [group, value] : values)
                fit.okValues[group].insert(value);
        }
        size_t g = 0; // the next combination, odometer style
        while (g < groups.size() && ++at[g] == groups[g].second->size())
            at[g++] = 0;
        if (g == groups.size())
            break;
    }
    return fits;
}

/// The claim's requests as the allocator walks them, in order: a request without alternatives is
/// a step of its own, the alternatives of one firstAvailable list one step, by rank.
std::vector<std::vector<uint32_t>> stepsOf(const MeasureKeys& keys, MeasureKeys::Claim claim)
{
    std::vector<std::vector<uint32_t>> steps;
    std::map<int, size_t> stepOfList;
    for (uint32_t r = claim.first; r < claim.end; ++r) {
        const int list = keys.requests[r].shape.firstAvailable;
        if (list < 0) {
            steps.push_back({ r - claim.first });
            continue;
        }
        auto [it, added] = stepOfList.try_emplace(list, steps.size());
        if (added)
            steps.emplace_back();
        steps[it->second].push_back(r - claim.first);
    }
    for (const auto& [list, step] : stepOfList)
        std::stable_sort(steps[step].begin(), steps[step].end(), [&](uint32_t a, uint32_t b) {
            return keys.requests[claim.first + a].shape.alternative
                < keys.requests[claim.first + b].shape.alternative;
        });
    return steps;
}

/// Fits the claim as the allocator chooses among alternatives: its depth-first walk takes each
/// request's alternatives in order and moves to the next only when the rest of the claim fails
/// with this one, so the choice is the first combination, earlier requests first, that fits
/// (Allocator::visitRequest; upstream's structured allocator walks subrequests the same way).
bool fitClaim(
    const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim, bool allValues, Fit& fit)
{
    const std::vector<std::vector<uint32_t>> steps = stepsOf(keys, claim);
    std::vector<size_t> at(steps.size(), 0);
    size_t budget = kMaxAttempts;
    while (budget > 0) {
        Active active(claim.end - claim.first, 0);
        for (size_t i = 0; i < steps.size(); ++i)
            active[steps[i][at[i]]] = 1;
        if (fitAligned(node, keys, claim, active, allValues, fit, budget)) {
            fit.active = std::move(active);
            return true;
        }
        if (!nextChoice(at, steps))
            break;
    }
    return false;
}

/// f_n,C(m) for every class, from the free capacity per class: against the requests the claim
/// would be served by on the node (the alternatives chosen).
std::vector<double> claimFragments(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim,
    const std::vector<double>& free)
{
    std::vector<double> f = free;
    Fit fit { FitState(node), {}, {} };
    if (!fitClaim(node, keys, claim, true, fit))
        return f;
    const FitState now(node);
    // usable[c][h]: the claim could take a device of holder h for one of its requests of class c.
    std::vector<std::vector<uint8_t>> usable(keys.classes.size());
    for (uint32_t r = claim.first; r < claim.end; ++r) {
        if (!fit.active[r - claim.first])
            continue; // an alternative the allocator would not take here
        const MeasureKeys::Request& request = keys.requests[r];
        std::vector<uint8_t>& byHolder = usable[size_t(request.classIndex)];
        byHolder.resize(node.holders.size(), 0);
        for (size_t d = 0; d < node.devices.size(); ++d) {
            const NodeDevices::Device& dev = node.devices[d];
            if (byHolder[dev.holder] || !canTake(node, now, d, r))
                continue;
            if (request.alignIndex >= 0
                && !fit.okValues[request.shape.alignGroup].count(dev.align[size_t(request.alignIndex)]))
                continue;
            byHolder[dev.holder] = 1;
        }
    }
    for (size_t c = 0; c < f.size(); ++c) {
        if (usable[c].empty())
            continue; // the claim takes no device of this class here: all of it is fragment
        double stranded = 0;
        for (uint32_t h = 0; h < node.holders.size(); ++h)
            if ((node.holders[h].classes >> c & 1) && !usable[c][h])
                stranded += holderShare(node, h);
        f[c] = stranded;
    }
    return f;
}

/// Takes the claim's devices when it fits; `taken` (when given) gets the classes of the requests
/// it was served by.
bool takeClaimFor(
    NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim, std::vector<uint8_t>* taken)
{
    Fit fit { FitState(node), {}, {} };
    if (!fitClaim(node, keys, claim, false, fit))
        return false;
    node.left = std::move(fit.state.left);
    for (size_t d = 0; d < node.devices.size(); ++d)
        node.devices[d].held = fit.state.held[d];
    if (taken) {
        taken->assign(keys.classes.size(), 0);
        for (uint32_t r = claim.first; r < claim.end; ++r)
            if (fit.active[r - claim.first])
                (*taken)[size_t(keys.requests[r].classIndex)] = 1;
    }
    return true;
}

} // namespace

bool fitsClaim(const NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim)
{
    Fit fit { FitState(node), {}, {} };
    return fitClaim(node, keys, claim, false, fit);
}

bool takeClaim(NodeDevices& node, const MeasureKeys& keys, MeasureKeys::Claim claim)
{
    return takeClaimFor(node, keys, claim, nullptr);
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
    std::vector<uint8_t> asked; // the classes of the alternatives the pod takes here
    if (!takeClaimFor(after, keys, pod, &asked))
        return 0;
    const std::vector<double> before = nodeDeviceFragment(node, keys);
    const std::vector<double> then = nodeDeviceFragment(after, keys);
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

namespace {

/// A target measured on whole devices (readSelectors false): said to be in shares of a device only
/// when its typical claims ask for more than alternatives (consumable capacity, alignment).
std::shared_ptr<const ClaimTarget> onWholeDevices(std::shared_ptr<const ClaimTarget> target)
{
    if (!target || !target->general)
        return target;
    for (const MeasureKeys::Request& r : target->general->requests)
        if (!r.shape.capacityMilli.empty() || !r.shape.matchAttribute.empty())
            return target;
    auto keys = std::make_shared<MeasureKeys>(*target->general);
    keys->inShares = false;
    auto out = std::make_shared<ClaimTarget>(*target);
    out->general = std::move(keys);
    return out;
}

} // namespace

std::shared_ptr<const ClaimTarget> claimTargetOf(
    const std::map<ClaimShape, int64_t>& podsByShape, int popularityPercent, bool readSelectors)
{
    if (!readSelectors) {
        std::map<ClaimShape, int64_t> stripped;
        for (const auto& [shape, count] : podsByShape) {
            ClaimShape s = shape;
            for (RequestShape& r : s)
                if (r.firstAvailable < 0) // alternatives keep theirs: they are what tells them apart
                    r.selectors.clear();
            stripped[s] += count;
        }
        return onWholeDevices(claimTargetOf(stripped, popularityPercent, true));
    }
    std::map<DeviceCounts, int64_t> byCounts;
    bool plain = true;
    for (const auto& [shape, count] : podsByShape) {
        DeviceCounts counts;
        for (const RequestShape& r : shape)
            if (r.count > 0 && r.alternative == 0) // of a firstAvailable list, its first
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
