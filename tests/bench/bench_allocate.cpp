// SPDX-License-Identifier: Apache-2.0
// Scheduling throughput of the DRA allocator + scheduler (compare with upstream scheduler_perf:
// ~470 pods/s filling 500 nodes x 10 devices, ~240 pods/s with a CEL selector, ~110 pods/s with
// attribute matching).
//
//   build-*/tests/bench/bench_allocate --benchmark_filter=Fill
//
// Measured 2026-11-30 (Release, 2 shared cores, load ~15-20, so CPU time is the meaningful figure):
//   Fill500x10        ~106-118k pods/s (target >= 50k)
//   FillGpuNic5000    ~53k pods/s with a CEL selector and matchAttribute (target >= 10k)
//   RetryPendingFull5000  ~94 us per retry of a pod that fits nowhere
//   PathologicalBounded   ~0.2 s CPU, then "timed out trying to allocate devices" (2M steps)
#include <string>

#include <benchmark/benchmark.h>

#include "core/scheduler/cluster.h"

using namespace drasim;

namespace {

std::string numbered(const std::string& prefix, int64_t i)
{
    std::string s = prefix;
    s += std::to_string(i);
    return s;
}

api::Node makeNode(const std::string& name)
{
    api::Node n;
    n.meta.name = name;
    n.allocatable["cpu"] = *Quantity::parse("64");
    n.allocatable["memory"] = *Quantity::parse("256Gi");
    n.allocatable["pods"] = *Quantity::parse("110");
    n.capacity = n.allocatable;
    return n;
}

api::DeviceAttribute str(std::string v)
{
    api::DeviceAttribute a;
    a.stringValue = std::move(v);
    return a;
}

api::ResourceSlice makeSlice(
    const std::string& node, const std::string& driver, const std::string& prefix, int count, bool attrs)
{
    api::ResourceSlice s;
    s.meta.name = node + "-" + prefix;
    s.driver = driver;
    s.pool.name = node;
    s.nodeName = node;
    for (int i = 0; i < count; ++i) {
        api::Device d;
        d.name = numbered(prefix + "-", i);
        if (attrs) {
            d.attributes["model"] = str(prefix == "gpu" ? "a100" : "cx7");
            d.attributes["resource.kubernetes.io/pcieRoot"] = str(numbered("pci0000:", i));
        }
        s.devices.push_back(std::move(d));
    }
    return s;
}

api::DeviceClass makeClass(const std::string& name, const std::string& driver)
{
    api::DeviceClass c;
    c.meta.name = name;
    c.selectors.push_back(api::DeviceSelector { "device.driver == \"" + driver + "\"", {} });
    return c;
}

api::Pod makePod(int64_t i)
{
    api::Pod p;
    p.meta.name = numbered("pod-", i);
    p.meta.namespace_ = "default";
    p.meta.uid = numbered("uid-", i);
    api::Container c;
    c.name = "main";
    p.spec.containers.push_back(c);
    p.spec.resourceClaims.push_back(api::PodResourceClaim { "dev", std::nullopt, std::string("tmpl") });
    return p;
}

api::ObjectSet fillCluster(int nodes, int devices)
{
    api::ObjectSet o;
    for (int n = 0; n < nodes; ++n) {
        auto name = numbered("node-", n);
        o.nodes.push_back(makeNode(name));
        o.resourceSlices.push_back(makeSlice(name, "gpu.example.com", "gpu", devices, false));
    }
    o.deviceClasses.push_back(makeClass("gpu", "gpu.example.com"));
    api::ResourceClaimTemplate t;
    t.meta.name = "tmpl";
    t.meta.namespace_ = "default";
    api::DeviceRequest r;
    r.name = "gpu";
    r.exactly = api::DeviceRequestSpec {};
    r.exactly->deviceClassName = "gpu";
    t.spec.requests.push_back(r);
    o.resourceClaimTemplates.push_back(t);
    return o;
}

api::ObjectSet gpuNicCluster(int nodes)
{
    api::ObjectSet o;
    for (int n = 0; n < nodes; ++n) {
        auto name = numbered("node-", n);
        o.nodes.push_back(makeNode(name));
        o.resourceSlices.push_back(makeSlice(name, "gpu.example.com", "gpu", 8, true));
        o.resourceSlices.push_back(makeSlice(name, "nic.example.com", "nic", 8, true));
    }
    o.deviceClasses.push_back(makeClass("gpu", "gpu.example.com"));
    o.deviceClasses.push_back(makeClass("nic", "nic.example.com"));
    api::ResourceClaimTemplate t;
    t.meta.name = "tmpl";
    t.meta.namespace_ = "default";
    api::DeviceRequest g;
    g.name = "gpu";
    g.exactly = api::DeviceRequestSpec {};
    g.exactly->deviceClassName = "gpu";
    g.exactly->selectors.push_back(
        api::DeviceSelector { "device.attributes[\"gpu.example.com\"].model == \"a100\"", {} });
    api::DeviceRequest nic;
    nic.name = "nic";
    nic.exactly = api::DeviceRequestSpec {};
    nic.exactly->deviceClassName = "nic";
    t.spec.requests = { g, nic };
    api::DeviceConstraint con;
    con.matchAttribute = "resource.kubernetes.io/pcieRoot";
    t.spec.constraints.push_back(con);
    o.resourceClaimTemplates.push_back(t);
    return o;
}

// Fills the cluster completely: every pod schedules, the last ones search the fullest nodes.
void runFill(benchmark::State& state, const api::ObjectSet& objects, int64_t pods)
{
    std::vector<api::Pod> list;
    for (int64_t i = 0; i < pods; ++i)
        list.push_back(makePod(i));
    int64_t scheduled = 0;
    for (auto _ : state) {
        state.PauseTiming();
        scheduler::Cluster cluster(objects);
        state.ResumeTiming();
        for (const auto& p : list)
            scheduled += cluster.schedule(p).scheduled ? 1 : 0;
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * pods);
    state.counters["scheduled"] = double(scheduled) / double(state.iterations());
}

void BM_Fill500x10(benchmark::State& state)
{
    static const auto objects = fillCluster(500, 10);
    runFill(state, objects, 5000);
}
BENCHMARK(BM_Fill500x10)->Unit(benchmark::kMillisecond);

void BM_FillGpuNic5000(benchmark::State& state)
{
    static const auto objects = gpuNicCluster(5000);
    runFill(state, objects, 40000);
}
BENCHMARK(BM_FillGpuNic5000)->Unit(benchmark::kMillisecond)->Iterations(2);

// A full cluster and a pod that cannot fit, retried: the cost a simulator pays per retry of a
// pending pod (every node must be judged to build the "0/N nodes are available" message).
void BM_RetryPendingFull5000(benchmark::State& state)
{
    static const auto objects = gpuNicCluster(5000);
    scheduler::Cluster cluster(objects);
    for (int64_t i = 0; i < 40000; ++i)
        cluster.schedule(makePod(i));
    api::Pod pending = makePod(40000);
    std::string message;
    for (auto _ : state)
        message = cluster.schedule(pending).message;
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.SetLabel(message);
}
BENCHMARK(BM_RetryPendingFull5000)->Unit(benchmark::kMicrosecond);

// One pod whose claim cannot be satisfied but takes a huge search to prove it: 8 requests with a
// distinctAttribute over only 6 values, 32 devices (~10^9 paths). Bounded by the step budget:
// "timed out trying to allocate devices" after 2,000,000 devices tried.
void BM_PathologicalBounded(benchmark::State& state)
{
    api::ObjectSet o;
    o.nodes.push_back(makeNode("node-0"));
    auto s = makeSlice("node-0", "gpu.example.com", "gpu", 32, false);
    for (size_t i = 0; i < s.devices.size(); ++i) {
        api::DeviceAttribute a;
        a.type = api::DeviceAttribute::Type::Int;
        a.intValue = int64_t(i % 6);
        s.devices[i].attributes["numa"] = a;
    }
    o.resourceSlices.push_back(s);
    o.deviceClasses.push_back(makeClass("gpu", "gpu.example.com"));
    api::ResourceClaim c;
    c.meta.name = "hard";
    c.meta.namespace_ = "default";
    for (int i = 0; i < 8; ++i) {
        api::DeviceRequest r;
        r.name = numbered("r", i);
        r.exactly = api::DeviceRequestSpec {};
        r.exactly->deviceClassName = "gpu";
        c.spec.requests.push_back(r);
    }
    api::DeviceConstraint con;
    con.distinctAttribute = "gpu.example.com/numa";
    c.spec.constraints.push_back(con);
    o.resourceClaims.push_back(c);
    api::Pod p = makePod(0);
    p.spec.resourceClaims = { api::PodResourceClaim { "c", std::string("hard"), std::nullopt } };
    scheduler::SchedulerOptions opt;
    opt.searchStepBudget = uint64_t(state.range(0));
    std::string message;
    for (auto _ : state) {
        state.PauseTiming();
        scheduler::Cluster cluster(o, opt);
        state.ResumeTiming();
        message = cluster.schedule(p).message;
    }
    state.SetLabel(message);
}
BENCHMARK(BM_PathologicalBounded)->Arg(2'000'000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
