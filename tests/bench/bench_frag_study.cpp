// SPDX-License-Identifier: Apache-2.0
// The fragmentation experiment on the Alibaba default trace (1,213 nodes, 8,152 pods inflated to
// 130 % of GPU capacity, about 10,800 arrivals): one run per policy, and the whole study of six
// policies and ten seeds on two threads. Targets: one run at most 1 s, the study at most 60 s.
#include <benchmark/benchmark.h>

#include "core/fragstudy/frag_study.h"

namespace {

using namespace drasim;

const fragstudy::StudyInput& defaultTrace()
{
    static const fragstudy::StudyInput input = [] {
        Diagnostics diags;
        const std::string dir = DRASIM_TRACES_DIR "/alibaba-gpu-2023/";
        auto in = fragstudy::loadStudyInput(
            dir + "openb_node_list_gpu_node.csv", dir + "openb_pod_list_default.csv", diags);
        if (!in)
            throw std::runtime_error(diags.formatAll());
        return std::move(*in);
    }();
    return input;
}

void BM_FragRun(benchmark::State& state)
{
    const auto& input = defaultTrace();
    fragstudy::ReplayOptions options;
    options.policy = gpushare::SharePolicy(state.range(0));
    options.seed = 42;
    size_t arrivals = 0;
    for (auto _ : state)
        arrivals = fragstudy::replay(input, options).points.size();
    state.SetLabel(std::string(gpushare::sharePolicyInfo(options.policy).name) + ", "
        + std::to_string(arrivals) + " arrivals");
}
BENCHMARK(BM_FragRun)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);

void BM_FragStudySixPoliciesTenSeeds(benchmark::State& state)
{
    const auto& input = defaultTrace();
    fragstudy::StudyOptions options;
    for (const auto& info : gpushare::sharePolicies())
        options.policies.push_back(info.policy);
    for (uint64_t seed = 42; seed <= 51; ++seed)
        options.seeds.push_back(seed);
    options.threads = unsigned(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(fragstudy::runStudy(input, options));
}
BENCHMARK(BM_FragStudySixPoliciesTenSeeds)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
