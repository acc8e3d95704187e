// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/group_claims.h"

#include <algorithm>
#include <optional>
#include <string>

#include "core/api/object_key.h"

namespace drasim::scheduler {

GroupClaimUse groupClaimUse(bool gateOn, api::KubernetesVersion version)
{
    if (gateOn)
        return GroupClaimUse::Shared;
    return version == api::KubernetesVersion::V1_37 ? GroupClaimUse::NotCreated : GroupClaimUse::PerPod;
}

const api::PodGroupResourceClaim* matchingGroupClaim(
    const api::PodResourceClaim& podEntry, const std::vector<api::PodGroupResourceClaim>& groupEntries)
{
    for (const auto& g : groupEntries)
        if (g.name == podEntry.name && g.resourceClaimName == podEntry.resourceClaimName
            && g.resourceClaimTemplateName == podEntry.resourceClaimTemplateName)
            return &g;
    return nullptr;
}

std::string groupClaimName(const std::string& groupName, const std::string& entryName)
{
    return groupName + "-" + entryName;
}

std::string groupEntryClaimName(const std::string& groupName, const api::PodGroupResourceClaim& entry)
{
    return entry.resourceClaimName ? *entry.resourceClaimName : groupClaimName(groupName, entry.name);
}

std::string nameOfKey(const std::string& key)
{
    const size_t slash = key.find('/');
    return slash == std::string::npos ? key : key.substr(slash + 1);
}

api::ResourceClaimConsumerReference podGroupConsumer(const std::string& name, const std::string& uid)
{
    return api::ResourceClaimConsumerReference { "scheduling.k8s.io", "podgroups", name, uid };
}

bool isPodGroupConsumer(const api::ResourceClaimConsumerReference& ref, const std::string& name)
{
    return ref.apiGroup == "scheduling.k8s.io" && ref.resource == "podgroups" && ref.name == name;
}

namespace {

bool gateOn(const Cluster& cluster)
{
    return groupClaimUse(cluster.options().draWorkloadResourceClaims, cluster.options().kubernetesVersion)
        == GroupClaimUse::Shared;
}

std::string nsOfMeta(const api::ObjectMeta& m)
{
    return m.namespace_.empty() ? std::string("default") : m.namespace_;
}

template <class Status>
void addStatus(std::vector<Status>& list, const std::string& name, const std::string& claim)
{
    if (std::none_of(list.begin(), list.end(), [&](const Status& s) { return s.name == name; }))
        list.push_back(Status { name, claim });
}

} // namespace

void recordGroupClaimStatuses(const Cluster& cluster, api::PodGroup& group, api::Pod& member)
{
    if (!gateOn(cluster))
        return;
    const std::string ns = nsOfMeta(group.meta);
    for (const auto& e : group.policy.resourceClaims) {
        if (!e.resourceClaimTemplateName)
            continue;
        const std::string name = groupClaimName(group.meta.name, e.name);
        if (cluster.findClaim(ns + "/" + name))
            addStatus(group.resourceClaimStatuses, e.name, name);
    }
    for (const auto& pe : member.spec.resourceClaims) {
        const api::PodGroupResourceClaim* g = matchingGroupClaim(pe, group.policy.resourceClaims);
        if (!g || !g->resourceClaimTemplateName)
            continue;
        const std::string name = groupClaimName(group.meta.name, g->name);
        if (cluster.findClaim(ns + "/" + name))
            addStatus(member.resourceClaimStatuses, pe.name, name);
    }
}

std::string groupClaimsNote(const Cluster& cluster, const api::PodGroup& group, const api::Pod& member)
{
    const GroupClaimUse use
        = groupClaimUse(cluster.options().draWorkloadResourceClaims, cluster.options().kubernetesVersion);
    const std::string ns = nsOfMeta(group.meta);
    std::string out;
    for (const auto& pe : member.spec.resourceClaims) {
        const api::PodGroupResourceClaim* g = matchingGroupClaim(pe, group.policy.resourceClaims);
        if (!g)
            continue;
        std::string part;
        if (use == GroupClaimUse::NotCreated && g->resourceClaimTemplateName) {
            part = "claim " + pe.name
                + " matches the group's entry, and with DRAWorkloadResourceClaims off the claim controller "
                  "creates no claim for it: the pod waits for one";
        } else if (use == GroupClaimUse::Shared) {
            const std::string key = ns + "/" + groupEntryClaimName(group.meta.name, *g);
            const api::ResourceClaim* c = cluster.findClaim(key);
            part = "claim " + pe.name + " is the group's claim " + key;
            if (!c)
                part += ", which does not exist";
            else if (!c->allocation)
                part += ", not allocated yet: the first member scheduled allocates it for the whole group";
            else if (std::any_of(c->reservedFor.begin(), c->reservedFor.end(),
                         [&](const auto& r) { return isPodGroupConsumer(r, group.meta.name); }))
                part += ", allocated and reserved for the group: the member must reach its devices";
            else
                part += ", allocated for other consumers: the member must reach its devices";
        }
        if (!part.empty())
            out += (out.empty() ? "" : "; ") + part;
    }
    return out;
}

} // namespace drasim::scheduler
