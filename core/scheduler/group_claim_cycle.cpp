// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/group_claim_cycle.h"

#include <algorithm>
#include <utility>

#include "core/scheduler/group_claims.h"

namespace drasim::scheduler {

namespace {

const char* const kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";

} // namespace

Cluster::Impl::GroupClaims::Entry Cluster::Impl::GroupClaims::resolve(
    Impl& d, Cycle& cycle, const api::PodResourceClaim& e, std::string& claimName, std::string& lookupError)
{
    const api::Pod& pod = cycle.pod;
    if (!pod.spec.schedulingGroup)
        return Entry::Ordinary;
    auto it = d.groupPolicies.find(groupKeyOf(pod));
    if (it == d.groupPolicies.end())
        return Entry::Ordinary;
    const PodGroupPolicy& group = it->second;
    const api::PodGroupResourceClaim* g = matchingGroupClaim(e, group.resourceClaims);
    if (!g)
        return Entry::Ordinary;
    switch (groupClaimUse(d.options.draWorkloadResourceClaims, d.options.kubernetesVersion)) {
    case GroupClaimUse::PerPod:
        return Entry::Ordinary;
    case GroupClaimUse::NotCreated:
        if (!e.resourceClaimTemplateName)
            return Entry::Ordinary; // a named claim is there whatever the controller does
        // The pod's status never names a claim for the entry: DynamicResources' PreEnqueue keeps
        // the pod out of the queue with resourceclaim.Name's error (ErrClaimNotFound,
        // k8s.io/dynamic-resource-allocation/resourceclaim).
        if (lookupError.empty())
            lookupError
                = "pod \"" + nsOf(pod.meta) + "/" + pod.meta.name + "\": ResourceClaim not created yet";
        return Entry::Missing;
    case GroupClaimUse::Shared:
        break;
    }
    cycle.group = &group;
    claimName = groupEntryClaimName(nameOfKey(group.key), *g);
    if (g->resourceClaimTemplateName && !d.findClaim(nsOf(pod.meta) + "/" + claimName)
        && !fromTemplate(d, group, *g)) {
        // As for a pod's own template (§6.1): the controller only emits an event; name the
        // template like a lister error.
        if (lookupError.empty())
            lookupError
                = "resourceclaimtemplate.resource.k8s.io \"" + *g->resourceClaimTemplateName + "\" not found";
        return Entry::Missing;
    }
    return Entry::Group;
}

void Cluster::Impl::GroupClaims::generate(Impl& d, const PodGroupPolicy& group)
{
    if (group.resourceClaims.empty()
        || groupClaimUse(d.options.draWorkloadResourceClaims, d.options.kubernetesVersion)
            != GroupClaimUse::Shared)
        return;
    const std::string ns = group.key.substr(0, group.key.find('/'));
    for (const auto& e : group.resourceClaims)
        if (e.resourceClaimTemplateName
            && !d.findClaim(ns + "/" + groupClaimName(nameOfKey(group.key), e.name)))
            fromTemplate(d, group, e);
}

Cluster::Impl::ClaimState* Cluster::Impl::GroupClaims::fromTemplate(
    Impl& d, const PodGroupPolicy& group, const api::PodGroupResourceClaim& entry)
{
    const std::string ns = group.key.substr(0, group.key.find('/'));
    const std::string groupName = nameOfKey(group.key);
    auto t = d.templates.find(ns + "/" + *entry.resourceClaimTemplateName);
    if (t == d.templates.end())
        return nullptr;
    api::ResourceClaim c;
    c.meta.name = groupClaimName(groupName, entry.name);
    c.meta.namespace_ = ns;
    c.meta.labels = t->second.claimMeta.labels;
    c.meta.annotations = t->second.claimMeta.annotations;
    // The controller marks which entry a generated claim serves, as for a pod's (KEP-5729
    // "Create"), and the PodGroup owns it: the garbage collector deletes it with the group.
    c.meta.annotations[kPodClaimNameAnnotation] = entry.name;
    c.meta.ownerReferences.push_back(
        api::OwnerReference { group.apiVersion, "PodGroup", groupName, group.uid, true });
    c.spec = t->second.spec;
    return &d.addClaim(std::move(c), true, "");
}

bool Cluster::Impl::GroupClaims::ofGroup(const Cycle& cycle, const ClaimState* c)
{
    return std::find(cycle.groupClaims.begin(), cycle.groupClaims.end(), c) != cycle.groupClaims.end();
}

bool Cluster::Impl::GroupClaims::reservedForGroup(const Cycle& cycle, const ClaimState& c)
{
    if (!cycle.group)
        return false;
    const std::string name = nameOfKey(cycle.group->key);
    return std::any_of(c.claim.reservedFor.begin(), c.claim.reservedFor.end(),
        [&](const api::ResourceClaimConsumerReference& r) { return isPodGroupConsumer(r, name); });
}

void Cluster::Impl::GroupClaims::reserve(const Cycle& cycle, ClaimState& c)
{
    if (!reservedForGroup(cycle, c))
        c.claim.reservedFor.push_back(podGroupConsumer(nameOfKey(cycle.group->key), cycle.group->uid));
}

} // namespace drasim::scheduler
