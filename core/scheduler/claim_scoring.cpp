// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/claim_scoring.h"

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

gpushare::DeviceCounts Cluster::Impl::ClaimScoring::nodeFree(
    Impl& d, uint32_t idx, const std::vector<ClassSet>& sets, gpushare::DeviceCounts* installed)
{
    gpushare::DeviceCounts free;
    for (const allocator::NodePool& pool : d.viewOf(idx).pools) {
        if (pool.invalid)
            continue;
        for (const allocator::DeviceEntry& e : pool.devices) {
            if (e.multi || !e.nodeOk)
                continue;
            const bool taken = d.state.dedicated(e.id);
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

std::map<std::string, gpushare::ClassFragment> claimFragmentation(Cluster& cluster)
{
    using ClaimScoring = Cluster::Impl::ClaimScoring;
    Cluster::Impl& d = *cluster.m_impl;
    if (!d.options.claimTarget)
        return {};
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
