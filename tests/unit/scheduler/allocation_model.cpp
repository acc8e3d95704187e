// SPDX-License-Identifier: Apache-2.0
#include "tests/unit/scheduler/allocation_model.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "tests/unit/scheduler/allocation_model_parts.h"
#include "tests/unit/scheduler/random_bundle.h"

namespace drasim::testing {

namespace {

std::string nameOf(const std::string& driver, const std::string& pool, const std::string& device)
{
    return driver + "/" + pool + "/" + device;
}

/// Node affinity as the generated selectors use it: In and NotIn on labels and on metadata.name.
bool requirementHolds(const api::NodeSelectorRequirement& r, const api::Node& node, bool field)
{
    std::optional<std::string> value;
    if (field && r.key == "metadata.name")
        value = node.meta.name;
    if (!field)
        if (auto it = node.meta.labels.find(r.key); it != node.meta.labels.end())
            value = it->second;
    const bool listed = value && std::find(r.values.begin(), r.values.end(), *value) != r.values.end();
    if (r.op == "In")
        return listed;
    if (r.op == "NotIn")
        return !listed;
    if (r.op == "Exists")
        return value.has_value();
    return r.op == "DoesNotExist" && !value;
}

bool nodeSelected(const api::NodeSelector& selector, const api::Node& node)
{
    return std::any_of(selector.terms.begin(), selector.terms.end(), [&](const api::NodeSelectorTerm& t) {
        return std::all_of(t.matchExpressions.begin(), t.matchExpressions.end(),
                   [&](const api::NodeSelectorRequirement& r) { return requirementHolds(r, node, false); })
            && std::all_of(t.matchFields.begin(), t.matchFields.end(),
                [&](const api::NodeSelectorRequirement& r) { return requirementHolds(r, node, true); });
    });
}

/// A device of a slice with per-device node selection: its own node fields decide.
bool deviceOnNode(const api::Device& d, const api::Node& node)
{
    return (d.nodeName && *d.nodeName == node.meta.name) || d.allNodes.value_or(false)
        || (d.nodeSelector && nodeSelected(*d.nodeSelector, node));
}

bool relevant(const api::ResourceSlice& s, const api::Node& node)
{
    if (s.nodeName)
        return *s.nodeName == node.meta.name;
    if (s.allNodes.value_or(false))
        return true;
    if (s.nodeSelector)
        return nodeSelected(*s.nodeSelector, node);
    return s.perDeviceNodeSelection.value_or(false)
        && std::any_of(
            s.devices.begin(), s.devices.end(), [&](const api::Device& d) { return deviceOnNode(d, node); });
}

const api::DeviceAttribute* attribute(
    const api::Device& d, const std::string& driver, const std::string& name)
{
    if (auto it = d.attributes.find(name); it != d.attributes.end())
        return &it->second;
    const auto slash = name.find('/');
    if (slash == std::string::npos || name.substr(0, slash) != driver)
        return nullptr;
    auto it = d.attributes.find(name.substr(slash + 1));
    return it == d.attributes.end() ? nullptr : &it->second;
}

bool tolerated(const std::vector<api::DeviceToleration>& tolerations, const api::DeviceTaint& t)
{
    if (t.effect != "NoSchedule" && t.effect != "NoExecute")
        return true;
    return std::any_of(tolerations.begin(), tolerations.end(), [&](const api::DeviceToleration& x) {
        return (x.effect.empty() || x.effect == t.effect) && (x.key.empty() || x.key == t.key)
            && (x.op == "Exists" || x.value == t.value);
    });
}

/// What a request consumes of each capacity of the device (§3.11); false when the request names
/// a capacity the device lacks or when the amount breaks the policy. Policies here are defaults,
/// ranges with a step and lists of valid values.
bool consumption(
    const api::Device& d, const api::DeviceRequestSpec& spec, std::map<std::string, Quantity>& out)
{
    out.clear();
    const auto* requests = spec.capacity ? &spec.capacity->requests : nullptr;
    if (requests)
        for (const auto& [name, amount] : *requests)
            if (!d.capacity.count(name))
                return false;
    for (const auto& [name, cap] : d.capacity) {
        const Quantity* asked = nullptr;
        if (requests)
            if (auto it = requests->find(name); it != requests->end())
                asked = &it->second;
        const auto& policy = cap.requestPolicy;
        Quantity amount = cap.value;
        if (!asked) {
            if (policy && policy->defaultValue)
                amount = *policy->defaultValue;
        } else if (policy && policy->validRange) {
            const auto& range = *policy->validRange;
            amount = *asked;
            if (amount < range.min) {
                amount = range.min;
            } else if (range.step) {
                const int64_t step = range.step->value();
                const int64_t over = amount.value() - range.min.value();
                amount = Quantity::fromInt(range.min.value() + (over + step - 1) / step * step);
            }
        } else if (policy && !policy->validValues.empty()) {
            // The smallest valid value that covers the request; a request above all of them stays
            // as it is and then breaks the policy, unless it is the default.
            const auto& values = policy->validValues;
            auto it = std::find_if(
                values.begin(), values.end(), [&](const Quantity& v) { return !(v < *asked); });
            amount = it == values.end() ? *asked : *it;
            if (it == values.end() && !(policy->defaultValue && amount == *policy->defaultValue))
                return false;
        } else {
            amount = *asked;
        }
        out[name] = amount;
    }
    return true;
}

} // namespace

PriorState PriorState::of(const std::vector<const api::ResourceClaim*>& claims)
{
    PriorState s;
    for (const auto* c : claims) {
        if (!c->allocation)
            continue;
        for (const auto& r : c->allocation->results) {
            if (r.adminAccess.value_or(false))
                continue;
            const std::string n = nameOf(r.driver, r.pool, r.device);
            if (!r.shareID) {
                s.dedicated.insert(n);
                continue;
            }
            auto& sums = s.shares[n];
            for (const auto& [name, amount] : r.consumedCapacity) {
                auto it = sums.find(name);
                sums[name] = it == sums.end() ? amount : it->second.add(amount);
            }
        }
    }
    return s;
}

AllocationModel::AllocationModel(const api::ObjectSet& objects)
    : m_objects(objects)
{ }

std::vector<AllocationModel::Pool> AllocationModel::view(const api::Node& node) const
{
    std::map<std::pair<std::string, std::string>, std::vector<const api::ResourceSlice*>> all;
    for (const auto& s : m_objects.resourceSlices)
        all[{ s.driver, s.pool.name }].push_back(&s);
    std::vector<Pool> out;
    for (const auto& [key, slices] : all) {
        // The highest generation among the slices the node can see survives (§3.2 step 2).
        int64_t gen = -1;
        for (const auto* s : slices)
            if (relevant(*s, node))
                gen = std::max(gen, s->pool.generation);
        if (gen < 0)
            continue;
        std::vector<const api::ResourceSlice*> seen, sameGen;
        bool newerElsewhere = false;
        for (const auto* s : slices) {
            if (s->pool.generation == gen) {
                sameGen.push_back(s);
                if (relevant(*s, node))
                    seen.push_back(s);
            }
            newerElsewhere = newerElsewhere || s->pool.generation > gen;
        }
        const int64_t want = seen.front()->pool.resourceSliceCount;
        Pool p;
        p.driver = key.first;
        p.name = key.second;
        if (int64_t(seen.size()) == want)
            p.complete = true;
        else if (newerElsewhere)
            continue; // obsolete for this node
        else
            p.complete = int64_t(sameGen.size()) == want;
        std::sort(seen.begin(), seen.end(), [](const api::ResourceSlice* a, const api::ResourceSlice* b) {
            return a->meta.name < b->meta.name;
        });
        std::set<std::string> names;
        for (const auto* s : sameGen) {
            for (const auto& cs : s->sharedCounters) {
                p.valid = p.valid && !p.counterSets.count(cs.name);
                p.counterSets[cs.name] = cs.counters;
            }
            for (const auto& d : s->devices)
                p.sameGeneration.push_back(&d);
        }
        for (const auto* s : seen)
            for (const auto& d : s->devices) {
                p.valid = p.valid && names.insert(d.name).second;
                p.devices.push_back(&d);
                p.sliceOf[&d] = s;
                if (s->perDeviceNodeSelection.value_or(false) && !deviceOnNode(d, node))
                    p.elsewhere.insert(&d);
            }
        for (const auto* d : p.sameGeneration)
            for (const auto& cc : d->consumesCounters) {
                auto it = p.counterSets.find(cc.counterSet);
                p.valid = p.valid && it != p.counterSets.end();
                if (it != p.counterSets.end())
                    for (const auto& [name, v] : cc.counters)
                        p.valid = p.valid && it->second.count(name);
            }
        for (const auto* d : p.devices)
            p.binding = p.binding || (p.complete && p.valid && !d->bindingConditions.empty());
        out.push_back(std::move(p));
    }
    // Pools by (driver, pool name) (the map's order), usable ones with binding conditions last.
    std::stable_partition(out.begin(), out.end(), [](const Pool& p) { return !p.binding; });
    return out;
}

int AllocationModel::selectorsPass(const api::DeviceRequestSpec& spec, const std::string& driver,
    const api::Device& device, std::string* error, const std::string& claimKey)
{
    std::vector<const api::DeviceSelector*> list;
    size_t fromClass = 0;
    for (const auto& c : m_objects.deviceClasses)
        if (c.meta.name == spec.deviceClassName)
            for (const auto& s : c.selectors)
                list.push_back(&s);
    fromClass = list.size();
    for (const auto& s : spec.selectors)
        list.push_back(&s);
    cel::DeviceView view;
    view.driver = driver;
    view.attributes = &device.attributes;
    view.capacity = &device.capacity;
    view.allowMultipleAllocations = device.allowMultipleAllocations.value_or(false);
    for (size_t i = 0; i < list.size(); ++i) {
        const auto* s = list[i];
        auto& compiled = m_compiled[s->expression];
        if (!compiled)
            compiled = cel::Selector::compile(s->expression, nullptr);
        if (!compiled)
            return -1;
        const auto r = compiled->evaluate(view);
        if (r.outcome == cel::Outcome::Error) {
            // Upstream's text: the class or the claim, the selector's index in its own list.
            if (error)
                *error
                    = (i < fromClass ? "class " + spec.deviceClassName + ": selector #" + std::to_string(i)
                                     : "claim " + claimKey + ": selector #" + std::to_string(i - fromClass))
                    + ": CEL runtime error: " + r.error;
            return -1;
        }
        if (r.outcome == cel::Outcome::False)
            return 0;
    }
    return 1;
}

namespace {

/// Consumable capacity (§3.11): what the pick consumes, false when it does not fit next to the
/// prior shares and the picks of this attempt.
bool capacityFits(const std::vector<AllocationModel::State::Pick>& picks, const PriorState& prior,
    const api::Device& d, const api::DeviceRequestSpec& spec, const std::string& name, bool multi,
    std::map<std::string, Quantity>& consumed)
{
    if (d.capacity.empty())
        return !spec.capacity || spec.capacity->requests.empty();
    if (!consumption(d, spec, consumed))
        return false;
    const auto prev = prior.shares.find(name);
    for (const auto& [cap, amount] : consumed) {
        Quantity total = amount;
        if (prev != prior.shares.end())
            if (auto it = prev->second.find(cap); it != prev->second.end())
                total = total.add(it->second);
        if (multi)
            for (const auto& p : picks)
                if (p.device == name)
                    if (auto it = p.consumed.find(cap); it != p.consumed.end())
                        total = total.add(it->second);
        if (total > d.capacity.at(cap).value)
            return false;
    }
    return true;
}

} // namespace

AllocationModel::Add AllocationModel::tryAdd(State& st, const PriorState& prior, size_t ci,
    const api::ResourceClaim& claim, const Request& req, const Pool& pool, const api::Device& d,
    std::string* error)
{
    const std::string name = nameOf(pool.driver, pool.name, d.name);
    const bool multi = d.allowMultipleAllocations.value_or(false);
    const bool admin = req.spec->adminAccess.value_or(false);
    auto pickedBy = [&](auto&& which) {
        return std::any_of(st.picks.begin(), st.picks.end(),
            [&](const State::Pick& p) { return p.device == name && which(p); });
    };
    // In use (1.34+): admin access skips only what its own claim picked; any other request skips
    // allocated devices and every device picked in this attempt, admin picks included. Shareable
    // devices are never in use for picks.
    if (!multi) {
        if (admin && pickedBy([&](const State::Pick& p) { return p.claim == ci; }))
            return Add::No;
        if (!admin && (prior.dedicated.count(name) || pickedBy([](const State::Pick&) { return true; })))
            return Add::No;
    } else if (!admin && prior.dedicated.count(name)) {
        return Add::No;
    }
    const std::string claimKey
        = (claim.meta.namespace_.empty() ? std::string("default") : claim.meta.namespace_) + "/"
        + claim.meta.name;
    const int sel = selectorsPass(*req.spec, pool.driver, d, error, claimKey);
    if (sel < 0)
        return Add::Error;
    if (sel == 0 || pool.elsewhere.count(&d))
        return Add::No;
    // Counters: charged unless a shareable device was charged already (prior share or earlier pick).
    const bool charged
        = multi && (prior.shares.count(name) || pickedBy([](const State::Pick&) { return true; }));
    if (!d.consumesCounters.empty() && !charged) {
        auto& used = st.countersUsed[&pool];
        for (const auto& cc : d.consumesCounters)
            for (const auto& [counter, amount] : cc.counters) {
                auto& u = used[cc.counterSet][counter];
                u = u.add(amount);
            }
        for (const auto& [set, counters] : pool.counterSets)
            for (const auto& [counter, total] : counters) {
                Quantity available = total;
                for (const auto* other : pool.sameGeneration) {
                    const std::string on = nameOf(pool.driver, pool.name, other->name);
                    if (!prior.dedicated.count(on) && !prior.shares.count(on))
                        continue;
                    for (const auto& cc : other->consumesCounters)
                        if (cc.counterSet == set)
                            if (auto it = cc.counters.find(counter); it != cc.counters.end())
                                available = available.sub(it->second);
                }
                auto it = used.find(set);
                if (it != used.end())
                    if (auto jt = it->second.find(counter); jt != it->second.end() && jt->second > available)
                        return Add::No;
            }
    }
    for (const auto& t : d.taints)
        if (!tolerated(req.spec->tolerations, t))
            return Add::No;
    // DeviceTaintRules add their taint to every device their selector names: each field given
    // must match; an empty selector names every device, no selector none.
    for (const auto& rule : m_objects.deviceTaintRules) {
        const auto& sel = rule.deviceSelector;
        if (sel && (!sel->driver || *sel->driver == pool.driver) && (!sel->pool || *sel->pool == pool.name)
            && (!sel->device || *sel->device == d.name) && !tolerated(req.spec->tolerations, rule.taint))
            return Add::No;
    }
    auto& cons = st.constraints[ci];
    cons.resize(claim.spec.constraints.size());
    for (size_t k = 0; k < claim.spec.constraints.size(); ++k) {
        const auto& c = claim.spec.constraints[k];
        const auto& on = c.requests;
        if (!on.empty() && std::find(on.begin(), on.end(), req.parent) == on.end()
            && std::find(on.begin(), on.end(), req.resultName) == on.end())
            continue;
        const auto* a
            = attribute(d, pool.driver, c.matchAttribute ? *c.matchAttribute : *c.distinctAttribute);
        if (!a)
            return Add::ConstraintNo;
        auto& s = cons[k];
        if (c.matchAttribute) {
            if (s.count > 0 && !(s.value == *a))
                return Add::ConstraintNo;
            if (s.count++ == 0)
                s.value = *a;
        } else {
            // Pairwise distinct over all covered devices, two of one request included.
            for (const auto& v : s.distinct)
                if (v == *a)
                    return Add::ConstraintNo;
            s.distinct.push_back(*a);
        }
    }
    // Capacity last (§3.5 step 6): for an All slot a constraint violation must win over it.
    State::Pick pick { ci, req.resultName, name, multi, {} };
    if (!capacityFits(st.picks, prior, d, *req.spec, name, multi, pick.consumed))
        return Add::No;
    st.picks.push_back(std::move(pick));
    return Add::Ok;
}

bool AllocationModel::allList(const std::vector<Pool>& pools,
    const PriorState& /*prior: not needed since 1.37*/, const api::DeviceRequestSpec& spec,
    std::vector<std::pair<const Pool*, const api::Device*>>& out, std::string* error,
    const std::string& claimKey, const std::string& request)
{
    out.clear();
    for (const auto& p : pools) {
        if (!p.complete || !p.valid) {
            if (error)
                *error = "claim " + claimKey + ", request " + request
                    + ": asks for all devices, but resource pool " + p.driver + "/" + p.name
                    + (p.complete ? " is currently invalid" : " is currently being updated");
            return false;
        }
        for (const auto* d : p.devices) {
            const int sel = selectorsPass(spec, p.driver, *d, error, claimKey);
            if (sel < 0)
                return false;
            std::map<std::string, Quantity> amounts;
            const bool multi = d->allowMultipleAllocations.value_or(false);
            // Kubernetes 1.37 (kubernetes#140769): "all" is gathered by each device's capacity
            // alone; what other claims consume only decides later whether the request fails.
            const PriorState nothingConsumed;
            if (sel == 1 && !p.elsewhere.count(d)
                && capacityFits(
                    {}, nothingConsumed, *d, spec, nameOf(p.driver, p.name, d->name), multi, amounts))
                out.emplace_back(&p, d);
        }
    }
    return true;
}

bool AllocationModel::selects(const api::NodeSelector& selector, const api::Node& node)
{
    return nodeSelected(selector, node);
}

std::vector<api::DeviceAllocationConfiguration> AllocationModel::configOf(
    const api::ResourceClaim& claim) const
{
    std::vector<api::DeviceAllocationConfiguration> out;
    // The alternative each request chose, read off its results: "r" or "r/s".
    std::vector<std::pair<std::string, const api::DeviceRequestSpec*>> chosen;
    for (const auto& x : claim.spec.requests) {
        std::pair<std::string, const api::DeviceRequestSpec*> c { x.name, x.exactly ? &*x.exactly : nullptr };
        for (const auto& r : claim.allocation->results)
            for (const auto& s : x.firstAvailable)
                if (r.request == x.name + "/" + s.name)
                    c = { r.request, &s.spec };
        chosen.push_back(c);
    }
    // Class configs: one entry per config of a class, listing every request that used the class.
    std::map<std::string, std::vector<size_t>> entries;
    for (const auto& [name, spec] : chosen) {
        auto it = entries.find(spec->deviceClassName);
        if (it != entries.end()) {
            for (size_t i : it->second)
                out[i].requests.push_back(name);
            continue;
        }
        auto& list = entries[spec->deviceClassName];
        for (const auto& cls : m_objects.deviceClasses)
            if (cls.meta.name == spec->deviceClassName)
                for (const auto& cfg : cls.config) {
                    list.push_back(out.size());
                    out.push_back(api::DeviceAllocationConfiguration { "FromClass", { name }, cfg });
                }
    }
    // Claim configs (Kubernetes 1.37): each one once, when it names no request or names one of
    // them (the request, or the alternative it chose).
    const auto names = [&](const std::vector<std::string>& list, size_t i) {
        return std::find(list.begin(), list.end(), claim.spec.requests[i].name) != list.end()
            || std::find(list.begin(), list.end(), chosen[i].first) != list.end();
    };
    for (const auto& cfg : claim.spec.config) {
        bool applies = cfg.requests.empty();
        for (size_t i = 0; i < chosen.size() && !applies; ++i)
            applies = names(cfg.requests, i);
        if (applies)
            out.push_back(api::DeviceAllocationConfiguration { "FromClaim", cfg.requests, cfg.opaque });
    }
    // An entry that names every request of the claim names none (empty means all).
    for (auto& entry : out) {
        size_t covered = 0;
        for (size_t i = 0; i < chosen.size(); ++i)
            covered += names(entry.requests, i) ? 1 : 0;
        if (!chosen.empty() && covered == chosen.size())
            entry.requests.clear();
    }
    return out;
}

std::optional<api::NodeSelector> AllocationModel::nodeSelectorOf(
    const api::Node& node, const api::AllocationResult& allocation) const
{
    const auto pools = view(node);
    api::NodeSelectorTerm term;
    auto add = [](std::vector<api::NodeSelectorRequirement>& to, const api::NodeSelectorRequirement& r) {
        const std::set<std::string> values(r.values.begin(), r.values.end());
        for (const auto& x : to)
            if (x.key == r.key && x.op == r.op
                && std::set<std::string>(x.values.begin(), x.values.end()) == values)
                return;
        to.push_back(r);
    };
    for (const auto& r : allocation.results)
        for (const auto& p : pools)
            for (const auto* d : p.devices) {
                if (p.driver != r.driver || p.name != r.pool || d->name != r.device)
                    continue;
                const auto& s = *p.sliceOf.at(d);
                const bool perDevice = s.perDeviceNodeSelection.value_or(false);
                const auto& nodeName = perDevice ? d->nodeName : s.nodeName;
                const auto& selector = perDevice ? d->nodeSelector : s.nodeSelector;
                // A local device, or one that binds to the node, pins the allocation (§3.13).
                if (nodeName || d->bindsToNode.value_or(false))
                    return api::NodeSelector { { api::NodeSelectorTerm { {},
                        { api::NodeSelectorRequirement { "metadata.name", "In", { node.meta.name } } } } } };
                if (selector && !selector->terms.empty()) {
                    for (const auto& x : selector->terms.front().matchExpressions)
                        add(term.matchExpressions, x);
                    for (const auto& x : selector->terms.front().matchFields)
                        add(term.matchFields, x);
                }
            }
    if (term.matchExpressions.empty() && term.matchFields.empty())
        return std::nullopt;
    return api::NodeSelector { { term } };
}

std::string AllocationModel::check(
    const api::Node& node, const std::vector<const api::ResourceClaim*>& claims, const PriorState& prior)
{
    const auto pools = view(node);
    State st;
    for (size_t ci = 0; ci < claims.size(); ++ci) {
        const auto& claim = *claims[ci];
        const std::string who = "claim " + claim.meta.name;
        if (!claim.allocation)
            return who + " is not allocated";
        std::map<std::string, std::vector<std::string>> byRequest;
        bool binding = false; ///< some device of the claim has binding conditions
        for (const auto& r : claim.allocation->results) {
            const std::string parent = r.request.substr(0, r.request.find('/'));
            const std::string sub
                = r.request.find('/') == std::string::npos ? "" : r.request.substr(parent.size() + 1);
            Request req { r.request, parent, nullptr };
            for (const auto& x : claim.spec.requests) {
                if (x.name != parent)
                    continue;
                if (sub.empty() && x.exactly)
                    req.spec = &*x.exactly;
                for (const auto& s : x.firstAvailable)
                    if (s.name == sub)
                        req.spec = &s.spec;
            }
            if (!req.spec)
                return who + ": result for unknown request " + r.request;
            if (r.adminAccess.value_or(false) != req.spec->adminAccess.value_or(false))
                return who + ": result " + r.request + " has the wrong adminAccess";
            const Pool* pool = nullptr;
            const api::Device* dev = nullptr;
            for (const auto& p : pools)
                if (p.driver == r.driver && p.name == r.pool)
                    for (const auto* d : p.devices)
                        if (d->name == r.device) {
                            pool = &p;
                            dev = d;
                        }
            const std::string what = who + ", result " + r.request + " " + nameOf(r.driver, r.pool, r.device);
            if (!dev)
                return what + ": not a device of the newest generation the node sees";
            if (!pool->complete || !pool->valid)
                return what + ": pool incomplete or invalid";
            const bool multi = dev->allowMultipleAllocations.value_or(false);
            if (multi != r.shareID.has_value())
                return what + ": shareID present exactly for shareable devices expected";
            const size_t before = st.picks.size();
            const Add a = tryAdd(st, prior, ci, claim, req, *pool, *dev);
            if (a != Add::Ok)
                return what
                    + ": the model rejects this pick (in use, selectors, capacity, counters, taints or "
                      "constraints; outcome "
                    + std::to_string(int(a)) + ")";
            if (multi && st.picks[before].consumed != r.consumedCapacity)
                return what + ": consumedCapacity differs from the request policy";
            // Copies (§2.4): the (sub)request's tolerations, the device's binding conditions.
            auto sameTolerations = [](const api::DeviceToleration& a, const api::DeviceToleration& b) {
                return a.key == b.key && a.op == b.op && a.value == b.value && a.effect == b.effect
                    && a.tolerationSeconds == b.tolerationSeconds;
            };
            if (!std::equal(r.tolerations.begin(), r.tolerations.end(), req.spec->tolerations.begin(),
                    req.spec->tolerations.end(), sameTolerations))
                return what + ": tolerations are not the request's";
            if (r.bindingConditions != dev->bindingConditions
                || r.bindingFailureConditions != dev->bindingFailureConditions)
                return what + ": binding conditions are not the device's";
            binding = binding || !dev->bindingConditions.empty();
            auto& list = byRequest[r.request];
            const std::string full = nameOf(r.driver, r.pool, r.device);
            if (std::find(list.begin(), list.end(), full) != list.end())
                return what + ": picked twice by one request";
            list.push_back(full);
        }
        if (binding == claim.allocation->allocationTimestamp.empty())
            return who + ": allocationTimestamp must be set exactly when a device has binding conditions";
        // Every request got exactly its devices (one alternative of a firstAvailable request).
        for (const auto& x : claim.spec.requests) {
            std::vector<std::pair<std::string, const api::DeviceRequestSpec*>> alternatives;
            if (x.exactly)
                alternatives.emplace_back(x.name, &*x.exactly);
            for (const auto& s : x.firstAvailable)
                alternatives.emplace_back(x.name + "/" + s.name, &s.spec);
            int chosen = 0;
            for (const auto& [resultName, spec] : alternatives) {
                auto it = byRequest.find(resultName);
                if (it == byRequest.end())
                    continue;
                ++chosen;
                if (spec->allocationMode == "All") {
                    std::vector<std::pair<const Pool*, const api::Device*>> all;
                    if (!allList(pools, prior, *spec, all))
                        return who + ", request " + resultName + ": All mode succeeded where it must fail";
                    std::vector<std::string> want;
                    for (const auto& [p, d] : all)
                        want.push_back(nameOf(p->driver, p->name, d->name));
                    auto got = it->second;
                    std::sort(want.begin(), want.end());
                    std::sort(got.begin(), got.end());
                    if (got != want)
                        return who + ", request " + resultName
                            + ": All mode did not take every listed device";
                } else if (int64_t(it->second.size()) != spec->count) {
                    return who + ", request " + resultName + ": wrong number of devices";
                }
            }
            if (chosen != 1)
                return who + ", request " + x.name + ": " + std::to_string(chosen)
                    + " alternatives allocated";
        }
    }
    return {};
}

AllocationModel::Search AllocationModel::solve(const api::Node& node,
    const std::vector<const api::ResourceClaim*>& claims, const PriorState& prior, uint64_t seed)
{
    const auto pools = view(node);
    std::vector<std::pair<const Pool*, const api::Device*>> candidates;
    for (const auto& p : pools)
        if (p.complete && p.valid)
            for (const auto* d : p.devices)
                candidates.emplace_back(&p, d);
    // Any CEL error on a visible device: the allocator's outcome may then depend on its visit
    // order.
    std::vector<std::vector<std::vector<Request>>> alternatives(claims.size());
    for (size_t ci = 0; ci < claims.size(); ++ci) {
        const auto& spec = claims[ci]->spec;
        for (const auto& x : spec.requests) {
            std::vector<Request> alts;
            if (x.exactly)
                alts.push_back(Request { x.name, x.name, &*x.exactly });
            for (const auto& s : x.firstAvailable)
                alts.push_back(Request { x.name + "/" + s.name, x.name, &s.spec });
            for (const auto& r : alts) {
                for (const auto& p : pools)
                    for (const auto* d : p.devices)
                        if (selectorsPass(*r.spec, p.driver, *d) < 0)
                            return Search::Inconclusive;
            }
            alternatives[ci].push_back(std::move(alts));
        }
    }
    BundleRng rng(seed);
    for (size_t i = candidates.size(); i > 1; --i)
        std::swap(candidates[i - 1], candidates[rng.below(i)]);

    uint64_t steps = 0;
    bool inconclusive = false;
    // Depth-first over claims, requests, alternatives and device combinations.
    std::function<bool(const State&, size_t, size_t)> visit
        = [&](const State& st, size_t ci, size_t ri) -> bool {
        if (ci == claims.size())
            return true;
        if (ri == alternatives[ci].size())
            return visit(st, ci + 1, 0);
        for (const auto& req : alternatives[ci][ri]) {
            if (req.spec->allocationMode == "All") {
                std::vector<std::pair<const Pool*, const api::Device*>> all;
                if (!allList(pools, prior, *req.spec, all)) {
                    inconclusive = true;
                    return false;
                }
                if (all.empty())
                    continue;
                State next = st;
                bool ok = true;
                for (const auto& [p, d] : all) {
                    const Add a = tryAdd(next, prior, ci, *claims[ci], req, *p, *d);
                    if (a == Add::ConstraintNo || a == Add::Error)
                        inconclusive = true; // a fatal error for the allocator
                    ok = ok && a == Add::Ok;
                    if (!ok)
                        break;
                }
                if (ok && visit(next, ci, ri + 1))
                    return true;
                continue;
            }
            std::function<bool(const State&, int64_t, size_t)> slot
                = [&](const State& s, int64_t k, size_t from) -> bool {
                if (k == req.spec->count)
                    return visit(s, ci, ri + 1);
                for (size_t i = from; i < candidates.size(); ++i) {
                    if (++steps > 200'000) {
                        inconclusive = true;
                        return false;
                    }
                    State next = s;
                    const Add a = tryAdd(
                        next, prior, ci, *claims[ci], req, *candidates[i].first, *candidates[i].second);
                    if (a == Add::Error)
                        inconclusive = true;
                    if (a == Add::Ok && slot(next, k + 1, i + 1))
                        return true;
                    if (inconclusive)
                        return false;
                }
                return false;
            };
            if (slot(st, 0, 0))
                return true;
            if (inconclusive)
                return false;
        }
        return false;
    };
    const bool found = visit(State {}, 0, 0);
    if (found)
        return Search::Found;
    return inconclusive ? Search::Inconclusive : Search::None;
}

} // namespace drasim::testing
