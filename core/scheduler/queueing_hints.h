// SPDX-License-Identifier: Apache-2.0
#pragma once

// kube-scheduler's queueing hints (KEP-4247, GA and locked on since Kubernetes 1.34): a pod that a
// scheduling cycle found unschedulable remembers the plugins that rejected it, and a later change
// in the cluster moves it back to the queue only when one of those plugins registered that kind
// of change and its hint says the change may make the pod schedulable. Which plugin registers
// what, and the hints, follow each plugin's EventsToRegister and isSchedulableAfter* functions
// (pkg/scheduler/framework/plugins/*); where drasim keeps less detail than a hint reads, it
// answers "may help", as upstream does when in doubt.

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/api/core_v1.h"
#include "core/scheduler/pod_topology.h"

namespace drasim::scheduler {

/// The plugins whose rejections drasim tells apart (their names are upstream's).
enum class HintPlugin : uint8_t {
    NodeUnschedulable,
    TaintToleration,
    NodeAffinity,
    NodeResourcesFit,
    PodTopologySpread,
    InterPodAffinity,
    DynamicResources,
    /// Kubernetes 1.35's gang plugin, for a member rejected at Permit when its group's time was up:
    /// it registers only a new pod of the same gang and the Workload's creation
    /// (isSchedulableAfterPodAdded, isSchedulableAfterWorkloadAdded), which the engine sees itself.
    GangScheduling,
    Count,
};
/// A set of HintPlugin bits: the pod's unschedulable plugins. Empty means no plugin is known to
/// have rejected the pod, and then every change moves it (as upstream moves a pod whose failure
/// names no plugin).
using PluginSet = uint32_t;
inline constexpr PluginSet pluginBit(HintPlugin p)
{
    return PluginSet(1) << unsigned(p);
}
const char* hintPluginName(HintPlugin p);

/// The plugin that words a Filter or PreFilter reason the way kube-scheduler's FitError lists it
/// ("Insufficient cpu": NodeResourcesFit, "cannot allocate all claims": DynamicResources, ...).
HintPlugin pluginOfReason(const std::string& reason);
/// The plugins behind the reasons of a failed cycle's histogram.
PluginSet pluginsOfReasons(const std::map<std::string, int>& histogram);

/// One change in the cluster, as the scheduler's informers would report it.
struct ClusterChange
{
    enum class Kind : uint8_t {
        /// A bound pod ended, was evicted or deleted (the informer sees terminal pods as deleted).
        AssignedPodDeleted,
        /// A pod was bound to a node.
        AssignedPodAdded,
        NodeAdded,
        NodeUpdated,
        NodeDeleted,
        /// A ResourceSlice was added or updated (also a device taint or DeviceTaintRule changing
        /// the devices a slice publishes).
        SliceChanged,
        /// A claim without users was deallocated apart from any pod (a deleted PodGroup released
        /// the claims reserved for it: the ResourceClaim controller's update of the claim).
        ClaimDeallocated,
    };
    /// What a NodeUpdated changed (upstream's UpdateNodeLabel, UpdateNodeTaint, ...).
    enum Flags : uint8_t {
        LabelsChanged = 1,
        TaintsChanged = 2, ///< taints or spec.unschedulable (upstream reports both as UpdateNodeTaint)
        AllocatableChanged = 4,
        /// AssignedPodDeleted: some of the pod's claims were deallocated by it (the resource claim
        /// controller clears status.allocation of a claim without users).
        ClaimsDeallocated = 8,
    };

    Kind kind = Kind::AssignedPodDeleted;
    uint8_t flags = 0;
    /// The node after a NodeAdded or NodeUpdated, and before a NodeUpdated or NodeDeleted, for the
    /// hints that look at it; null for other kinds.
    std::shared_ptr<const api::Node> node;
    std::shared_ptr<const api::Node> oldNode;
    /// The pod of an AssignedPodAdded or AssignedPodDeleted as PodTopologySpread and
    /// InterPodAffinity read it (namespace, labels, affinity terms): the cluster's own record of
    /// the running pod, shared, not copied. Null: their hints answer "may help".
    std::shared_ptr<const PlacementPod> pod;
};

/// The ClusterChange flags of a node replaced by another version of itself.
uint8_t nodeUpdateFlags(const api::Node& before, const api::Node& after);

/// The plugins that a change queues a pod for without looking at the pod: those that register
/// the change without a hint, or with a hint that reads only the changed object (or, where drasim
/// keeps less than the hint reads, answers "may help").
PluginSet pluginsQueuedBy(const ClusterChange& change);

/// The plugins with a hint that compares the pending pod with the changed node or pod.
inline constexpr PluginSet kPodReadingHintPlugins = pluginBit(HintPlugin::NodeUnschedulable)
    | pluginBit(HintPlugin::TaintToleration) | pluginBit(HintPlugin::NodeAffinity)
    | pluginBit(HintPlugin::NodeResourcesFit) | pluginBit(HintPlugin::PodTopologySpread)
    | pluginBit(HintPlugin::InterPodAffinity);

/// Whether some hint of kPodReadingHintPlugins reads this change (a node, or an assigned pod
/// that carries what the hints compare).
bool hintsReadThePod(const ClusterChange& change);

struct PlacementHintPod;

/// The hints that compare one pending pod with changes: what they read of the pod is worked out
/// on first use and kept for the next change.
class PendingPodHints
{
public:
    explicit PendingPodHints(const api::Pod& pod);
    ~PendingPodHints();
    PendingPodHints(const PendingPodHints&) = delete;
    PendingPodHints& operator=(const PendingPodHints&) = delete;
    /// Some plugin of `rejectedBy` has a hint that reads the pod and says Queue for the change.
    bool queues(PluginSet rejectedBy, const ClusterChange& change);

private:
    const api::Pod& m_pod;
    std::unique_ptr<PlacementHintPod> m_placement;
};

/// Whether a change may make schedulable a pod that the plugins `rejectedBy` turned away: some
/// rejecting plugin registered this kind of change and its hint says Queue. `pod` is the pending
/// pod (a member of an equivalence group answers for all of them).
bool mayMakeSchedulable(PluginSet rejectedBy, const ClusterChange& change, const api::Pod& pod);

} // namespace drasim::scheduler
