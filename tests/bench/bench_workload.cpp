// SPDX-License-Identifier: Apache-2.0
// Workload generation and trace parsing speed. Run: build/tests/bench/bench_workload
#include <benchmark/benchmark.h>

#include "core/workload/alibaba_trace.h"
#include "core/workload/arrival_process.h"
#include "core/workload/kfp_pipeline.h"
#include "core/workload/manifest_source.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

const std::string kTrace = DRASIM_TRACES_DIR "/alibaba-gpu-2023/";

// Reading and validating the full default pod list (8,152 rows).
void BM_ParseAlibabaDefaultPods(benchmark::State& state)
{
    for (auto _ : state) {
        Diagnostics diags;
        auto list = readAlibabaPods(kTrace + "openb_pod_list_default.csv", diags);
        if (!list || list->rows.size() != 8152)
            state.SkipWithError("unexpected trace content");
        benchmark::DoNotOptimize(list);
    }
    state.SetItemsProcessed(state.iterations() * 8152);
}
BENCHMARK(BM_ParseAlibabaDefaultPods)->Unit(benchmark::kMillisecond);

// Parsing plus mapping every row to a JobSpec (pods, claim templates) as the simulator pulls them.
void BM_StreamAlibabaDefaultJobs(benchmark::State& state)
{
    WorkloadSpec w;
    w.name = "openb";
    w.source = WorkloadSpec::Source::Trace;
    w.trace = TraceSpec {};
    w.trace->path = kTrace + "openb_pod_list_default.csv";
    for (auto _ : state) {
        Diagnostics diags;
        auto src = makeAlibabaSource(w, 1, diags);
        if (!src) {
            state.SkipWithError(diags.formatAll().c_str());
            break;
        }
        size_t n = 0;
        while (auto j = src->next())
            ++n;
        if (n != 8152)
            state.SkipWithError("unexpected job count");
    }
    state.SetItemsProcessed(state.iterations() * 8152);
}
BENCHMARK(BM_StreamAlibabaDefaultJobs)->Unit(benchmark::kMillisecond);

// Node list → Nodes + ResourceSlices + DeviceClass (1,213 nodes, 6,212 GPUs).
void BM_AlibabaCluster(benchmark::State& state)
{
    TraceClusterSpec spec;
    spec.nodesPath = kTrace + "openb_node_list_gpu_node.csv";
    spec.sharing = state.range(0) ? GpuSharing::Partitions : GpuSharing::Capacity;
    for (auto _ : state) {
        Diagnostics diags;
        auto set = loadTraceCluster(spec, diags);
        benchmark::DoNotOptimize(set);
    }
    state.SetItemsProcessed(state.iterations() * 1213);
}
BENCHMARK(BM_AlibabaCluster)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Arrival times alone: 1,000,000 Poisson / diurnal arrivals.
void BM_ArrivalTimes(benchmark::State& state)
{
    ArrivalSpec spec;
    spec.process = state.range(0) ? ArrivalSpec::Process::Diurnal : ArrivalSpec::Process::Poisson;
    spec.ratePerSecond = 10;
    spec.amplitude = 0.8;
    spec.count = 1'000'000;
    for (auto _ : state) {
        ArrivalProcess p(spec, 42);
        double last = 0;
        while (auto t = p.next())
            last = *t;
        benchmark::DoNotOptimize(last);
    }
    state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_ArrivalTimes)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// 1,000,000 full JobSpecs from a generator: Poisson arrivals, a 3:1 mix of two job types,
// lognormal durations; pods share their template, so a JobSpec is small.
void BM_Generate1MJobs(benchmark::State& state)
{
    api::ObjectSet set;
    for (const char* name : { "train-small", "train-large" }) {
        api::PodController job;
        job.meta.name = name;
        job.podTemplate.spec.containers.push_back(api::Container { "main", "img", {}, {} });
        job.podTemplate.spec.resourceClaims.push_back({ "gpu", std::nullopt, std::string("one-gpu") });
        set.controllers.push_back(job);
    }
    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    set.resourceClaimTemplates.push_back(t);
    WorkloadSpec w;
    w.name = "gen";
    w.arrival = ArrivalSpec {};
    w.arrival->process = ArrivalSpec::Process::Poisson;
    w.arrival->ratePerSecond = 10;
    w.arrival->count = 1'000'000;
    DurationSpec d;
    d.distribution = DurationSpec::Distribution::Lognormal;
    d.median = 1200;
    d.sigma = 0.8;
    w.duration = d;
    w.mix = { { "train-small", 3 }, { "train-large", 1 } };
    for (auto _ : state) {
        Diagnostics diags;
        auto src = makeManifestSource(w, jobTypesFromObjects(set, "default", diags), 42, diags);
        size_t n = 0;
        while (auto j = src->next())
            ++n;
        if (n != 1'000'000)
            state.SkipWithError("unexpected job count");
    }
    state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_Generate1MJobs)->Unit(benchmark::kMillisecond);

// Parsing the sample compiled KFP pipeline (IR + platform spec, DAG order).
void BM_ParseKfpPipeline(benchmark::State& state)
{
    const std::string path = DRASIM_SOURCE_DIR "/tests/data/workload/kfp/gpu_training_pipeline.yaml";
    for (auto _ : state) {
        Diagnostics diags;
        auto p = loadKfpPipeline(path, diags);
        benchmark::DoNotOptimize(p);
    }
}
BENCHMARK(BM_ParseKfpPipeline)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
