// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/admit_priorities.h"

#include "core/api/priority_admission.h"

namespace drasim::yamlio {

namespace {

void admitLoadedPods(std::vector<api::Pod>& pods, const api::PriorityClassIndex& classes, Diagnostics& diags)
{
    std::vector<api::Pod> kept;
    kept.reserve(pods.size());
    for (api::Pod& pod : pods) {
        // The name admission sees: metadata.name, or the generateName prefix.
        const std::string& shown = pod.meta.name.empty() ? pod.meta.generateName : pod.meta.name;
        api::PodSpec spec = pod.spec;
        const auto error = api::admitPodPriority(classes, shown, spec);
        if (!error)
            pod.spec = std::move(spec);
        else if (pod.spec.nodeName.empty()) {
            diags.error(pod.meta.pos, "Pod", pod.meta.key(), error->field, error->message);
            continue;
        }
        kept.push_back(std::move(pod));
    }
    pods = std::move(kept);
}

template <class Group>
void admitLoadedGroups(std::vector<Group>& groups, const char* kind, const char* resource,
    const api::PriorityClassIndex& classes, bool withPreemptionPolicy, Diagnostics& diags)
{
    std::vector<Group> kept;
    kept.reserve(groups.size());
    for (Group& g : groups) {
        if (const auto error
            = api::admitGroupPriority(classes, resource, g.meta.name, g.policy, withPreemptionPolicy)) {
            diags.error(g.meta.pos, kind, g.meta.key(), error->field, error->message);
            continue;
        }
        kept.push_back(std::move(g));
    }
    groups = std::move(kept);
}

} // namespace

void admitPriorities(api::ObjectSet& objects, const std::vector<api::PriorityClass>& known,
    const api::FeatureGates& gates, Diagnostics& diags)
{
    const api::PriorityClassIndex classes(objects.priorityClasses, known);
    admitLoadedPods(objects.pods, classes, diags);
    // admitWorkload runs only with the gate that brought priorities to groups: 1.36's
    // WorkloadAwarePreemption, merged into GenericWorkload in 1.37 (the only way PodGroups exist).
    if (gates.version() == api::KubernetesVersion::V1_36 && !gates.enabled("WorkloadAwarePreemption"))
        return;
    const bool policy = gates.enabled("PodGroupPreemptionPolicy");
    admitLoadedGroups(objects.podGroups, "PodGroup", "podgroups.scheduling.k8s.io", classes, policy, diags);
    admitLoadedGroups(objects.compositePodGroups, "CompositePodGroup", "compositepodgroups.scheduling.k8s.io",
        classes, policy, diags);
}

} // namespace drasim::yamlio
