// SPDX-License-Identifier: Apache-2.0
// drasim scenarios variant: a scenario derived from a saved one by overrides, saved as such.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace drasim::cli {

struct VariantArgs
{
    std::string name, base;
    int64_t revision = 0;
    std::vector<std::string> addPools, removePools, poolCounts, poolShapes, scaleArrival, scaleDuration,
        failures;
    std::string scoring;
};

/// Declares `variant` under `scenarios`, bound to `args` and the store option `db`.
CLI::App* addVariantCommand(CLI::App& scenarios, VariantArgs& args, std::string& db);
int runVariant(const VariantArgs& args, const std::string& db);

} // namespace drasim::cli
