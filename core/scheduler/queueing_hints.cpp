// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/queueing_hints.h"

#include <vector>

#include "core/scheduler/node_filters.h"
#include "core/scheduler/placement_hints.h"
#include "core/scheduler/pod_info.h"
#include "core/scheduler/pod_topology.h"

namespace drasim::scheduler {

namespace {

using Kind = ClusterChange::Kind;

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

} // namespace

PluginSet pluginsQueuedBy(const ClusterChange& c)
{
    PluginSet out = 0;
    switch (c.kind) {
    case Kind::AssignedPodDeleted:
        // NodeResourcesFit.isSchedulableAfterPodEvent: "any deletion event to a scheduled pod
        // could make the unscheduled pod schedulable". PodTopologySpread and InterPodAffinity
        // register Pod/Delete with hints that compare the deleted pod with the pending pod's
        // constraints and terms (placement_hints.cpp); without the pod: "may help".
        out |= pluginBit(HintPlugin::NodeResourcesFit);
        if (!c.pod)
            out |= pluginBit(HintPlugin::PodTopologySpread) | pluginBit(HintPlugin::InterPodAffinity);
        // DynamicResources registers no Pod/Delete; the claim controller's update that clears
        // status.allocation is a ResourceClaim/Update, and isSchedulableAfterClaimChange queues
        // every pod on "claim with structured parameters got deallocated".
        if (c.flags & ClusterChange::ClaimsDeallocated)
            out |= pluginBit(HintPlugin::DynamicResources);
        break;
    case Kind::AssignedPodAdded:
        // Pod/Add: a new matching pod may satisfy a spread domain's minimum or an affinity term
        // (their hints read the pod; without it: "may help").
        if (!c.pod)
            out |= pluginBit(HintPlugin::PodTopologySpread) | pluginBit(HintPlugin::InterPodAffinity);
        break;
    case Kind::ClaimDeallocated:
        // ResourceClaim/Update: isSchedulableAfterClaimChange queues every pod on "claim with
        // structured parameters got deallocated".
        out |= pluginBit(HintPlugin::DynamicResources);
        break;
    case Kind::SliceChanged:
        // DynamicResources registers ResourceSlice Add|Update without a hint.
        out |= pluginBit(HintPlugin::DynamicResources);
        break;
    case Kind::NodeDeleted:
        // Only PodTopologySpread registers Node/Delete (a domain that goes away changes the
        // skew); its hint reads the deleted node.
        if (!c.oldNode)
            out |= pluginBit(HintPlugin::PodTopologySpread);
        break;
    case Kind::NodeAdded:
        // DynamicResources: Node Add|UpdateNodeLabel|UpdateNodeAllocatable, no hint.
        // InterPodAffinity: Node Add|UpdateNodeLabel, its hint reads the node's topology keys
        // (placement_hints.cpp); without the node: "may help".
        out |= pluginBit(HintPlugin::DynamicResources);
        if (!c.node)
            out |= pluginBit(HintPlugin::InterPodAffinity);
        break;
    case Kind::NodeUpdated:
        if (c.flags & (ClusterChange::LabelsChanged | ClusterChange::AllocatableChanged))
            out |= pluginBit(HintPlugin::DynamicResources);
        if ((c.flags & ClusterChange::LabelsChanged) && !c.node)
            out |= pluginBit(HintPlugin::InterPodAffinity);
        // PodTopologySpread's UpdateNodeLabel | UpdateNodeTaint hint reads the node (nodeHint).
        break;
    }
    return out;
}

namespace {

bool passesOnly(FilterPlugin f, const api::Node& node, const api::Pod& pod, const PodRequests& req)
{
    std::vector<std::string> ignored;
    return passesNodeFilters(node, usageFromNode(node), pod, req, ignored, filterBit(f));
}

/// The node plugins' hints for NodeAdded and NodeUpdated: queue when the plugin's own check
/// passes on the node now and (for an update) did not pass before: NodeUnschedulable, TaintToleration
/// and NodeAffinity's isSchedulableAfterNodeChange, and NodeResourcesFit's, which compares the
/// pod's requests with the node's allocatable (isFit) and, for an update, wants an increase.
bool nodeHint(HintPlugin p, const ClusterChange& c, const api::Pod& pod)
{
    const bool added = c.kind == Kind::NodeAdded;
    const bool updated = c.kind == Kind::NodeUpdated;
    if ((!added && !updated) || !c.node)
        return false;
    const uint8_t f = c.flags;
    FilterPlugin filter;
    switch (p) {
    case HintPlugin::NodeUnschedulable:
        if (updated && !(f & ClusterChange::TaintsChanged))
            return false;
        filter = FilterPlugin::NodeUnschedulable;
        break;
    case HintPlugin::TaintToleration:
        if (updated && !(f & ClusterChange::TaintsChanged))
            return false;
        filter = FilterPlugin::TaintToleration;
        break;
    case HintPlugin::NodeAffinity:
        if (updated && !(f & ClusterChange::LabelsChanged))
            return false;
        filter = FilterPlugin::NodeAffinity;
        break;
    case HintPlugin::NodeResourcesFit:
        if (updated && !(f & ClusterChange::AllocatableChanged))
            return false;
        filter = FilterPlugin::NodeResourcesFit;
        break;
    default:
        return false;
    }
    const PodRequests req = computePodRequests(pod.spec);
    if (!passesOnly(filter, *c.node, pod, req))
        return false;
    return added || !c.oldNode || !passesOnly(filter, *c.oldNode, pod, req);
}

constexpr HintPlugin kNodeHintOrder[] = { HintPlugin::NodeUnschedulable, HintPlugin::TaintToleration,
    HintPlugin::NodeAffinity, HintPlugin::NodeResourcesFit };

bool isNodeChange(Kind k)
{
    return k == Kind::NodeAdded || k == Kind::NodeUpdated || k == Kind::NodeDeleted;
}

} // namespace

const char* hintPluginName(HintPlugin p)
{
    switch (p) {
    case HintPlugin::NodeUnschedulable:
        return "NodeUnschedulable";
    case HintPlugin::TaintToleration:
        return "TaintToleration";
    case HintPlugin::NodeAffinity:
        return "NodeAffinity";
    case HintPlugin::NodeResourcesFit:
        return "NodeResourcesFit";
    case HintPlugin::PodTopologySpread:
        return "PodTopologySpread";
    case HintPlugin::InterPodAffinity:
        return "InterPodAffinity";
    case HintPlugin::GangScheduling:
        return "GangScheduling";
    case HintPlugin::DynamicResources:
    case HintPlugin::Count:
        break;
    }
    return "DynamicResources";
}

HintPlugin pluginOfReason(const std::string& reason)
{
    if (reason == "node(s) were unschedulable")
        return HintPlugin::NodeUnschedulable;
    if (startsWith(reason, "node(s) had untolerated taint"))
        return HintPlugin::TaintToleration;
    if (reason == "node(s) didn't match Pod's node affinity/selector")
        return HintPlugin::NodeAffinity;
    if (reason == "Too many pods" || startsWith(reason, "Insufficient "))
        return HintPlugin::NodeResourcesFit;
    if (startsWith(reason, kSpreadMismatch))
        return HintPlugin::PodTopologySpread;
    if (reason == kAffinityMismatch || reason == kAntiAffinityMismatch
        || reason == kExistingAntiAffinityMismatch)
        return HintPlugin::InterPodAffinity;
    // Everything else a cycle reports is the DynamicResources plugin's ("cannot allocate all
    // claims", "resourceclaim not available on the node", a missing DeviceClass, ...).
    return HintPlugin::DynamicResources;
}

PluginSet pluginsOfReasons(const std::map<std::string, int>& histogram)
{
    // A pod that fits nowhere is tried again after most changes, mostly for the same reasons:
    // the last reasons asked and their plugins are kept (per thread).
    thread_local std::vector<std::string> lastReasons;
    thread_local PluginSet lastPlugins = 0;
    bool same = true;
    size_t i = 0;
    for (const auto& [reason, count] : histogram) {
        if (count <= 0)
            continue;
        if (i >= lastReasons.size() || lastReasons[i] != reason) {
            same = false;
            break;
        }
        ++i;
    }
    if (same && i == lastReasons.size())
        return lastPlugins;
    PluginSet out = 0;
    lastReasons.clear();
    for (const auto& [reason, count] : histogram)
        if (count > 0) {
            out |= pluginBit(pluginOfReason(reason));
            lastReasons.push_back(reason);
        }
    lastPlugins = out;
    return out;
}

uint8_t nodeUpdateFlags(const api::Node& before, const api::Node& after)
{
    uint8_t flags = 0;
    if (before.meta.labels != after.meta.labels)
        flags |= ClusterChange::LabelsChanged;
    if (before.taints != after.taints || before.unschedulable != after.unschedulable)
        flags |= ClusterChange::TaintsChanged;
    if (before.allocatable != after.allocatable)
        flags |= ClusterChange::AllocatableChanged;
    return flags;
}

bool hintsReadThePod(const ClusterChange& c)
{
    return (isNodeChange(c.kind) && (c.node || c.oldNode))
        || ((c.kind == Kind::AssignedPodAdded || c.kind == Kind::AssignedPodDeleted) && c.pod);
}

PendingPodHints::PendingPodHints(const api::Pod& pod)
    : m_pod(pod)
{ }

PendingPodHints::~PendingPodHints() = default;

bool PendingPodHints::queues(PluginSet rejectedBy, const ClusterChange& change)
{
    if (!hintsReadThePod(change))
        return false;
    for (HintPlugin p : kNodeHintOrder)
        if ((rejectedBy & pluginBit(p)) && nodeHint(p, change, m_pod))
            return true;
    const bool spread = rejectedBy & pluginBit(HintPlugin::PodTopologySpread);
    const bool affinity = rejectedBy & pluginBit(HintPlugin::InterPodAffinity);
    if (!spread && !affinity)
        return false;
    if (!m_placement)
        m_placement = std::make_unique<PlacementHintPod>(m_pod);
    if (isNodeChange(change.kind))
        return (spread && spreadQueuesAfterNodeChange(change, *m_placement))
            || (affinity && affinityQueuesAfterNodeChange(change, *m_placement));
    return (spread && spreadQueuesAfterPodChange(change, *m_placement))
        || (affinity && affinityQueuesAfterPodChange(change, *m_placement));
}

bool mayMakeSchedulable(PluginSet rejectedBy, const ClusterChange& change, const api::Pod& pod)
{
    if (rejectedBy == 0 || (rejectedBy & pluginsQueuedBy(change)) != 0)
        return true;
    PendingPodHints hints(pod);
    return hints.queues(rejectedBy, change);
}

} // namespace drasim::scheduler
