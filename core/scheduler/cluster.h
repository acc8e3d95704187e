// SPDX-License-Identifier: Apache-2.0
#pragma once

// The cluster as kube-scheduler and the DRA allocator see it: nodes, ResourceSlices, DeviceClasses,
// ResourceClaims (with their incremental allocated state) and bound pods. One schedule() call is one
// scheduling cycle for one pod. This is the interface the simulator drives; keep it stable.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/allocator/allocation_trace.h"
#include "core/api/feature_gates.h"
#include "core/api/object_set.h"
#include "core/common/diagnostic.h"
#include "core/gpushare/claim_fragmentation.h"
#include "core/scheduler/diagnosis.h"
#include "core/scheduler/queueing_hints.h"
#include "core/scheduler/scheduler_profile.h"
#include "core/scheduler/scoring_profile.h"

namespace drasim::scheduler {

struct PodGroupPolicy;
struct GroupScheduleResult;
struct GroupTreeNode;
struct GroupTreeResult;

struct SchedulerOptions
{
    /// The scoring profile, by name (scoring_profile.h). Ignored when `profiles` is set.
    ScoringPolicy scoring = ScoringPolicy::Default;
    /// The profiles of a KubeSchedulerConfiguration (scheduler_config.h), each serving the pods
    /// whose spec.schedulerName names it; a pod naming none of them is never scheduled. Null: one
    /// profile, the preset of `scoring`, which schedules every pod whatever its schedulerName.
    std::shared_ptr<const std::vector<SchedulerProfile>> profiles;
    /// Which of the best-scored nodes is chosen: the first by name (default) or the first in an
    /// order drawn from `seed`.
    TieBreak tieBreak = TieBreak::NodeName;
    /// KubeSchedulerConfiguration's percentageOfNodesToScore: a cycle stops filtering once it has
    /// found this share of the candidate nodes feasible (never fewer than 100) and scores only
    /// those (node_tree.h). 0, the default, is kube-scheduler's adaptive share (50 % minus 1 %
    /// per 125 nodes, at least 5 %); 100 examines every node.
    int32_t percentageOfNodesToScore = 0;
    /// The fgd policy's target workload (its typical pods); null: none, every node scores 50.
    std::shared_ptr<const gpushare::ShareTarget> shareTarget;
    /// The typical claims of the workload on whole DRA devices (claim_scoring.h): what
    /// claimFragmentation measures against, and what the fgd policy scores pods with such claims
    /// with; null: none.
    std::shared_ptr<const gpushare::ClaimTarget> claimTarget;
    /// Wall-clock limit of one allocator run (one pod, one node), like upstream's filterTimeout
    /// (10 s). 0 disables it. Reaching it gives "timed out trying to allocate devices".
    double filterTimeoutSeconds = 10.0;
    /// Deterministic companion of the timeout: devices the search may try for one pod on one node
    /// before it gives up with the same message. Normal claims use a handful of steps; only
    /// pathological backtracking reaches it, and then results do not depend on machine speed.
    uint64_t searchStepBudget = 2'000'000;
    /// Seeds the shareID generator (UUIDs for shares of multi-allocatable devices).
    uint64_t seed = 0;
    /// Feature gate DRAExtendedResource: extended resources a node does not advertise are served
    /// from DeviceClasses that map them (extended_resources.h). On by default from Kubernetes 1.36
    /// (beta), locked on in 1.37 (GA, kubernetes#138488); off by default in 1.35 (alpha).
    bool draExtendedResources = true;
    /// Run a topology-constrained group in every placement, including those whose score bound
    /// cannot beat the best one found and those whose free devices cannot hold minCount. Same
    /// result, slower: the two are compared by law tests.
    bool exhaustivePlacements = false;
    /// NOT UPSTREAM (a what-if of KEP-5690): preemption may free DRA devices. A node that cannot
    /// allocate the pod's claims becomes a preemption candidate, and the dry run releases the
    /// victims' claims as their deletion would. Kubernetes up to 1.37 does neither.
    bool whatIfDraPreemption = false;
    /// Kubernetes 1.37 with GenericWorkload (api::defaultPreemptionRespectsPodGroups): a pod's
    /// DefaultPreemption evicts a victim PodGroup with disruptionMode all as one unit, its members
    /// on other nodes included, and reprieves it only whole. 1.36 evicted members one by one.
    bool podGroupUnitsInPreemption = false;
    /// The cluster's Kubernetes release, where the DRA allocator's output differs between releases
    /// (allocator::AllocatorOptions::version).
    api::KubernetesVersion kubernetesVersion = api::kDefaultKubernetesVersion;
    /// Feature gate DRADeviceCompatibilityGroups (allocator::AllocatorOptions::compatibilityGroups).
    bool draDeviceCompatibilityGroups = false;
    /// Feature gate DRAConsumableCapacity (allocator::AllocatorOptions::consumableCapacity).
    bool draConsumableCapacity = true;
    /// Feature gate DRAFractionalCapacityRange (allocator::AllocatorOptions::fractionalCapacityRange).
    bool draFractionalCapacityRange = false;
    /// Feature gate DRAListTypeAttributes: derived attributes may be lists, and constraints compare
    /// sets (allocator::AllocatorOptions::listTypeAttributes).
    bool draListTypeAttributes = false;
    /// Feature gate DRAWorkloadResourceClaims (group_claims.h): a member's claim entry that matches
    /// its PodGroup's uses the group's claim, reserved for the PodGroup.
    bool draWorkloadResourceClaims = false;
    /// Feature gate DRANodeAllocatableResources (node_allocatable.h): DynamicResources counts what
    /// the claims' devices map to or cost in node-allocatable cpu, memory and hugepages, and a
    /// bound pod's status.nodeAllocatableResourceClaimStatuses is charged to its node.
    bool draNodeAllocatableResources = false;
};

/// The profile that schedules `pod` (by spec.schedulerName, "" meaning "default-scheduler");
/// null when the configuration has no profile of that name.
const SchedulerProfile* profileFor(const SchedulerOptions& options, const api::Pod& pod);
/// The same by the name a pod gives.
const SchedulerProfile* profileNamed(const SchedulerOptions& options, const std::string& schedulerName);
/// The profile the score caches order nodes for: the default-scheduler's, else the first.
const SchedulerProfile& primaryProfile(const SchedulerOptions& options);
/// The percentageOfNodesToScore a cycle of `profile` uses (the profile's, else the options').
int32_t percentageOfNodesToScore(const SchedulerOptions& options, const SchedulerProfile& profile);
/// The PodScheduled message of a pod whose schedulerName no profile has.
std::string noProfileMessage(const api::Pod& pod);

/// Why a pod was not scheduled.
enum class FailureKind {
    None,
    ClaimLookup, ///< claim/template missing, claim being deleted: the pod never entered a cycle
    PreFilter, ///< e.g. a DeviceClass that does not exist
    Unschedulable, ///< every node was rejected by some filter
    AllocatorError, ///< fatal allocator error (CEL runtime error, claim limit, ...): whole cycle aborted
    AlreadyBound, ///< caller error: a pod with this key is already bound
    PreBind, ///< the claim status update was refused (reservedFor full): the pod waits and is retried
    /// The configuration has no profile of the pod's schedulerName: another scheduler's pod, which
    /// this one leaves as it is (no cycle, no status).
    NoProfile,
};

/// One device in a claim's allocation result.
struct AllocatedDevice
{
    std::string claim; ///< namespace/name
    std::string request; ///< "req" or "req/sub"
    std::string driver;
    std::string pool;
    std::string device;
    std::string node; ///< node the device's slice is local to ("" for network-attached devices)
    bool shared = false; ///< a share of a multi-allocatable device (has a shareID)
    bool adminAccess = false;
    /// The cluster's number for the device: the same device gets the same number for as long as
    /// the Cluster lives, so that callers can index by it instead of by the three names.
    uint32_t deviceId = UINT32_MAX;
};

/// DefaultPreemption's outcome for a pod that no node could take (its PostFilter step).
struct PreemptionResult
{
    /// The node the pod is nominated to run on once the victims are gone; "" when preemption
    /// cannot help.
    std::string nominatedNode;
    /// The pods to evict from that node (namespace/name), most important first.
    std::vector<std::string> victims;
    /// How many victims a PodDisruptionBudget did not allow to be disrupted.
    int32_t budgetViolations = 0;
    /// The PostFilter status as kube-scheduler words it: "preemption: 0/3 nodes are available:
    /// 3 No preemption victims found for incoming pod." when it cannot help, "" when it can.
    std::string message;
};

struct ScheduleResult
{
    bool scheduled = false;
    std::string nodeName;
    FailureKind failure = FailureKind::None;
    /// PodScheduled=False message in kube-scheduler's words, e.g.
    /// "0/3 nodes are available: 3 cannot allocate all claims."
    std::string message;
    std::vector<std::string> claims; ///< the pod's claims (namespace/name), pod order
    std::vector<AllocatedDevice> allocated; ///< devices allocated by this cycle (not pre-existing ones)
    std::shared_ptr<const PodDiagnosis> diagnosis; ///< only when explain was requested
    /// Set when the scheduler created a claim for extended resources served through DRA; the
    /// caller records it in the pod's status (its name is also the last entry of claims).
    std::optional<api::PodExtendedResourceClaimStatus> extendedResourceClaimStatus;
    /// Scheduled with DRANodeAllocatableResources: what its claims' devices add to its requests
    /// (pod.status.nodeAllocatableResourceClaimStatuses), for the caller to record.
    std::vector<api::NodeAllocatableResourceClaimStatus> nodeAllocatableResourceClaimStatuses;
    /// Set when the pod was unschedulable and DefaultPreemption ran for it (not for the members
    /// of a group cycle). With a nominated node, the victims are marked terminating and the pod is
    /// nominated (it tries that node first, and pods of lower or equal priority leave room for it
    /// there); the caller ends the victims (podFinished) after their grace period.
    std::optional<PreemptionResult> preemption;
    /// Unschedulable: the plugins that rejected the pod on some node or at PreFilter (upstream's
    /// QueuedPodInfo.UnschedulablePlugins), which decide the changes that queue it again
    /// (queueing_hints.h). Empty for other failures.
    PluginSet unschedulablePlugins = 0;
};

struct BoundPod
{
    std::string key; ///< namespace/name
    std::string nodeName;
    std::vector<std::string> claims; ///< claims reserved for the pod
    int32_t priority = 0; ///< spec.priority
    /// Being deleted after preemption (DisruptionTarget): it holds its resources until it is gone.
    bool terminating = false;
};

/// Device totals for metrics. Devices of slices local to a node are counted under that node;
/// network-attached devices (node selector / all nodes) under node "".
struct DeviceUsage
{
    std::string driver;
    std::string node;
    uint32_t total = 0;
    uint32_t allocated = 0; ///< dedicated results plus devices holding at least one share
};

struct DeviceRef
{
    std::string driver;
    std::string pool;
    std::string device;
};

class Cluster
{
public:
    /// Takes the cluster state. Pods with spec.nodeName (and not Succeeded/Failed) count as bound;
    /// claims with status.allocation count as allocated. Pods without nodeName are not scheduled
    /// here: call schedule() for them. Workloads are ignored. Invalid input (selectors that do not
    /// compile...) is reported in diagnostics(); callers should not schedule when it has errors.
    explicit Cluster(api::ObjectSet objects, SchedulerOptions options = {});
    ~Cluster();
    Cluster(Cluster&&) noexcept;
    Cluster& operator=(Cluster&&) noexcept;
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    const Diagnostics& diagnostics() const;
    const SchedulerOptions& options() const;

