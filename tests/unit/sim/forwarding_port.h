// SPDX-License-Identifier: Apache-2.0
// What the engine's law tests share: the scheduler's port behind one that passes every call on,
// for a test to watch or change a few of them, and the GPU class with claim templates of 1..N
// devices that their random jobs use.
#pragma once

#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"

namespace drasim::sim::testing {

/// The DeviceClass "gpu" and templates "gpu-1".."gpu-<maxGpus>" in namespace default, asking
/// for that many devices of it (the pools of gpuPool(), the jobs of gpuJob()).
inline api::ObjectSet gpuClassAndTemplates(int maxGpus)
{
    api::ObjectSet o;
    api::DeviceClass cls;
    cls.meta.name = "gpu";
    o.deviceClasses.push_back(cls);
    for (int n = 1; n <= maxGpus; ++n) {
        api::ResourceClaimTemplate t;
        t.meta.name = "gpu-" + std::to_string(n);
        t.meta.namespace_ = "default";
        api::DeviceRequest r;
        r.name = "gpu";
        r.exactly.emplace();
        r.exactly->deviceClassName = "gpu";
        r.exactly->count = n;
        t.spec.requests.push_back(r);
        o.resourceClaimTemplates.push_back(t);
    }
    return o;
}

/// The scheduler's port (SchedulerClusterPort) behind one that passes every call on unchanged.
/// It does not pass stateGeneration() on: a test that wants the engine to reuse failures, as it
/// does with the scheduler's port itself, overrides it.
class ForwardingPort : public ClusterPort
{
public:
    explicit ForwardingPort(scheduler::Cluster& cluster)
        : m_cluster(cluster)
        , m_inner(cluster)
    { }

    void setTime(double seconds) override { m_inner.setTime(seconds); }
    void addNode(const api::Node& node, const std::vector<api::ResourceSlice>& slices) override
    {
        m_inner.addNode(node, slices);
    }
    std::vector<std::string> removeNode(const std::string& name) override { return m_inner.removeNode(name); }
    BindOutcome schedule(const api::Pod& pod) override { return m_inner.schedule(pod); }
    GroupOutcome scheduleGroup(const GroupPolicy& group, const std::vector<api::Pod>& pods,
        const std::vector<std::string>& boundMembers) override
    {
        return m_inner.scheduleGroup(group, pods, boundMembers);
    }
    TreeOutcome scheduleGroupTree(const scheduler::GroupTreeNode& root, bool topologyAware) override
    {
        return m_inner.scheduleGroupTree(root, topologyAware);
    }
    void podFinished(const std::string& key) override { m_inner.podFinished(key); }
    void unreserve(const std::string& key) override { m_inner.unreserve(key); }
    std::vector<std::string> setDeviceTaint(const std::string& driver, const std::string& pool,
        const std::string& device, const api::DeviceTaint& taint) override
    {
        return m_inner.setDeviceTaint(driver, pool, device, taint);
    }
    void removeDeviceTaint(const std::string& driver, const std::string& pool, const std::string& device,
        const std::string& key) override
    {
        m_inner.removeDeviceTaint(driver, pool, device, key);
    }
    uint64_t capacityGeneration() const override { return m_inner.capacityGeneration(); }

protected:
    scheduler::Cluster& m_cluster;
    SchedulerClusterPort m_inner;
};

} // namespace drasim::sim::testing
