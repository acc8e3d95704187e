// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/claim_scoring.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

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
    const gpushare::DeviceCounts shape = podShape(d, cycle);
    if (shape.empty())
        return; // no device of the target's classes: the GPU-sharing score stands
    const std::vector<ClassSet> sets = classSets(d);
    for (size_t i = 0; i < feasible.size(); ++i)
        inputs[i].claimScore = gpushare::claimFgdScore(
            nodeFree(d, feasible[i], sets, nullptr), shape, d.options.claimTarget->typical);
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

void addClaimRequests(const api::ResourceClaimSpec& spec, gpushare::ClaimShape& shape, int& nextGroup)
{
    std::map<std::string, size_t> byName; // request name -> index in shape
    for (const api::DeviceRequest& r : spec.requests) {
        const api::DeviceRequestSpec* s = r.exactly ? &*r.exactly
            : r.firstAvailable.empty()              ? nullptr
                                                    : &r.firstAvailable.front().spec;
        if (!s || s->allocationMode != "ExactCount" || s->count <= 0)
            continue;
        gpushare::RequestShape request;
        request.deviceClass = s->deviceClassName;
        request.count = s->count;
        for (const api::DeviceSelector& sel : s->selectors)
            request.selectors.push_back(sel.expression);
        if (s->capacity)
            for (const auto& [name, amount] : s->capacity->requests)
                request.capacityMilli[name] = amount.milliValue();
        byName[r.name] = shape.size();
        shape.push_back(std::move(request));
    }
    for (const api::DeviceConstraint& c : spec.constraints) {
        if (!c.matchAttribute)
            continue;
        const int group = nextGroup++;
        for (const auto& [name, index] : byName) {
            if (!c.requests.empty()
                && std::find(c.requests.begin(), c.requests.end(), name) == c.requests.end())
                continue;
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