    /// One scheduling cycle: generate template claims (<pod>-<podClaimName>), PreFilter, filter all
    /// nodes, score, tie-break by name, reserve, bind. On success the pod is bound and its claims
    /// are allocated/reserved. On failure nothing changes except that generated claims stay (as
    /// the resource-claim controller would have created them).
    ScheduleResult schedule(const api::Pod& pod, bool explain = false);

    /// One PodGroup scheduling cycle (Kubernetes 1.37, pod_group.h): the pending members are tried
    /// in priority order on one view of the cluster; the placed ones stay bound only when the gang
    /// plugin's PlacementFeasible holds (at least minCount members, counting `boundMembers`, the
    /// group's pods bound in earlier cycles). With `topologyAware` (gate
    /// TopologyAwareWorkloadScheduling) and a topology key, every domain of the key is tried and
    /// the best feasible one kept.
    GroupScheduleResult scheduleGroup(const PodGroupPolicy& group, const std::vector<api::Pod>& pending,
        const std::vector<std::string>& boundMembers, bool topologyAware);
    /// Tells the scheduler a PodGroup's policy before any cycle of it: how workload-aware
    /// preemption evicts its bound members (a group's cycle registers it too).
    void registerPodGroup(const PodGroupPolicy& group);

    /// Transactions (nestable). Scheduling cycles and podFinished() inside one can be undone as
    /// a whole: rollback() leaves claims, bound pods, node usage, device usage, the capacity
    /// generation and the shareID sequence exactly as begin() found them; commit() keeps the
    /// changes (a nested commit hands them to the enclosing transaction). Changes of the cluster's
    /// shape (nodes, slices, taints, rules) are refused while a transaction is open.
    void beginTransaction();
    void commitTransaction();
    void rollbackTransaction();

