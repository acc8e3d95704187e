// SPDX-License-Identifier: Apache-2.0
#include "core/api/object_set.h"

#include <iterator>

namespace drasim::api {

namespace {
template <typename T> void moveAppend(std::vector<T>& to, std::vector<T>& from)
{
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
    from.clear();
}
} // namespace

void ObjectSet::append(ObjectSet&& o)
{
    moveAppend(namespaces, o.namespaces);
    moveAppend(nodes, o.nodes);
    moveAppend(pods, o.pods);
    moveAppend(services, o.services);
    moveAppend(controllers, o.controllers);
    moveAppend(resourceSlices, o.resourceSlices);
    moveAppend(deviceClasses, o.deviceClasses);
    moveAppend(resourceClaims, o.resourceClaims);
    moveAppend(resourceClaimTemplates, o.resourceClaimTemplates);
    moveAppend(deviceTaintRules, o.deviceTaintRules);
    moveAppend(workloads, o.workloads);
    moveAppend(podGroups, o.podGroups);
    moveAppend(compositePodGroups, o.compositePodGroups);
    moveAppend(priorityClasses, o.priorityClasses);
    moveAppend(podDisruptionBudgets, o.podDisruptionBudgets);
}

const char* schedulingApiVersion(SchedulingVersion v)
{
    switch (v) {
    case SchedulingVersion::V1alpha1:
        return "scheduling.k8s.io/v1alpha1";
    case SchedulingVersion::V1alpha2:
        return "scheduling.k8s.io/v1alpha2";
    case SchedulingVersion::V1beta1:
        return "scheduling.k8s.io/v1beta1";
    case SchedulingVersion::V1alpha3:
        return "scheduling.k8s.io/v1alpha3";
    }
    return "scheduling.k8s.io/v1beta1";
}

const char* preemptionPolicyName(PreemptionPolicy p)
{
    switch (p) {
    case PreemptionPolicy::PreemptLowerPriority:
        return "PreemptLowerPriority";
    case PreemptionPolicy::Never:
        return "Never";
    case PreemptionPolicy::Unset:
        break;
    }
    return "";
}

const char* podControllerKindName(PodController::Kind k)
{
    switch (k) {
    case PodController::Kind::Job:
        return "Job";
    case PodController::Kind::Deployment:
        return "Deployment";
    case PodController::Kind::ReplicaSet:
        return "ReplicaSet";
    case PodController::Kind::StatefulSet:
        return "StatefulSet";
    }
    return "Workload";
}

} // namespace drasim::api
