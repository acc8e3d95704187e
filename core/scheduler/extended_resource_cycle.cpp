// SPDX-License-Identifier: Apache-2.0
// The parts of a scheduling cycle that serve extended resources through DRA (§6.8,
// extended_resources.h): which resources a node leaves to DRA, what NodeResourcesFit still checks
// there, the allocator prepared with the node's special claim, and the claim's creation at PreBind.
#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

PodRequests Cluster::Impl::fitRequests(const Cycle& cycle, uint32_t idx) const
{
    const uint64_t mask = draMask(cycle, idx);
    return mask ? withoutDraServed(cycle.req, cycle.backed, mask) : cycle.req;
}

bool Cluster::Impl::prepareAllocator(Cycle& cycle, uint64_t mask, std::string* error)
{
    // Made for every cycle and read only by prepare(): buffers kept per thread.
    thread_local std::vector<const api::ResourceClaim*> claimPtrs;
    thread_local std::vector<uint64_t> specIds;
    claimPtrs.clear();
    specIds.clear();
    for (auto* c : cycle.toAllocate) {
        claimPtrs.push_back(&c->claim);
        specIds.push_back(c->specId);
    }
    if (mask) {
        auto it = cycle.extClaims.find(mask);
        if (it == cycle.extClaims.end())
            it = cycle.extClaims.emplace(mask, buildExtendedResourceClaim(cycle.pod, cycle.backed, mask))
                     .first;
        // Upstream keeps the special claim after the pod's own claims.
        claimPtrs.push_back(&it->second.claim);
        specIds.push_back(0);
    }
    cycle.preparedMask = mask;
    return alloc->prepare(claimPtrs, error, specIds);
}

// PreBind creates the special claim of the chosen node, so that the allocation results, the
// reservation and the bound pod's claims treat it like the pod's own (it is allocated last).
void Cluster::Impl::createExtendedResourceClaim(Cycle& cycle)
{
    const uint64_t mask = draMask(cycle, uint32_t(cycle.chosen));
    if (!mask)
        return;
    auto& node = nodes[size_t(cycle.chosen)];
    if (mask != cycle.preparedMask) {
        // Filter (or explain) prepared another node's claims last; the results must be built
        // from the chosen node's, which prepared without error when that node was filtered.
        std::string ignored;
        prepareAllocator(cycle, mask, &ignored);
        cycle.chosenAttempt = alloc->allocate(node.node, viewOf(uint32_t(cycle.chosen)));
    }
    const auto& ext = cycle.extClaims.at(mask);
    ClaimState& cs = addClaim(api::ResourceClaim(ext.claim), true, cycle.podKey);
    undo.generatedRestore(cycle.podKey);
    generatedFor[cycle.podKey].push_back(cs.key);
    cycle.toAllocate.push_back(&cs);
    cycle.podClaims.push_back(&cs);
    cycle.res.claims.push_back(cs.key);
    cycle.res.extendedResourceClaimStatus
        = api::PodExtendedResourceClaimStatus { ext.mappings, cs.claim.meta.name };
}

} // namespace drasim::scheduler
