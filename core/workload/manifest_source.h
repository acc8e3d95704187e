// SPDX-License-Identifier: Apache-2.0
#pragma once

// Workloads from Kubernetes manifests. Every Pod (without a controller owner), Job, Deployment,
// ReplicaSet and StatefulSet becomes a job type:
//   Pod         → kind "job", 1 pod, backoffLimit 0 (a bare pod is not retried)
//   Job         → kind "job" with the Job's parallelism, completions and backoffLimit
//   Deployment, ReplicaSet, StatefulSet → kind "service", `replicas` pods (parallelism = completions)
// Duration: the object's (or its pod template's) drasim.dev/duration annotation, else the
// workload's `duration:`, else forever (with a warning for run-to-completion kinds, which would
// then never complete).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/workload/workload_spec.h"

namespace drasim::workload {

struct JobType
{
    std::string name; ///< object name
    std::string objectKind; ///< Pod, Job, Deployment, ... (for messages)
    std::string namespace_;
    std::string kind = kKindJob;
    int32_t parallelism = 1;
    int32_t completions = 1;
    int32_t backoffLimit = 0;
    api::DisruptionAction onDisruption = api::DisruptionAction::Count; ///< Job spec.podFailurePolicy
    bool replaceFailedOnly = false; ///< Job: api::replacesOnlyFailedPods
    bool orderedStart = false; ///< StatefulSet with podManagementPolicy OrderedReady
    int32_t priority = 0;
    std::shared_ptr<const api::PodTemplateSpec> pod;
    std::optional<DurationSpec> duration; ///< from the annotation
    double arrivalOffset = 0; ///< from drasim.dev/arrival (submit-once only)
    std::vector<api::ResourceClaimTemplate> claimTemplates; ///< the referenced ones found in the set
    std::vector<api::ResourceClaim> claims; ///< the referenced ones found in the set
    std::optional<GroupSpec> group; ///< the PodGroup its pods form (see GroupRules)
    /// The ReplicaSet, StatefulSet or Deployment that owns its pods (see JobSpec::owner).
    std::shared_ptr<const api::PodController> owner;
    /// The Services of the manifests (see JobSpec::services).
    std::shared_ptr<const std::vector<api::Service>> services;
    /// The manifests' groups, when its pods name a PodGroup of a hierarchy (JobSpec::hierarchy).
    std::shared_ptr<const ManifestGroups> hierarchy;
    SourcePos pos;
};

/// Which objects' pods form a PodGroup: a Job's when the Job controller of the cluster's version
/// and gates would make one (job_group.h), any object's when the workload says `scheduling:` (as
/// if it were each object's spec.scheduling; a Job's own spec.scheduling wins).
struct GroupRules
{
    api::FeatureGates gates;
    std::optional<GroupSpec> scheduling; ///< the workload's `scheduling:`
};

/// Job types in input order. Objects without a namespace get `defaultNamespace`. Bad annotations
/// become errors located at the object.
/// A controller's pod template resolves its priorityClassName as the Priority admission plugin
/// resolves the pods created from it, against the set's PriorityClasses and `priorityClasses`
/// (the cluster's): the job type's priority and template carry the result, and a template whose
/// pods would be refused is an error located at the controller (spec.template.spec.*), reported
/// here rather than when the first pod is created. Pods were admitted when they were loaded.
std::vector<JobType> jobTypesFromObjects(const api::ObjectSet& objects, const std::string& defaultNamespace,
    Diagnostics& diags, const GroupRules& rules = {},
    const std::vector<api::PriorityClass>& priorityClasses = {});

/// The stream: with arrival process "once" each job type is submitted once at start (+ its
/// drasim.dev/arrival offset) under its own name; with any other process every arrival picks a
/// job type by the `mix` weights (default: equal) and is named "<workload>-<n>" (n from 0).
/// Returns nullptr (with diagnostics) if the mix names an unknown type or has no positive weight.
std::unique_ptr<ArrivalSource> makeManifestSource(
    const WorkloadSpec& spec, std::vector<JobType> types, uint64_t seed, Diagnostics& diags);

} // namespace drasim::workload
