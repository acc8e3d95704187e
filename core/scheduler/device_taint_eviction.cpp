// SPDX-License-Identifier: Apache-2.0
// When NoExecute device taints evict bound pods, following the device taint eviction controller
// (pkg/controller/devicetainteviction, evictionTime and handlePod).
#include <algorithm>
#include <limits>

#include "core/allocator/allocator.h"
#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

namespace {

std::string deviceKey(const std::string& driver, const std::string& pool, const std::string& device)
{
    return driver + "/" + pool + "/" + device;
}

/// One NoExecute taint of an allocated device against the result's tolerations: nullopt when a
/// matching NoExecute toleration has no tolerationSeconds (tolerated for ever). Upstream counts
/// only tolerations whose effect is NoExecute itself, so an effect-less toleration, which lets
/// the allocator pick the device, does not delay the eviction.
std::optional<double> taintEvictionTime(
    const api::DeviceTaint& taint, const std::vector<api::DeviceToleration>& tolerations)
{
    bool matched = false;
    int64_t seconds = std::numeric_limits<int64_t>::max();
    for (const auto& t : tolerations) {
        if (t.effect != "NoExecute" || !allocator::toleratesTaint({ t }, taint))
            continue;
        if (!t.tolerationSeconds)
            return std::nullopt;
        matched = true;
        seconds = std::min(seconds, std::max<int64_t>(0, *t.tolerationSeconds));
    }
    return matched ? taint.appearedAt + double(seconds) : taint.appearedAt;
}

} // namespace

const std::unordered_map<std::string, std::vector<api::DeviceTaint>>&
Cluster::Impl::noExecuteTaintIndex() const
{
    if (!noExecuteTaints) {
        noExecuteTaints.emplace();
        // Only the newest generation of a pool exists (addendum 5): currentDevices() has it.
        for (const auto& e : inventory.currentDevices())
            for (const auto& t : e.device->taints)
                if (t.effect == "NoExecute")
                    (*noExecuteTaints)[deviceKey(e.slice->driver, e.slice->pool.name, e.device->name)]
                        .push_back(t);
    }
    return *noExecuteTaints;
}

std::optional<double> Cluster::Impl::evictionTime(const PodState& pod) const
{
    const auto& index = noExecuteTaintIndex();
    if (index.empty())
        return std::nullopt;
    std::optional<double> earliest;
    for (const auto& ck : pod.pub.claims) {
        auto seq = claimSeq.find(ck);
        if (seq == claimSeq.end())
            continue;
        const api::ResourceClaim& claim = claimsBySeq.at(seq->second).claim;
        if (!claim.allocation)
            continue;
        // handlePod: only a claim reserved for this pod counts.
        const bool reserved = std::any_of(claim.reservedFor.begin(), claim.reservedFor.end(),
            [&](const api::ResourceClaimConsumerReference& r) {
                return r.resource == "pods" && r.name == pod.name;
            });
        if (!reserved)
            continue;
        for (const auto& r : claim.allocation->results) {
            auto it = index.find(deviceKey(r.driver, r.pool, r.device));
            if (it == index.end())
                continue;
            for (const auto& taint : it->second) {
                auto at = taintEvictionTime(taint, r.tolerations);
                if (at && (!earliest || *at < *earliest))
                    earliest = at;
            }
        }
    }
    return earliest;
}

std::vector<std::string> Cluster::Impl::podsDueForEviction() const
{
    std::vector<std::string> due;
    if (noExecuteTaintIndex().empty())
        return due;
    for (const auto& [seq, key] : bindOrder) {
        auto at = evictionTime(bound.at(key));
        if (at && *at <= time)
            due.push_back(key);
    }
    std::sort(due.begin(), due.end());
    return due;
}

std::optional<double> Cluster::deviceTaintEvictionTime(const std::string& podKey) const
{
    if (m_impl->noExecuteTaintIndex().empty()) // what evictionTime says first, without a lookup
        return std::nullopt;
    auto it = m_impl->bound.find(podKey);
    if (it == m_impl->bound.end())
        return std::nullopt;
    return m_impl->evictionTime(it->second);
}

std::vector<std::pair<std::string, double>> Cluster::deviceTaintEvictions() const
{
    const auto& d = *m_impl;
    std::vector<std::pair<std::string, double>> out;
    if (d.noExecuteTaintIndex().empty())
        return out;
    for (const auto& [seq, key] : d.bindOrder)
        if (auto at = d.evictionTime(d.bound.at(key)))
            out.emplace_back(key, *at);
    return out;
}

} // namespace drasim::scheduler
