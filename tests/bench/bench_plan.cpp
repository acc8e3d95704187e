// SPDX-License-Identifier: Apache-2.0
// The capacity planner on the shipped Alibaba study (scenarios/plan/alibaba-capacity: 3 candidate
// shapes, 3 seeds, today's load and three growth levels), on 1 and 2 threads. Reports the
// simulations run, wall time per simulation and the machine's load average (a shared machine
// makes wall times move; compare the two thread counts from one invocation).
#include <cstdio>
#include <fstream>
#include <string>

#include <benchmark/benchmark.h>

#include "core/planner/planner.h"

namespace {

using namespace drasim;

const std::string kStudy = std::string(DRASIM_SOURCE_DIR) + "/scenarios/plan/alibaba-capacity/study.yaml";

double loadAverage()
{
    std::ifstream in("/proc/loadavg");
    double one = 0;
    in >> one;
    return one;
}

void BM_AlibabaStudy(benchmark::State& state)
{
    Diagnostics diags;
    auto study = planner::loadStudy(kStudy, diags);
    auto plan = study ? planner::preparePlan(*study, diags) : std::nullopt;
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

} // namespace

BENCHMARK(BM_AlibabaStudy)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

BENCHMARK_MAIN();
