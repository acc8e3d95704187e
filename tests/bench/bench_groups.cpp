// SPDX-License-Identifier: Apache-2.0
// The PodGroup scheduling cycle (Kubernetes 1.37 semantics) at scale: 5,000 nodes x 8 GPUs in 100
// racks, 2,000 random gangs of 8-64 one-GPU pods, placed in process one group cycle after another.
//
//   build-*/tests/bench/bench_groups
//
// Targets: >= 50,000 pods/s placed without a topology key, >= 20,000 pods/s with a rack key, one
// 64-pod group cycle on 5,000 nodes < 5 ms (CPU time; the machine is shared). BM_PlaceTrees3Levels
// places CompositePodGroup hierarchies (job > replica per block > gang per rack) on the same nodes.
#include <memory>
#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/group_tree.h"
#include "core/scheduler/pod_group.h"

using namespace drasim;

namespace {

constexpr int kNodes = 5000;
constexpr int kRacks = 100;
constexpr int kGpus = 8;

/// `withBlocks`: racks also stand in blocks of ten (block-0 holds rack-0 ... rack-9).
api::ObjectSet rackCluster(bool withBlocks = false)
{
    api::ObjectSet o;
    for (int n = 0; n < kNodes; ++n) {
        api::Node node;
        node.meta.name = "node-" + std::to_string(n);
        node.meta.labels["rack"] = "rack-" + std::to_string(n % kRacks);
        if (withBlocks)
            node.meta.labels["block"] = "block-" + std::to_string(n % kRacks / 10);
        node.allocatable["cpu"] = *Quantity::parse("128");
        node.allocatable["memory"] = *Quantity::parse("1Ti");
        node.allocatable["pods"] = *Quantity::parse("110");
        node.capacity = node.allocatable;
        api::ResourceSlice s;
        s.meta.name = node.meta.name + "-gpus";
        s.driver = "gpu.example.com";
        s.pool.name = node.meta.name;
        s.nodeName = node.meta.name;
        for (int g = 0; g < kGpus; ++g) {
            api::Device d;
            d.name = "gpu-" + std::to_string(g);
            s.devices.push_back(d);
        }
        o.nodes.push_back(std::move(node));
        o.resourceSlices.push_back(std::move(s));
    }
    api::DeviceClass cls;
    cls.meta.name = "gpu";
    o.deviceClasses.push_back(cls);
    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    t.meta.namespace_ = "default";
    api::DeviceRequest r;
    r.name = "gpu";
    r.exactly.emplace();
    r.exactly->deviceClassName = "gpu";
    t.spec.requests.push_back(r);
    o.resourceClaimTemplates.push_back(t);
    return o;
}

/// A pod of one GPU (from the template one-gpu), one cpu and 8 GiB.
api::Pod gpuPod(const std::string& name)
{
    api::Pod p;
    p.meta.name = name;
    p.meta.namespace_ = "default";
    p.meta.uid = p.meta.name;
    api::PodResourceClaim c;
    c.name = "gpu";
    c.resourceClaimTemplateName = "one-gpu";
    p.spec.resourceClaims.push_back(c);
    api::Container ctr;
    ctr.name = "main";
    ctr.resources.requests["cpu"] = *Quantity::parse("1");
    ctr.resources.requests["memory"] = *Quantity::parse("8Gi");
    p.spec.containers.push_back(ctr);
    return p;
}

struct Gang
{
    scheduler::PodGroupPolicy policy;
    std::vector<api::Pod> pods;
};

std::vector<Gang> randomGangs(int count, const std::string& topologyKey)
{
    std::mt19937_64 rng(42);
    std::vector<Gang> out;
    for (int g = 0; g < count; ++g) {
        Gang gang;
        const int size = 8 + int(rng() % 57);
        gang.policy = scheduler::PodGroupPolicy { "default/g" + std::to_string(g), true, size, topologyKey };
        for (int i = 0; i < size; ++i)
            gang.pods.push_back(gpuPod("g" + std::to_string(g) + "-" + std::to_string(i)));
        out.push_back(std::move(gang));
    }
    return out;
}

void placeGangs(benchmark::State& state, const std::string& key)
{
    const auto objects = rackCluster();
    const auto gangs = randomGangs(2000, key);
    int64_t placed = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto cluster = std::make_unique<scheduler::Cluster>(objects);
        state.ResumeTiming();
        for (const auto& g : gangs) {
            auto r = cluster->scheduleGroup(g.policy, g.pods, {}, !key.empty());
            placed += r.placed;
        }
        // Tearing the cluster down is not placing pods: untimed, as making it is.
        state.PauseTiming();
        cluster.reset();
        state.ResumeTiming();
    }
    state.counters["pods_placed/s"] = benchmark::Counter(double(placed), benchmark::Counter::kIsRate);
}

