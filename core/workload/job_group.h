// SPDX-License-Identifier: Apache-2.0
#pragma once

// The PodGroup Kubernetes' Job controller makes for a Job (KEP-5547, gate WorkloadWithJob):
//   1.35  none (no Job integration)
//   1.36  a gang of minCount = parallelism for an Indexed Job with parallelism == completions > 1,
//         nothing for any other Job
//   1.37  spec.scheduling compiled for every eligible Job: basic when it is omitted, a gang's
//         omitted minCount = parallelism (at least 1)
// Eligible: no controller owner (a JobSet or other parent makes the objects itself) and no
// spec.template.spec.schedulingGroup (the pods already name their own PodGroup). In 1.37 a parent
// may delegate the PodGroup (annotation scheduling.k8s.io/group-template-name on the Job): the Job
// controller then makes only a PodGroup, from that template of the parent's Workload (KEP-6089).

#include <optional>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/feature_gates.h"
#include "core/api/scheduling_v1.h"
#include "core/workload/workload.h"

namespace drasim::workload {

/// The annotation by which a Job's controller owner delegates its PodGroup to the Job controller,
/// naming a PodGroupTemplate of the owner's Workload (GroupTemplateNameAnnotation, KEP-6089).
inline constexpr const char* kGroupTemplateNameAnnotation = "scheduling.k8s.io/group-template-name";

/// The PodGroup the Job controller makes for `job` (in `namespace_`, the Job's), nullopt when it
/// makes none. `workloads`: the Workloads a delegating owner's template is looked up in. `why`:
/// set when a delegation cannot be served (no Workload of the owner, no such template), for a
/// warning; cleared otherwise.
std::optional<GroupSpec> jobControllerGroup(const api::PodController& job, const api::FeatureGates& gates,
    const std::vector<api::Workload>& workloads, const std::string& namespace_, std::string& why);
/// The same for a Job whose owner's Workloads are not at hand.
std::optional<GroupSpec> jobControllerGroup(const api::PodController& job, const api::FeatureGates& gates,
    const std::vector<api::Workload>& workloads = {}, const std::string& namespace_ = "default");

/// Kubernetes 1.35 with GenericWorkload and GangScheduling: pods that name a v1alpha1 Workload's
/// podGroup in spec.workloadRef form its gang (GangScheduling's Permit barrier); a basic podGroup
/// schedules them one by one, as plain pods. In a simulation each job is one instance of the gang
/// (one podGroupReplicaKey). Nullopt when this does not apply, or, with `missing` set to why, when
/// the Workload or its podGroup is not among `workloads` (the pods would wait forever).
std::optional<GroupSpec> workloadRefGang(const api::PodSpec& spec, const std::string& namespace_,
    const std::vector<api::Workload>& workloads, const api::FeatureGates& gates, std::string& missing);

/// The PodGroup that `spec` names (spec.schedulingGroup) among `groups` when it belongs to a
/// CompositePodGroup hierarchy (it names a parent); null otherwise. A simulation schedules the
/// pods of such a PodGroup with their hierarchy, as one unit (workload::JobSpec::hierarchy).
const api::PodGroup* hierarchyLeaf(
    const api::PodSpec& spec, const std::string& namespace_, const std::vector<api::PodGroup>& groups);

/// What `drasim simulate` tells of the pods of a workload's manifests that name a PodGroup of
/// their own (spec.schedulingGroup); "" when they name none or their hierarchy is scheduled as one.
/// A simulation makes PodGroups as the Job controller does (jobControllerGroup) and schedules a
/// CompositePodGroup hierarchy of the manifests as one unit; a lone PodGroup applied with the pods
/// is scheduled as a unit by `allocate` and `explain` only, its pods one by one here. A parent
/// missing from the manifests holds the pods for the whole run.
std::string ownPodGroupNote(const api::PodSpec& spec, const std::string& namespace_,
    const std::vector<api::PodGroup>& groups, const std::vector<api::CompositePodGroup>& composites);

} // namespace drasim::workload
