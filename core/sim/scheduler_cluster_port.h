// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/scheduler/claim_scoring.h"
#include "core/scheduler/cluster.h"
#include "core/sim/cluster_port.h"
#include "core/topology/placement_quality.h"

namespace drasim::sim {

/// The production ClusterPort: the kube-scheduler + DRA allocator model of core/scheduler.
/// Adds what the engine reports on top: the DeviceClass behind each allocated device, and the
/// topology distance class of multi-device claims (when a placement index knows the node).
class SchedulerClusterPort : public ClusterPort
{
public:
    explicit SchedulerClusterPort(
        scheduler::Cluster& cluster, std::shared_ptr<const topology::PlacementIndex> placement = nullptr);

    void setTime(double seconds) override;
    void addNode(const api::Node& node, const std::vector<api::ResourceSlice>& slices) override;
    std::vector<std::string> removeNode(const std::string& nodeName) override;
    BindOutcome schedule(const api::Pod& pod) override;
    GroupOutcome scheduleGroup(const GroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& boundMembers) override;
    TreeOutcome scheduleGroupTree(const scheduler::GroupTreeNode& root, bool topologyAware) override;
    void podFinished(const std::string& podKey) override;
    void unreserve(const std::string& podKey) override;
    void podGroupDeleted(const std::string& groupKey) override;
    std::vector<std::string> setDeviceTaint(const std::string& driver, const std::string& pool,
        const std::string& device, const api::DeviceTaint& taint) override;
    std::vector<std::string> addDeviceTaintRule(const api::DeviceTaintRule& rule) override;
    void removeDeviceTaintRule(const std::string& name) override;
    std::vector<std::pair<std::string, double>> deviceTaintEvictions() const override;
    std::optional<double> deviceTaintEvictionTime(const std::string& podKey) const override;
    void removeDeviceTaint(const std::string& driver, const std::string& pool, const std::string& device,
        const std::string& key) override;
    uint64_t capacityGeneration() const override;
    bool takeChanges(std::vector<scheduler::ClusterChange>& into) override;
    void addPodOwner(const api::PodController& owner) override { m_cluster.addPodOwner(owner); }
    void addService(const api::Service& service) override { scheduler::addService(m_cluster, service); }
    bool runningPodsHaveAffinity() const override { return m_cluster.runningPodsHaveAffinity(); }
    bool responsibleFor(const std::string& schedulerName) const override;
    uint64_t stateGeneration() const override { return m_changes; }
    std::map<std::string, int64_t> strandedDevices(const api::Pod& pod) override;
    std::optional<gpushare::ClusterFragment> gpuShareFragmentation() override
    {
        return m_cluster.gpuShareFragmentation();
    }
    std::map<std::string, gpushare::ClassFragment> claimFragmentation() override
    {
        return scheduler::claimFragmentation(m_cluster);
    }
    bool claimMeasureOnShares() const override;

    /// The cluster itself; whoever asks may change it, so the state generation moves on.
    scheduler::Cluster& cluster()
    {
        ++m_changes;
        return m_cluster;
    }

private:
    std::string classOf(const scheduler::AllocatedDevice& d);
    /// The outcome in the simulator's terms; takes the result's texts rather than copying them.
    BindOutcome outcomeOf(scheduler::ScheduleResult&& r);
    /// The distance class of one claim's devices on `node` (null when fewer than two of them are
    /// on the node's topology), remembered by the devices' cluster numbers.
    const char* placementOf(const std::string& node, const std::vector<const HeldDevice*>& devices);

    scheduler::Cluster& m_cluster;
    std::shared_ptr<const topology::PlacementIndex> m_placement;
    /// stateGeneration(): counts every call that changed, or may have changed, the cluster.
    uint64_t m_changes = 0;
    double m_time = -1;
    /// placementOf's answers: the same devices on the same node are assessed once per run (a
    /// gang's claims take the same whole boards of the same nodes again and again).
    struct KnownPlacement
    {
        std::string node;
        const char* distance = nullptr;
    };
    std::map<std::vector<uint32_t>, KnownPlacement> m_placements;
};

} // namespace drasim::sim
