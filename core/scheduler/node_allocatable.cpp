// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/node_allocatable.h"

#include <algorithm>

#include "core/api/pod_requests.h"

namespace drasim::scheduler {

namespace {

// draapi.LookupByQualifiedName: a name of the driver's own domain and its short form are one.
const Quantity* lookupQualified(
    const std::map<std::string, Quantity>& m, const std::string& name, const std::string& driver)
{
    if (const auto it = m.find(name); it != m.end())
        return &it->second;
    const std::string prefix = driver + "/";
    const std::string other = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size())
        : name.find('/') == std::string::npos            ? prefix + name
                                                         : std::string();
    if (other.empty())
        return nullptr;
    const auto it = m.find(other);
    return it == m.end() ? nullptr : &it->second;
}

// addDeviceMapping: deviceMultiplier per allocated device, or the consumed capacity times
// capacityMultiplier. A capacity the allocation did not consume maps nothing.
std::string addMapping(const std::string& resource, const api::NodeAllocatableMapping& m,
    const AllocatedDeviceView& d, const NodeAllocatableClaim& claim, std::map<std::string, Quantity>& totals)
{
    if (m.capacityKey && !m.capacityKey->empty()) {
        if (!d.consumedCapacity || d.consumedCapacity->empty())
            return "claim " + claim.ns + "/" + claim.name + ", device " + d.name
                + ": ConsumedCapacity is nil, but Capacity key '" + *m.capacityKey
                + "' is set in NodeAllocatableResources for resource " + resource;
        if (const Quantity* consumed = lookupQualified(*d.consumedCapacity, *m.capacityKey, d.driver)) {
            Quantity q = *consumed;
            if (m.capacityMultiplier && !(*m.capacityMultiplier == Quantity::fromInt(1)))
                q = q.multiplied(*m.capacityMultiplier);
            totals[resource] = totals[resource].add(q);
        }
        return {};
    }
    if (m.deviceMultiplier)
        totals[resource] = totals[resource].add(*m.deviceMultiplier);
    return {};
}

void addOverhead(const std::string& resource, const api::NodeAllocatableOverhead& o,
    std::map<std::string, api::NodeAllocatableOverheadResource>& totals)
{
    if (!o.perPod && !o.perContainer)
        return;
    auto& t = totals[resource];
    t.name = resource;
    if (o.perPod)
        t.perPod = t.perPod ? t.perPod->add(*o.perPod) : *o.perPod;
    if (o.perContainer)
        t.perContainer = t.perContainer ? t.perContainer->add(*o.perContainer) : *o.perContainer;
}

} // namespace

bool hasNodeAllocatableResources(const api::Device& device)
{
    return !device.nodeAllocatableResources.empty();
}

bool hasNodeAllocatableMapping(const api::Device& device)
{
    return std::any_of(device.nodeAllocatableResources.begin(), device.nodeAllocatableResources.end(),
        [](const auto& entry) { return entry.second.mapping.has_value(); });
}

std::string buildNodeAllocatableStatuses(const api::PodSpec& spec,
    const std::vector<NodeAllocatableClaim>& claims,
    std::vector<api::NodeAllocatableResourceClaimStatus>& out)
{
    out.clear();
    for (const auto& claim : claims) {
        std::map<std::string, Quantity> mapped;
        std::map<std::string, api::NodeAllocatableOverheadResource> overhead;
        for (const auto& d : claim.devices) {
            if (!d.device)
                continue;
            for (const auto& [resource, r] : d.device->nodeAllocatableResources) {
                if (r.mapping)
                    if (std::string e = addMapping(resource, *r.mapping, d, claim, mapped); !e.empty())
                        return e;
                if (r.overhead)
                    addOverhead(resource, *r.overhead, overhead);
            }
        }
        if (mapped.empty() && overhead.empty())
            continue;
        api::NodeAllocatableResourceClaimStatus st;
        st.resourceClaimName = claim.name;
        for (auto& [name, q] : mapped) // std::map: sorted by name, as upstream sorts
            st.mapping.push_back({ name, q });
        for (auto& [name, o] : overhead)
            st.overhead.push_back(o);
        for (const auto* list : { &spec.initContainers, &spec.containers })
            for (const auto& c : *list)
                for (const auto& used : c.resources.claims)
                    if (std::find(claim.podClaimNames.begin(), claim.podClaimNames.end(), used)
                        != claim.podClaimNames.end())
                        st.containers.push_back(c.name);
        out.push_back(std::move(st));
    }
    std::sort(out.begin(), out.end(),
        [](const auto& a, const auto& b) { return a.resourceClaimName < b.resourceClaimName; });
    return {};
}

