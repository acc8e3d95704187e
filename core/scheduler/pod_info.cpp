// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/pod_info.h"

#include <algorithm>

#include "core/api/pod_requests.h"

namespace drasim::scheduler {

void Resources::add(const Resources& o, int sign)
{
    milliCpu += sign * o.milliCpu;
    memory += sign * o.memory;
    ephemeralStorage += sign * o.ephemeralStorage;
    for (const auto& [k, v] : o.scalar) {
        auto& x = scalar[k];
        x += sign * v;
        if (x == 0)
            scalar.erase(k);
    }
}

bool Resources::empty() const
{
    return milliCpu == 0 && memory == 0 && ephemeralStorage == 0 && scalar.empty();
}

Resources fromResourceList(const api::ResourceList& list, bool* hasCpu, bool* hasMemory)
{
    Resources r;
    for (const auto& [name, q] : list) {
        if (name == "cpu") {
            r.milliCpu = q.milliValue();
            if (hasCpu)
                *hasCpu = true;
        } else if (name == "memory") {
            r.memory = q.value();
            if (hasMemory)
                *hasMemory = true;
        } else if (name == "ephemeral-storage")
            r.ephemeralStorage = q.value();
        else if (name != "pods")
            r.scalar[name] = q.value();
    }
    return r;
}

void Resources::maxWith(const Resources& o)
{
    milliCpu = std::max(milliCpu, o.milliCpu);
    memory = std::max(memory, o.memory);
    ephemeralStorage = std::max(ephemeralStorage, o.ephemeralStorage);
    for (const auto& [k, v] : o.scalar) {
        auto& x = scalar[k];
        x = std::max(x, v);
        if (x == 0)
            scalar.erase(k);
    }
}

namespace {

void addQuantity(Resources& r, const std::string& name, const Quantity& q, int64_t times = 1)
{
    Resources one;
    if (name == "cpu")
        one.milliCpu = q.milliValue() * times;
    else if (name == "memory")
        one.memory = q.value() * times;
    else if (name == "ephemeral-storage")
        one.ephemeralStorage = q.value() * times;
    else if (name != "pods")
        one.scalar[name] = q.value() * times;
    r.add(one);
}

bool podLevelRequestsSet(const api::PodSpec& spec)
{
    if (!spec.resources)
        return false;
    for (const auto& [name, q] : spec.resources->requests)
        if (api::isPodLevelResource(name))
            return true;
    return false;
}

// applyPodLevelResources: a pod-level request replaces the containers' sum for its resource.
void applyPodLevel(Resources& r, const api::PodSpec& spec)
{
    if (!spec.resources)
        return;
    for (const auto& [name, q] : spec.resources->requests) {
        if (!api::isPodLevelResource(name))
            continue;
        if (name == "cpu")
            r.milliCpu = q.milliValue();
        else if (name == "memory")
            r.memory = q.value();
        else if (q.value() != 0)
            r.scalar[name] = q.value();
        else
            r.scalar.erase(name);
    }
}

// Whether the pod's requests name the resource at all (a key of PodRequests' list, even at zero):
// with pod-level requests, only a resource named nowhere gets the scoring default.
bool named(const api::PodSpec& spec, const DraNodeAllocatable* dra, const char* name)
{
    auto in = [&](const api::ResourceList& l) { return l.count(name) > 0; };
    for (const auto* list : { &spec.containers, &spec.initContainers })
        for (const auto& c : *list)
            if (in(c.resources.requests))
                return true;
    if (in(spec.overhead) || (spec.resources && in(spec.resources->requests)))
        return true;
    if (!dra)
        return false;
    const auto mentions = [&](const Resources& r) {
        return std::string_view(name) == "cpu" ? r.milliCpu != 0 : r.memory != 0;
    };
    if (mentions(dra->podFixed))
        return true;
    for (const auto& [c, r] : dra->perContainer)
        if (mentions(r))
            return true;
    return false;
}

// The requests and, beside them, scoring's non-zero cpu and memory: one pass of the formula
// serves both (the defaults only change what each container contributes).
struct WithNonZero
{
    Resources requests;
    int64_t cpu = 0;
    int64_t memory = 0;
    void add(const WithNonZero& o)
    {
        requests.add(o.requests);
        cpu += o.cpu;
        memory += o.memory;
    }
    void maxWith(const WithNonZero& o)
    {
        requests.maxWith(o.requests);
        cpu = std::max(cpu, o.cpu);
        memory = std::max(memory, o.memory);
    }
    static WithNonZero of(const Resources& r) { return { r, r.milliCpu, r.memory }; }
};

// PodRequests twice over: as it is, and with NonMissingContainerRequests (a container without a
// cpu or memory request counts the scoring default, where `cpuDefault`/`memDefault` say).
WithNonZero podRequests(
    const api::PodSpec& spec, const DraNodeAllocatable* dra, bool cpuDefault, bool memDefault)
{
    const auto requestsOf = [&](const api::Container& c) {
        bool hasCpu = false, hasMemory = false;
        WithNonZero r = WithNonZero::of(fromResourceList(c.resources.requests, &hasCpu, &hasMemory));
        if (cpuDefault && !hasCpu)
            r.cpu += kDefaultMilliCpuRequest;
        if (memDefault && !hasMemory)
            r.memory += kDefaultMemoryRequest;
        return r;
    };
    std::map<std::string, WithNonZero> perContainer;
    if (dra)
        for (const auto& [name, r] : dra->perContainer)
            perContainer.emplace(name, WithNonZero::of(r));
    const auto extraOf = [&](const std::string& name) -> const WithNonZero* {
        const auto it = perContainer.find(name);
        return it == perContainer.end() ? nullptr : &it->second;
    };
    WithNonZero r = api::aggregateContainerRequests<WithNonZero>(spec, requestsOf, extraOf);
    if (dra)
        r.add(WithNonZero::of(dra->podFixed));
    applyPodLevel(r.requests, spec);
    if (spec.resources) {
        const auto& pl = spec.resources->requests;
        if (const auto it = pl.find("cpu"); it != pl.end())
            r.cpu = it->second.milliValue();
        if (const auto it = pl.find("memory"); it != pl.end())
            r.memory = it->second.value();
    }
    r.add(WithNonZero::of(fromResourceList(spec.overhead)));
    return r;
}

} // namespace

DraNodeAllocatable draNodeAllocatable(
    const api::PodSpec& spec, const std::vector<api::NodeAllocatableResourceClaimStatus>& statuses)
{
    DraNodeAllocatable out;
    for (const auto& st : statuses) {
        for (const auto& m : st.mapping)
            addQuantity(out.podFixed, m.name, m.quantity);
        bool perContainer = false;
        for (const auto& o : st.overhead) {
            if (o.perPod)
                addQuantity(out.podFixed, o.name, *o.perPod);
            perContainer = perContainer || o.perContainer;
        }
        if (!perContainer)
            continue;
        int64_t known = 0;
        for (const auto* list : { &spec.initContainers, &spec.containers })
            for (const auto& c : *list) {
                if (std::find(st.containers.begin(), st.containers.end(), c.name) == st.containers.end())
                    continue;
                ++known;
                for (const auto& o : st.overhead)
                    if (o.perContainer)
                        addQuantity(out.perContainer[c.name], o.name, *o.perContainer);
            }
        const int64_t unknown = int64_t(st.containers.size()) - known;
        if (unknown > 0)
            for (const auto& o : st.overhead)
                if (o.perContainer)
                    addQuantity(out.podFixed, o.name, *o.perContainer, unknown);
    }
    return out;
}

PodRequests computePodRequests(const api::PodSpec& spec, const DraNodeAllocatable* dra)
{
    // Scoring's non-zero requests: without pod-level requests every container lacking a cpu or
    // memory request counts the default; with them, only a resource the pod names nowhere does
    // (getNonMissingContainerRequests).
    const bool podLevel = podLevelRequestsSet(spec);
    const bool cpuDefault = !podLevel || !named(spec, dra, "cpu");
    const bool memDefault = !podLevel || !named(spec, dra, "memory");
    WithNonZero r = podRequests(spec, dra, cpuDefault, memDefault);
    PodRequests out;
    out.requests = std::move(r.requests);
    out.nonZeroMilliCpu = r.cpu;
    out.nonZeroMemory = r.memory;
    return out;
}

PodRequests boundPodRequests(const api::Pod& pod, bool nodeAllocatableResources)
{
    if (!nodeAllocatableResources || pod.nodeAllocatableResourceClaimStatuses.empty())
        return computePodRequests(pod.spec);
    const DraNodeAllocatable dra = draNodeAllocatable(pod.spec, pod.nodeAllocatableResourceClaimStatuses);
    return computePodRequests(pod.spec, &dra);
}

Resources containerRequestsWithDra(const api::PodSpec& spec, const DraNodeAllocatable& dra)
{
    const auto requestsOf = [](const api::Container& c) { return fromResourceList(c.resources.requests); };
    const auto extraOf = [&](const std::string& name) -> const Resources* {
        const auto it = dra.perContainer.find(name);
        return it == dra.perContainer.end() ? nullptr : &it->second;
    };
    Resources r = api::aggregateContainerRequests<Resources>(spec, requestsOf, extraOf);
    r.add(dra.podFixed);
    return r;
}

} // namespace drasim::scheduler
