// SPDX-License-Identifier: Apache-2.0
// The capacity planner on two studies, on 1 and 2 threads. Reports the simulations run, wall time
// per simulation and the machine's load average (a shared machine makes wall times move; compare
// the two thread counts from one invocation).
//  - BM_AlibabaStudy: the shipped Alibaba study (scenarios/plan/alibaba-capacity: 3 candidate
//    shapes, 3 seeds, today's load and three growth levels). Target: 3 s on 2 threads.
//  - BM_GangStudy5000: the 64-GPU training study (scenarios/plan/nvl72-vs-8gpu-racks: gangs of 16
//    in one topology block, DGX H100 blocks against GB200 NVL72 racks) on 5,000 nodes: 4,928
//    owned (512 DGX H100 racks, 160 NVL72 racks) under 64 times the study's arrivals, and the
//    study's racks bought on top. Target: 60 s on 2 threads. It runs only when asked for
//    (--benchmark_filter=Gang): each of its simulations schedules about 70,000 pods on 5,000 nodes.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/planner/planner.h"

namespace {

using namespace drasim;

const std::string kStudy = std::string(DRASIM_SOURCE_DIR) + "/scenarios/plan/alibaba-capacity/study.yaml";
const std::string kGangStudy
    = std::string(DRASIM_SOURCE_DIR) + "/scenarios/plan/nvl72-vs-8gpu-racks/study.yaml";

double loadAverage()
{
    std::ifstream in("/proc/loadavg");
    double one = 0;
    in >> one;
    return one;
}

/// The gang study at 5,000 nodes: the shipped study with owned racks and its arrivals scaled.
std::optional<planner::Plan> gangPlan5000(Diagnostics& diags)
{
    auto study = planner::loadStudy(kGangStudy, diags);
    if (!study)
        return std::nullopt;
    const std::map<std::string, int> owned { { "h100", 2048 }, { "gb200", 2880 } };
    for (auto& c : study->candidates) {
        study->owned.push_back(planner::OwnedNodes { c.name, owned.at(c.name), {} });
        c.maxNodes += owned.at(c.name);
    }
    auto plan = planner::preparePlan(*study, diags);
    if (plan)
        for (auto& w : plan->scenario.workloads)
            if (w.arrival)
                w.arrival->ratePerSecond *= 64;
    return plan;
}

void runStudy(benchmark::State& state, const std::optional<planner::Plan>& plan, Diagnostics& diags)
{
    if (!plan) {
        state.SkipWithError(diags.formatAll().c_str());
        return;
    }
    planner::PlanOptions options;
    options.threads = unsigned(state.range(0));
    planner::PlanStats stats;
    int64_t simulations = 0;
    const double loadBefore = loadAverage();
    for (auto _ : state) {
        auto result = planner::runPlan(*plan, options, diags, &stats);
        if (!result) {
            state.SkipWithError(diags.formatAll().c_str());
            return;
        }
        simulations += stats.simulationsRun;
        benchmark::DoNotOptimize(result);
    }
    state.counters["simulations"] = double(stats.simulationsRun);
    state.counters["stopped_early"] = double(stats.stoppedEarly);
    state.counters["sec_per_sim"]
        = benchmark::Counter(double(simulations), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["loadavg"] = (loadBefore + loadAverage()) / 2;
}

void BM_AlibabaStudy(benchmark::State& state)
{
    Diagnostics diags;
    auto study = planner::loadStudy(kStudy, diags);
    runStudy(state, study ? planner::preparePlan(*study, diags) : std::nullopt, diags);
}

void BM_GangStudy5000(benchmark::State& state)
{
    Diagnostics diags;
    runStudy(state, gangPlan5000(diags), diags);
}

} // namespace

BENCHMARK(BM_AlibabaStudy)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_GangStudy5000)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

// Without a --benchmark_filter, the Alibaba study only: the 5,000-node study is asked for by name.
int main(int argc, char** argv)
{
    std::vector<char*> args(argv, argv + argc);
    std::string alibabaOnly = "--benchmark_filter=BM_AlibabaStudy";
    const bool filtered = std::any_of(args.begin(), args.end(),
        [](const char* a) { return std::string(a).rfind("--benchmark_filter", 0) == 0; });
    if (!filtered)
        args.push_back(alibabaOnly.data());
    int count = int(args.size());
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data()))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
