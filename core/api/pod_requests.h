// SPDX-License-Identifier: Apache-2.0
#pragma once

// A pod's effective requests as kube-scheduler, the kubelet and the API server compute them
// (component-helpers resource.PodRequests): the containers summed; each init container maxed with
// that sum, plus the sidecars (init containers with restartPolicy Always) started before it; the
// sidecars added to the sum; then the pod-level requests (spec.resources, PodLevelResources) in
// place of the sum for cpu, memory and hugepages-*; then the pod's overhead.
//
// One formula serves two representations: the scheduler's integer resources (pod_info.h) and the
// API server's quantities (the loader's pod-level checks). A representation provides
// `add(const List&)` and `maxWith(const List&)`.

#include <string>
#include <string_view>

#include "core/api/core_v1.h"

namespace drasim::api {

inline bool isSidecar(const Container& c)
{
    return c.restartPolicy && *c.restartPolicy == "Always";
}

/// The resources a pod-level request may set (IsSupportedPodLevelResource).
inline bool isPodLevelResource(std::string_view name)
{
    return name == "cpu" || name == "memory" || name.substr(0, 10) == "hugepages-";
}

/// AggregateContainerRequests: `requestsOf(container)` gives one container's list; `extraOf(name)`
/// the list charged while that container runs (DRA per-container overhead), or null.
template <class List, class RequestsOf, class ExtraOf>
List aggregateContainerRequests(const PodSpec& spec, RequestsOf&& requestsOf, ExtraOf&& extraOf)
{
    List sum;
    for (const auto& c : spec.containers) {
        sum.add(requestsOf(c));
        if (const List* extra = extraOf(c.name))
            sum.add(*extra);
    }
    List sidecars, initPeak;
    for (const auto& c : spec.initContainers) {
        List own = requestsOf(c);
        if (const List* extra = extraOf(c.name))
            own.add(*extra);
        List running = sidecars;
        if (isSidecar(c)) {
            sum.add(own);
            sidecars.add(own);
            running = sidecars;
        } else {
            running.add(own);
        }
        initPeak.maxWith(running);
    }
    sum.maxWith(initPeak);
    return sum;
}

/// The containers' aggregate requests in the API server's quantities (what a pod-level request must
/// cover, validatePodResourceConsistency): resource name -> amount, for every resource some
/// container names.
inline ResourceList aggregateContainerQuantities(const PodSpec& spec)
{
    struct Quantities
    {
        ResourceList items;
        void add(const Quantities& o)
        {
            for (const auto& [name, q] : o.items) {
                auto [it, fresh] = items.emplace(name, q);
                if (!fresh)
                    it->second = it->second.add(q);
            }
        }
        void maxWith(const Quantities& o)
        {
            for (const auto& [name, q] : o.items) {
                auto [it, fresh] = items.emplace(name, q);
                if (!fresh && q > it->second)
                    it->second = q;
            }
        }
    };
    const auto requestsOf = [](const Container& c) { return Quantities { c.resources.requests }; };
    const auto noExtra = [](const std::string&) -> const Quantities* { return nullptr; };
    return aggregateContainerRequests<Quantities>(spec, requestsOf, noExtra).items;
}

} // namespace drasim::api
