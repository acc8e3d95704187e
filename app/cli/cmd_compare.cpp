// SPDX-License-Identifier: Apache-2.0
// drasim compare: stored runs side by side, KPIs with their differences from the first run.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_support.h"
#include "app/cli/command_registry.h"
#include "app/cli/common_options.h"
#include "app/cli/store_option.h"
#include "core/common/atomic_file.h"
#include "core/compare/compare_format.h"
#include "core/compare/comparison.h"
#include "core/storage/database.h"

namespace {
namespace cmd_compare {

struct Args
{
    std::vector<int64_t> runs;
    std::string db;
    std::string output = "text";
    std::string seriesPath;
};

int run(const Args& args)
{
    using namespace drasim;
    auto store = cli::openStore(args.db, true);
    if (!store)
        return 1;
    compare::Comparison comparison;
    try {
        comparison = compare::compareRuns(compare::loadRuns(*store, args.runs));
    } catch (const compare::CompareError& e) {
        cli::printError(e.what());
        return 1;
    } catch (const storage::StorageError& e) {
        cli::printError(e.what());
        return 1;
    }
    if (!args.seriesPath.empty()) {
        std::string error;
        if (!writeFileAtomically(args.seriesPath, compare::seriesCsv(comparison), &error)) {
            cli::printError("cannot write " + args.seriesPath + ": " + error);
            return 1;
        }
    }
    if (args.output == "json")
        cli::printStdout(toJson(compare::toData(comparison)));
    else if (args.output == "csv")
        cli::printStdout(compare::kpiCsv(comparison));
    else
        cli::printStdout(compare::formatText(comparison));
    return 0;
}

drasim::cli::Runner define(CLI::App& app)
{
    using namespace drasim::cli;
    auto args = std::make_shared<Args>();
    app.description(
        R"(Puts stored runs side by side: pods (created, never scheduled, peak pending), p50/p95/p99 wait
overall and per workload, utilization by device model, cost, stranded free devices
(fragmentation) and the topology placement of multi-device claims, with each run's difference
from the first. Runs are numbers from `drasim runs list`; `drasim simulate --db` records them.
-o json adds every time series on one time axis; --series writes them as CSV.)");
    app.footer(R"(Exit status: 0 on success, 1 when a run is not in the store or has no summary, or the store
cannot be read, 2 on bad usage.)");
    app.add_option("RUN", args->runs, "run numbers; the first is the baseline")
        ->required()
        ->transform(wholeNumber(1));
    addStoreOption(app, args->db);
    addOutputOption(app, args->output, { "text", "json", "csv" },
        "text (default), json (with the aligned series) or csv (the KPI table)");
    app.add_option("--series", args->seriesPath,
           "write the series on one time axis as CSV (metric,time_s,run_<id>...) to FILE")
        ->option_text("FILE");
    return [args] { return run(*args); };
}

const bool registered = drasim::cli::registerCommand(
    { "compare", "stored runs side by side: KPIs, differences, series on one time axis", define });

} // namespace cmd_compare
} // namespace