    /// Every allocator step of later schedule() calls goes to `observer` (null: none). For
    /// teaching views and tests; scheduling decides exactly the same either way.
    void setAllocationObserver(allocator::AllocationObserver* observer);

    /// The pod ended (or was deleted): frees its cpu/memory/pods, removes it from reservedFor,
    /// deallocates claims whose reservedFor became empty and deletes claims generated for it.
    /// Returns false for an unknown pod key.
    bool podFinished(const std::string& podKey);
    /// The pod is being deleted (a preemption victim in its termination grace period): it keeps
    /// its node, resources and claims until podFinished(). False for an unknown pod key.
    bool markTerminating(const std::string& podKey);

    /// Adds (or replaces) a node together with slices for it.
    void addNode(api::Node node, std::vector<api::ResourceSlice> slices = {});
    /// Removes a node and every slice local to it. Returns the keys of the pods that were bound
    /// there; they are finished (podFinished) already, so the caller may resubmit them.
    std::vector<std::string> removeNode(const std::string& name);
    void addResourceSlice(api::ResourceSlice slice);
    bool removeResourceSlice(const std::string& name);

    /// Adds a taint to a device (replacing one with the same key and effect, which keeps the time
    /// it appeared). For NoExecute returns the keys of bound pods that are due for eviction now
    /// (deviceTaintEvictionTime <= the current time); the caller evicts them (podFinished) and
    /// asks deviceTaintEvictions() for later ones. NoSchedule affects new allocations only.
    std::vector<std::string> setDeviceTaint(const DeviceRef& device, const api::DeviceTaint& taint);
    bool removeDeviceTaint(const DeviceRef& device, const std::string& key);

