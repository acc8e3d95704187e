// SPDX-License-Identifier: Apache-2.0
// Loading a large `kubectl get resourceslices -o yaml` dump of a 5,000-node cluster: one
// ResourceSlice of 8 NVIDIA GPUs per node with the attributes the current driver publishes
// (real-world.md §2.2) and the metadata noise of a live dump: 26 MB of YAML, 40,000 devices.
// Target: load + validate in at most 2 s and 1 GB.
//
//   build-<you>/tests/bench/bench_load --benchmark_counters_tabular=true
//
// Counters: slices/s, MB/s and the process's peak RSS (getrusage) after the run. Large List
// dumps are parsed on all cores, so "CPU" (main thread only) is about half the total CPU time.
#include <cstdio>
#include <string>
#include <sys/resource.h>

#include <benchmark/benchmark.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/yaml_tree.h"

namespace {

constexpr int kNodes = 5000;
constexpr int kGpusPerNode = 8;

std::string hex4(unsigned v)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04x", v & 0xffff);
    return buf;
}

std::string clusterDump(int nodes)
{
    std::string y;
    y.reserve(size_t(nodes) * 5000);
    y += "apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n";
    for (int n = 0; n < nodes; ++n) {
        const std::string node = "gpu-node-" + std::to_string(n);
        y += "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata:\n    name: " + node
            + "-gpu.nvidia.com-x7k2p\n    generateName: " + node
            + "-gpu.nvidia.com-\n    ownerReferences:\n    - apiVersion: v1\n      kind: Node\n      name: "
            + node + "\n      uid: 5a6b7c8d-0000-4000-8000-" + hex4(unsigned(n)) + "00000000\n"
            + "  spec:\n    driver: gpu.nvidia.com\n    nodeName: " + node + "\n    pool:\n      name: "
            + node + "\n      generation: 1\n      resourceSliceCount: 1\n    devices:\n";
        for (int g = 0; g < kGpusPerNode; ++g) {
            const std::string bus = hex4(unsigned(0x18 + g * 0x20)).substr(2);
            y += "    - name: gpu-" + std::to_string(g)
                + "\n      attributes:\n"
                  "        type: {string: gpu}\n"
                  "        uuid: {string: GPU-"
                + hex4(unsigned(n)) + hex4(unsigned(g)) + "-7c3d-4e5f-8a9b-0c1d2e3f4a5" + std::to_string(g)
                + "}\n"
                  "        productName: {string: NVIDIA H100 80GB HBM3}\n"
                  "        brand: {string: Nvidia}\n"
                  "        architecture: {string: Hopper}\n"
                  "        cudaComputeCapability: {version: 9.0.0}\n"
                  "        driverVersion: {version: 580.126.9}\n"
                  "        cudaDriverVersion: {version: 13.0.0}\n"
                  "        addressingMode: {string: HMM}\n"
                  "        resource.kubernetes.io/pciBusID: {string: \"0000:"
                + bus
                + ":00.0\"}\n"
                  "        resource.kubernetes.io/pcieRoot: {string: pci0000:"
                + (g < 4 ? "10" : "90")
                + "}\n"
                  "      capacity:\n"
                  "        memory: {value: 80Gi}\n";
        }
    }
    return y;
}

const std::string& dump()
{
    static const std::string text = clusterDump(kNodes);
    return text;
}

void reportPeakRss(benchmark::State& state)
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    state.counters["peak_rss_MB"] = double(usage.ru_maxrss) / 1024.0;
}

void BM_LoadClusterDump(benchmark::State& state)
{
    const std::string& text = dump();
    size_t slices = 0;
    for (auto _ : state) {
        auto result = drasim::yamlio::loadText(text, "dump.yaml");
        if (result.diagnostics.hasErrors()) {
            state.SkipWithError(result.diagnostics.formatAll().substr(0, 300).c_str());
            return;
        }
        slices = result.objects.resourceSlices.size();
        benchmark::DoNotOptimize(result);
    }
    state.counters["slices"] = double(slices);
    state.counters["slices_per_s"]
        = benchmark::Counter(double(slices), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["MB"] = double(text.size()) / 1e6;
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
    reportPeakRss(state);
}
BENCHMARK(BM_LoadClusterDump)->Unit(benchmark::kMillisecond)->Iterations(3);

// The YAML layer alone (positioned tree for the project's own documents), for comparison.
void BM_ParseYamlTree(benchmark::State& state)
{
    const std::string& text = dump();
    for (auto _ : state) {
        drasim::Diagnostics diags;
        auto docs = drasim::yamlio::parseYamlDocuments(text, "dump.yaml", diags);
        benchmark::DoNotOptimize(docs);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
    reportPeakRss(state);
}
BENCHMARK(BM_ParseYamlTree)->Unit(benchmark::kMillisecond)->Iterations(2);

} // namespace

BENCHMARK_MAIN();
