// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/meta.h"
#include "core/api/pod_affinity.h"
#include "core/api/scheduling_v1.h"
#include "core/common/quantity.h"

namespace drasim::api {

using ResourceList = std::map<std::string, Quantity>;

struct Node
{
    ObjectMeta meta;
    ResourceList capacity;
    ResourceList allocatable; ///< defaults to capacity when absent
    std::vector<Taint> taints;
    bool unschedulable = false;
    /// status.declaredFeatures (NodeDeclaredFeatures): what the node's kubelet says it supports,
    /// e.g. DRAOptionalNodeOperations.
    std::vector<std::string> declaredFeatures;
};

/// core/v1 Namespace: only its labels matter (admin access to devices is granted per namespace).
struct Namespace
{
    ObjectMeta meta;
};

/// core/v1 Service: only its selector matters. PodTopologySpread's system default constraints
/// spread apart the pods a Service selects (helper.DefaultSelector); ports, addresses and the
/// rest of the spec are read for validity and dropped.
struct Service
{
    ObjectMeta meta;
    /// spec.selector; absent and empty both select nothing to spread over (an absent selector
    /// matches no pod, an empty one adds no label to the default selector).
    Labels selector;
};

struct ResourceRequirements
{
    ResourceList requests;
    ResourceList limits;
    std::vector<std::string> claims; ///< names of pod.spec.resourceClaims entries the container uses
    /// Parallel to claims: resources.claims[i].request ("" = the whole claim). Added by the loader.
    std::vector<std::string> claimRequests;
};

struct Container
{
    std::string name;
    std::string image;
    ResourceRequirements resources;
    /// restartPolicy: only "Always", on an init container, which makes it a sidecar that runs
    /// beside the main containers (its requests add to theirs instead of being maxed with them).
    std::optional<std::string> restartPolicy;
};

struct PodResourceClaim
{
    std::string name;
    std::optional<std::string> resourceClaimName;
    std::optional<std::string> resourceClaimTemplateName;
};

struct PreferredSchedulingTerm
{
    int32_t weight = 0;
    NodeSelectorTerm preference;
};

struct NodeAffinity
{
    std::optional<NodeSelector> required; ///< requiredDuringSchedulingIgnoredDuringExecution
    std::vector<PreferredSchedulingTerm> preferred;
};

/// pod.spec.workloadRef (Kubernetes 1.35, GenericWorkload gate; tombstoned in 1.36): the pod's
/// gang is the (workload, podGroup, podGroupReplicaKey) triple.
struct PodWorkloadReference
{
    std::string name;
    std::string podGroup;
    std::string podGroupReplicaKey;
};

struct PodSpec
{
    std::string nodeName;
    std::string schedulerName;
    std::map<std::string, std::string> nodeSelector;
    std::optional<NodeAffinity> nodeAffinity;
    /// spec.affinity.podAffinity / podAntiAffinity (absent or empty: none).
    std::optional<PodAffinityRules> podAffinity;
    std::optional<PodAffinityRules> podAntiAffinity;
    std::vector<TopologySpreadConstraint> topologySpreadConstraints;
    std::vector<Toleration> tolerations;
    std::vector<Container> initContainers;
    std::vector<Container> containers;
    std::vector<PodResourceClaim> resourceClaims;
    std::optional<int32_t> priority;
    std::string priorityClassName;
    /// spec.preemptionPolicy. Unset (absent) acts as PreemptLowerPriority: the scheduler only
    /// holds back a pod that says Never (PodEligibleToPreemptOthers).
    PreemptionPolicy preemptionPolicy = PreemptionPolicy::Unset;
    /// spec.terminationGracePeriodSeconds as written; effectiveTerminationGracePeriodSeconds
    /// gives the value the API server stores when it is absent.
    std::optional<int64_t> terminationGracePeriodSeconds;
    ResourceList overhead;
    /// spec.resources (PodLevelResources, beta and on since 1.34): the pod's own requests and
    /// limits for cpu, memory and hugepages-*, which replace the containers' sum where set.
    std::optional<ResourceRequirements> resources;
    std::optional<PodWorkloadReference> workloadRef; ///< 1.35
    /// spec.schedulingGroup.podGroupName (1.36+, GenericWorkload gate): the PodGroup the pod
    /// belongs to (it may not exist yet).
    std::optional<std::string> schedulingGroup;
};

struct PodCondition
{
    std::string type;
    std::string status;
    std::string reason;
    std::string message;
};

struct PodResourceClaimStatus
{
    std::string name;
    std::optional<std::string> resourceClaimName;
};

/// pod.status.extendedResourceClaimStatus: the claim the scheduler created for the pod's extended
/// resources served through DRA, and which device request serves which container's resource.
struct ContainerExtendedResourceRequest
{
    std::string containerName;
    std::string resourceName;
    std::string requestName;
};

struct PodExtendedResourceClaimStatus
{
    std::vector<ContainerExtendedResourceRequest> requestMappings;
    std::string resourceClaimName;
};

/// pod.status.nodeAllocatableResourceClaimStatuses (DRANodeAllocatableResources, 1.37 alpha): what
/// one claim's devices add to the pod's node-allocatable requests (KEP-5517). The scheduler writes
/// it when it binds the pod; the node's requested resources count it for as long as the pod runs.
struct NodeAllocatableMappedResource
{
    std::string name; ///< cpu, memory or hugepages-<size>
    Quantity quantity;
    bool operator==(const NodeAllocatableMappedResource&) const = default;
};

struct NodeAllocatableOverheadResource
{
    std::string name;
    std::optional<Quantity> perPod;
    std::optional<Quantity> perContainer;
    bool operator==(const NodeAllocatableOverheadResource&) const = default;
};

struct NodeAllocatableResourceClaimStatus
{
    std::string resourceClaimName;
    std::vector<std::string> containers; ///< the containers that reference the claim
    std::vector<NodeAllocatableMappedResource> mapping; ///< sorted by name
    std::vector<NodeAllocatableOverheadResource> overhead; ///< sorted by name
    bool operator==(const NodeAllocatableResourceClaimStatus&) const = default;
};

/// The grace period a pod gets between being told to stop and being killed: the API server
/// defaults an absent spec.terminationGracePeriodSeconds to 30 (SetDefaults_PodSpec).
constexpr int64_t kDefaultTerminationGracePeriodSeconds = 30;
inline int64_t effectiveTerminationGracePeriodSeconds(const PodSpec& spec)
{
    return spec.terminationGracePeriodSeconds.value_or(kDefaultTerminationGracePeriodSeconds);
}

/// status.startTime: when the kubelet accepted the pod, as written (RFC 3339) and in seconds
/// since the epoch.
struct PodStartTime
{
    std::string text;
    int64_t seconds = 0;
};

struct Pod
{
    ObjectMeta meta;
    PodSpec spec;
    std::string phase; ///< status.phase as loaded (Pending, Running, Succeeded, Failed)
    std::vector<PodCondition> conditions;
    /// status.nominatedNodeName: the node preemption made room on for this pod.
    std::string nominatedNodeName;
    std::optional<PodStartTime> startTime; ///< status.startTime
    std::vector<PodResourceClaimStatus> resourceClaimStatuses;
    std::optional<PodExtendedResourceClaimStatus> extendedResourceClaimStatus;
    std::vector<NodeAllocatableResourceClaimStatus> nodeAllocatableResourceClaimStatuses;
};

struct PodTemplateSpec
{
    ObjectMeta meta;
    PodSpec spec;
};

/// Job.spec.scheduling (1.37, WorkloadWithJob gate): how the Job controller builds the Job's
/// Workload and PodGroup. Only the fields; minCount defaults to parallelism in the controller.
struct JobSchedulingConfiguration
{
    bool gang = false; ///< schedulingPolicy: basic (the default) or gang
    std::optional<int32_t> minCount; ///< gang.minCount
    std::vector<std::string> topologyKeys; ///< schedulingConstraints.topology[].key
    DisruptionMode disruptionMode = DisruptionMode::Unset;
    std::vector<PodGroupResourceClaim> resourceClaims;
    bool operator==(const JobSchedulingConfiguration&) const = default;
};

/// Job spec.podFailurePolicy (batch/v1): how failed pods count against backoffLimit. The rules
/// are tried in order and the first that matches a failed pod decides (pod_failure_policy.h).
struct PodFailurePolicyOnExitCodes
{
    std::optional<std::string> containerName;
    std::string operator_; ///< In or NotIn
    std::vector<int32_t> values;
    bool operator==(const PodFailurePolicyOnExitCodes&) const = default;
};

struct PodFailurePolicyOnPodConditionsPattern
{
    std::string type;
    std::string status = "True"; ///< the API server defaults an omitted status to True
    bool operator==(const PodFailurePolicyOnPodConditionsPattern&) const = default;
};

struct PodFailurePolicyRule
{
    std::string action; ///< FailJob, FailIndex, Ignore or Count
    std::optional<PodFailurePolicyOnExitCodes> onExitCodes;
    std::vector<PodFailurePolicyOnPodConditionsPattern> onPodConditions;
    bool operator==(const PodFailurePolicyRule&) const = default;
};

struct PodFailurePolicy
{
    std::vector<PodFailurePolicyRule> rules;
    bool operator==(const PodFailurePolicy&) const = default;
};

/// Job, Deployment, ReplicaSet and StatefulSet: pod factories. One type, since the simulator only
/// needs how many pods, how they run to completion, and their template.
struct PodController
{
    enum class Kind { Job, Deployment, ReplicaSet, StatefulSet };
    Kind kind = Kind::Job;
    ObjectMeta meta;
    int32_t replicas = 1; ///< Deployment/ReplicaSet/StatefulSet
    int32_t parallelism = 1; ///< Job
    int32_t completions = 1; ///< Job
    int32_t backoffLimit = 6; ///< Job
    bool indexed = false; ///< Job spec.completionMode: Indexed (NonIndexed, the default, otherwise)
    /// StatefulSet podManagementPolicy: OrderedReady (true, the default) or Parallel (false).
    bool orderedReady = true;
    PodTemplateSpec podTemplate;
    /// spec.selector: the pods it owns; for a ReplicaSet or StatefulSet (and a Deployment's
    /// ReplicaSet), what PodTopologySpread's system default constraints spread apart.
    std::optional<LabelSelector> selector;
    std::optional<JobSchedulingConfiguration> scheduling; ///< Job spec.scheduling (1.37)
    std::optional<PodFailurePolicy> podFailurePolicy; ///< Job spec.podFailurePolicy
    /// Job spec.podReplacementPolicy as given: TerminatingOrFailed, Failed, or "" (unset).
    std::string podReplacementPolicy;
};

const char* podControllerKindName(PodController::Kind k);

} // namespace drasim::api