    /// Adds a DeviceTaintRule (replacing one of the same name): its taint appears now on every
    /// device it selects, in present and future slices. Returns the pods due for eviction now,
    /// like setDeviceTaint.
    std::vector<std::string> addDeviceTaintRule(api::DeviceTaintRule rule);
    /// Deletes a DeviceTaintRule and the taints it added. False when there is none of that name.
    bool removeDeviceTaintRule(const std::string& name);

    /// When the device taint eviction controller evicts a bound pod: for each NoExecute taint of a
    /// device its claims hold, the time the taint appeared, plus the smallest tolerationSeconds
    /// of the result's tolerations with effect NoExecute that match it (no such toleration: at
    /// once; one without tolerationSeconds: never for that taint); the earliest of these. nullopt
    /// when nothing evicts the pod.
    std::optional<double> deviceTaintEvictionTime(const std::string& podKey) const;
    /// Every bound pod with an eviction time, in binding order.
    std::vector<std::pair<std::string, double>> deviceTaintEvictions() const;

    /// Simulated time in seconds since the epoch, used for allocationTimestamp (set only for
    /// devices with binding conditions; 0, i.e. 1970-01-01T00:00:00Z, until called). Binding
    /// conditions are recorded in results but not awaited: nothing here writes device status.
    void setTime(double seconds);

