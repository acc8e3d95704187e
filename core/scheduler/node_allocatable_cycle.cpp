// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/node_allocatable_cycle.h"

#include <algorithm>
#include <deque>

#include "core/allocator/node_match.h"
#include "core/scheduler/group_claim_cycle.h"
#include "core/scheduler/node_allocatable.h"

namespace drasim::scheduler {

namespace {

// getDeviceFromSlices over the node's slices: the first device of that driver, pool and name.
const api::Device* deviceOnNode(const allocator::NodeView& view, const api::DeviceRequestAllocationResult& r)
{
    for (const auto& pool : view.pools) {
        if (*pool.driver != r.driver || *pool.name != r.pool)
            continue;
        for (const auto& e : pool.devices)
            if (e.device->name == r.device && e.nodeOk)
                return e.device;
    }
    return nullptr;
}

bool reservedForPod(const api::ResourceClaim& claim, const api::Pod& pod)
{
    return std::any_of(claim.reservedFor.begin(), claim.reservedFor.end(),
        [&](const api::ResourceClaimConsumerReference& r) {
            return r.resource == "pods" && r.uid == pod.meta.uid;
        });
}

template <class Cycle>
void recordRejection(Cycle& cycle, uint32_t idx, const std::vector<std::string>& reasons, bool unresolvable)
{
    for (const auto& r : reasons)
        ++cycle.histogram[r];
    if (!unresolvable)
        cycle.resolvable.push_back(idx);
    if (cycle.explain)
        cycle.nodeReasons[idx] = reasons;
}

} // namespace

bool Cluster::Impl::NodeAllocatableCycle::active(const Impl& d, const Cycle& cycle)
{
    return d.options.draNodeAllocatableResources && !cycle.podClaims.empty();
}

bool Cluster::Impl::NodeAllocatableCycle::sharingRefused(Impl& d, Cycle& cycle, uint32_t idx)
{
    const api::Node& node = d.nodes[idx].node;
    for (const ClaimState* c : cycle.podClaims) {
        const auto& alloc = c->claim.allocation;
        if (!alloc || c->claim.reservedFor.empty())
            continue;
        // A claim the node cannot reach is "not available" there, never judged for sharing.
        if (alloc->nodeSelector && !allocator::matchesNodeSelector(*alloc->nodeSelector, node))
            continue;
        if (reservedForPod(c->claim, cycle.pod) || GroupClaims::ofGroup(cycle, c))
            continue;
        const auto& view = d.viewOf(idx);
        // A device the node's slices do not publish counts as mapped: sharing is refused when in
        // doubt (allocationHasNodeAllocatableMappedDevice's error path).
        const bool mapped = std::any_of(alloc->results.begin(), alloc->results.end(), [&](const auto& r) {
            const api::Device* dev = deviceOnNode(view, r);
            return !dev || hasNodeAllocatableMapping(*dev);
        });
        if (!mapped)
            continue;
        recordRejection(cycle, idx, { mappedClaimSharedMessage(c->claim.meta.name) }, true);
        return true;
    }
    return false;
}

namespace {

// The pod's claims with a node-allocatable device among their results on the node: allocated
// ones as they are, the others as the attempt picked them.
template <class Impl, class Cycle>
std::vector<NodeAllocatableClaim> claimsOnNode(Impl& d, const Cycle& cycle, uint32_t idx,
    const allocator::Attempt* attempt, std::deque<std::map<std::string, Quantity>>& consumed)
{
    const auto& view = d.viewOf(idx);
    std::vector<NodeAllocatableClaim> out;
    for (const auto* c : cycle.podClaims) {
        NodeAllocatableClaim nc;
        nc.name = c->claim.meta.name;
        nc.ns = nsOf(c->claim.meta);
        const auto& entries = cycle.pod.spec.resourceClaims;
        for (size_t i = 0; i < entries.size() && i < cycle.claimOfEntry.size(); ++i)
            if (cycle.claimOfEntry[i] == c)
                nc.podClaimNames.push_back(entries[i].name);
        if (c->claim.allocation) {
            for (const auto& r : c->claim.allocation->results)
                nc.devices.push_back({ deviceOnNode(view, r), r.driver, r.device, &r.consumedCapacity });
        } else if (attempt) {
            const auto pos = std::find(cycle.toAllocate.begin(), cycle.toAllocate.end(), c);
            const size_t ti = size_t(pos - cycle.toAllocate.begin());
            for (const auto& p : attempt->picks) {
                if (p.claim != ti)
                    continue;
                consumed.push_back(d.alloc->consumedBy(p));
                const auto& k = d.registry.key(p.entry.id);
                nc.devices.push_back({ p.entry.device, k.driver, k.device, &consumed.back() });
            }
        }
        const bool any = std::any_of(nc.devices.begin(), nc.devices.end(),
            [](const AllocatedDeviceView& v) { return v.device && hasNodeAllocatableResources(*v.device); });
        if (any)
            out.push_back(std::move(nc));
    }
    return out;
}

} // namespace

Cluster::Impl::NodeAllocatableCycle::Verdict Cluster::Impl::NodeAllocatableCycle::filter(
    Impl& d, Cycle& cycle, uint32_t idx, const allocator::Attempt& attempt, const NodeUsage& usage)
{
    std::deque<std::map<std::string, Quantity>> consumed;
    const auto claims = claimsOnNode(d, cycle, idx, &attempt, consumed);
    if (claims.empty())
        return Verdict::Fits;
    std::vector<api::NodeAllocatableResourceClaimStatus> statuses;
    if (std::string e = buildNodeAllocatableStatuses(cycle.pod.spec, claims, statuses); !e.empty()) {
        cycle.fatal = std::move(e);
        return Verdict::Error;
    }
    const DraNodeAllocatable dra = draNodeAllocatable(cycle.pod.spec, statuses);
    std::vector<std::string> reasons;
    bool unresolvable = false;
    if (std::string shortfall = podLevelShortfall(cycle.pod.spec, statuses, dra); !shortfall.empty()) {
        reasons.push_back(std::move(shortfall));
        unresolvable = true;
    } else {
        // The pod's own requests (NodeResourcesFit has passed them) plus what its claims add.
        const PodRequests demand = computePodRequests(cycle.pod.spec, &dra);
        nodeAllocatableFits(demand.requests, usage, reasons, unresolvable);
    }
    if (reasons.empty())
        return Verdict::Fits;
    recordRejection(cycle, idx, reasons, unresolvable);
    return Verdict::Rejected;
}

std::vector<api::NodeAllocatableResourceClaimStatus> Cluster::Impl::NodeAllocatableCycle::atBind(
    Impl& d, const Cycle& cycle)
{
    std::deque<std::map<std::string, Quantity>> consumed;
    const auto claims = claimsOnNode(d, cycle, uint32_t(cycle.chosen), nullptr, consumed);
    std::vector<api::NodeAllocatableResourceClaimStatus> out;
    buildNodeAllocatableStatuses(cycle.pod.spec, claims, out); // Filter passed: no error here
    return out;
}

} // namespace drasim::scheduler
