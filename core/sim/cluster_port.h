// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/resource_v1.h"
#include "core/gpushare/claim_fragmentation.h"
#include "core/gpushare/fragmentation.h"
#include "core/scheduler/queueing_hints.h"
#include "core/sim/held_device.h"

namespace drasim::scheduler {
struct GroupTreeNode;
} // namespace drasim::scheduler

namespace drasim::sim {

struct BindOutcome
{
    bool scheduled = false;
    std::string nodeName;
    /// Why the pod could not be scheduled, in kube-scheduler's words
    /// ("0/3 nodes are available: 3 cannot allocate all claims.").
    std::string message;
    std::vector<std::string> claims; ///< every claim of the pod (namespace/name), pod order
    std::vector<HeldDevice> allocated; ///< devices allocated by this cycle (shared claims: first pod only)
    /// Distance class of each newly allocated multi-device claim ("NV", "PIX", "SYS", ...), from
    /// the topology module; empty when unknown.
    std::vector<std::string> placements;
    /// Unscheduled: DefaultPreemption nominated this node for the pod and marked `victims`
    /// (namespace/name) terminating there; the engine ends them after their grace period.
    std::string nominatedNode;
    std::vector<std::string> victims;
    /// Unscheduled: the plugins that rejected the pod (scheduler::ScheduleResult), which decide
    /// the changes that send it back to the queue.
    scheduler::PluginSet unschedulablePlugins = 0;
    /// Unscheduled: the cycle ended in an error status, not Unschedulable (a fatal allocator
    /// error, a refused claim status update): kube-scheduler retries it after its backoff,
    /// whatever changes (SchedulerError; the pod goes to the error backoff queue).
    bool error = false;
};

/// A PodGroup as the engine hands it to the scheduler's group cycle.
struct GroupPolicy
{
    std::string key; ///< namespace/name of the PodGroup
    bool gang = false;
    int32_t minCount = 1;
    std::string topologyKey;
    bool topologyAware = false; ///< gate TopologyAwareWorkloadScheduling: the key is honoured
    /// Workload-aware preemption (1.37 with GenericWorkload): a group that cannot be placed may
    /// evict lower-priority units anywhere in the cluster; `priority`, `disruptAll` (disruptionMode
    /// all: evicted only as a whole) and `preemptionNever` decide how it preempts and is preempted.
    bool workloadAwarePreemption = false;
    int32_t priority = 0;
    bool disruptAll = false;
    bool preemptionNever = false;
    /// spec.resourceClaims: claims its members share (gate DRAWorkloadResourceClaims).
    std::vector<api::PodGroupResourceClaim> resourceClaims {};
};

struct GroupOutcome
{
    bool scheduled = false; ///< the placed members are bound
    std::string message; ///< why not, in the scheduler's words
    std::string domain; ///< the topology domain kept ("key=value"), "" without a constraint
    std::vector<BindOutcome> members; ///< one per pod given, in that order (nominatedNode set for
                                      ///< the members a preemption made room for)
    /// Workload-aware preemption after a failed cycle: its status ("" when it was not tried) and
    /// the pods (namespace/name) it marked terminating, most important unit first.
    std::string preemptionMessage;
    std::vector<std::string> victims;
};

/// One cycle of a CompositePodGroup hierarchy (scheduler/group_tree.h).
struct TreeOutcome
{
    /// The root's quorum held with a pod placed: the placed members of the whole tree are bound.
    bool scheduled = false;
    std::string message; ///< the root's, when it was not scheduled
    /// Every group of the tree, depth first, parents first; a PodGroup's `members` one per pending
    /// pod given, in the tree's order (a composite group has none).
    std::vector<GroupOutcome> groups;
    /// Workload-aware preemption for the root after a failed cycle: its status ("" when it was
    /// not tried) and the pods it marked terminating, most important unit first.
    std::string preemptionMessage;
    std::vector<std::string> victims;
};

/// What the engine needs from a cluster: a narrow seam, so the engine can be unit-tested with a
/// small fake and runs against the kube-scheduler model (scheduler::Cluster, see
/// scheduler_cluster_port.h) otherwise. Every call is synchronous; the engine owns time.
class ClusterPort
{
public:
    virtual ~ClusterPort() = default;

    virtual void setTime(double seconds) = 0;
    virtual void addNode(const api::Node& node, const std::vector<api::ResourceSlice>& slices) = 0;
    /// Removes a node and its slices. Returns the keys of pods that were bound to it; the cluster
    /// has already released them.
    virtual std::vector<std::string> removeNode(const std::string& nodeName) = 0;

    /// One scheduling cycle for the pod: claim lookup / template instantiation, filter, score,
    /// reserve, bind. On success the pod is bound and its claims reserved for it.
    virtual BindOutcome schedule(const api::Pod& pod) = 0;
    /// One PodGroup scheduling cycle (Kubernetes 1.37): the pending members are placed together,
    /// and kept only when the gang's minCount holds (counting `boundMembers`, its pods bound
    /// already). The default schedules each pod on its own, as a cluster without groups would.
    virtual GroupOutcome scheduleGroup(const GroupPolicy& /*group*/, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& /*boundMembers*/)
    {
        GroupOutcome out;
        for (const auto& p : pods) {
            out.members.push_back(schedule(p));
            out.scheduled = out.scheduled || out.members.back().scheduled;
        }
        return out;
    }
    /// One cycle for a CompositePodGroup hierarchy (Kubernetes 1.37 alpha, KEP-6012): the tree is
    /// placed top-down and bound whole, or nothing is kept. `topologyAware`: gate
    /// TopologyAwareWorkloadScheduling. The default schedules no hierarchy.
    virtual TreeOutcome scheduleGroupTree(const scheduler::GroupTreeNode& /*root*/, bool /*topologyAware*/)
    {
        TreeOutcome out;
        out.message = "this cluster does not schedule composite pod group hierarchies";
        return out;
    }
    /// The pod ended or was deleted: unreserve its claims, deallocate those without users, delete
    /// claims generated from templates.
    virtual void podFinished(const std::string& podKey) = 0;
    /// Unreserve of a pod that waited at Permit and was rejected (Kubernetes 1.35's gangs): its
    /// node's resources and its devices are free again, the claims generated for it stay. The
    /// default treats it as podFinished.
    virtual void unreserve(const std::string& podKey) { podFinished(podKey); }
    /// The PodGroup was deleted (its Job ended): the claims reserved for it are released, those
    /// made for it deleted (scheduler/group_claims.h releaseGroupClaims).
    virtual void podGroupDeleted(const std::string& /*groupKey*/) { }

