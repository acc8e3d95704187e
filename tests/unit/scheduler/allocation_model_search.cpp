// SPDX-License-Identifier: Apache-2.0
// The model's exact search: upstream's depth-first, first-solution search written plainly from the
// DRA semantics note (§3.4 preparation, §3.6 search, §3.15 outcomes), on the model's own view of
// the node and its own add rules. A state is copied per pick instead of undone, and every device
// is tried through the model's tryAdd, so nothing is shared with the allocator but the API types.
#include <algorithm>

#include "tests/unit/scheduler/allocation_model_parts.h"

namespace drasim::testing {

namespace {

constexpr int64_t kResultLimit = 32;
constexpr uint64_t kStepBound = 200'000;

std::string keyOf(const api::ResourceClaim& c)
{
    return (c.meta.namespace_.empty() ? std::string("default") : c.meta.namespace_) + "/" + c.meta.name;
}

} // namespace

struct AllocationModel::ExactSearch
{
    using Item = std::pair<const Pool*, const api::Device*>;
    struct Alternative
    {
        Request req;
        bool all = false;
        int64_t count = 0;
        std::vector<Item> list; ///< All mode: the fixed device list
    };
    struct RequestAlternatives
    {
        bool firstAvailable = false;
        std::vector<Alternative> alternatives;
    };
    enum class Step { Success, Fail, Limit, Error, Bound };

    AllocationModel& model;
    const std::vector<Pool>& pools;
    const std::vector<const api::ResourceClaim*>& claims;
    const PriorState& prior;
    Outcome& out;
    std::vector<std::vector<RequestAlternatives>> requests {};
    uint64_t steps = 0;

