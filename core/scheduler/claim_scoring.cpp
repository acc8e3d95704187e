// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/claim_scoring.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/gpushare/choice_order.h"
#include "core/scheduler/claim_scoring_impl.h"

namespace drasim::scheduler {

std::vector<Cluster::Impl::ClaimScoring::ClassSet> Cluster::Impl::ClaimScoring::classSets(Impl& d)
{
    std::vector<ClassSet> out;
    for (const std::string& name : d.options.claimTarget->classes)
        if (auto it = d.classes.find(name); it != d.classes.end())
            out.push_back({ &name, d.selectors.setFor(it->second, {}) });
    return out;
}

ClaimCounters availableCounters(const allocator::NodePool& pool, const allocator::AllocatedState& state)
{
    ClaimCounters left;
    for (const api::CounterSet* set : pool.counterSets)
        left[set->name] = set->counters;
    for (const auto* list : { &pool.devices, &pool.otherDevices })
        for (const allocator::DeviceEntry& e : *list) {
            if (!state.inUse(e.id))
                continue;
            for (const api::DeviceCounterConsumption& c : e.device->consumesCounters) {
                auto& set = left[c.counterSet];
                for (const auto& [name, amount] : c.counters)
                    if (auto it = set.find(name); it != set.end())
                        it->second = it->second.sub(amount);
            }
        }
    return left;
}

namespace {

/// Whether what is left of the counters still holds the device (a partition whose counters a
/// sibling took is not free, though no claim holds it).
bool countersHold(const api::Device& device, const ClaimCounters& left)
{
    for (const api::DeviceCounterConsumption& c : device.consumesCounters) {
        const auto set = left.find(c.counterSet);
        if (set == left.end())
            return false;
        for (const auto& [name, amount] : c.counters)
            if (auto it = set->second.find(name); it == set->second.end() || amount > it->second)
                return false;
    }
    return true;
}

} // namespace

gpushare::DeviceCounts Cluster::Impl::ClaimScoring::nodeFree(
    Impl& d, uint32_t idx, const std::vector<ClassSet>& sets, gpushare::DeviceCounts* installed)
{
    gpushare::DeviceCounts free;
    for (const allocator::NodePool& pool : d.viewOf(idx).pools) {
        if (pool.invalid)
            continue;
        const ClaimCounters left
            = pool.counterSets.empty() ? ClaimCounters {} : availableCounters(pool, d.state);
        for (const allocator::DeviceEntry& e : pool.devices) {
            if (e.multi || !e.nodeOk)
                continue;
            const bool taken = d.state.dedicated(e.id)
                || (!e.device->consumesCounters.empty() && !countersHold(*e.device, left));
            for (const ClassSet& c : sets) {
                if (d.selectors.verdict(c.set, e) != allocator::Verdict::True)
                    continue;
                if (installed)
                    ++(*installed)[*c.name];
                if (!taken)
                    ++free[*c.name];
            }
        }
    }
    return free;
}

gpushare::DeviceCounts Cluster::Impl::ClaimScoring::podShape(const Impl& d, const Cycle& cycle)
{
    gpushare::DeviceCounts asked, shape;
    for (const ClaimState* c : cycle.toAllocate)
        addClaimDevices(c->claim.spec, asked);
    for (const std::string& name : d.options.claimTarget->classes)
        if (auto it = asked.find(name); it != asked.end())
            shape.insert(*it);
    return shape;
}

void Cluster::Impl::ClaimScoring::fillScores(
    Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, std::vector<ScoreInputs>& inputs)
{
    if (d.options.claimTarget->general)
        return fillGeneralScores(d, cycle, feasible, inputs);
    bool alternatives = false; // a firstAvailable list of more than one subrequest
    for (const ClaimState* c : cycle.toAllocate)
        for (const api::DeviceRequest& r : c->claim.spec.requests)
            alternatives = alternatives || r.firstAvailable.size() > 1;
    if (alternatives)
        if (const auto choices = podChoices(podRequests(cycle)); choices.size() > 1)
            return fillChoiceScores(d, choices, feasible, inputs);
    const gpushare::DeviceCounts shape = podShape(d, cycle);
    if (shape.empty())
        return; // no device of the target's classes: the GPU-sharing score stands
    const std::vector<ClassSet> sets = classSets(d);
    for (size_t i = 0; i < feasible.size(); ++i)
        inputs[i].claimScore = gpushare::claimFgdScore(
            nodeFree(d, feasible[i], sets, nullptr), shape, d.options.claimTarget->typical);
}

std::vector<gpushare::DeviceCounts> Cluster::Impl::ClaimScoring::podChoices(
    const gpushare::ClaimShape& requests)
{
    gpushare::DeviceCounts base;
    std::map<int, std::vector<const gpushare::RequestShape*>> byList; // by number: pod order
    for (const gpushare::RequestShape& r : requests) {
        if (!r.capacityMilli.empty())
            continue; // consumable capacity: not counted in whole devices (addClaimDevices)
        if (r.firstAvailable < 0)
            base[r.deviceClass] += r.count;
        else
            byList[r.firstAvailable].push_back(&r);
    }
    std::vector<std::vector<const gpushare::RequestShape*>> lists;
    for (auto& [list, alternatives] : byList) {
        std::sort(alternatives.begin(), alternatives.end(),
            [](const auto* a, const auto* b) { return a->alternative < b->alternative; });
        lists.push_back(std::move(alternatives));
    }
    constexpr size_t kMaxChoices = 256;
    std::vector<gpushare::DeviceCounts> out;
    std::vector<size_t> at(lists.size(), 0);
    while (out.size() < kMaxChoices) {
        gpushare::DeviceCounts choice = base;
        for (size_t i = 0; i < lists.size(); ++i)
            choice[lists[i][at[i]]->deviceClass] += lists[i][at[i]]->count;
        out.push_back(std::move(choice));
        if (!gpushare::nextChoice(at, lists))
            break;
    }
    return out;
}

void Cluster::Impl::ClaimScoring::fillChoiceScores(Impl& d,
    const std::vector<gpushare::DeviceCounts>& choices, const std::vector<uint32_t>& feasible,
    std::vector<ScoreInputs>& inputs)
{
    const std::vector<std::string>& target = d.options.claimTarget->classes;
    std::set<std::string> extra; // classes only the pod's alternatives ask for: to tell which fits
    bool asksTarget = false;
    for (const gpushare::DeviceCounts& choice : choices)
        for (const auto& entry : choice) {
            if (!std::binary_search(target.begin(), target.end(), entry.first))
                extra.insert(entry.first);
            else
                asksTarget = asksTarget || entry.second > 0;
        }
    if (!asksTarget)
        return; // no device of the target's classes: the GPU-sharing score stands
    std::vector<ClassSet> sets = classSets(d);
    for (const std::string& name : extra)
        if (auto it = d.classes.find(name); it != d.classes.end())
            sets.push_back({ &name, d.selectors.setFor(it->second, {}) });
    for (size_t i = 0; i < feasible.size(); ++i) {
        gpushare::DeviceCounts free = nodeFree(d, feasible[i], sets, nullptr);
        const gpushare::DeviceCounts* chosen = &choices.front(); // none fits by counts: the first
        for (const gpushare::DeviceCounts& choice : choices)
            if (gpushare::claimFits(free, choice)) {
                chosen = &choice;
                break;
            }
        gpushare::DeviceCounts shape;
        for (const auto& entry : *chosen)
            if (!extra.count(entry.first) && entry.second > 0)
                shape.insert(entry);
        for (const std::string& name : extra)
            free.erase(name);
        // A choice of no device of the target's classes changes nothing measured here: 50, as the
        // general measure scores it.
        inputs[i].claimScore = gpushare::claimFgdScore(free, shape, d.options.claimTarget->typical);
    }
}

void addClaimDevices(const api::ResourceClaimSpec& spec, gpushare::DeviceCounts& shape)
{
    for (const api::DeviceRequest& r : spec.requests) {
        const api::DeviceRequestSpec* s = r.exactly ? &*r.exactly
            : r.firstAvailable.empty()              ? nullptr
                                                    : &r.firstAvailable.front().spec;
        if (!s || s->allocationMode != "ExactCount" || s->capacity || s->count <= 0)
            continue;
        shape[s->deviceClassName] += s->count;
    }
}

namespace {

/// A subrequest (or an exactly request) as the general measure reads it; false when it adds
/// nothing (allocation mode All, no count).
bool requestShapeOf(const api::DeviceRequestSpec& s, gpushare::RequestShape& request)
{
    if (s.allocationMode != "ExactCount" || s.count <= 0)
        return false;
    request.deviceClass = s.deviceClassName;
    request.count = s.count;
    for (const api::DeviceSelector& sel : s.selectors)
        request.selectors.push_back(sel.expression);
    if (s.capacity)
        for (const auto& [name, amount] : s.capacity->requests)
            request.capacityMilli[name] = amount.milliValue();
    return true;
}

} // namespace

void addClaimRequests(const api::ResourceClaimSpec& spec, gpushare::ClaimShape& shape, int& nextGroup)
{
    // A constraint names a request (then every alternative of it) or one subrequest ("req/sub").
    std::map<std::string, std::vector<size_t>> byName; // request name -> indices in shape
    for (const api::DeviceRequest& r : spec.requests) {
        if (r.exactly) {
            gpushare::RequestShape request;
            if (!requestShapeOf(*r.exactly, request))
                continue;
            byName[r.name].push_back(shape.size());
            shape.push_back(std::move(request));
            continue;
        }
        std::vector<std::pair<const api::DeviceSubRequest*, gpushare::RequestShape>> kept;
        for (const api::DeviceSubRequest& sub : r.firstAvailable) {
            gpushare::RequestShape request;
            if (requestShapeOf(sub.spec, request))
                kept.push_back({ &sub, std::move(request) });
        }
        const int list = kept.size() > 1 ? nextGroup++ : -1; // one alternative is a plain request
        for (size_t i = 0; i < kept.size(); ++i) {
            kept[i].second.firstAvailable = list;
            kept[i].second.alternative = list < 0 ? 0 : int(i);
            byName[r.name].push_back(shape.size());
            byName[r.name + "/" + kept[i].first->name].push_back(shape.size());
            shape.push_back(std::move(kept[i].second));
        }
    }
    std::set<size_t> all;
    for (const auto& [name, indices] : byName)
        if (name.find('/') == std::string::npos)
            all.insert(indices.begin(), indices.end());
    for (const api::DeviceConstraint& c : spec.constraints) {
        if (!c.matchAttribute)
            continue;
        const int group = nextGroup++;
        std::set<size_t> named;
        for (const std::string& name : c.requests)
            if (auto it = byName.find(name); it != byName.end())
                named.insert(it->second.begin(), it->second.end());
        for (size_t index : c.requests.empty() ? all : named) {
            shape[index].matchAttribute = *c.matchAttribute;
            shape[index].alignGroup = group;
        }
    }
}

std::map<std::string, gpushare::ClassFragment> claimFragmentation(Cluster& cluster)
{
    using ClaimScoring = Cluster::Impl::ClaimScoring;
    Cluster::Impl& d = *cluster.m_impl;
    if (!d.options.claimTarget)
        return {};
    if (d.options.claimTarget->general)
        return ClaimScoring::generalFragmentation(d);
    const std::vector<ClaimScoring::ClassSet> sets = ClaimScoring::classSets(d);
    if (sets.empty())
        return {};
    gpushare::DeviceCounts installed;
    std::vector<gpushare::DeviceCounts> nodesFree;
    nodesFree.reserve(d.nodes.size());
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx)
        nodesFree.push_back(ClaimScoring::nodeFree(d, idx, sets, &installed));
    std::map<std::string, gpushare::ClassFragment> out
        = gpushare::clusterClaimFragment(nodesFree, d.options.claimTarget->typical);
    for (const auto& entry : installed)
        out.try_emplace(entry.first);
    return out;
}

} // namespace drasim::scheduler
