// SPDX-License-Identifier: Apache-2.0
#include "core/sim/scheduler_cluster_port.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "core/gpushare/device_fragmentation.h"
#include "core/scheduler/group_claims.h"
#include "core/scheduler/group_tree.h"
#include "core/scheduler/permit.h"
#include "core/scheduler/pod_group.h"
#include "core/topology/topology.h"

namespace drasim::sim {

SchedulerClusterPort::SchedulerClusterPort(
    scheduler::Cluster& cluster, std::shared_ptr<const topology::PlacementIndex> placement)
    : m_cluster(cluster)
    , m_placement(std::move(placement))
{ }

void SchedulerClusterPort::setTime(double seconds)
{
    if (seconds != m_time)
        ++m_changes; // taints with tolerationSeconds and nominations read the time
    m_time = seconds;
    m_cluster.setTime(seconds);
}

void SchedulerClusterPort::addNode(const api::Node& node, const std::vector<api::ResourceSlice>& slices)
{
    ++m_changes;
    m_cluster.addNode(node, slices);
}

std::vector<std::string> SchedulerClusterPort::removeNode(const std::string& nodeName)
{
    ++m_changes;
    return m_cluster.removeNode(nodeName);
}

std::string SchedulerClusterPort::classOf(const scheduler::AllocatedDevice& d)
{
    const api::ResourceClaim* claim = m_cluster.findClaim(d.claim);
    if (!claim)
        return {};
    std::string_view request = d.request;
    std::string_view sub;
    if (auto slash = request.find('/'); slash != std::string_view::npos) {
        sub = request.substr(slash + 1);
        request = request.substr(0, slash);
    }
    for (const auto& r : claim->spec.requests) {
        if (r.name != request)
            continue;
        if (r.exactly)
            return r.exactly->deviceClassName;
        for (const auto& s : r.firstAvailable)
            if (s.name == sub)
                return s.spec.deviceClassName;
    }
    return {};
}

BindOutcome SchedulerClusterPort::schedule(const api::Pod& pod)
{
    // Even a failed cycle leaves the claims it generated behind.
    ++m_changes;
    return outcomeOf(m_cluster.schedule(pod));
}

GroupOutcome SchedulerClusterPort::scheduleGroup(
    const GroupPolicy& group, const std::vector<api::Pod>& pods, const std::vector<std::string>& boundMembers)
{
    scheduler::PodGroupPolicy policy { group.key, group.gang, group.minCount, group.topologyKey };
    policy.workloadAwarePreemption = group.workloadAwarePreemption;
    policy.priority = group.priority;
    policy.disruptAll = group.disruptAll;
    policy.preemptionNever = group.preemptionNever;
    policy.resourceClaims = group.resourceClaims;
    scheduler::GroupScheduleResult r
        = m_cluster.scheduleGroup(policy, pods, boundMembers, group.topologyAware);
    // A group cycle that placed nothing, evicted nothing and nominated nothing undid everything
    // it tried (its placements and preemption's dry runs run in rolled-back transactions), so the
    // cluster is as it was, unless it took back nominations of members it placed. Preemption may
    // nominate the members with no victim, when every unit was reprieved. In 1.36 without
    // workload-aware preemption a member may have evicted pods itself.
    const bool nominated
        = std::any_of(r.members.begin(), r.members.end(), [](const scheduler::ScheduleResult& m) {
              return m.preemption && (!m.preemption->nominatedNode.empty() || !m.preemption->victims.empty());
          });
    if (r.scheduled || nominated || r.nominationsCleared > 0
        || (r.preemption && !r.preemption->victims.empty()))
        ++m_changes;
    GroupOutcome out;
    out.scheduled = r.scheduled;
    out.message = r.message;
    out.domain = r.domain;
    if (r.preemption) {
        out.preemptionMessage = r.preemption->message;
        out.victims = r.preemption->victims;
    }
    for (auto& m : r.members)
        out.members.push_back(outcomeOf(std::move(m)));
    return out;
}

TreeOutcome SchedulerClusterPort::scheduleGroupTree(const scheduler::GroupTreeNode& root, bool topologyAware)
{
    // The cycle generates the PodGroups' claims before it places anything, and may take back the
    // nominations of members it placed (GroupTreeResult::nominationsCleared): always counted as a
    // change.
    ++m_changes;
    scheduler::GroupTreeResult r = scheduler::scheduleGroupTree(m_cluster, root, topologyAware);
    TreeOutcome out;
    out.scheduled = r.scheduled;
    out.message = r.message;
    if (r.preemption) {
        out.preemptionMessage = r.preemption->message;
        out.victims = r.preemption->victims;
    }
    for (auto& g : r.groups) {
        GroupOutcome& o = out.groups.emplace_back();
        o.scheduled = r.scheduled && g.scheduled;
        o.message = g.message;
        o.domain = g.domain;
        for (auto& m : g.members)
            o.members.push_back(outcomeOf(std::move(m)));
    }
    return out;
}

BindOutcome SchedulerClusterPort::outcomeOf(scheduler::ScheduleResult&& r)
{
    BindOutcome out;
    out.scheduled = r.scheduled;
    out.unschedulablePlugins = r.unschedulablePlugins;
    out.error
        = r.failure == scheduler::FailureKind::AllocatorError || r.failure == scheduler::FailureKind::PreBind;
    out.nodeName = std::move(r.nodeName);
    out.message = std::move(r.message);
    out.claims = std::move(r.claims);
    if (r.preemption) {
        out.nominatedNode = std::move(r.preemption->nominatedNode);
        out.victims = std::move(r.preemption->victims);
    }
    // A claim's devices come one after another, most of them picked by one request: its class is
    // looked up once per run of them.
    const std::string* lastRequest = nullptr;
    out.allocated.reserve(r.allocated.size());
    for (auto& d : r.allocated) {
        if (d.adminAccess)
            continue; // admin access never makes a device busy (§6.7)
        std::string deviceClass
            = lastRequest && *lastRequest == d.request && out.allocated.back().claim == d.claim
            ? out.allocated.back().deviceClass
            : classOf(d);
        lastRequest = &d.request;
        // Built in place: its five names are moved once, not into a HeldDevice and then again.
        out.allocated.emplace_back(std::move(d.claim), std::move(d.driver), std::move(d.pool),
            std::move(d.device), std::move(deviceClass), d.deviceId);
    }
    // The placement quality of each claim with several devices, in claim name order (measured
    // only when a placement index knows the topology; a pod with one device has no such claim).
    if (m_placement && r.scheduled && out.allocated.size() >= 2) {
        std::map<std::string_view, std::vector<const HeldDevice*>> byClaim;
        for (const auto& d : out.allocated)
            byClaim[d.claim].push_back(&d);
        for (const auto& [claim, devices] : byClaim)
            if (devices.size() >= 2)
                if (const char* distance = placementOf(out.nodeName, devices))
                    out.placements.push_back(distance);
    }
    return out;
}

const char* SchedulerClusterPort::placementOf(
    const std::string& node, const std::vector<const HeldDevice*>& devices)
{
    const auto assess = [&]() -> const char* {
        std::vector<topology::DeviceRef> refs;
        refs.reserve(devices.size());
        for (const HeldDevice* d : devices)
            refs.push_back(topology::DeviceRef { d->driver, d->pool, d->device });
        topology::PlacementQuality q = m_placement->assess(node, refs);
        return q.devices >= 2 ? topology::distanceClassName(q.worst.cls) : nullptr;
    };
    // A device's cluster number names it for as long as the cluster lives, and the placement
    // index does not change during a run: the same devices in the same order on the same node
    // are the same assessment.
    std::vector<uint32_t> ids;
    ids.reserve(devices.size());
    for (const HeldDevice* d : devices) {
        if (d->clusterId == UINT32_MAX)
            return assess();
        ids.push_back(d->clusterId);
    }
    auto [it, fresh] = m_placements.try_emplace(std::move(ids));
    if (fresh || it->second.node != node)
        it->second = KnownPlacement { node, assess() };
    return it->second.distance;
}

void SchedulerClusterPort::podFinished(const std::string& podKey)
{
    ++m_changes;
    m_cluster.podFinished(podKey);
}

void SchedulerClusterPort::unreserve(const std::string& podKey)
{
    ++m_changes;
    scheduler::unreservePod(m_cluster, podKey);
}

void SchedulerClusterPort::podGroupDeleted(const std::string& groupKey)
{
    if (scheduler::releaseGroupClaims(m_cluster, groupKey))
        ++m_changes;
}

std::vector<std::string> SchedulerClusterPort::setDeviceTaint(const std::string& driver,
    const std::string& pool, const std::string& device, const api::DeviceTaint& taint)
{
    ++m_changes;
    return m_cluster.setDeviceTaint(scheduler::DeviceRef { driver, pool, device }, taint);
}

std::vector<std::string> SchedulerClusterPort::addDeviceTaintRule(const api::DeviceTaintRule& rule)
{
    ++m_changes;
    return m_cluster.addDeviceTaintRule(rule);
}

void SchedulerClusterPort::removeDeviceTaintRule(const std::string& name)
{
    ++m_changes;
    m_cluster.removeDeviceTaintRule(name);
}

std::vector<std::pair<std::string, double>> SchedulerClusterPort::deviceTaintEvictions() const
{
    return m_cluster.deviceTaintEvictions();
}

std::optional<double> SchedulerClusterPort::deviceTaintEvictionTime(const std::string& podKey) const
{
    return m_cluster.deviceTaintEvictionTime(podKey);
}

void SchedulerClusterPort::removeDeviceTaint(
    const std::string& driver, const std::string& pool, const std::string& device, const std::string& key)
{
    ++m_changes;
    m_cluster.removeDeviceTaint(scheduler::DeviceRef { driver, pool, device }, key);
}

uint64_t SchedulerClusterPort::capacityGeneration() const
{
    return m_cluster.freeEventCount();
}

bool SchedulerClusterPort::takeChanges(std::vector<scheduler::ClusterChange>& into)
{
    m_cluster.takeChanges(into);
    return true;
}

// Approximation, documented in scenarios/sim/README.md "Fragmentation": the scheduler's
// explanation of the pod lists, per node and request, how many devices each allocator check
// rejected. Devices that were free (not rejected as in use) are classified by the first check
// that turned them away:
//   request selector false -> model-mismatch      (right class, wrong model/attributes)
//   counters exhausted     -> partition-counters  (siblings of a partitioned GPU hold its counters)
//   capacity exhausted     -> shared-capacity     (a multi-allocatable device is full)
//   taint not tolerated    -> device-taint
//   constraint mismatch    -> topology-constraint (matchAttribute/distinct across PCIe/NUMA)
// Devices that passed every check on a node where the pod still did not fit are too-few-on-node
// when fewer than wanted were eligible, topology-constraint when the claim's constraints failed,
// node-resources when cpu/memory/affinity ruled the node out. Class-selector rejections (devices
// of another kind, e.g. NICs for a GPU request) are not fragmentation and are not counted. Only
// the first request of each claim is examined, so a device is counted at most once per claim.
std::map<std::string, int64_t> SchedulerClusterPort::strandedDevices(const api::Pod& pod)
{
    std::map<std::string, int64_t> out;
    scheduler::ScheduleResult r = m_cluster.schedule(pod, true);
    if (r.scheduled) {
        // Not expected (the engine probes only pods that cannot fit); undo rather than leak.
        m_cluster.podFinished(pod.meta.key());
        return out;
    }
    if (!r.diagnosis)
        return out;
    using R = scheduler::DeviceRejectReason;
    for (const auto& node : r.diagnosis->nodes) {
        for (const auto& claim : node.claims) {
            if (claim.allocated || claim.requests.empty())
                continue;
            const scheduler::RequestDiagnosis& rd = claim.requests.front();
            auto add = [&](const char* key, int64_t n) {
                if (n > 0)
                    out[key] += n;
            };
            auto rejected = [&](R reason) { return int64_t(rd.rejected[size_t(reason)]); };
            add("model-mismatch", rejected(R::RequestSelectorFalse));
            add("partition-counters", rejected(R::CountersExhausted));
            add("shared-capacity", rejected(R::CapacityExhausted));
            add("device-taint", rejected(R::TaintNotTolerated));
            add("topology-constraint", rejected(R::ConstraintMismatch));
            int64_t eligible = rd.eligible;
            if (eligible == 0)
                continue;
            if (!node.nodeReasons.empty())
                add("node-resources", eligible);
            else if (claim.note.find("constraint") != std::string::npos)
                add("topology-constraint", eligible);
            else if (eligible < rd.wanted)
                add("too-few-on-node", eligible);
            else if (!node.draStatus.empty())
                add("other", eligible);
        }
    }
    return out;
}

bool SchedulerClusterPort::responsibleFor(const std::string& schedulerName) const
{
    return scheduler::profileNamed(m_cluster.options(), schedulerName) != nullptr;
}

bool SchedulerClusterPort::claimMeasureOnShares() const
{
    const auto& target = m_cluster.options().claimTarget;
    return target && target->general && target->general->inShares;
}

} // namespace drasim::sim
