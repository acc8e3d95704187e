// SPDX-License-Identifier: Apache-2.0
// releaseGroupClaims (group_claims.h): what deleting a PodGroup does to the claims it shares.
#include <algorithm>
#include <string>
#include <vector>

#include "core/scheduler/cluster.h"
#include "core/scheduler/cluster_impl.h"
#include "core/scheduler/group_claims.h"
#include "core/scheduler/pod_group.h"
#include "core/scheduler/queueing_hints.h"

namespace drasim::scheduler {

bool releaseGroupClaims(Cluster& cluster, const std::string& groupKey)
{
    Cluster::Impl& d = *cluster.m_impl;
    auto it = d.groupPolicies.find(groupKey);
    if (it == d.groupPolicies.end())
        return false;
    // The policy stays: a rolled-back transaction could not bring it back, and nothing of the
    // deleted group is scheduled again.
    const PodGroupPolicy& group = it->second;
    const std::string ns = groupKey.substr(0, groupKey.find('/'));
    const std::string name = nameOfKey(groupKey);
    bool changed = false, deallocated = false;
    for (const auto& e : group.resourceClaims) {
        const std::string key = ns + "/" + groupEntryClaimName(name, e);
        Cluster::Impl::ClaimState* c = d.findClaim(key);
        if (!c)
            continue;
        d.undo.claimRestore(*c);
        auto& rf = c->claim.reservedFor;
        const size_t before = rf.size();
        rf.erase(
            std::remove_if(rf.begin(), rf.end(),
                [&](const api::ResourceClaimConsumerReference& r) { return isPodGroupConsumer(r, name); }),
            rf.end());
        changed |= rf.size() != before;
        // As for a pod (§6.7): only the removal that empties reservedFor deallocates; a claim the
        // group generated is deleted with it (its owner), which frees its devices too.
        const bool generatedForGroup = e.resourceClaimTemplateName && c->generated;
        if (c->claim.allocation && ((rf.empty() && before > 0) || generatedForGroup)) {
            deallocated = true;
            d.applyAllocation(*c->claim.allocation, -1, c->deviceIds);
            c->claim.allocation.reset();
            c->deviceIds.clear();
            auto& fin = c->claim.meta.finalizers;
            fin.erase(std::remove(fin.begin(), fin.end(), kDeleteProtection), fin.end());
        }
        if (generatedForGroup) {
            d.deleteClaim(key);
            changed = true;
        }
    }
    if (deallocated) {
        ClusterChange change;
        change.kind = ClusterChange::Kind::ClaimDeallocated;
        d.changes.record(std::move(change));
    }
    if (changed || deallocated)
        ++d.freeEvents;
    return changed || deallocated;
}

} // namespace drasim::scheduler
