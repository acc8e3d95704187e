// SPDX-License-Identifier: Apache-2.0
#include "core/workload/job_group.h"

#include <algorithm>

namespace drasim::workload {

namespace {

/// shouldManageWorkloadForJob (pkg/controller/job/job_scheduling_manager.go): the gate and pods
/// that do not already name a PodGroup. The Workload the controller creates first is served only
/// with GenericWorkload ("WorkloadWithJob depends on it", KEP-5547), so without that gate the
/// controller makes nothing.
bool eligible(const api::PodController& job, const api::FeatureGates& gates)
{
    return job.kind == api::PodController::Kind::Job && gates.enabled("WorkloadWithJob")
        && gates.enabled("GenericWorkload") && !job.podTemplate.spec.schedulingGroup;
}

/// The Job's controller owner: a non-root Job, whose parent owns the Workload. Every controller
/// owner counts, a CronJob's too, as the Job controller's tests of shouldManageWorkloadForJob
/// expect; one revision of hasParentWorkloadOwner takes a CronJob's Jobs as roots instead
/// (workload-scheduling.md §6.2: UNCERTAIN).
const api::OwnerReference* controllerOwner(const api::PodController& job)
{
    const auto it = std::find_if(job.meta.ownerReferences.begin(), job.meta.ownerReferences.end(),
        [](const api::OwnerReference& r) { return r.controller; });
    return it == job.meta.ownerReferences.end() ? nullptr : &*it;
}

/// The API group of an apiVersion ("jobset.x-k8s.io/v1alpha2" -> "jobset.x-k8s.io", "v1" -> "").
std::string apiGroupOf(const std::string& apiVersion)
{
    const auto slash = apiVersion.find('/');
    return slash == std::string::npos ? std::string() : apiVersion.substr(0, slash);
}

/// getOrCreateDelegatedPodGroup (job_scheduling_manager.go): the parent's Workload is the one in
/// the Job's namespace whose spec.controllerRef names the owner (API group, kind, name)
/// (findParentWorkload); the PodGroup copies the named top-level PodGroupTemplate's policy,
/// constraints, disruptionMode and resourceClaims (podGroupSpecFromTemplate), nothing of the Job's
/// spec.scheduling. No parent CompositePodGroup is linked: the controller sets no
/// parentCompositePodGroupName (the annotation KEP-6089 names for it,
/// scheduling.k8s.io/parent-composite-podgroup, is not read by the Job controller, and JobSet's
/// alpha sets none). Without the Workload or the template upstream logs, retries and makes nothing.
std::optional<GroupSpec> delegatedGroup(const api::PodController& job, const api::OwnerReference& owner,
    const std::vector<api::Workload>& workloads, const std::string& namespace_, std::string& why)
{
    const std::string templateName = job.meta.annotations.at(kGroupTemplateNameAnnotation);
    const std::string lead = "the Job's controller owner " + owner.kind + " \"" + owner.name
        + "\" delegates its PodGroup to the Job controller, but ";
    const std::string tail = ": the Job controller makes no PodGroup, and the pods are scheduled one by one";
    const auto parent = std::find_if(workloads.begin(), workloads.end(), [&](const api::Workload& w) {
        const std::string ns = w.meta.namespace_.empty() ? namespace_ : w.meta.namespace_;
        return ns == namespace_ && w.controllerRef
            && w.controllerRef->apiGroup == apiGroupOf(owner.apiVersion)
            && w.controllerRef->kind == owner.kind && w.controllerRef->name == owner.name;
    });
    if (parent == workloads.end()) {
        why = lead + "no Workload in namespace \"" + namespace_ + "\" among the workload's manifests names "
            + owner.kind + " \"" + owner.name + "\" in spec.controllerRef" + tail;
        return std::nullopt;
    }
    const auto tmpl = std::find_if(parent->podGroupTemplates.begin(), parent->podGroupTemplates.end(),
        [&](const api::PodGroupTemplate& t) { return t.name == templateName; });
    if (tmpl == parent->podGroupTemplates.end()) {
        why = lead + "its Workload \"" + parent->meta.name + "\" has no podGroupTemplate \"" + templateName
            + "\"" + tail;
        return std::nullopt;
    }
    GroupSpec g;
    g.gang = tmpl->policy.scheduling.gang;
    if (g.gang)
        g.minCount = tmpl->policy.scheduling.minCount;
    if (!tmpl->policy.topologyKeys.empty())
        g.topologyKey = tmpl->policy.topologyKeys.front();
    g.disruptAll = tmpl->policy.disruptionMode == api::DisruptionMode::All;
    g.resourceClaims = tmpl->policy.resourceClaims;
    return g;
}

/// 1.36 (KEP-5547 alpha, v1alpha1 of the integration): the policy follows from the Job's type;
/// only a parallel Indexed Job whose every index runs at once is a gang, of all its pods.
std::optional<GroupSpec> automaticGang(const api::PodController& job)
{
    if (!job.indexed || job.parallelism <= 1 || job.completions != job.parallelism)
        return std::nullopt;
    return GroupSpec { true, job.parallelism, {} };
}

/// 1.37: buildWorkloadItem / defaultMinCountForJob. An omitted spec.scheduling is basic; an omitted
/// gang minCount is parallelism, which the workloadbuilder's minCount >= 1 rule clamps.
GroupSpec compiled(const api::PodController& job)
{
    GroupSpec g;
    if (!job.scheduling)
        return g;
    const api::JobSchedulingConfiguration& s = *job.scheduling;
    g.gang = s.gang;
    if (g.gang)
        g.minCount = s.minCount.value_or(std::max(1, job.parallelism));
    if (!s.topologyKeys.empty())
        g.topologyKey = s.topologyKeys.front();
    g.disruptAll = s.disruptionMode == api::DisruptionMode::All;
    // The 1.37 Job controller copies spec.scheduling.resourceClaims to the PodGroup it makes.
    g.resourceClaims = s.resourceClaims;
    return g;
}

} // namespace

std::optional<GroupSpec> jobControllerGroup(const api::PodController& job, const api::FeatureGates& gates,
    const std::vector<api::Workload>& workloads, const std::string& namespace_, std::string& why)
{
    why.clear();
    if (!eligible(job, gates))
        return std::nullopt;
    if (const api::OwnerReference* owner = controllerOwner(job)) {
        // A non-root Job: the parent owns the Workload. Only 1.37 lets it delegate the PodGroup.
        if (gates.version() != api::KubernetesVersion::V1_37
            || !job.meta.annotations.count(kGroupTemplateNameAnnotation))
            return std::nullopt;
        return delegatedGroup(job, *owner, workloads, namespace_, why);
    }
    switch (gates.version()) {
    case api::KubernetesVersion::V1_35:
        return std::nullopt;
    case api::KubernetesVersion::V1_36:
        return automaticGang(job);
    case api::KubernetesVersion::V1_37:
        return compiled(job);
    }
    return std::nullopt;
}

std::optional<GroupSpec> jobControllerGroup(const api::PodController& job, const api::FeatureGates& gates,
    const std::vector<api::Workload>& workloads, const std::string& namespace_)
{
    std::string why;
    return jobControllerGroup(job, gates, workloads, namespace_, why);
}

std::optional<GroupSpec> workloadRefGang(const api::PodSpec& spec, const std::string& namespace_,
    const std::vector<api::Workload>& workloads, const api::FeatureGates& gates, std::string& missing)
{
    missing.clear();
    if (!spec.workloadRef || gates.version() != api::KubernetesVersion::V1_35
        || !gates.enabled("GenericWorkload") || !gates.enabled("GangScheduling"))
        return std::nullopt;
    const api::PodWorkloadReference& ref = *spec.workloadRef;
    for (const api::Workload& w : workloads) {
        const std::string ns = w.meta.namespace_.empty() ? namespace_ : w.meta.namespace_;
        if (w.meta.name != ref.name || ns != namespace_)
            continue;
        for (const api::PodGroupTemplate& g : w.podGroupTemplates)
            if (g.name == ref.podGroup) {
                if (!g.policy.scheduling.gang)
                    return std::nullopt;
                return GroupSpec { true, g.policy.scheduling.minCount, {} };
            }
        missing = "Workload \"" + ref.name + "\" has no podGroup \"" + ref.podGroup
            + "\": its pods would wait at PreEnqueue for the whole run";
        return std::nullopt;
    }
    missing = "no Workload \"" + ref.name + "\" in namespace \"" + namespace_
        + "\" among the workload's manifests: its pods would wait at PreEnqueue for the whole run";
    return std::nullopt;
}

const api::PodGroup* hierarchyLeaf(
    const api::PodSpec& spec, const std::string& namespace_, const std::vector<api::PodGroup>& groups)
{
    if (!spec.schedulingGroup)
        return nullptr;
    for (const api::PodGroup& g : groups) {
        const std::string ns = g.meta.namespace_.empty() ? namespace_ : g.meta.namespace_;
        if (g.meta.name == *spec.schedulingGroup && ns == namespace_)
            return g.parentCompositePodGroupName.empty() ? nullptr : &g;
    }
    return nullptr;
}

std::string ownPodGroupNote(const api::PodSpec& spec, const std::string& namespace_,
    const std::vector<api::PodGroup>& groups, const std::vector<api::CompositePodGroup>& composites)
{
    if (!spec.schedulingGroup)
        return {};
    const std::string& name = *spec.schedulingGroup;
    const std::string oneByOne = "drasim simulate schedules these pods one by one, as pods of no group "
                                 "(it makes a PodGroup only for a Job, from its spec.scheduling)";
    for (const api::PodGroup& g : groups) {
        const std::string ns = g.meta.namespace_.empty() ? namespace_ : g.meta.namespace_;
        if (g.meta.name != name || ns != namespace_)
            continue;
        if (g.parentCompositePodGroupName.empty())
            return "PodGroup \"" + name + "\" is among the workload's manifests: " + oneByOne
                + "; drasim allocate and explain schedule the group as one unit";
        // The simulation schedules the hierarchy as one unit; a parent that is not there holds
        // its pods at PreEnqueue for the whole run, as kube-scheduler would.
        const std::string& parent = g.parentCompositePodGroupName;
        const bool found = std::any_of(composites.begin(), composites.end(), [&](const auto& c) {
            return c.meta.name == parent
                && (c.meta.namespace_.empty() ? namespace_ : c.meta.namespace_) == ns;
        });
        if (found)
            return {};
        return "PodGroup \"" + name + "\" belongs to CompositePodGroup \"" + parent
            + "\", which is not among the workload's manifests: kube-scheduler holds these pods until it "
              "exists, for the whole run";
    }
    // kube-scheduler holds such pods at PreEnqueue ("waiting for pod's pod group to appear in
    // scheduling queue") until the PodGroup exists.
    return "PodGroup \"" + name + "\" is not among the workload's manifests: kube-scheduler would hold these "
        + "pods until it exists; " + oneByOne;
}

} // namespace drasim::workload
