// SPDX-License-Identifier: Apache-2.0
// The checks the engine's random preemption laws make after every cycle, on what the cluster
// holds (not on what the engine believes): every victim is being deleted and of lower priority
// than its preemptor, and no node holds more device-plugin GPUs than it has, pods being deleted
// included.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/core_v1.h"
#include "core/scheduler/cluster.h"
#include "tests/unit/sim/forwarding_port.h"

namespace drasim::sim::testing {

/// A ForwardingPort that remembers the device-plugin GPUs of every pod it is handed (note) and
/// checks victims and GPU capacity; `seed` names the run in every failure.
class LawPort : public ForwardingPort
{
public:
    LawPort(scheduler::Cluster& cluster, std::string seed)
        : ForwardingPort(cluster)
        , m_seed(std::move(seed))
    { }

    int victims = 0; ///< victims checked so far

protected:
    static constexpr const char* kPluginGpu = "nvidia.com/gpu";

    void note(const api::Pod& pod)
    {
        int64_t gpus = 0;
        for (const auto& c : pod.spec.containers)
            if (auto it = c.resources.requests.find(kPluginGpu); it != c.resources.requests.end())
                gpus += it->second.value();
        m_pluginGpus[pod.meta.namespace_ + "/" + pod.meta.name] = gpus;
    }

    /// Every victim is bound, being deleted now, and of lower priority than its preemptor.
    void checkVictims(const std::vector<std::string>& keys, int32_t priority, const std::string& preemptor)
    {
        for (const auto& v : keys) {
            ++victims;
            const auto* b = m_cluster.findBoundPod(v);
            ASSERT_TRUE(b) << m_seed << " " << v;
            EXPECT_TRUE(b->terminating) << m_seed << " " << v;
            EXPECT_LT(b->priority, priority) << m_seed << " " << v << " preempted by " << preemptor;
        }
    }

    /// No node holds more device-plugin GPUs than it has.
    void checkPluginGpus()
    {
        std::map<std::string, int64_t> used;
        for (const auto& b : m_cluster.boundPods())
            if (auto it = m_pluginGpus.find(b.key); it != m_pluginGpus.end())
                used[b.nodeName] += it->second;
        for (const auto& [node, gpus] : used) {
            const auto& allocatable = m_cluster.findNode(node)->allocatable;
            auto it = allocatable.find(kPluginGpu);
            EXPECT_LE(gpus, it == allocatable.end() ? 0 : it->second.value()) << m_seed << " node " << node;
        }
    }

    std::string m_seed;

private:
    std::map<std::string, int64_t> m_pluginGpus; ///< pod key -> device-plugin GPUs requested
};

} // namespace drasim::sim::testing
