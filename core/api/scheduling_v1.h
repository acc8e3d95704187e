// SPDX-License-Identifier: Apache-2.0
#pragma once

// scheduling.k8s.io: Workload, PodGroup and CompositePodGroup (gang scheduling, Kubernetes
// 1.35-1.37) and PriorityClass, in one internal form for every API version that serves them:
//   v1alpha1 (1.35)  Workload{podGroups[]{name, policy{basic|gang{minCount}}}}
//   v1alpha2 (1.36)  Workload{podGroupTemplates[]}, PodGroup{podGroupTemplateRef{workload{...}}}
//   v1beta1  (1.37)  Workload, PodGroup{workloadRef{workloadName, templateName}}
//   v1alpha3 (1.37)  Workload, PodGroup, CompositePodGroup
// (kubernetes/api scheduling/v1alpha1..v1alpha3, v1beta1 types.go; workload-scheduling.md §1).
// A 1.35 podGroup becomes a template; 1.36's disruptionMode Pod/PodGroup becomes 1.37's
// single/all. Each object keeps the API version it was read in, so it is written back in it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/api/meta.h"

namespace drasim::api {

enum class SchedulingVersion { V1alpha1, V1alpha2, V1beta1, V1alpha3 };

/// "scheduling.k8s.io/v1alpha1" ...
const char* schedulingApiVersion(SchedulingVersion v);

/// policy / schedulingPolicy: exactly one of basic {} and gang {minCount}; a CompositePodGroup's
/// gang counts child groups (minGroupCount).
struct GroupSchedulingPolicy
{
    bool gang = false;
    int32_t minCount = 0; ///< gang.minCount, or gang.minGroupCount of a composite
    bool operator==(const GroupSchedulingPolicy&) const = default;
};

/// One entry of resourceClaims: exactly one of resourceClaimName and resourceClaimTemplateName.
struct PodGroupResourceClaim
{
    std::string name;
    std::optional<std::string> resourceClaimName;
    std::optional<std::string> resourceClaimTemplateName;
    bool operator==(const PodGroupResourceClaim&) const = default;
};

/// disruptionMode: 1.36 spells it Pod / PodGroup, 1.37 {single: {}} / {all: {}}.
enum class DisruptionMode { Unset, Single, All };
/// preemptionPolicy (1.37, PodGroupPreemptionPolicy gate).
enum class GroupPreemptionPolicy { Unset, PreemptLowerPriority, Never };
/// A pod's spec.preemptionPolicy takes the same values (core/v1 PreemptionPolicy).
using PreemptionPolicy = GroupPreemptionPolicy;
/// "PreemptLowerPriority" or "Never"; "" for Unset.
const char* preemptionPolicyName(PreemptionPolicy p);

/// What templates, PodGroups and CompositePodGroups share.
struct GroupPolicy
{
    GroupSchedulingPolicy scheduling;
    /// schedulingConstraints.topology[].key (at most one).
    std::vector<std::string> topologyKeys;
    std::vector<PodGroupResourceClaim> resourceClaims; ///< leaf groups only
    DisruptionMode disruptionMode = DisruptionMode::Unset;
    std::string priorityClassName;
    std::optional<int32_t> priority;
    GroupPreemptionPolicy preemptionPolicy = GroupPreemptionPolicy::Unset;
    bool operator==(const GroupPolicy&) const = default;
};

struct PodGroupTemplate
{
    std::string name;
    GroupPolicy policy;
    bool operator==(const PodGroupTemplate&) const = default;
};

struct CompositePodGroupTemplate
{
    std::string name;
    GroupPolicy policy;
    std::vector<PodGroupTemplate> podGroupTemplates;
    std::vector<CompositePodGroupTemplate> compositePodGroupTemplates;
    bool operator==(const CompositePodGroupTemplate&) const = default;
};

/// spec.controllerRef: informational, names the object that owns the workload.
struct TypedLocalObjectReference
{
    std::string apiGroup, kind, name;
    bool operator==(const TypedLocalObjectReference&) const = default;
};

struct Workload
{
    SchedulingVersion apiVersion = SchedulingVersion::V1beta1;
    ObjectMeta meta;
    std::optional<TypedLocalObjectReference> controllerRef;
    /// podGroupTemplates (v1alpha2+), or v1alpha1's podGroups.
    std::vector<PodGroupTemplate> podGroupTemplates;
    std::vector<CompositePodGroupTemplate> compositePodGroupTemplates;
};

/// PodGroup.spec.workloadRef (1.37) / podGroupTemplateRef.workload (1.36): the template a group
/// was made from.
struct WorkloadTemplateRef
{
    std::string workloadName;
    std::string templateName;
    bool operator==(const WorkloadTemplateRef&) const = default;
};

struct GroupCondition
{
    std::string type, status, reason, message;
    bool operator==(const GroupCondition&) const = default;
};

/// PodGroup status.resourceClaimStatuses[]: the claim the ResourceClaim controller generated for
/// one template entry of spec.resourceClaims (KEP-5729).
struct PodGroupResourceClaimStatus
{
    std::string name;
    std::optional<std::string> resourceClaimName;
    bool operator==(const PodGroupResourceClaimStatus&) const = default;
};

struct PodGroup
{
    SchedulingVersion apiVersion = SchedulingVersion::V1beta1;
    ObjectMeta meta;
    std::optional<WorkloadTemplateRef> workloadRef;
    std::string parentCompositePodGroupName;
    GroupPolicy policy;
    std::vector<GroupCondition> conditions; ///< status.conditions as loaded
    std::vector<PodGroupResourceClaimStatus> resourceClaimStatuses; ///< status.resourceClaimStatuses
};

struct CompositePodGroup
{
    SchedulingVersion apiVersion = SchedulingVersion::V1alpha3;
    ObjectMeta meta;
    std::optional<WorkloadTemplateRef> workloadRef;
    std::string parentCompositePodGroupName;
    GroupPolicy policy;
    std::vector<GroupCondition> conditions;
};

/// scheduling.k8s.io/v1 PriorityClass.
struct PriorityClass
{
    ObjectMeta meta;
    int32_t value = 0;
    bool globalDefault = false;
    std::string preemptionPolicy = "PreemptLowerPriority"; ///< defaulted as the API server does
    std::string description;
};

} // namespace drasim::api
