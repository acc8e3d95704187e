// SPDX-License-Identifier: Apache-2.0
#include "core/allocator/allocator.h"

#include <algorithm>
#include <utility>

namespace drasim::allocator {

namespace {

constexpr size_t kMaxSubrequests = 8; // index space of m_allLists per request

bool contains(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

// "Identical requirement": same key, operator and value set (§3.13).
bool contains2(const std::vector<api::NodeSelectorRequirement>& list, const api::NodeSelectorRequirement& r)
{
    auto sorted = [](std::vector<std::string> v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return v;
    };
    const auto want = sorted(r.values);
    for (const auto& x : list)
        if (x.key == r.key && x.op == r.op && sorted(x.values) == want)
            return true;
    return false;
}

// DRADeviceCompatibilityGroups (KEP-5963): the devices drawing from one counter set share at least
// one group, and a device without groups only goes with others without groups.
bool groupsCompatible(const std::vector<const std::vector<std::string>*>& members)
{
    if (members.size() < 2)
        return true;
    const auto& first = *members.front();
    if (first.empty())
        return std::all_of(members.begin(), members.end(), [](const auto* g) { return g->empty(); });
    for (const auto& group : first)
        if (std::all_of(members.begin() + 1, members.end(),
                [&](const auto* g) { return std::find(g->begin(), g->end(), group) != g->end(); }))
            return true;
    return false;
}

// Written into `key` (its buffer is reused: a claim is prepared on every retry of its pod).
void setClaimKey(std::string& key, const api::ResourceClaim& c)
{
    key.assign(c.meta.namespace_.empty() ? std::string_view("default") : std::string_view(c.meta.namespace_));
    key += '/';
    key += c.meta.name;
}

} // namespace

bool taintBlocks(const api::DeviceTaint& taint)
{
    return taint.effect == "NoSchedule" || taint.effect == "NoExecute";
}

bool toleratesTaint(const std::vector<api::DeviceToleration>& tolerations, const api::DeviceTaint& taint)
{
    for (const auto& t : tolerations) {
        if (!t.effect.empty() && t.effect != taint.effect)
            continue;
        if (!t.key.empty() && t.key != taint.key)
            continue;
        if (t.op == "Exists" || t.value == taint.value)
            return true;
    }
    return false;
}

Allocator::Allocator(Inventory& inventory, const AllocatedState& state, SelectorCache& selectors,
    const ClassMap& classes, AllocatorOptions options)
    : m_inventory(inventory)
    , m_state(state)
    , m_selectors(selectors)
    , m_classes(classes)
    , m_options(options)
{ }

bool Allocator::prepare(const std::vector<const api::ResourceClaim*>& claims, std::string* error,
    const std::vector<uint64_t>& specIds)
{
    const bool named = !claims.empty() && specIds.size() == claims.size()
        && std::find(specIds.begin(), specIds.end(), uint64_t(0)) == specIds.end();
    if (named && specIds == m_preparedSpecIds) {
        // Everything the preparation took from a claim object rather than from its spec's values:
        // the claim, its key, and where each (sub)request's spec lives. Requests and alternatives
        // map one to one onto the spec's, as prepareClaims made them.
        for (size_t ci = 0; ci < claims.size(); ++ci) {
            PreparedClaim& pc = m_claims[ci];
            pc.claim = claims[ci];
            setClaimKey(pc.key, *claims[ci]);
            const auto& requests = claims[ci]->spec.requests;
            for (size_t ri = 0; ri < pc.requests.size(); ++ri) {
                auto& subs = pc.requests[ri].subs;
                if (requests[ri].exactly) {
                    subs.front().spec = &*requests[ri].exactly;
                    continue;
                }
                for (size_t si = 0; si < subs.size(); ++si)
                    subs[si].spec = &requests[ri].firstAvailable[si].spec;
            }
        }
        m_derivedValues.clear();
        return true;
    }
    m_preparedSpecIds.clear();
    if (!prepareClaims(claims, error))
        return false;
    if (named)
        m_preparedSpecIds = specIds;
    return true;
}

bool Allocator::prepareClaims(const std::vector<const api::ResourceClaim*>& claims, std::string* error)
{
    m_claims.clear();
    m_freeDeviceNeeds = {};
    for (const auto* c : claims) {
        PreparedClaim pc;
        pc.claim = c;
        setClaimKey(pc.key, *c);
        const auto& spec = c->spec;
        for (size_t i = 0; i < spec.constraints.size(); ++i) {
            const auto& con = spec.constraints[i];
            ConstraintDef def;
            if (con.matchAttribute) {
                def.match = true;
                def.attribute = *con.matchAttribute;
            } else if (con.distinctAttribute && m_options.consumableCapacity) {
                // Without DRAConsumableCapacity upstream picks the stable or incubating allocator,
                // whose constraint switch has matchAttribute only (structured/internal/*/allocator_*.go).
                def.match = false;
                def.attribute = *con.distinctAttribute;
            } else {
                *error = "claim " + pc.key + ", constraint #" + std::to_string(i)
                    + ": empty constraint (unsupported constraint type?)";
                return false;
            }
            pc.constraints.push_back(def);
        }
        auto prepareSub = [&](PreparedSub& ps, const std::string& reqName, const std::string& subName,
                              const api::DeviceRequestSpec& rs) -> bool {
            ps.resultName = subName.empty() ? reqName : reqName + "/" + subName;
            ps.spec = &rs;
            if (rs.deviceClassName.empty()) {
                *error = "claim " + pc.key + ", request " + ps.resultName
                    + ": missing device class name (unsupported request type?)";
                return false;
            }
            for (size_t i = 0; i < rs.selectors.size(); ++i)
                if (rs.selectors[i].expression.empty()) {
                    *error = "claim " + pc.key + ", request " + ps.resultName + ", selector #"
                        + std::to_string(i) + ": CEL expression empty (unsupported selector type?)";
                    return false;
                }
            auto cls = m_classes.find(rs.deviceClassName);
            if (cls == m_classes.end()) {
                *error = "claim " + pc.key + ", request " + ps.resultName
                    + ": could not retrieve device class " + rs.deviceClassName
                    + ": deviceclass.resource.k8s.io \"" + rs.deviceClassName + "\" not found";
                return false;
            }
            ps.cls = &cls->second;
            if (rs.allocationMode == "ExactCount" || rs.allocationMode.empty()) {
                ps.all = false;
                ps.count = rs.count;
            } else if (rs.allocationMode == "All") {
                ps.all = true;
                ps.count = 0;
            } else {
                *error = "claim " + pc.key + ", request " + ps.resultName + ": unsupported count mode "
                    + rs.allocationMode;
                return false;
            }
            ps.admin = rs.adminAccess.value_or(false);
            ps.selectorSet = m_selectors.setFor(*ps.cls, rs.selectors);
            for (size_t i = 0; i < spec.constraints.size(); ++i) {
                const auto& list = spec.constraints[i].requests;
                if (list.empty() || contains(list, reqName)
                    || (!subName.empty() && contains(list, ps.resultName)))
                    ps.constraints.push_back(uint16_t(i));
            }
            return prepareDerived(pc, ps, error);
        };
        for (const auto& r : spec.requests) {
            PreparedRequest pr;
            pr.name = r.name;
            if (r.exactly) {
                pr.subs.emplace_back();
                if (!prepareSub(pr.subs.back(), r.name, "", *r.exactly))
                    return false;
            } else if (!r.firstAvailable.empty()) {
                pr.firstAvailable = true;
                for (const auto& s : r.firstAvailable) {
                    if (pr.subs.size() == kMaxSubrequests)
                        break; // validation rejects more than 8
                    pr.subs.emplace_back();
                    if (!prepareSub(pr.subs.back(), r.name, s.name, s.spec))
                        return false;
                }
            } else {
                *error = "claim " + pc.key + ", request " + r.name
                    + ": missing device class name (unsupported request type?)";
                return false;
            }
            pc.requests.push_back(std::move(pr));
        }
        m_claims.push_back(std::move(pc));
    }
    m_constraintStates.assign(m_claims.size(), {});
    m_derivedValues.clear();
    // All-mode device lists depend on the node; everything else about the claim's size does not.
    m_allLists.assign(m_claims.size(), {});
    m_claimHasAll.assign(m_claims.size(), false);
    m_staticMinimum.assign(m_claims.size(), 0);
    for (size_t ci = 0; ci < m_claims.size(); ++ci) {
        m_allLists[ci].resize(m_claims[ci].requests.size() * kMaxSubrequests);
        for (const auto& r : m_claims[ci].requests) {
            int64_t reqMin = INT64_MAX;
            for (const auto& sub : r.subs) {
                m_claimHasAll[ci] = m_claimHasAll[ci] || sub.all;
                reqMin = std::min(reqMin, sub.all ? int64_t(0) : sub.count);
            }
            m_staticMinimum[ci] += reqMin;
        }
    }
    m_freeDeviceNeeds = FreeDevices::needsOf(*this);
    return true;
}

int64_t Allocator::minimumDevices() const
{
    int64_t n = 0;
    for (size_t ci = 0; ci < m_claims.size(); ++ci)
        n += m_staticMinimum[ci];
    return n;
}

bool Allocator::zeroFreeMeansNoSolution() const
{
    for (size_t ci = 0; ci < m_claims.size(); ++ci) {
        // A claim over the result limit is a fatal error on every node, checked before any device
        // is looked at (§3.4 step 3).
        if (m_claimHasAll[ci] || m_staticMinimum[ci] > kMaxResultsPerClaim)
            return false;
        for (const auto& r : m_claims[ci].requests)
            for (const auto& s : r.subs)
                if (s.admin)
                    return false;
    }
    return minimumDevices() > 0;
}

bool Allocator::hasPrioritizedList() const
{
    for (const auto& c : m_claims)
        for (const auto& r : c.requests)
            if (r.firstAvailable)
                return true;
    return false;
}

bool Allocator::needsFullEvaluation()
{
    for (const auto& c : m_claims)
        for (const auto& r : c.requests) {
            for (const auto& s : r.subs) {
                if (s.all || !s.derived.empty())
                    return true;
                if (m_selectors.anyError(s.selectorSet, m_inventory.allDevices()))
                    return true;
            }
        }
    return false;
}

bool Allocator::tick()
{
    ++m_steps;
    if (m_steps > m_options.stepBudget) {
        m_timedOut = true;
        return false;
    }
    // The wall clock is only consulted every 4096 steps, and started at the first check: normal
    // claims never pay for reading it. The limit thus counts from the 4096th step, which only
    // shifts it by microseconds.
    if (m_options.timeoutSeconds > 0 && (m_steps & 4095) == 0) {
        auto now = std::chrono::steady_clock::now();
        if (m_steps == 4096)
            m_deadline = now
                + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(m_options.timeoutSeconds));
        else if (now > m_deadline) {
            m_timedOut = true;
            return false;
        }
    }
    return true;
}

std::string Allocator::selectorError(size_t ci, const PreparedSub& sub, const DeviceEntry& e) const
{
    const auto& f = m_selectors.failure(sub.selectorSet, e.instance);
    std::string what = f.compile ? "CEL compile error: " : "CEL runtime error: ";
    if (f.fromClass)
        return "class " + sub.cls->meta.name + ": selector #" + std::to_string(f.index) + ": " + what
            + f.message;
    return "claim " + m_claims[ci].key + ": selector #" + std::to_string(f.index) + ": " + what + f.message;
}

bool Allocator::buildAllLists(const NodeView& view, std::string* error)
{
    for (size_t ci = 0; ci < m_claims.size(); ++ci) {
        const auto& claim = m_claims[ci];
        if (!m_claimHasAll[ci]) {
            if (m_staticMinimum[ci] > kMaxResultsPerClaim) {
                *error = "claim " + claim.key + ": number of requested devices "
                    + std::to_string(m_staticMinimum[ci]) + " exceeds the claim limit of "
                    + std::to_string(kMaxResultsPerClaim);
                return false;
            }
            continue;
        }
        int64_t minCount = 0;
        const bool staticCapacity = m_options.version >= api::KubernetesVersion::V1_37;
        for (size_t ri = 0; ri < claim.requests.size(); ++ri) {
            const auto& req = claim.requests[ri];
            int64_t reqMin = INT64_MAX;
            for (size_t si = 0; si < req.subs.size(); ++si) {
                const auto& sub = req.subs[si];
                if (!sub.all) {
                    reqMin = std::min(reqMin, sub.count);
                    continue;
                }
                auto& list = m_allLists[ci][ri * kMaxSubrequests + si];
                list.clear();
                for (const auto& pool : view.pools) {
                    if (pool.incomplete || pool.invalid) {
                        *error = "claim " + claim.key + ", request " + sub.resultName
                            + ": asks for all devices, but resource pool " + *pool.driver + "/" + *pool.name
                            + (pool.incomplete ? " is currently being updated" : " is currently invalid");
                        return false;
                    }
                    for (const auto& e : pool.devices) {
                        Verdict v = m_selectors.verdict(sub.selectorSet, e);
                        if (v == Verdict::Error) {
                            *error = selectorError(ci, sub, e);
                            return false;
                        }
                        // A device short of room only because of what others consume still
                        // belongs to "all" from 1.37, which then fails (kubernetes#140769); 1.36
                        // left it out and allocated the rest.
                        if (v != Verdict::True || !e.nodeOk || !capacityFits(sub, e, staticCapacity))
                            continue;
                        list.push_back(AllItem { e, &pool });
                    }
                }
                reqMin = std::min<int64_t>(reqMin, int64_t(list.size()));
            }
            minCount += reqMin;
        }
        if (minCount > kMaxResultsPerClaim) {
            *error = "claim " + claim.key + ": number of requested devices " + std::to_string(minCount)
                + " exceeds the claim limit of " + std::to_string(kMaxResultsPerClaim);
            return false;
        }
    }
    return true;
}

Attempt Allocator::allocate(const api::Node& node)
{
    return allocate(node, m_inventory.view(node));
}

Attempt Allocator::allocate(const api::Node& node, const NodeView& view)
{
    m_view = &view;
    m_node = &node;
    m_attempt = Attempt {};
    m_attempt.subs.resize(m_claims.size());
    for (size_t ci = 0; ci < m_claims.size(); ++ci)
        m_attempt.subs[ci].assign(m_claims[ci].requests.size(), 0);
    for (auto& v : m_constraintStates)
        for (auto& s : v)
            s = ConstraintState {};
    for (size_t ci = 0; ci < m_claims.size(); ++ci)
        m_constraintStates[ci].resize(m_claims[ci].constraints.size());
    m_claimResults.assign(m_claims.size(), 0);
    if (m_picked.size() < m_inventory.registry().size())
        m_picked.resize(m_inventory.registry().size(), 0);
    m_consumed.clear();
    m_counters.clear();
    m_counterUndo.clear();
    m_error.clear();
    m_steps = 0;
    m_timedOut = false;
    if (FreeDevices::tooFew(*this, view)) {
        m_attempt.status = AttemptStatus::NoSolution;
        return std::move(m_attempt);
    }
    if (m_observer) [[unlikely]]
        traceAttempt(false);
    std::string err;
    if (!buildAllLists(*m_view, &err)) {
        m_attempt.status = AttemptStatus::Error;
        m_attempt.error = err;
        if (m_observer) [[unlikely]]
            traceAttempt(true);
        return std::move(m_attempt);
    }
    Step r = visitClaim(0);
    m_attempt.steps = m_steps;
    switch (r) {
    case Step::Success:
        m_attempt.status = AttemptStatus::Success;
        for (size_t ci = 0; ci < m_claims.size(); ++ci)
            for (size_t ri = 0; ri < m_claims[ci].requests.size(); ++ri)
                if (m_claims[ci].requests[ri].firstAvailable)
                    m_attempt.plistScore += 8 - m_attempt.subs[ci][ri];
        // The picks stay in the attempt; the scratch marks must not leak into the next one.
        for (const auto& p : m_attempt.picks)
            m_picked[p.entry.id] = 0;
        break;
    case Step::Fail:
        m_attempt.status = m_view->anyInvalid ? AttemptStatus::InvalidPools : AttemptStatus::NoSolution;
        break;
    case Step::Limit:
        m_attempt.status = AttemptStatus::Error;
        m_attempt.error = m_error;
        break;
    case Step::Error:
        m_attempt.status = AttemptStatus::Error;
        m_attempt.error = m_error;
        break;
    case Step::Timeout:
        m_attempt.status = AttemptStatus::Timeout;
        break;
    }
    if (r != Step::Success)
        m_attempt.picks.clear();
    if (m_observer) [[unlikely]]
        traceAttempt(true);
    // Handed over, not copied: the next attempt starts from an empty one anyway.
    return std::move(m_attempt);
}

Allocator::Step Allocator::visitClaim(size_t ci)
{
    if (ci == m_claims.size())
        return Step::Success;
    return visitRequest(ci, 0);
}

Allocator::Step Allocator::visitRequest(size_t ci, size_t ri)
{
    const auto& claim = m_claims[ci];
    if (ri == claim.requests.size()) {
        // Crossing a claim boundary: the result limit of a later claim just means "no solution
        // on this path" for this one (addendum 1).
        Step r = visitClaim(ci + 1);
        return r == Step::Limit ? Step::Fail : r;
    }
    const auto& req = claim.requests[ri];
    if (!req.firstAvailable) {
        m_attempt.subs[ci][ri] = 0;
        return visitSlot(ci, ri, 0, 0, 0, 0);
    }
    for (size_t si = 0; si < req.subs.size(); ++si) {
        m_attempt.subs[ci][ri] = int(si);
        if (m_observer) [[unlikely]]
            traceAlternative(ci, ri, si);
        Step r = visitSlot(ci, ri, si, 0, 0, 0);
        if (r == Step::Success || r == Step::Error || r == Step::Timeout)
            return r;
        // Fail or Limit: try the next alternative.
    }
    m_attempt.subs[ci][ri] = 0;
    return Step::Fail;
}

Allocator::Step Allocator::visitSlot(
    size_t ci, size_t ri, size_t si, int64_t slot, size_t startPool, size_t startDevice)
{
    const auto& sub = m_claims[ci].requests[ri].subs[si];
    const auto& allList = m_allLists[ci][ri * kMaxSubrequests + si];
    const int64_t n = sub.all ? int64_t(allList.size()) : sub.count;
    if (sub.all && n == 0)
        return Step::Fail;
    if (slot == n)
        return visitRequest(ci, ri + 1);
    if (m_claimResults[ci] + (n - slot) > kMaxResultsPerClaim) {
        m_error = "claim " + m_claims[ci].key + ": number of requested devices "
            + std::to_string(m_claimResults[ci] + (n - slot)) + " exceeds the claim limit of "
            + std::to_string(kMaxResultsPerClaim);
        return Step::Limit;
    }
    if (sub.all) {
        if (!tick())
            return Step::Timeout;
        const auto& item = allList[size_t(slot)];
        // All mode takes the listed devices as they are: anything but a constraint violation
        // just fails this path. Capacity comes after counters, taints and constraints (§3.5 step
        // 6): on a share that an earlier pick used up, a constraint the device breaks is still the
        // error. (Judged before the add, which records this pick's consumption.)
        if (inUse(sub, ci, item.entry)) {
            if (m_observer) [[unlikely]]
                traceIneligible(ci, ri, si, slot, item.entry);
            return Step::Fail;
        }
        const bool fits = capacityFits(sub, item.entry);
        auto added = addDevice(ci, ri, si, item.entry, item.pool);
        if (added == AddResult::Ok && !fits) {
            undoLastPick();
            added = AddResult::CapacityFail;
        }
        if (added != AddResult::Ok && m_observer) [[unlikely]]
            traceAddFailed(ci, ri, si, slot, item.entry, added);
        if (added == AddResult::DerivedError)
            return Step::Error;
        if (added == AddResult::ConstraintFail) {
            const auto& k = m_inventory.registry().key(item.entry.id);
            m_error = "claim " + m_claims[ci].key + ", request " + sub.resultName + ": cannot add device "
                + k.driver + "/" + k.pool + "/" + k.device
                + " because a claim constraint would not be satisfied";
            return Step::Error;
        }
        if (added != AddResult::Ok)
            return Step::Fail;
        if (m_observer) [[unlikely]]
            traceDevice(TraceStep::Picked, ci, ri, si, slot, item.entry);
        Step r = visitSlot(ci, ri, si, slot + 1, 0, 0);
        if (r != Step::Success)
            removeLast();
        return r;
    }
    const auto& pools = m_view->pools;
    for (size_t p = startPool; p < pools.size(); ++p) {
        const auto& pool = pools[p];
        if (pool.incomplete || pool.invalid)
            continue;
        for (size_t d = (p == startPool ? startDevice : 0); d < pool.devices.size(); ++d) {
            if (!tick())
                return Step::Timeout;
            const auto& e = pool.devices[d];
            bool error = false;
            if (!eligible(ci, sub, e, error)) {
                if (m_observer) [[unlikely]]
                    traceIneligible(ci, ri, si, slot, e);
                if (error)
                    return Step::Error;
                continue;
            }
            if (const AddResult added = addDevice(ci, ri, si, e, &pool); added != AddResult::Ok) {
                if (m_observer) [[unlikely]]
                    traceAddFailed(ci, ri, si, slot, e, added);
                if (added == AddResult::DerivedError)
                    return Step::Error;
                continue;
            }
            if (m_observer) [[unlikely]]
                traceDevice(TraceStep::Picked, ci, ri, si, slot, e);
            // 1.36: the next slot of this request only looks at later devices (addendum 2).
            Step r = visitSlot(ci, ri, si, slot + 1, p, d + 1);
            if (r == Step::Success)
                return r;
            removeLast();
            if (r != Step::Fail)
                return r;
        }
    }
    return Step::Fail;
}

bool Allocator::inUse(const PreparedSub& sub, size_t ci, const DeviceEntry& e) const
{
    // Picks of a shareable device are never recorded as in use (§3.11), for any request: an admin
    // request may take such a device even when another request of its own claim took it, each
    // result with its own shareID and consumedCapacity (capacityFits counts both).
    if (sub.admin) {
        // Admin access ignores the allocated state and other claims' picks; only its own claim
        // may not take a dedicated device twice.
        if (e.multi)
            return false;
        for (auto it = m_attempt.picks.rbegin(); it != m_attempt.picks.rend() && it->claim == ci; ++it)
            if (it->entry.id == e.id)
                return true;
        return false;
    }
    if (m_state.dedicated(e.id))
        return true;
    // Since 1.34 every pick of the attempt counts, admin or not (addendum 4): a normal request
    // skips a device that any claim of this attempt picked, an admin pick included.
    return !e.multi && m_picked[e.id] > 0;
}

bool Allocator::eligible(size_t ci, const PreparedSub& sub, const DeviceEntry& e, bool& error)
{
    if (inUse(sub, ci, e))
        return false;
    Verdict v = m_selectors.verdict(sub.selectorSet, e);
    if (v == Verdict::Error) {
        m_error = selectorError(ci, sub, e);
        error = true;
        return false;
    }
    if (v != Verdict::True)
        return false;
    if (!e.nodeOk)
        return false;
    return capacityFits(sub, e);
}

bool Allocator::capacityFits(const PreparedSub& sub, const DeviceEntry& e, bool staticOnly)
{
    const api::CapacityRequirements* req = sub.spec->capacity ? &*sub.spec->capacity : nullptr;
    if (e.device->capacity.empty())
        return !req || req->requests.empty();
    if (!capacityConsumption(*e.device, req, m_options.fractionalCapacityRange, m_scratch))
        return false;
    const auto* used = staticOnly ? nullptr : m_state.consumed(e.id);
    for (const auto& [name, amount] : m_scratch) {
        Quantity total = amount;
        if (used) {
            auto it = used->find(*name);
            if (it != used->end())
                total = total.add(it->second);
        }
        if (e.multi && !staticOnly) {
            for (const auto& c : m_consumed)
                if (c.id == e.id)
                    for (const auto& [n2, a2] : c.amounts)
                        if (*n2 == *name)
                            total = total.add(a2);
        }
        if (total > e.device->capacity.at(*name).value)
            return false;
    }
    return true;
}

Allocator::PoolCounters& Allocator::countersFor(const NodePool* pool)
{
    auto it = m_counters.find(pool);
    if (it != m_counters.end())
        return it->second;
    PoolCounters pc;
    for (const auto* cs : pool->counterSets) {
        auto& m = pc.available[cs->name];
        for (const auto& [name, q] : cs->counters)
            m[name] = q;
    }
    // Devices already allocated (dedicated, or holding at least one share) have their counters
    // charged — relevant slices or not (§3.9).
    auto charge = [&](const std::vector<DeviceEntry>& list) {
        for (const auto& e : list) {
            if (!m_state.inUse(e.id))
                continue;
            for (const auto& cc : e.device->consumesCounters) {
                if (m_options.compatibilityGroups)
                    pc.members[cc.counterSet].push_back(&cc.compatibilityGroups);
                auto& m = pc.available[cc.counterSet];
                for (const auto& [name, q] : cc.counters) {
                    auto jt = m.find(name);
                    if (jt != m.end())
                        jt->second = jt->second.sub(q);
                }
            }
        }
    };
    charge(pool->devices);
    charge(pool->otherDevices);
    return m_counters.emplace(pool, std::move(pc)).first->second;
}

bool Allocator::countersFit(const NodePool* pool, const api::Device& d, int sign)
{
    auto& pc = countersFor(pool);
    for (const auto& cc : d.consumesCounters) {
        auto& m = pc.used[cc.counterSet];
        for (const auto& [name, q] : cc.counters) {
            auto& v = m[name];
            v = sign > 0 ? v.add(q) : v.sub(q);
        }
        if (m_options.compatibilityGroups) {
            auto& members = pc.members[cc.counterSet];
            if (sign > 0)
                members.push_back(&cc.compatibilityGroups);
            else
                members.pop_back();
        }
    }
    if (sign < 0)
        return true;
    if (m_options.compatibilityGroups)
        for (const auto& cc : d.consumesCounters)
            if (!groupsCompatible(pc.members[cc.counterSet])) {
                countersFit(pool, d, -1);
                return false;
            }
    for (const auto& [set, counters] : pc.available) {
        auto ut = pc.used.find(set);
        if (ut == pc.used.end())
            continue;
        for (const auto& [name, avail] : counters) {
            auto jt = ut->second.find(name);
            if (jt != ut->second.end() && jt->second > avail) {
                countersFit(pool, d, -1);
                return false;
            }
        }
    }
    return true;
}

bool Allocator::tolerated(const PreparedSub& sub, const api::Device& d) const
{
    for (const auto& t : d.taints)
        if (taintBlocks(t) && !toleratesTaint(sub.spec->tolerations, t))
            return false;
    return true;
}

std::string Allocator::ruleTaintNote(const PreparedSub& sub, const DeviceEntry& e) const
{
    for (const auto& t : e.device->taints) {
        if (!taintBlocks(t) || toleratesTaint(sub.spec->tolerations, t))
            continue;
        if (t.rule.empty())
            return {};
        return "DeviceTaintRule " + t.rule + ": " + t.key + (t.value.empty() ? "" : "=" + t.value) + ":"
            + t.effect + " on " + e.slice->driver + "/" + e.slice->pool.name + "/" + e.device->name;
    }
    return {};
}

bool Allocator::prepareDerived(const PreparedClaim& pc, PreparedSub& ps, std::string* error)
{
    const auto& list = ps.spec->derivedAttributes;
    if (list.empty())
        return true;
    for (const auto& d : list) {
        cel::CompileError ce;
        auto compiled = cel::DerivedAttribute::compileStored(d.expression, &ce);
        if (!compiled) {
            *error = "claim " + pc.key + ", request " + ps.resultName + ", derived attribute " + d.name
                + ": CEL compile error: " + ce.message;
            return false;
        }
        ps.derived.push_back(std::move(compiled));
    }
    // The derived value takes the place of a driver attribute of the same name, for this
    // (sub)request's devices only (KEP-6080 "Scheduler Plugin Implementation", step 3).
    for (const auto idx : ps.constraints) {
        const auto& attribute = pc.constraints[idx].attribute;
        int16_t found = -1;
        for (size_t i = 0; i < list.size() && found < 0; ++i)
            if (list[i].name == attribute)
                found = int16_t(i);
        ps.constraintDerived.push_back(found);
    }
    return true;
}

ConstraintValue Allocator::constraintValue(
    size_t ci, const PreparedSub& sub, size_t k, const DeviceEntry& e, bool& failed)
{
    const auto& def = m_claims[ci].constraints[sub.constraints[k]];
    if (sub.constraintDerived.empty() || sub.constraintDerived[k] < 0)
        return { lookupAttribute(*e.device, e.slice->driver, def.attribute), nullptr };
    const cel::DerivedValue& v = m_derivedValues.of(*sub.derived[size_t(sub.constraintDerived[k])], e);
    if (v.ok)
        return v.isList ? ConstraintValue { nullptr, &v.list } : ConstraintValue { &v.value, nullptr };
    // A failing expression aborts the allocation instead of skipping the device (the API's
    // DeviceDerivedAttribute.expression documentation; KEP-6080 "Runtime Error Handling").
    const auto& key = m_inventory.registry().key(e.id);
    m_error = "claim " + m_claims[ci].key + ", request " + sub.resultName + ", derived attribute "
        + def.attribute + ", device " + key.driver + "/" + key.pool + "/" + key.device
        + ": CEL runtime error: " + v.error;
    failed = true;
    return {};
}

bool Allocator::constraintAdd(const ConstraintDef& def, ConstraintState& st, const ConstraintValue& v) const
{
    if (!v.present() || !constraintAccepts(def.match, m_options.listTypeAttributes, st, v))
        return false;
    constraintPush(def.match, m_options.listTypeAttributes, st, v);
    return true;
}

// Picks are undone last first, so the value to drop is the last one stored.
void Allocator::constraintRemove(const ConstraintDef& def, ConstraintState& st) const
{
    constraintPop(def.match, m_options.listTypeAttributes, st);
}

Allocator::AddResult Allocator::addDevice(
    size_t ci, size_t ri, size_t si, const DeviceEntry& e, const NodePool* pool)
{
    const auto& claim = m_claims[ci];
    const auto& sub = claim.requests[ri].subs[si];
    const api::Device& d = *e.device;
    const NodePool* charged = nullptr;
    if (!d.consumesCounters.empty()) {
        // A shareable device's counters are charged once, by its first share.
        bool alreadyCharged = false;
        if (e.multi) {
            alreadyCharged = m_state.hasShares(e.id);
            for (const auto& c : m_consumed)
                alreadyCharged = alreadyCharged || c.id == e.id;
        }
        if (!alreadyCharged) {
            if (!countersFit(pool, d, +1))
                return AddResult::CountersFail;
            charged = pool;
        }
    }
    if (!d.taints.empty() && !tolerated(sub, d)) {
        if (charged)
            countersFit(charged, d, -1);
        return AddResult::TaintFail;
    }
    auto& states = m_constraintStates[ci];
    for (size_t k = 0; k < sub.constraints.size(); ++k) {
        const auto idx = sub.constraints[k];
        bool failed = false;
        const ConstraintValue value = constraintValue(ci, sub, k, e, failed);
        if (failed || !constraintAdd(claim.constraints[idx], states[idx], value)) {
            for (size_t j = k; j-- > 0;)
                constraintRemove(claim.constraints[sub.constraints[j]], states[sub.constraints[j]]);
            if (charged)
                countersFit(charged, d, -1);
            return failed ? AddResult::DerivedError : AddResult::ConstraintFail;
        }
    }
    Consumed c { e.id, {} };
    if (e.multi && !d.capacity.empty())
        capacityConsumption(d, sub.spec->capacity ? &*sub.spec->capacity : nullptr,
            m_options.fractionalCapacityRange, c.amounts);
    m_consumed.push_back(std::move(c));
    // Every pick of a dedicated device is recorded for the rest of the attempt, admin access
    // included (addendum 4; unlike admin results of other claims, which the allocated state
    // ignores, §3.1). A count, since an admin request may pick a device another claim picked.
    if (!e.multi)
        ++m_picked[e.id];
    m_attempt.picks.push_back(Pick { uint16_t(ci), uint16_t(ri), uint16_t(si), e });
    m_counterUndo.push_back(charged);
    ++m_claimResults[ci];
    return AddResult::Ok;
}

void Allocator::removeLast()
{
    if (m_observer) [[unlikely]] {
        const Pick& p = m_attempt.picks.back();
        traceDevice(TraceStep::Backtracked, p.claim, p.request, p.sub, -1, p.entry);
    }
    undoLastPick();
}

void Allocator::undoLastPick()
{
    const Pick p = m_attempt.picks.back();
    const auto& claim = m_claims[p.claim];
    const auto& sub = claim.requests[p.request].subs[p.sub];
    auto& states = m_constraintStates[p.claim];
    for (size_t j = sub.constraints.size(); j-- > 0;)
        constraintRemove(claim.constraints[sub.constraints[j]], states[sub.constraints[j]]);
    if (m_counterUndo.back())
        countersFit(m_counterUndo.back(), *p.entry.device, -1);
    if (!p.entry.multi)
        --m_picked[p.entry.id];
    m_attempt.picks.pop_back();
    m_consumed.pop_back();
    m_counterUndo.pop_back();
    --m_claimResults[p.claim];
}

std::map<std::string, Quantity> Allocator::consumedBy(const Pick& p) const
{
    std::map<std::string, Quantity> out;
    if (!p.entry.multi)
        return out;
    const auto& sub = m_claims[p.claim].requests[p.request].subs[p.sub];
    Consumption amounts;
    capacityConsumption(*p.entry.device, sub.spec->capacity ? &*sub.spec->capacity : nullptr,
        m_options.fractionalCapacityRange, amounts);
    for (const auto& [name, q] : amounts)
        out[*name] = q;
    return out;
}

namespace {

// An allocation as a new one is, but for the lists kept for the next one written over it: the
// results' and the node selector's (buildResults writes or resets the selector).
void clearKeepingLists(api::AllocationResult& a)
{
    a.results.clear();
    a.config.clear();
    a.allocationTimestamp.clear();
}

// The node selector of devices local to one node (§3.13): metadata.name In (node). A selector
// of that shape already there (a reused allocation's) only has its node name written over.
void pinToNode(std::optional<api::NodeSelector>& selector, const std::string& nodeName)
{
    if (selector && selector->terms.size() == 1) {
        auto& t = selector->terms.front();
        if (t.matchExpressions.empty() && t.matchFields.size() == 1) {
            auto& r = t.matchFields.front();
            if (r.key == "metadata.name" && r.op == "In" && r.values.size() == 1) {
                r.values.front() = nodeName;
                return;
            }
        }
    }
    api::NodeSelectorTerm t;
    t.matchFields.push_back(api::NodeSelectorRequirement { "metadata.name", "In", { nodeName } });
    selector.emplace().terms.push_back(std::move(t));
}

} // namespace

std::vector<api::AllocationResult> Allocator::buildResults(const api::Node& node, const Attempt& attempt,
    const std::function<std::string()>& newShareId, const std::function<std::string()>& timestamp,
    std::vector<api::AllocationResult>* spares) const
{
    std::vector<api::AllocationResult> out;
    out.reserve(m_claims.size());
    for (size_t ci = 0; ci < m_claims.size(); ++ci) {
        if (!spares || spares->empty()) {
            out.emplace_back();
            continue;
        }
        out.push_back(std::move(spares->back()));
        spares->pop_back();
        clearKeepingLists(out.back());
    }
    for (const auto& p : attempt.picks) {
        const auto& claim = m_claims[p.claim];
        const auto& sub = claim.requests[p.request].subs[p.sub];
        const auto& k = m_inventory.registry().key(p.entry.id);
        const api::Device& d = *p.entry.device;
        api::DeviceRequestAllocationResult r;
        r.request = sub.resultName;
        r.driver = k.driver;
        r.pool = k.pool;
        r.device = k.device;
        if (sub.admin)
            r.adminAccess = true;
        r.tolerations = sub.spec->tolerations;
        r.bindingConditions = d.bindingConditions;
        r.bindingFailureConditions = d.bindingFailureConditions;
        r.skipNodeOperations = p.entry.slice->skipNodeOperations;
        if (p.entry.multi) {
            r.shareID = newShareId();
            r.consumedCapacity = consumedBy(p);
        }
        out[p.claim].results.push_back(std::move(r));
    }
    for (size_t ci = 0; ci < m_claims.size(); ++ci) {
        const auto& claim = m_claims[ci];
        auto& alloc = out[ci];
        // Config (§3.12), written as the cluster's Kubernetes version writes it.
        std::vector<SettledRequest> settled;
        settled.reserve(claim.requests.size());
        for (size_t ri = 0; ri < claim.requests.size(); ++ri) {
            const auto& req = claim.requests[ri];
            const auto& sub = req.subs[size_t(attempt.subs[ci][ri])];
            settled.push_back(SettledRequest { req.name, sub.resultName, req.firstAvailable, sub.cls });
        }
        alloc.config = allocationConfig(settled, claim.claim->spec.config,
            m_options.version >= api::KubernetesVersion::V1_37 ? ConfigStyle::Compact
                                                               : ConfigStyle::PerRequest);
        // Node selector (§3.13).
        api::NodeSelectorTerm term;
        bool pinned = false;
        bool binding = false;
        for (const auto& p : attempt.picks) {
            if (p.claim != ci)
                continue;
            const api::Device& d = *p.entry.device;
            const api::ResourceSlice& s = *p.entry.slice;
            binding = binding || !d.bindingConditions.empty();
            if (pinned)
                continue;
            const bool perDevice = s.perDeviceNodeSelection.value_or(false);
            const auto& nodeName = perDevice ? d.nodeName : s.nodeName;
            const auto& selector = perDevice ? d.nodeSelector : s.nodeSelector;
            if (nodeName || d.bindsToNode.value_or(false)) {
                pinned = true;
                continue;
            }
            if (selector && !selector->terms.empty()) {
                const auto& t = selector->terms.front();
                for (const auto& r : t.matchExpressions)
                    if (!contains2(term.matchExpressions, r))
                        term.matchExpressions.push_back(r);
                for (const auto& r : t.matchFields)
                    if (!contains2(term.matchFields, r))
                        term.matchFields.push_back(r);
            }
        }
        // The terms are moved in: a braced list would copy them, for every pod bound.
        if (pinned) {
            pinToNode(alloc.nodeSelector, node.meta.name);
        } else if (!term.matchExpressions.empty() || !term.matchFields.empty()) {
            alloc.nodeSelector.emplace().terms.push_back(std::move(term));
        } else {
            alloc.nodeSelector.reset();
        }
        if (binding)
            alloc.allocationTimestamp = timestamp();
    }
    return out;
}

} // namespace drasim::allocator
