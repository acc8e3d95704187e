// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/free_devices.h"

#include <limits>

#include "core/allocator/allocator.h"

namespace drasim::allocator {

namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

uint64_t saturatingProduct(uint64_t a, uint64_t b)
{
    return a != 0 && b > kSaturated / a ? kSaturated : a * b;
}

/// An upper bound on the steps of a search that ends without a solution: every visit of a slot
/// steps through at most `visited` devices, and each visit follows a distinct path of choices:
/// one alternative per request (`alternatives` paths at most) and a sequence of distinct free
/// devices picked so far (Σ_j free!/(free-j)! of them).
uint64_t searchStepBound(uint64_t visited, uint64_t free, uint64_t alternatives)
{
    uint64_t sequences = 1; // the empty one
    uint64_t ofLength = 1;
    for (uint64_t j = 0; j < free; ++j) {
        ofLength = saturatingProduct(ofLength, free - j);
        sequences = sequences > kSaturated - ofLength ? kSaturated : sequences + ofLength;
    }
    return saturatingProduct(saturatingProduct(visited, alternatives), sequences);
}

} // namespace

FreeDevices::Needs FreeDevices::needsOf(const Allocator& a)
{
    Needs needs;
    if (!a.zeroFreeMeansNoSolution())
        return needs;
    for (const auto& c : a.m_claims)
        for (const auto& r : c.requests) {
            for (const auto& s : r.subs) {
                if (!s.derived.empty())
                    return Needs {}; // a derived attribute can fail the search with an error
                needs.subs.push_back(Need { s.selectorSet, s.count, needs.requests });
            }
            needs.alternatives = saturatingProduct(needs.alternatives, r.subs.size());
            ++needs.requests;
        }
    return needs;
}

bool FreeDevices::tooFew(Allocator& a, const NodeView& view)
{
    Needs& needs = a.m_freeDeviceNeeds;
    if (needs.subs.empty() || a.m_observer || view.anyMulti || view.anyInvalid)
        return false;
    auto& matching = needs.matching;
    auto& served = needs.served;
    matching.assign(needs.subs.size(), 0);
    served.assign(needs.requests, 0);
    uint32_t unserved = needs.requests;
    auto serve = [&](const Need& n) {
        if (!served[n.request]) {
            served[n.request] = 1;
            --unserved;
        }
    };
    for (const Need& n : needs.subs)
        if (n.count <= 0)
            serve(n);
    uint64_t visited = 0;
    uint64_t free = 0;
    for (const auto& pool : view.pools) {
        if (pool.incomplete || pool.invalid)
            continue; // the search does not look into them either
        visited += pool.devices.size();
        for (const auto& e : pool.devices) {
            if (unserved == 0)
                return false; // every request may find its devices: the search decides
            // In use: the search skips it before evaluating a selector (§3.5 step 1).
            if (a.m_state.dedicated(e.id))
                continue;
            ++free;
            for (size_t k = 0; k < needs.subs.size(); ++k) {
                const Verdict v = a.m_selectors.verdict(needs.subs[k].selectorSet, e);
                if (v == Verdict::Error)
                    return false;
                if (v == Verdict::True && e.nodeOk && ++matching[k] >= needs.subs[k].count)
                    serve(needs.subs[k]);
            }
        }
    }
    if (unserved == 0)
        return false;
    // The search reads the clock from its 4096th step on (Allocator::tick): a shorter one can
    // only end the way it is said here.
    const uint64_t steps = searchStepBound(visited, free, needs.alternatives);
    return steps < 4096 && steps <= a.m_options.stepBudget;
}

} // namespace drasim::allocator