    void setError(std::string text)
    {
        out.kind = Outcome::Kind::Error;
        out.error = std::move(text);
    }
    bool prepare();
    Step visitRequest(const State& st, size_t ci, size_t ri);
    Step visitSlot(const State& st, size_t ci, size_t ri, const Alternative& a, int64_t slot, size_t fromPool,
        size_t fromDevice);
    Step visitAll(const State& st, size_t ci, size_t ri, const Alternative& a, int64_t slot);
};

// Preparation, claim by claim (§3.4): All lists and their errors, then the claim's minimum.
bool AllocationModel::ExactSearch::prepare()
{
    requests.resize(claims.size());
    for (size_t ci = 0; ci < claims.size(); ++ci) {
        const std::string key = keyOf(*claims[ci]);
        int64_t minimum = 0;
        for (const auto& x : claims[ci]->spec.requests) {
            RequestAlternatives ra;
            ra.firstAvailable = !x.exactly;
            if (x.exactly)
                ra.alternatives.push_back(
                    Alternative { Request { x.name, x.name, &*x.exactly }, false, 0, {} });
            for (const auto& s : x.firstAvailable)
                ra.alternatives.push_back(
                    Alternative { Request { x.name + "/" + s.name, x.name, &s.spec }, false, 0, {} });
            int64_t least = INT64_MAX;
            for (auto& a : ra.alternatives) {
                a.all = a.req.spec->allocationMode == "All";
                a.count = a.req.spec->count;
                std::string error;
                if (a.all
                    && !model.allList(pools, prior, *a.req.spec, a.list, &error, key, a.req.resultName)) {
                    setError(error);
                    return false;
                }
                if (a.all)
                    a.count = int64_t(a.list.size());
                least = std::min(least, a.count);
            }
            minimum += least;
            requests[ci].push_back(std::move(ra));
        }
        if (minimum > kResultLimit) {
            setError("claim " + key + ": number of requested devices " + std::to_string(minimum)
                + " exceeds the claim limit of " + std::to_string(kResultLimit));
            return false;
        }
    }
    return true;
}

AllocationModel::ExactSearch::Step AllocationModel::ExactSearch::visitRequest(
    const State& st, size_t ci, size_t ri)
{
    if (ci == claims.size()) {
        for (const auto& p : st.picks)
            out.results[p.claim].push_back(p.request + " " + p.device);
        return Step::Success;
    }
    if (ri == requests[ci].size()) {
        // At a claim boundary the result limit only means "no solution on this path".
        const Step r = visitRequest(st, ci + 1, 0);
        return r == Step::Limit ? Step::Fail : r;
    }
    const auto& ra = requests[ci][ri];
    if (!ra.firstAvailable)
        return visitSlot(st, ci, ri, ra.alternatives.front(), 0, 0, 0);
    bool everyLimit = true;
    for (const auto& a : ra.alternatives) {
        const Step r = visitSlot(st, ci, ri, a, 0, 0, 0);
        if (r == Step::Limit)
            continue;
        everyLimit = false;
        if (r != Step::Fail)
            return r;
    }
    return everyLimit ? Step::Limit : Step::Fail;
}

AllocationModel::ExactSearch::Step AllocationModel::ExactSearch::visitSlot(const State& st, size_t ci,
    size_t ri, const Alternative& a, int64_t slot, size_t fromPool, size_t fromDevice)
{
    if (a.all && a.count == 0)
        return Step::Fail;
    if (slot == a.count)
        return visitRequest(st, ci, ri + 1);
    const auto inClaim = std::count_if(
        st.picks.begin(), st.picks.end(), [&](const State::Pick& p) { return p.claim == ci; });
    if (inClaim + (a.count - slot) > kResultLimit)
        return Step::Limit;
    if (a.all)
        return visitAll(st, ci, ri, a, slot);
    // Pools and devices in visit order; the next slot of the request looks only at later devices
    // (1.36).
    for (size_t p = fromPool; p < pools.size(); ++p) {
        const auto& pool = pools[p];
        if (!pool.complete || !pool.valid)
            continue;
        for (size_t d = p == fromPool ? fromDevice : 0; d < pool.devices.size(); ++d) {
            if (++steps > kStepBound)
                return Step::Bound;
            State next = st;
            std::string error;
            const Add added
                = model.tryAdd(next, prior, ci, *claims[ci], a.req, pool, *pool.devices[d], &error);
            if (added == Add::Error) {
                setError(error);
                return Step::Error;
            }
            if (added != Add::Ok)
                continue;
            const Step r = visitSlot(next, ci, ri, a, slot + 1, p, d + 1);
            if (r != Step::Fail)
                return r;
        }
    }
    return Step::Fail;
}

// The listed device or nothing: a constraint violation is an error, any other refusal fails the
// path.
AllocationModel::ExactSearch::Step AllocationModel::ExactSearch::visitAll(
    const State& st, size_t ci, size_t ri, const Alternative& a, int64_t slot)
{
    const auto& [pool, device] = a.list[size_t(slot)];
    State next = st;
    const Add added = model.tryAdd(next, prior, ci, *claims[ci], a.req, *pool, *device);
    if (added == Add::ConstraintNo) {
        setError("claim " + keyOf(*claims[ci]) + ", request " + a.req.resultName + ": cannot add device "
            + pool->driver + "/" + pool->name + "/" + device->name
            + " because a claim constraint would not be satisfied");
        return Step::Error;
    }
    if (added != Add::Ok)
        return Step::Fail;
    return visitSlot(next, ci, ri, a, slot + 1, 0, 0);
}

AllocationModel::Outcome AllocationModel::firstSolution(
    const api::Node& node, const std::vector<const api::ResourceClaim*>& claims, const PriorState& prior)
{
    using Kind = Outcome::Kind;
    const auto pools = view(node);
    Outcome out;
    out.results.resize(claims.size());
    ExactSearch search { *this, pools, claims, prior, out };
    if (!search.prepare())
        return out;
    switch (search.visitRequest(State {}, 0, 0)) {
    case ExactSearch::Step::Success:
        out.kind = Kind::Success;
        break;
    case ExactSearch::Step::Error:
        break; // kind and text set where it happened
    case ExactSearch::Step::Bound:
    case ExactSearch::Step::Limit: // cannot reach the top: the claims' minimums were checked
        out.kind = Kind::Inconclusive;
        break;
    case ExactSearch::Step::Fail: {
        const bool invalid
            = std::any_of(pools.begin(), pools.end(), [](const Pool& p) { return p.complete && !p.valid; });
        out.kind = invalid ? Kind::InvalidPools : Kind::NoSolution;
        break;
    }
    }
    return out;
}

} // namespace drasim::testing
