// SPDX-License-Identifier: Apache-2.0
// Cluster generation speed: the target is a 5,000-node cluster of 8-GPU + 8-NIC shapes
// (Nodes and ResourceSlices) in at most 1 s.
#include <memory>

#include <benchmark/benchmark.h>

#include "core/topology/attribute_topology.h"
#include "core/topology/catalog.h"
#include "core/topology/cluster_builder.h"
#include "core/topology/topology.h"

namespace {

using namespace drasim;

const topology::NodeShape& dgx()
{
    static const topology::Catalog catalog = [] {
        Diagnostics d;
        return topology::Catalog::load(std::string(DRASIM_SOURCE_DIR) + "/resources/hardware", d);
    }();
    const topology::NodeShape* s = catalog.find("dgx-h100");
    if (!s)
        std::abort();
    return *s;
}

void generateCluster(benchmark::State& state, topology::GenerateOptions options)
{
    const auto& shape = dgx();
    const int nodes = int(state.range(0));
    size_t devices = 0;
    for (auto _ : state) {
        // Includes building the topology and the per-shape prototypes, as a caller would.
        auto objects
            = std::make_unique<api::ObjectSet>(topology::generateNodePool(shape, nodes, "gpu-node", options));
        benchmark::DoNotOptimize(objects.get());
        // Freeing a million map nodes is the caller's business (the simulator keeps them for
        // the whole run); keep it out of the measurement.
        state.PauseTiming();
        devices = 0;
        for (const auto& s : objects->resourceSlices)
            devices += s.devices.size();
        objects.reset();
        state.ResumeTiming();
    }
    state.counters["nodes"] = nodes;
    state.counters["devices"] = double(devices);
}

void BM_GenerateDgxH100Cluster(benchmark::State& state)
{
    generateCluster(state, {});
}
BENCHMARK(BM_GenerateDgxH100Cluster)->Arg(5000)->Unit(benchmark::kMillisecond);

void BM_GenerateDgxH100ClusterDynamicMig(benchmark::State& state)
{
    topology::GenerateOptions o;
    o.mig = topology::MigMode::Dynamic;
    generateCluster(state, o);
}
BENCHMARK(BM_GenerateDgxH100ClusterDynamicMig)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_TopologyBuild(benchmark::State& state)
{
    const auto& shape = dgx();
    for (auto _ : state) {
        topology::Topology t(shape);
        benchmark::DoNotOptimize(t.endpoints().size());
    }
}
BENCHMARK(BM_TopologyBuild)->Unit(benchmark::kMicrosecond);

void BM_PlacementQuality(benchmark::State& state)
{
    topology::ClusterBuilder b;
    b.addPool(dgx(), 100, "n");
    auto index = b.placementIndex();
    std::vector<topology::DeviceRef> refs
        = { { "gpu.nvidia.com", "n-42", "gpu-0" }, { "gpu.nvidia.com", "n-42", "gpu-1" },
              { "dra.net", "n-42", "pci-0000-18-00-0" }, { "dra.net", "n-42", "pci-0000-40-00-0" } };
    for (auto _ : state)
        benchmark::DoNotOptimize(index->assess("n-42", refs));
}
BENCHMARK(BM_PlacementQuality)->Unit(benchmark::kMicrosecond);

// A cluster read from manifests: every node's topology derived from its devices' attributes, plus
// the sketch the GUI draws (its Topology included), as the GUI's worker thread does on open.
void BM_AttributeTopologyCluster(benchmark::State& state)
{
    const int nodes = int(state.range(0));
    const api::ObjectSet objects = topology::generateNodePool(dgx(), nodes, "n", {});
    std::map<std::string, std::vector<topology::PublishedDevice>> byNode;
    for (const auto& slice : objects.resourceSlices)
        for (const auto& d : slice.devices)
            byNode[*slice.nodeName].push_back({ slice.driver, slice.pool.name, &d });
    for (auto _ : state) {
        size_t components = 0;
        for (const auto& [name, devices] : byNode) {
            const topology::AttributeTopology derived(devices);
            std::vector<int> componentOfUnit;
            const topology::Topology sketch(derived.sketch(name, &componentOfUnit));
            components += sketch.shape().components.size();
        }
        benchmark::DoNotOptimize(components);
    }
    state.counters["nodes"] = nodes;
}
BENCHMARK(BM_AttributeTopologyCluster)->Arg(5000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