void BM_PlaceGangs(benchmark::State& state)
{
    placeGangs(state, "");
}
BENCHMARK(BM_PlaceGangs)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_PlaceGangsInRacks(benchmark::State& state)
{
    placeGangs(state, "rack");
}
BENCHMARK(BM_PlaceGangsInRacks)->Unit(benchmark::kMillisecond)->Iterations(1);

// One 64-pod group cycle on the empty 5,000-node cluster, undone after each run.
void BM_GroupCycle64(benchmark::State& state)
{
    scheduler::Cluster cluster(rackCluster());
    auto gangs = randomGangs(1, "");
    gangs[0].pods.resize(64, gangs[0].pods.front());
    for (size_t i = 0; i < gangs[0].pods.size(); ++i)
        gangs[0].pods[i].meta.name = gangs[0].pods[i].meta.uid = "m-" + std::to_string(i);
    gangs[0].policy.minCount = 64;
    for (auto _ : state) {
        cluster.beginTransaction();
        auto r = cluster.scheduleGroup(gangs[0].policy, gangs[0].pods, {}, false);
        benchmark::DoNotOptimize(r.placed);
        cluster.rollbackTransaction();
    }
}
BENCHMARK(BM_GroupCycle64)->Unit(benchmark::kMillisecond);

// A three-level hierarchy of 64 pods: job (gang of its 2 replicas) > replica (kept in one block,
// gang of its 2 gangs) > gang of 16 pods (kept in one rack).
scheduler::GroupTreeNode treeJob(int j)
{
    auto group = [](const std::string& name, bool composite, int32_t min, const std::string& key) {
        scheduler::GroupTreeNode n;
        n.composite = composite;
        n.policy = scheduler::PodGroupPolicy { "default/" + name, true, min, key };
        return n;
    };
    scheduler::GroupTreeNode job = group("job-" + std::to_string(j), true, 2, "");
    for (int r = 0; r < 2; ++r) {
        const std::string replica = "job-" + std::to_string(j) + "-r" + std::to_string(r);
        scheduler::GroupTreeNode rep = group(replica, true, 2, "block");
        for (int g = 0; g < 2; ++g) {
            scheduler::GroupTreeNode gang = group(replica + "-g" + std::to_string(g), false, 16, "rack");
            for (int i = 0; i < 16; ++i)
                gang.pending.push_back(gpuPod(gang.policy.key.substr(8) + "-" + std::to_string(i)));
            rep.children.push_back(std::move(gang));
        }
        job.children.push_back(std::move(rep));
    }
    return job;
}

void BM_PlaceTrees3Levels(benchmark::State& state)
{
    const auto objects = rackCluster(true);
    std::vector<scheduler::GroupTreeNode> jobs;
    for (int j = 0; j < 20; ++j)
        jobs.push_back(treeJob(j));
    int64_t placed = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto cluster = std::make_unique<scheduler::Cluster>(objects);
        state.ResumeTiming();
        for (const auto& job : jobs)
            placed += scheduler::scheduleGroupTree(*cluster, job, true).placed;
        state.PauseTiming();
        cluster.reset();
        state.ResumeTiming();
    }
    state.counters["pods_placed/s"] = benchmark::Counter(double(placed), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PlaceTrees3Levels)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

BENCHMARK_MAIN();