    /// Taints one device. For NoExecute returns the keys of bound pods due for eviction now (the
    /// engine evicts them and calls podFinished); deviceTaintEvictions() tells the later ones.
    virtual std::vector<std::string> setDeviceTaint(const std::string& driver, const std::string& pool,
        const std::string& device, const api::DeviceTaint& taint)
        = 0;
    virtual void removeDeviceTaint(
        const std::string& driver, const std::string& pool, const std::string& device, const std::string& key)
        = 0;

    /// Creates (or replaces) a DeviceTaintRule; returns the pods due for eviction now, like
    /// setDeviceTaint. Deleting one removes its taints. The defaults know no rules.
    virtual std::vector<std::string> addDeviceTaintRule(const api::DeviceTaintRule& /*rule*/) { return {}; }
    virtual void removeDeviceTaintRule(const std::string& /*name*/) { }
    /// NoExecute device taints tolerated for a while (tolerationSeconds): each bound pod they will
    /// evict and when (simulated seconds). The default has none.
    virtual std::vector<std::pair<std::string, double>> deviceTaintEvictions() const { return {}; }
    /// The same for one pod; nullopt when nothing evicts it.
    virtual std::optional<double> deviceTaintEvictionTime(const std::string& /*podKey*/) const
    {
        return std::nullopt;
    }

    /// Increases whenever something may let a pending pod fit where it did not before (devices or
    /// node resources freed, nodes added, taints removed). The engine retries blocked pods only
    /// when it changed, which is what keeps the cost per event independent of the pending count.
    virtual uint64_t capacityGeneration() const = 0;

    /// Replaces `into` with the changes since the previous call (bound and ended pods, nodes,
    /// slices, device taints), for the queueing hints; the first call starts the record. False:
    /// this cluster does not report changes, and the engine retries on capacityGeneration alone.
    virtual bool takeChanges(std::vector<scheduler::ClusterChange>& /*into*/) { return false; }

    /// A controller whose pods the simulation creates (JobSpec::owner): the scheduler's default
    /// spread selector of the pods that name it.
    virtual void addPodOwner(const api::PodController& /*owner*/) { }
    /// A Service of a workload's manifests (for the same system default spread, over its selector).
    virtual void addService(const api::Service& /*service*/) { }

    /// Whether running pods have pod affinity terms: a pending pod's labels then decide whether
    /// (and where) it fits, so pods that differ only in labels are no longer interchangeable.
    virtual bool runningPodsHaveAffinity() const { return false; }

    /// Whether this scheduler takes pods of `schedulerName` ("" meaning "default-scheduler"): a
    /// KubeSchedulerConfiguration's profiles name the ones it takes. kube-scheduler never queues
    /// another scheduler's pods (eventhandlers.go, responsibleForPod). The default takes every pod.
    virtual bool responsibleFor(const std::string& /*schedulerName*/) const { return true; }

    /// Equal values promise an identical cluster: nothing a scheduling cycle reads changed in
    /// between (no binding, deletion, node, taint or time change; a cycle that failed and left
    /// nothing behind does not count). The engine then reuses the answer of an equivalent cycle
    /// instead of running it again. The default promises nothing: every call returns a new value.
    virtual uint64_t stateGeneration() const { return ++m_unpromisedGeneration; }

    /// Fragmentation probe, for a pod known not to fit right now: how many free devices could
    /// not serve it, by reason ("model-mismatch", "partition-counters", "topology-constraint",
    /// "too-few-on-node", "node-resources", ...). Must leave the cluster unchanged. The default
    /// knows nothing.
    virtual std::map<std::string, int64_t> strandedDevices(const api::Pod& /*pod*/) { return {}; }

    /// The FGD paper's GPU fragmentation now (core/gpushare/fragmentation.h), for clusters whose
    /// GPUs are shared in thousandths and a run with typical pods to measure against. The default
    /// knows nothing.
    virtual std::optional<gpushare::ClusterFragment> gpuShareFragmentation() { return std::nullopt; }

    /// The FGD measure on whole DRA devices now (core/gpushare/claim_fragmentation.h), per
    /// DeviceClass, for a run with typical claims to measure against; empty when there is nothing
    /// to measure. The default knows nothing.
    virtual std::map<std::string, gpushare::ClassFragment> claimFragmentation() { return {}; }
    /// Whether that measure is the general one (core/gpushare/device_fragmentation.h: MIG
    /// profiles, consumable capacity, alignment), in shares of devices.
    virtual bool claimMeasureOnShares() const { return false; }

private:
    mutable uint64_t m_unpromisedGeneration = 0;
};

} // namespace drasim::sim