namespace {

int64_t amountOf(const Resources& r, const std::string& name)
{
    if (name == "cpu")
        return r.milliCpu;
    if (name == "memory")
        return r.memory;
    if (name == "ephemeral-storage")
        return r.ephemeralStorage;
    const auto it = r.scalar.find(name);
    return it == r.scalar.end() ? 0 : it->second;
}

int64_t amountOf(const Quantity& q, const std::string& name)
{
    return name == "cpu" ? q.milliValue() : q.value();
}

// GetContainerDRAAllocations: everything of the claims a container references, its per-container
// overhead once.
Resources containerDraAllocations(
    const std::string& container, const std::vector<api::NodeAllocatableResourceClaimStatus>& statuses)
{
    std::vector<api::NodeAllocatableResourceClaimStatus> mine;
    for (const auto& st : statuses)
        if (std::find(st.containers.begin(), st.containers.end(), container) != st.containers.end()) {
            api::NodeAllocatableResourceClaimStatus flat = st;
            flat.containers.clear(); // per-container overhead then counts once, as a pod-fixed amount
            for (auto& o : flat.overhead)
                if (o.perContainer) {
                    o.perPod = o.perPod ? o.perPod->add(*o.perContainer) : *o.perContainer;
                    o.perContainer.reset();
                }
            mine.push_back(std::move(flat));
        }
    return draNodeAllocatable(api::PodSpec {}, mine).podFixed;
}

} // namespace

std::string podLevelShortfall(const api::PodSpec& spec,
    const std::vector<api::NodeAllocatableResourceClaimStatus>& statuses, const DraNodeAllocatable& dra)
{
    if (!spec.resources || statuses.empty())
        return {};
    const Resources sum = containerRequestsWithDra(spec, dra);
    for (const auto& [name, podLevel] : spec.resources->requests)
        if (api::isPodLevelResource(name) && amountOf(sum, name) > amountOf(podLevel, name))
            return "pod level request for " + name
                + " is insufficient to cover the aggregated container and node-allocatable DRA requests";
    // A container's limit plus what its claims add must stay within the pod-level limit.
    for (const auto& c : spec.containers) {
        const Resources extra = containerDraAllocations(c.name, statuses);
        for (const auto& [name, limit] : c.resources.limits) {
            if (name.rfind("hugepages-", 0) == 0)
                continue;
            const auto pl = spec.resources->limits.find(name);
            if (pl == spec.resources->limits.end())
                continue;
            if (amountOf(limit, name) + amountOf(extra, name) > amountOf(pl->second, name))
                return "pod level limit for " + name
                    + " is insufficient to cover the limit and DRA overhead for container " + c.name;
        }
    }
    return {};
}

bool nodeAllocatableFits(
    const Resources& demand, const NodeUsage& usage, std::vector<std::string>& reasons, bool& unresolvable)
{
    const size_t before = reasons.size();
    const auto& a = usage.allocatable;
    const auto& u = usage.requested;
    const auto check = [&](int64_t want, int64_t capacity, int64_t used, const std::string& name) {
        if (want > 0 && want > capacity - used) {
            reasons.push_back("Insufficient " + name);
            unresolvable = unresolvable || want > capacity;
        }
    };
    check(demand.milliCpu, a.milliCpu, u.milliCpu, "cpu");
    check(demand.memory, a.memory, u.memory, "memory");
    check(demand.ephemeralStorage, a.ephemeralStorage, u.ephemeralStorage, "ephemeral-storage");
    for (const auto& [name, want] : demand.scalar) {
        if (name.rfind("hugepages-", 0) != 0)
            continue;
        const auto ai = a.scalar.find(name);
        const auto ui = u.scalar.find(name);
        const int64_t capacity = ai == a.scalar.end() ? 0 : ai->second;
        const int64_t used = ui == u.scalar.end() ? 0 : ui->second;
        // Hugepages are compared even at zero demand upstream (reqQuant > available).
        if (want > capacity - used) {
            reasons.push_back("Insufficient " + name);
            unresolvable = unresolvable || want > capacity;
        }
    }
    return reasons.size() == before;
}

std::string mappedClaimSharedMessage(const std::string& claimName)
{
    return "node allocatable resource claim " + claimName
        + " has a mapped device and cannot be shared across pods";
}

} // namespace drasim::scheduler
