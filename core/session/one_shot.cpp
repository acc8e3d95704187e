// SPDX-License-Identifier: Apache-2.0
#include "core/session/one_shot.h"

#include "core/scheduler/batch_groups.h"
#include "core/yamlio/writer.h"

namespace drasim::session {

scheduler::SchedulerOptions clusterOptionsFor(
    const api::FeatureGates& gates, scheduler::SchedulerOptions options)
{
    options.podGroupUnitsInPreemption = api::defaultPreemptionRespectsPodGroups(gates);
    options.kubernetesVersion = gates.version();
    options.draExtendedResources = gates.enabled("DRAExtendedResource");
    options.draDeviceCompatibilityGroups = gates.enabled("DRADeviceCompatibilityGroups");
    options.draWorkloadResourceClaims = gates.enabled("DRAWorkloadResourceClaims");
    return options;
}

scheduler::BatchResult scheduleManifests(scheduler::Cluster& cluster, const api::ObjectSet& objects,
    const api::FeatureGates& gates, std::vector<api::PodGroup>& groups)
{
    groups = objects.podGroups;
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
    std::vector<api::PodGroup> groups = objects.podGroups;
    return scheduler::explainWithGroups(cluster, objects.pods, groups,
        gates.enabled("TopologyAwareWorkloadScheduling"), api::workloadAwarePreemptionEnabled(gates), podKey,
        &objects.compositePodGroups);
}

} // namespace drasim::session