    /// Increments whenever capacity is freed or added (pod finished, claim deallocated, node or
    /// slice added, taint removed), so a simulator knows when retrying pending pods can help.
    /// A ReplicaSet, StatefulSet or Deployment whose pods the caller creates (the simulation):
    /// pods owned by it (ownerReferences, a Deployment's through a ReplicaSet of its name) get
    /// PodTopologySpread's system default constraints over its selector.
    void addPodOwner(const api::PodController& controller);
    /// Whether running pods have pod affinity terms, which may select pods by their labels.
    bool runningPodsHaveAffinity() const;
    uint64_t freeEventCount() const;
    /// Replaces `into` with the changes since the previous call, in order, for the scheduling
    /// queue's hints (bound and ended pods, nodes, slices and device taints); the first call
    /// starts the record.
    void takeChanges(std::vector<ClusterChange>& into);

    const api::ResourceClaim* findClaim(const std::string& key) const;
    /// Every claim: input claims in input order, then generated ones in creation order.
    std::vector<const api::ResourceClaim*> claims() const;
    const api::Node* findNode(const std::string& name) const;
    std::vector<const api::Node*> nodes() const; ///< sorted by name
    const BoundPod* findBoundPod(const std::string& key) const;
    std::vector<BoundPod> boundPods() const; ///< in binding order
    std::vector<DeviceUsage> deviceUsage() const; ///< sorted by driver, node
    /// The FGD paper's GPU fragmentation now, against SchedulerOptions::shareTarget's typical pods;
    /// the GPUs are the devices with a consumable gpuMilli capacity, 1000 each. nullopt without a
    /// target or without such devices (share_scoring.cpp).
    std::optional<gpushare::ClusterFragment> gpuShareFragmentation();
    /// The claim measure of fragmentation now (claim_scoring.h).
    friend std::map<std::string, gpushare::ClassFragment> claimFragmentation(Cluster& cluster);
    /// One cycle for a CompositePodGroup hierarchy (group_tree.h).
    friend GroupTreeResult scheduleGroupTree(Cluster& cluster, const GroupTreeNode& root, bool topologyAware);
    /// The PodGroup was deleted (group_claims.h).
    friend bool releaseGroupClaims(Cluster& cluster, const std::string& groupKey);
    /// Unreserve of a pod rejected at Permit (permit.h).
    friend bool unreservePod(Cluster& cluster, const std::string& podKey);
    /// Registers a Service (again: its selector is replaced), whose selector gives the pods it
    /// selects PodTopologySpread's system default constraints.
    friend void addService(Cluster& cluster, const api::Service& service);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Registers a Service with the cluster (declared in the class as a friend).
void addService(Cluster& cluster, const api::Service& service);

/// A transaction that rolls back unless committed (scope guard for Cluster's transactions).
class ClusterTransaction
{
public:
    explicit ClusterTransaction(Cluster& cluster)
        : m_cluster(cluster)
    {
        m_cluster.beginTransaction();
    }
    ~ClusterTransaction()
    {
        if (m_open)
            m_cluster.rollbackTransaction();
    }
    ClusterTransaction(const ClusterTransaction&) = delete;
    ClusterTransaction& operator=(const ClusterTransaction&) = delete;
    void commit()
    {
        m_open = false;
        m_cluster.commitTransaction();
    }
    void rollback()
    {
        m_open = false;
        m_cluster.rollbackTransaction();
    }

private:
    Cluster& m_cluster;
    bool m_open = true;
};

} // namespace drasim::scheduler
