// SPDX-License-Identifier: Apache-2.0
#include "core/session/one_shot.h"

#include "core/scheduler/batch_groups.h"
#include "core/scheduler/batch_permit.h"
#include "core/yamlio/writer.h"

namespace drasim::session {

scheduler::SchedulerOptions clusterOptionsFor(
    const api::FeatureGates& gates, scheduler::SchedulerOptions options)
{
    options.podGroupUnitsInPreemption = api::defaultPreemptionRespectsPodGroups(gates);
    options.kubernetesVersion = gates.version();
    options.draExtendedResources = gates.enabled("DRAExtendedResource");
    options.draDeviceCompatibilityGroups = gates.enabled("DRADeviceCompatibilityGroups");
    options.draConsumableCapacity = gates.enabled("DRAConsumableCapacity");
    options.draFractionalCapacityRange = gates.enabled("DRAFractionalCapacityRange");
    options.draListTypeAttributes = gates.enabled("DRAListTypeAttributes");
    options.draWorkloadResourceClaims = gates.enabled("DRAWorkloadResourceClaims");
    options.draNodeAllocatableResources = gates.enabled("DRANodeAllocatableResources");
    return options;
}

namespace {

/// Kubernetes 1.35's gang plugin decides pods that name a gang in spec.workloadRef: they are
/// scheduled one at a time and wait at Permit (scheduler/batch_permit.h). 1.36 and 1.37 schedule
/// PodGroups in group cycles instead.
bool permitGangs(const api::FeatureGates& gates, const api::ObjectSet& objects)
{
    return gates.version() == api::KubernetesVersion::V1_35 && gates.enabled("GenericWorkload")
        && gates.enabled("GangScheduling") && scheduler::hasWorkloadRefs(objects.pods);
}

} // namespace

scheduler::BatchResult scheduleManifests(scheduler::Cluster& cluster, const api::ObjectSet& objects,
    const api::FeatureGates& gates, std::vector<api::PodGroup>& groups)
{
    groups = objects.podGroups;
    if (permitGangs(gates, objects))
        return scheduler::scheduleAllWithPermitGangs(cluster, objects.pods, objects.workloads);
    return scheduler::scheduleAllWithGroups(cluster, objects.pods, groups,
        gates.enabled("TopologyAwareWorkloadScheduling"), api::workloadAwarePreemptionEnabled(gates),
        &objects.compositePodGroups);
}

void appendSchedulingObjects(
    DataValue& items, const api::ObjectSet& objects, const std::vector<api::PodGroup>& groups)
{
    for (const auto& x : objects.priorityClasses)
        items.push(yamlio::toData(x));
    for (const auto& x : objects.workloads)
        items.push(yamlio::toData(x));
    for (const auto& x : objects.compositePodGroups)
        items.push(yamlio::toData(x));
    for (const auto& x : groups)
        items.push(yamlio::toData(x));
}

scheduler::BatchResult explainManifestPod(scheduler::Cluster& cluster, const api::ObjectSet& objects,
    const api::FeatureGates& gates, const std::string& podKey)
{
    if (permitGangs(gates, objects))
        return scheduler::scheduleAllWithPermitGangs(cluster, objects.pods, objects.workloads, podKey);
    std::vector<api::PodGroup> groups = objects.podGroups;
    return scheduler::explainWithGroups(cluster, objects.pods, groups,
        gates.enabled("TopologyAwareWorkloadScheduling"), api::workloadAwarePreemptionEnabled(gates), podKey,
        &objects.compositePodGroups);
}

} // namespace drasim::session
