// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread and InterPodAffinity at scale: 20,000 replicas of one ReplicaSet onto 5,000
// nodes in 10 zones, each replica placed after the previous ones are running, as a Deployment's
// rollout reaches the scheduler. Every cycle counts the matching pods of the cluster per domain
// (PreFilter/PreScore over every node, as upstream's plugins do).
//
//   build-*/tests/bench/bench_pod_spread
//
// SystemDefault: the pods carry no rules of their own; the plugin's system defaults (hostname
// maxSkew 3, zone maxSkew 5, ScheduleAnyway) spread them over the ReplicaSet's selector.
// ZoneDoNotSchedule: each pod also has a DoNotSchedule zone constraint (maxSkew 1).
// Plain: the same pods without an owner, for the cost of the scheduler without either plugin.
#include <string>

#include <benchmark/benchmark.h>

#include "core/scheduler/cluster.h"

using namespace drasim;

namespace pod_spread_bench {

constexpr int kNodes = 5000;
constexpr int kZones = 10;
constexpr int64_t kReplicas = 20000;

api::ObjectSet zonedCluster()
{
    api::ObjectSet o;
    for (int n = 0; n < kNodes; ++n) {
        api::Node node;
        node.meta.name = "node-" + std::to_string(n);
        node.meta.labels["kubernetes.io/hostname"] = node.meta.name;
        node.meta.labels["topology.kubernetes.io/zone"] = "zone-" + std::to_string(n % kZones);
        node.allocatable["cpu"] = *Quantity::parse("64");
        node.allocatable["memory"] = *Quantity::parse("256Gi");
        node.allocatable["pods"] = *Quantity::parse("110");
        node.capacity = node.allocatable;
        o.nodes.push_back(std::move(node));
    }
    api::PodController rs;
    rs.kind = api::PodController::Kind::ReplicaSet;
    rs.meta.name = "web-7d9f";
    rs.meta.namespace_ = "default";
    rs.selector = api::LabelSelector { { { "app", "web" } }, {} };
    o.controllers.push_back(rs);
    return o;
}

api::Pod replica(int64_t i, bool owned, bool zoneConstraint)
{
    api::Pod p;
    p.meta.name = "web-7d9f-" + std::to_string(i);
    p.meta.namespace_ = "default";
    p.meta.uid = "uid-" + std::to_string(i);
    p.meta.labels = { { "app", "web" }, { "pod-template-hash", "7d9f" } };
    if (owned)
        p.meta.ownerReferences.push_back(
            api::OwnerReference { "apps/v1", "ReplicaSet", "web-7d9f", "", true });
    if (zoneConstraint) {
        api::TopologySpreadConstraint c;
        c.maxSkew = 1;
        c.topologyKey = "topology.kubernetes.io/zone";
        c.labelSelector = api::LabelSelector { { { "app", "web" } }, {} };
        p.spec.topologySpreadConstraints.push_back(c);
    }
    api::Container c;
    c.name = "main";
    c.resources.requests["cpu"] = *Quantity::parse("500m");
    c.resources.requests["memory"] = *Quantity::parse("1Gi");
    p.spec.containers.push_back(c);
    return p;
}

void runReplicas(benchmark::State& state, bool owned, bool zoneConstraint)
{
    static const api::ObjectSet objects = zonedCluster();
    std::vector<api::Pod> pods;
    for (int64_t i = 0; i < kReplicas; ++i)
        pods.push_back(replica(i, owned, zoneConstraint));
    int64_t scheduled = 0;
    for (auto _ : state) {
        state.PauseTiming();
        scheduler::Cluster cluster(objects);
        state.ResumeTiming();
        for (const auto& p : pods)
            scheduled += cluster.schedule(p).scheduled ? 1 : 0;
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kReplicas);
    state.counters["scheduled"] = double(scheduled) / double(state.iterations());
}

void BM_Replicas5000Nodes_Plain(benchmark::State& state)
{
    runReplicas(state, false, false);
}
BENCHMARK(BM_Replicas5000Nodes_Plain)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Replicas5000Nodes_SystemDefault(benchmark::State& state)
{
    runReplicas(state, true, false);
}
BENCHMARK(BM_Replicas5000Nodes_SystemDefault)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Replicas5000Nodes_ZoneDoNotSchedule(benchmark::State& state)
{
    runReplicas(state, true, true);
}
BENCHMARK(BM_Replicas5000Nodes_ZoneDoNotSchedule)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace pod_spread_bench

BENCHMARK_MAIN();
