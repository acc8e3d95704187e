// SPDX-License-Identifier: Apache-2.0
// CEL selector throughput: each expression is compiled once, then evaluated against a device.
// Target (issue 3): >= 5 million evaluations/s on one core for BM_CelTypicalSelector.
#include <map>
#include <string>

#include <benchmark/benchmark.h>

#include "core/api/resource_v1.h"
#include "core/cel/cel.h"

namespace {

using namespace drasim;

struct Device
{
    std::string driver = "gpu.nvidia.com";
    std::map<std::string, api::DeviceAttribute> attributes;
    std::map<std::string, api::DeviceCapacity> capacity;
    cel::DeviceView view() const { return { driver, &attributes, &capacity, false }; }
};

Device h100()
{
    Device d;
    auto str = [](const char* s) {
        api::DeviceAttribute a;
        a.type = api::DeviceAttribute::Type::String;
        a.stringValue = s;
        return a;
    };
    auto num = [](int64_t v) {
        api::DeviceAttribute a;
        a.type = api::DeviceAttribute::Type::Int;
        a.intValue = v;
        return a;
    };
    // Shaped like the NVIDIA DRA driver's GPU devices.
    d.attributes["architecture"] = str("Hopper");
    d.attributes["brand"] = str("Nvidia");
    d.attributes["cudaComputeCapability"] = str("9.0");
    d.attributes["index"] = num(0);
    d.attributes["minor"] = num(0);
    d.attributes["productName"] = str("NVIDIA H100 80GB HBM3");
    d.attributes["type"] = str("gpu");
    d.attributes["uuid"] = str("GPU-4cf8db2d-06c0-7d70-1a51-e59b25b2c16c");
    d.attributes["resource.kubernetes.io/pcieRoot"] = str("pci0000:00");
    api::DeviceCapacity mem;
    mem.value = *Quantity::parse("81559Mi");
    d.capacity["memory"] = mem;
    return d;
}

void runSelector(benchmark::State& state, const char* expression)
{
    cel::CompileError error;
    auto selector = cel::Selector::compile(expression, &error);
    if (!selector) {
        state.SkipWithError(error.message.c_str());
        return;
    }
    Device d = h100();
    cel::DeviceView view = d.view();
    for (auto _ : state) {
        cel::EvalResult r = selector->evaluate(view);
        benchmark::DoNotOptimize(r.outcome);
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_CelTypicalSelector(benchmark::State& state)
{
    runSelector(state,
        "device.driver == \"gpu.nvidia.com\" && "
        "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\" && "
        "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0");
}
BENCHMARK(BM_CelTypicalSelector);

void BM_CelDriverOnly(benchmark::State& state)
{
    runSelector(state, "device.driver == \"gpu.nvidia.com\"");
}
BENCHMARK(BM_CelDriverOnly);

void BM_CelAttributeInList(benchmark::State& state)
{
    runSelector(state,
        "device.attributes[\"gpu.nvidia.com\"].architecture in [\"Ampere\", \"Hopper\", \"Blackwell\"]");
}
BENCHMARK(BM_CelAttributeInList);

void BM_CelRegex(benchmark::State& state)
{
    runSelector(state, "device.attributes[\"gpu.nvidia.com\"].productName.matches(\"^NVIDIA H1[0-9]0\")");
}
BENCHMARK(BM_CelRegex);

void BM_CelComprehensionOverDomains(benchmark::State& state)
{
    // Materialises the lazy domain maps: allocates, but must stay reasonable.
    runSelector(state, "device.attributes.exists(d, d == \"resource.kubernetes.io\")");
}
BENCHMARK(BM_CelComprehensionOverDomains);

void BM_CelCompile(benchmark::State& state)
{
    for (auto _ : state) {
        cel::CompileError error;
        auto s = cel::Selector::compile(
            "device.driver == \"gpu.nvidia.com\" && "
            "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
            &error);
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CelCompile);

} // namespace

BENCHMARK_MAIN();
