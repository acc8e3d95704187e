// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "core/api/core_v1.h"
#include "core/api/policy_v1.h"
#include "core/api/resource_v1.h"
#include "core/api/scheduling_v1.h"

namespace drasim::api {

/// Everything loaded from a set of manifests, each list in input order (files sorted by path,
/// documents in file order, List items in list order).
struct ObjectSet
{
    std::vector<Namespace> namespaces;
    std::vector<Node> nodes;
    std::vector<Pod> pods;
    std::vector<Service> services;
    std::vector<PodController> controllers;
    std::vector<ResourceSlice> resourceSlices;
    std::vector<DeviceClass> deviceClasses;
    std::vector<ResourceClaim> resourceClaims;
    std::vector<ResourceClaimTemplate> resourceClaimTemplates;
    std::vector<DeviceTaintRule> deviceTaintRules;
    // scheduling.k8s.io
    std::vector<Workload> workloads;
    std::vector<PodGroup> podGroups;
    std::vector<CompositePodGroup> compositePodGroups;
    std::vector<PriorityClass> priorityClasses;
    // policy
    std::vector<PodDisruptionBudget> podDisruptionBudgets;

    void append(ObjectSet&& other);
    size_t size() const
    {
        return namespaces.size() + nodes.size() + pods.size() + services.size() + controllers.size()
            + resourceSlices.size() + deviceClasses.size() + resourceClaims.size()
            + resourceClaimTemplates.size() + deviceTaintRules.size() + workloads.size() + podGroups.size()
            + compositePodGroups.size() + priorityClasses.size() + podDisruptionBudgets.size();
    }
};

} // namespace drasim::api
