// SPDX-License-Identifier: Apache-2.0
// Preparing the 5,000-node scenario (scenarios/sim/large-5000): what opening it in the desktop
// application waits for (its target: the dashboard painted within 2 s). Most of it is building
// the nodes and slices of the catalog pools and copying them into the cluster at time 0; the
// argument is the thread count for that (1: serial, as before; 0: every core).
//
//   build-<you>/tests/bench/bench_prepare
//
// Wall time is what counts (the work is spread over threads); freeing the result is left out.
#include <memory>

#include <benchmark/benchmark.h>

#include "core/scenario/prepare.h"

namespace {

using namespace drasim;

void BM_PrepareLarge5000(benchmark::State& state)
{
    Diagnostics loadDiags;
    const auto sc = scenario::loadScenario(
        std::string(DRASIM_SOURCE_DIR) + "/scenarios/sim/large-5000/scenario.yaml", loadDiags);
    if (!sc) {
        state.SkipWithError(loadDiags.formatAll().substr(0, 300).c_str());
        return;
    }
    scenario::PrepareOptions options;
    options.threads = unsigned(state.range(0));
    size_t nodes = 0;
    for (auto _ : state) {
        Diagnostics diags;
        auto prepared = std::make_unique<std::optional<sim::PreparedScenario>>(
            scenario::prepareScenario(*sc, options, diags));
        if (!*prepared) {
            state.SkipWithError(diags.formatAll().substr(0, 300).c_str());
            return;
        }
        nodes = (*prepared)->objects->nodes.size();
        state.PauseTiming();
        prepared.reset();
        state.ResumeTiming();
    }
    state.counters["nodes"] = double(nodes);
}
BENCHMARK(BM_PrepareLarge5000)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

} // namespace

BENCHMARK_MAIN();
