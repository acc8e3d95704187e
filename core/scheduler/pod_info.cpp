// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/pod_info.h"

#include <algorithm>

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

Resources fromResourceList(const api::ResourceList& list)
{
    Resources r;
    for (const auto& [name, q] : list) {
        if (name == "cpu")
            r.milliCpu = q.milliValue();
        else if (name == "memory")
            r.memory = q.value();
        else if (name == "ephemeral-storage")
            r.ephemeralStorage = q.value();
        else if (name != "pods")
            r.scalar[name] = q.value();
    }
    return r;
}

namespace {

void maxInto(Resources& into, const Resources& r)
{
    into.milliCpu = std::max(into.milliCpu, r.milliCpu);
    into.memory = std::max(into.memory, r.memory);
    into.ephemeralStorage = std::max(into.ephemeralStorage, r.ephemeralStorage);
    for (const auto& [k, v] : r.scalar)
        into.scalar[k] = std::max(into.scalar[k], v);
}

} // namespace

PodRequests computePodRequests(const api::PodSpec& spec)
{
    PodRequests out;
    Resources sum;
    int64_t nzCpu = 0;
    int64_t nzMem = 0;
    // Scoring counts a container without a cpu or memory request with a default amount; an
    // explicit zero request stays zero (upstream's NonMissingContainerRequests).
    auto nonZero = [](const api::ResourceList& list, const char* name, int64_t value, int64_t fallback) {
        return list.count(name) ? value : fallback;
    };
    for (const auto& c : spec.containers) {
        Resources r = fromResourceList(c.resources.requests);
        sum.add(r);
        nzCpu += nonZero(c.resources.requests, "cpu", r.milliCpu, kDefaultMilliCpuRequest);
        nzMem += nonZero(c.resources.requests, "memory", r.memory, kDefaultMemoryRequest);
    }
    for (const auto& c : spec.initContainers) {
        Resources r = fromResourceList(c.resources.requests);
        maxInto(sum, r);
        nzCpu = std::max(nzCpu, nonZero(c.resources.requests, "cpu", r.milliCpu, kDefaultMilliCpuRequest));
        nzMem = std::max(nzMem, nonZero(c.resources.requests, "memory", r.memory, kDefaultMemoryRequest));
    }
    Resources overhead = fromResourceList(spec.overhead);
    sum.add(overhead);
    out.requests = sum;
    out.nonZeroMilliCpu = nzCpu + overhead.milliCpu;
    out.nonZeroMemory = nzMem + overhead.memory;
    return out;
}

} // namespace drasim::scheduler
