// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the manifest loader and the YAML tree: any byte string must produce
// objects or diagnostics, never a crash, a hang or unbounded memory.
//
// Build and run (clang; see tests/fuzz/CMakeLists.txt):
//   CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DDRASIM_FUZZ=ON -DDRASIM_BUILD_GUI=OFF
//   cmake --build build-fuzz --target fuzz_loader
//   mkdir -p /tmp/fuzz-corpus && cp tests/data/invalid/*.yaml scenarios/basic/*.yaml /tmp/fuzz-corpus/
//   build-fuzz/tests/fuzz/fuzz_loader /tmp/fuzz-corpus -max_len=65536 -rss_limit_mb=2048 -timeout=10
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"
#include "core/yamlio/yaml_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    drasim::yamlio::LoadOptions options;
    options.yaml.maxAliasExpansion = 100'000; // keeps each run fast; the logic is the same
    auto result = drasim::yamlio::loadText(text, "fuzz.yaml", options);
    // Whatever loaded must also write and load again without errors.
    if (!result.diagnostics.hasErrors() && result.objects.size() > 0) {
        const std::string yaml = drasim::yamlio::toYamlList(result.objects);
        auto again = drasim::yamlio::loadText(yaml, "again.yaml", options);
        if (again.diagnostics.hasErrors())
            __builtin_trap(); // the writer produced something the loader rejects
    }
    drasim::Diagnostics diags;
    auto docs = drasim::yamlio::parseYamlDocuments(text, "fuzz.yaml", diags, options.yaml);
    (void)docs;
    return 0;
}
