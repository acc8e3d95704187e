// SPDX-License-Identifier: Apache-2.0
// DefaultPreemption on a full cluster: 5,000 nodes with 8 cpu pods each (40,000 running pods of
// ten priorities), and a pod that fits nowhere. Preempt* runs the failed cycle and the PostFilter
// (dry runs on max(10 %, 100) = 500 candidate nodes, then the node choice); NoPreemption is the
// same failed cycle for a pod of the lowest priority, so the difference is the PostFilter's cost.
// PreemptGroups* is Preempt* with every running pod a member of a PodGroup of 8 pods on 8 nodes
// with disruptionMode all (Kubernetes 1.37 with GenericWorkload: a victim's whole group goes).
// Each iteration is rolled back (the nomination and the victims' marks).
//
//   build-*/tests/bench/bench_preemption
//
// Target (issue: priorities and preemption): one preemption attempt on 5,000 nodes with 40,000
// running pods under 10 ms.
#include <string>

#include <benchmark/benchmark.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"

using namespace drasim;

namespace {

constexpr int kNodes = 5000;
constexpr int kPodsPerNode = 8;

api::Pod cpuPod(
    const std::string& name, int32_t priority, const std::string& cpu, const std::string& nodeName)
{
    api::Pod p;
    p.meta.name = name;
    p.meta.namespace_ = "default";
    p.meta.uid = "uid-" + name;
    api::Container c;
    c.name = "main";
    c.resources.requests["cpu"] = *Quantity::parse(cpu);
    p.spec.containers.push_back(c);
    p.spec.priority = priority;
    p.spec.nodeName = nodeName;
    return p;
}

constexpr int kGroups = kNodes; // of kPodsPerNode pods each

std::string groupName(int i)
{
    return "g-" + std::to_string(i % kGroups);
}

api::ObjectSet fullCluster(bool grouped)
{
    api::ObjectSet o;
    for (int n = 0; n < kNodes; ++n) {
        api::Node node;
        node.meta.name = "node-" + std::to_string(100000 + n);
        node.allocatable["cpu"] = *Quantity::parse("8");
        node.allocatable["memory"] = *Quantity::parse("64Gi");
        node.allocatable["pods"] = *Quantity::parse("110");
        node.capacity = node.allocatable;
        for (int k = 0; k < kPodsPerNode; ++k) {
            const int i = n * kPodsPerNode + k;
            o.pods.push_back(
                cpuPod("run-" + std::to_string(i), int32_t((i * 7) % 10) * 10, "1", node.meta.name));
            // Pods i, i + kGroups, ... form a group: the same priority, on kPodsPerNode nodes.
            if (grouped)
                o.pods.back().spec.schedulingGroup = groupName(i);
        }
        o.nodes.push_back(std::move(node));
    }
    return o;
}

void attempt(benchmark::State& state, int32_t priority, bool grouped = false)
{
    static const api::ObjectSet plain = fullCluster(false);
    static const api::ObjectSet groups = fullCluster(true);
    scheduler::SchedulerOptions options;
    options.podGroupUnitsInPreemption = grouped;
    scheduler::Cluster cluster(grouped ? groups : plain, options);
    for (int g = 0; grouped && g < kGroups; ++g) {
        scheduler::PodGroupPolicy policy;
        policy.key = "default/" + groupName(g);
        policy.gang = true;
        policy.minCount = kPodsPerNode;
        policy.priority = int32_t((g * 7) % 10) * 10;
        policy.disruptAll = true;
        cluster.registerPodGroup(policy);
    }
    const api::Pod pending = cpuPod("pending", priority, "2", "");
    std::string outcome;
    for (auto _ : state) {
        cluster.beginTransaction();
        auto r = cluster.schedule(pending);
        if (!r.preemption)
            outcome = r.message;
        else if (r.preemption->nominatedNode.empty())
            outcome = r.preemption->message;
        else
            outcome = r.preemption->nominatedNode + ", " + std::to_string(r.preemption->victims.size())
                + " victims";
        cluster.rollbackTransaction();
    }
    state.SetLabel(outcome);
}

void BM_Preempt5000Nodes40000Pods(benchmark::State& state)
{
    attempt(state, 1000);
}
BENCHMARK(BM_Preempt5000Nodes40000Pods)->Unit(benchmark::kMillisecond);

void BM_NoPreemption5000Nodes40000Pods(benchmark::State& state)
{
    attempt(state, 0);
}
BENCHMARK(BM_NoPreemption5000Nodes40000Pods)->Unit(benchmark::kMillisecond);

void BM_PreemptGroups5000Nodes40000Pods(benchmark::State& state)
{
    attempt(state, 1000, true);
}
BENCHMARK(BM_PreemptGroups5000Nodes40000Pods)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
